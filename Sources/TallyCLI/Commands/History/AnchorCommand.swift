import TallyEngine
import TallyDomain
import TallyEssentials
import TallyArguments

/// `tally anchor [--full]`: the head as `SEQ:HASH`, to keep outside the log.
enum AnchorCommand: CommandHandler {
    static let spec = CommandSpec(
        name: "anchor",
        abstract: "Print the head of the log as SEQ:HASH, to keep somewhere else.",
        discussion: "The last event's position and the first 32 hex digits of its chain hash (128 bits). The hash stands for the whole history up to that event, so 'tally verify --anchor SEQ:HASH' later proves the log still holds it, and says whether the log was truncated below it or rewritten. Keep it where whoever can write the database cannot: a password manager, a commit message, a mail.",
        options: [OptionSpec(name: "full", help: "All 64 hex digits of the hash.")],
        examples: [
            CommandExample(command: "tally anchor", explanation: "Prints something like 1204:9d1c7e2b45a0f3183be0a1f6c2d94e70."),
            CommandExample(command: "tally --json anchor", explanation: "{anchor, seq, hash} with the full hash."),
        ]
    )

    static func run(_ command: ParsedCommand, _ context: CLIContext) throws {
        let log = try context.readLog()
        let head = try log.head()
        guard head.seq > 0 else { throw AnchorFailure.empty }
        let anchor = Anchor(head: head, digits: command.has("full") ? Anchor.fullDigits : Anchor.defaultDigits)
        if context.json {
            context.printJSON(.object(["anchor": .string(anchor.text), "seq": .int(head.seq), "hash": .string(head.hash)]))
        } else {
            context.console.line(anchor.text)
        }
        // On a replica, events not pushed yet are rebased by the next sync: say so, once, on stderr.
        if !context.settings.storeLocation.isShared, let replica = log.replica {
            let state = try replica.replicaState()
            if state.remote != nil, head.seq > state.synced.seq {
                context.warn(code: "anchor_unpushed", context.catalog.plural(
                    .anchorUnpushed, count: Int(head.seq - state.synced.seq), ["synced": String(state.synced.seq)]
                ))
            }
        }
    }

    /// Reads `--anchor`'s value; a malformed one is invalid data (exit 65), never half read.
    static func parse(_ raw: String, _ context: CLIContext) throws -> Anchor {
        do {
            return try Anchor.parse(raw)
        } catch {
            let shown = raw.utf8.count > Anchor.maxLength ? String(decoding: raw.utf8.prefix(Anchor.maxLength), as: UTF8.self) + "…" : raw
            throw CLIError.invalidOptionValue(option: "--anchor", value: shown, expected: context.catalog.text(.anchorInvalidExpected))
        }
    }

    /// Judges `anchor` against the log `verify` just read: the line to print, and the failure to throw when it does not hold.
    static func check(_ anchor: Anchor, log: EventLog, report: VerificationReport, _ context: CLIContext) throws -> (line: String, finding: Anchor.Finding) {
        var stored: String?
        if anchor.seq <= report.head.seq {
            try log.scan(after: anchor.seq - 1, through: anchor.seq) { event in
                if event.seq == anchor.seq { stored = event.hash }
            }
        }
        let finding = anchor.judge(head: report.head, storedHash: stored, problems: report.problems)
        let catalog = context.catalog
        let line = switch finding {
        case .holds:
            catalog.text(.anchorHolds, ["seq": String(anchor.seq), "anchor": anchor.text])
        case .truncated(let head):
            catalog.text(.anchorTruncated, ["anchor": anchor.text, "head": String(head)])
        case .rewritten(let stored?, let at):
            catalog.text(.anchorRewritten, ["anchor": anchor.text, "seq": String(at), "stored": String(stored.prefix(anchor.hash.utf8.count))])
        case .rewritten(nil, let at):
            catalog.text(.anchorBroken, ["anchor": anchor.text, "at": String(at)])
        }
        return (line, finding)
    }

    /// `--json`'s `anchor` object.
    static func json(_ anchor: Anchor, _ finding: Anchor.Finding, head: LogHead) -> JSON {
        var object: JSONObject = ["anchor": .string(anchor.text), "seq": .int(anchor.seq), "head": .int(head.seq)]
        switch finding {
        case .holds:
            object["status"] = .string("holds")
        case .truncated:
            object["status"] = .string("truncated")
        case .rewritten(let stored, let at):
            object["status"] = .string("rewritten")
            object["at"] = .int(at)
            if let stored { object["stored"] = .string(stored) }
        }
        return .object(object)
    }
}

/// Why `anchor` or `verify --anchor` failed.
enum AnchorFailure: AuditFailure {
    case empty
    case truncated(seq: Int64, head: Int64)
    case rewritten(seq: Int64)

    func failure(catalog: Catalog) -> Failure {
        switch self {
        case .empty:
            Failure(exit: .failure, code: "empty_log", message: catalog.text(.anchorEmpty))
        case .truncated(let seq, let head):
            Failure(exit: .anchorTruncated, code: "anchor_truncated", message: catalog.text(.errorAnchorTruncated, ["seq": String(seq), "head": String(head)]))
        case .rewritten(let seq):
            Failure(exit: .anchorRewritten, code: "anchor_rewritten", message: catalog.text(.errorAnchorRewritten, ["seq": String(seq)]))
        }
    }
}
