import TallyApp
import TallyDomain

/// `tally verify`
enum VerifyCommand: CommandHandler {
    static let path = ["verify"]
    static let spec = CommandSpec(
        name: "verify",
        abstract: "Check the hash chain, the sequence, stream versions, that every event can be read, and every snapshot.",
        discussion: "Recomputes every link of the hash chain and names the first event that does not match, then checks that every stored snapshot plus the events after it equals a full replay, and that every stored original file of an imported activity still has the content its name promises. Exits 1 with a report when anything is wrong.",
        examples: [
            CommandExample(command: "tally verify", explanation: "Prints 'OK: N events, chain intact', or what is wrong and where."),
            CommandExample(command: "tally --json verify", explanation: "The result as {ok, events, problems} for scripts; exits 1 when anything is wrong."),
        ]
    )

    /// Checks beyond the chain, run after it: every stored snapshot plus its tail must equal the full replay.
    static func checks(_ catalog: Catalog) -> [VerificationCheck] {
        [
            { log, _ in
                guard let store = log as? SnapshotStore else { return [] }
                do {
                    return try SnapshotCheck.run(log: log, snapshots: store).map { problem in
                        LogProblem(seq: problem.seq, kind: .failedCheck(name: "snapshot", detail: SnapshotMessages.reason(problem.kind, catalog: catalog)))
                    }
                } catch is ReplayError {
                    // An event that cannot be folded is already reported by the chain check; there is no replay to compare with.
                    return []
                }
            },
            { log, _ in try BlobCheck.run(log, catalog) },
        ]
    }

    static func run(_ command: ParsedCommand, _ context: CLIContext) throws {
        let report = try Verifier.run(try context.readLog(), checks: checks(context.catalog))
        let catalog = context.catalog
        if context.json {
            context.printJSON(.object([
                "ok": .bool(report.isIntact),
                "events": .int(Int64(report.events)),
                "problems": .array(report.problems.map { problem in
                    .object(["seq": .int(problem.seq), "kind": .string(problem.code), "message": .string(message(problem, catalog))])
                }),
            ]))
        } else if report.isIntact {
            context.console.line(catalog.plural(.auditVerifyOK, count: report.events))
        } else {
            for problem in report.problems {
                context.console.line(catalog.text(.auditVerifyProblem, ["seq": String(problem.seq), "message": message(problem, catalog)]))
            }
        }
        if let first = report.problems.first {
            throw VerificationFailed(problems: report.problems.count, firstSeq: first.seq)
        }
    }

    /// The problem in words, without its position.
    static func message(_ problem: LogProblem, _ catalog: Catalog) -> String {
        switch problem.kind {
        case .sequenceGap(let expected):
            catalog.text(.auditProblemSequence, ["expected": String(expected), "found": String(problem.seq)])
        case .hashMismatch(let expected, let stored):
            catalog.text(.auditProblemHash, ["expected": String(expected.prefix(16)), "stored": String(stored.prefix(16))])
        case .versionGap(let stream, let expected, let found):
            catalog.text(.auditProblemVersion, ["stream": stream, "expected": String(expected), "found": String(found)])
        case .undecodable(let type, let reason):
            catalog.text(.auditProblemDecode, ["type": type, "reason": reason])
        case .failedCheck(let name, let detail):
            catalog.text(.auditProblemCheck, ["name": name, "detail": detail])
        }
    }
}
