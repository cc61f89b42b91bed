import TallyApp
import TallyDomain

/// `tally export [--since SEQ] [--output FILE]`
enum ExportCommand: CommandHandler {
    static let path = ["export"]
    static let spec = CommandSpec(
        name: "export",
        abstract: "Write the event log as JSON Lines: one event object per line, in log order.",
        discussion: "Each line is {\"seq\",\"id\",\"stream\",\"version\",\"type\",\"schema\",\"recordedAt\",\"actor\",\"command\",\"data\",\"hash\"}. 'tally import' reads it back.",
        options: [
            OptionSpec(name: "since", valueName: "SEQ", help: "Only events after this log position."),
            OptionSpec(name: "output", valueName: "FILE", help: "Write to FILE instead of standard output."),
        ],
        examples: [
            CommandExample(command: "tally export --output backup.jsonl", explanation: "Back up the whole history."),
            CommandExample(command: "tally export --since 1200 >> backup.jsonl", explanation: "Append what happened after position 1200."),
        ]
    )

    static func run(_ command: ParsedCommand, _ context: CLIContext) throws {
        var since: Int64 = 0
        if let raw = command.value("since") {
            guard let value = Int64(raw), value >= 0 else {
                throw CLIError.invalidOptionValue(option: "--since", value: raw, expected: context.catalog.text(.auditExpectedPosition))
            }
            since = value
        }
        let log = try context.readLog()
        guard let path = command.value("output") else {
            try log.scan(after: since, through: nil) { context.console.line(EventLines.encode($0)) }
            return
        }
        let file = try FileOutput(path: path)
        var count = 0
        try log.scan(after: since, through: nil) { event in
            try file.append(EventLines.encode(event) + "\n")
            count += 1
        }
        try file.finish()
        if context.json {
            context.printJSON(.object(["events": .int(Int64(count)), "path": .string(path)]))
        } else {
            context.console.line(context.catalog.plural(.auditExported, count: count, ["path": path]))
        }
    }
}

/// `tally import FILE|-`
enum ImportCommand: CommandHandler {
    static let path = ["import"]
    static let spec = CommandSpec(
        name: "import",
        abstract: "Append the events of a JSON Lines export, all or nothing.",
        discussion: """
            Events are appended in file order in one transaction; their seq and hash are recomputed (both may be absent). \
            An event already in the log with identical content is skipped, so importing a file twice changes nothing. \
            A malformed line exits 65 naming the line; an event that clashes with the log exits 1. Either way nothing is appended.
            """,
        arguments: [ArgumentSpec(name: "FILE", help: "A file written by 'tally export', or - for standard input.")],
        examples: [
            CommandExample(command: "tally --db new.db import backup.jsonl", explanation: "Restore a backup into a new database."),
            CommandExample(command: "tally export | tally --db copy.db import -", explanation: "Copy the history into another database."),
        ]
    )

    /// Lines between progress updates on a terminal.
    static let progressInterval = 50_000

    static func run(_ command: ParsedCommand, _ context: CLIContext) throws {
        let reader = try LineReader(path: command.arguments[0])
        let log = try context.dispatcher().log
        let console = context.console
        let showProgress = console.stderrIsTerminal && !context.json
        var shown = false
        let summary = try Importer.run(into: log) { add in
            try reader.forEachLine { bytes, number in
                try add(bytes, number)
                if showProgress, number % progressInterval == 0 {
                    console.errorRaw("\r" + context.catalog.text(.auditImportProgress, ["count": String(number)]))
                    shown = true
                }
            }
        }
        if shown { console.errorRaw("\r\u{1B}[K") }
        if context.json {
            context.printJSON(.object([
                "read": .int(Int64(summary.read)), "appended": .int(Int64(summary.appended)), "skipped": .int(Int64(summary.skipped)),
            ]))
        } else {
            context.console.line(context.catalog.text(.auditImported, [
                "read": String(summary.read), "appended": String(summary.appended), "skipped": String(summary.skipped),
            ]))
        }
    }
}
