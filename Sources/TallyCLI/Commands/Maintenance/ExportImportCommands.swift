import TallyEngine
import TallyDomain
import TallyEssentials
import TallyArguments

/// `tally export [--since SEQ] [--output FILE]`
enum ExportCommand: CommandHandler {
    static let spec = CommandSpec(
        name: "export",
        abstract: "Write the event log as JSON Lines: one event object per line, in log order.",
        discussion: "Each line is {\"seq\",\"id\",\"stream\",\"version\",\"type\",\"schema\",\"recordedAt\",\"actor\",\"command\",\"data\",\"hash\"}. The original file of an imported activity goes just before its record's first event, as {\"blob\",\"encoding\",\"data\"} with the bytes in base64. 'tally import' reads it back.",
        options: [
            OptionSpec(name: "since", valueName: "SEQ", help: "Only events after this log position."),
            OptionSpec(name: "output", valueName: "FILE", help: "Write to FILE instead of standard output."),
            OptionSpec(name: "ical", help: "Write the todos with due dates as an iCalendar (RFC 5545) file of VTODOs instead."),
        ],
        examples: [
            CommandExample(command: "tally export --output backup.jsonl", explanation: "Back up the whole history."),
            CommandExample(command: "tally export --since 1200 >> backup.jsonl", explanation: "Append what happened after position 1200."),
            CommandExample(command: "tally export --ical --output todos.ics", explanation: "Todos with due dates for a calendar program."),
        ]
    )

    static func run(_ command: ParsedCommand, _ context: CLIContext) throws {
        if command.has("ical") { return try ICalendarOutput.run(command, context) }
        var since: Int64 = 0
        if let raw = command.value("since") {
            guard let value = Int64(raw), value >= 0 else {
                throw CLIError.invalidOptionValue(option: "--since", value: raw, expected: context.catalog.text(.auditExpectedPosition))
            }
            since = value
        }
        let log = try context.readLog()
        let blobs = BlobExport(store: log)
        guard let path = command.value("output") else {
            try log.scan(after: since, through: nil) { event in
                if try blobs.write(before: event, context.console.out) { context.console.line() }
                context.console.line(EventLines.encode(event))
            }
            return
        }
        let file = try FileOutput(path: path)
        var count = 0
        try log.scan(after: since, through: nil) { event in
            if try blobs.write(before: event, file.append) { try file.append("\n") }
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

