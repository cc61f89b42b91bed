import TallyEngine
import TallyDomain
import TallyEssentials
import TallyArguments

/// `tally verify`
enum VerifyCommand: CommandHandler {
    static let spec = CommandSpec(
        name: "verify",
        abstract: "Check the hash chain, the sequence, stream versions, that every event can be read, and every snapshot.",
        discussion: "Recomputes every link of the hash chain and names the first event that does not match, then checks that every stored snapshot plus the events after it equals a full replay, and that every stored original file of an imported activity still has the content its name promises. With --remote, also compares every event this database has synced with the shared log's copy and recomputes every link of the shared log. Exits 1 with a report when anything is wrong.",
        arguments: [ArgumentSpec(name: "URL", help: "With --remote: the shared log to compare with.", optional: true)],
        options: [
            OptionSpec(name: "remote", help: "Also compare the synced events with the shared log (the remote set with 'tally remote set', or URL); nothing is written on either side."),
            OptionSpec(name: "anchor", valueName: "SEQ:HASH", help: "Also prove the log still holds the history 'tally anchor' printed; exits 3 when the log was truncated below it, 4 when it was rewritten."),
        ],
        examples: [
            CommandExample(command: "tally verify", explanation: "Prints 'OK: N events, chain intact', or what is wrong and where."),
            CommandExample(command: "tally --json verify", explanation: "The result as {ok, events, problems} for scripts; exits 1 when anything is wrong."),
            CommandExample(command: "tally verify --remote", explanation: "Also check that the shared log still holds every synced event unchanged."),
            CommandExample(command: "tally verify --anchor 1204:9d1c7e2b45a0f3183be0a1f6c2d94e70", explanation: "Also check that the log still holds the history up to that anchor."),
        ]
    )

    /// Checks beyond the chain, run after it: every stored snapshot plus its tail must equal the full replay.
    static func checks(_ catalog: Catalog) -> [VerificationCheck] {
        [
            { log, _ in
                do {
                    return try SnapshotCheck.run(log: log, snapshots: log).map { problem in
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
        if !command.arguments.isEmpty, !command.has("remote") {
            throw UsageError(kind: .unexpectedArgument(command.arguments[0]), commandPath: command.path)
        }
        let anchor = try command.value("anchor").map { try AnchorCommand.parse($0, context) }
        let remote = command.has("remote") ? try RemoteCheck.prepare(command.arguments.first, context) : nil
        let log = try context.readLog()
        var report = try Verifier.run(log, checks: checks(context.catalog))
        let catalog = context.catalog
        let compared = try remote?.run(context)
        if let problem = compared?.problem { report.problems.append(problem) }
        let anchored = try anchor.map { try AnchorCommand.check($0, log: log, report: report, context) }
        if context.json {
            var object: JSONObject = [
                "ok": .bool(report.isIntact),
                "events": .int(Int64(report.events)),
                "problems": .array(report.problems.map { problem in
                    .object(["seq": .int(problem.seq), "kind": .string(problem.code), "message": .string(message(problem, catalog))])
                }),
            ]
            if report.redactedValues > 0 { object["redacted"] = .int(Int64(report.redactedValues)) }
            if !report.notes.isEmpty {
                object["notes"] = .array(report.notes.map { note in
                    .object(["seq": .int(note.seq), "kind": .string(note.code), "message": .string(message(note, catalog))])
                })
            }
            if let remote, let compared {
                object["remote"] = .object([
                    "url": .string(remote.shown), "synced": .int(remote.synced.seq), "events": .int(compared.events),
                    "ok": .bool(compared.problem == nil),
                ])
            }
            if let anchor, let anchored {
                object["anchor"] = AnchorCommand.json(anchor, anchored.finding, head: report.head)
                if anchored.finding != .holds { object["ok"] = .bool(false) }
            }
            context.printJSON(.object(object))
        } else if report.isIntact {
            let ok = catalog.plural(.auditVerifyOK, count: report.events)
            context.console.line(report.redactedValues == 0 ? ok : "\(ok) (\(catalog.plural(.verifyRedacted, count: report.redactedValues)))")
            if let remote, let compared {
                context.console.line(catalog.text(.auditRemoteOK, ["url": remote.shown, "synced": String(remote.synced.seq), "events": String(compared.events)]))
            }
        } else {
            for problem in report.problems {
                context.console.line(catalog.text(.auditVerifyProblem, ["seq": String(problem.seq), "message": message(problem, catalog)]))
            }
        }
        if !context.json, let note = report.notes.first {
            context.console.line(catalog.plural(.auditVerifyLegacy, count: report.notes.count, ["seq": String(note.seq), "message": message(note, catalog)]))
        }
        if let anchor, let anchored {
            if !context.json { context.console.line(anchored.line) }
            switch anchored.finding {
            case .holds: break
            case .truncated(let head): throw AnchorFailure.truncated(seq: anchor.seq, head: head)
            case .rewritten: throw AnchorFailure.rewritten(seq: anchor.seq)
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
        case .legacyValue(let type, let reason):
            catalog.text(.auditNoteLegacy, ["type": type, "reason": reason])
        }
    }
}

/// `verify --remote`: every synced event compared with the shared log's copy, every shared link recomputed.
struct RemoteCheck {
    let address: String
    let shown: String
    let synced: LogHead
    let local: EventLog

    /// The replica and its shared log's address; refused before any check when either is missing.
    static func prepare(_ given: String?, _ context: CLIContext) throws -> RemoteCheck {
        guard let local = try context.openReplicaForReading() else { throw RemoteError.noRemote }
        let replica = try local.replicaState()
        guard let address = given.map(RemoteAddress.normalized) ?? replica.remote else { throw RemoteError.noRemote }
        return RemoteCheck(address: address, shown: RemoteAddress.masked(address), synced: replica.synced, local: local)
    }

    /// Opens the shared log read-only and compares; the first difference as a problem, if any.
    func run(_ context: CLIContext) throws -> (events: Int64, problem: LogProblem?) {
        let remote = try RemoteAddress.openForReading(address, localPath: context.settings.databasePath, synced: synced, context: context)
        let head = try remote.head()
        guard let mismatch = try PrefixCheck.compareAll(local: local, remote: remote, synced: synced.seq, remoteHead: head.seq) else {
            return (head.seq, nil)
        }
        let what = context.catalog.text(SyncMessages.words(mismatch.kind))
        let detail = context.catalog.text(.auditRemoteDiffers, ["url": shown, "what": what])
        return (head.seq, LogProblem(seq: mismatch.seq, kind: .failedCheck(name: "remote", detail: detail)))
    }
}
