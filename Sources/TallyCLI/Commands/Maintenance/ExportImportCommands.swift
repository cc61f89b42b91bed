import TallyEngine
import TallyDomain
import TallyEssentials
import TallyArguments

/// `tally export [--since SEQ] [--output FILE]`
enum ExportCommand: CommandHandler {
    static let spec = CommandSpec(
        name: "export",
        abstract: "Write the event log as JSON Lines: one event object per line, in log order.",
        discussion: "With a filter expression, only the events of the todos it matches now (and of their series) are written, in log order. Each line is {\"seq\",\"id\",\"stream\",\"version\",\"type\",\"schema\",\"recordedAt\",\"actor\",\"command\",\"data\",\"hash\"}. The original file of an imported activity goes just before its record's first event, as {\"blob\",\"encoding\",\"data\"} with the bytes in base64. 'tally import' reads it back.",
        arguments: [TodoOptions.filterArgument],
        options: [
            OptionSpec(name: "since", valueName: "SEQ", help: "Only events after this log position."),
            OptionSpec(name: "output", valueName: "FILE", help: "Write to FILE instead of standard output."),
            OptionSpec(name: "ical", help: "Write the todos with due dates as an iCalendar (RFC 5545) file of VTODOs instead."),
        ],
        examples: [
            CommandExample(command: "tally export --output backup.jsonl", explanation: "Back up the whole history."),
            CommandExample(command: "tally export --since 1200 >> backup.jsonl", explanation: "Append what happened after position 1200."),
            CommandExample(command: "tally export project:work --output work.jsonl", explanation: "The history of the work todos only, to import elsewhere."),
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
        let streams = try selectedStreams(command, context, log: log)
        guard let path = command.value("output") else {
            try log.scan(after: since, through: nil) { event in
                if let streams, !streams.contains(event.stream) { return }
                if try blobs.write(before: event, context.console.out) { context.console.line() }
                context.console.line(EventLines.encode(event))
            }
            return
        }
        let file = try FileOutput(path: path)
        var count = 0
        try log.scan(after: since, through: nil) { event in
            if let streams, !streams.contains(event.stream) { return }
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

    /// With a filter expression: the streams of the todos it matches now, deleted ones only when it
    /// names them, and of their series. nil without one (everything is written).
    static func selectedStreams(_ command: ParsedCommand, _ context: CLIContext, log: any EventStore) throws -> Set<String>? {
        guard let expression = try FilterExpressionText.parse(command.arguments, context) else { return nil }
        var query = TodoQuery()
        query.expression = expression
        query.waiting = .include
        let state = try context.readState(log)
        let view = try TodoProjection.run(query, on: state, now: context.now, zone: context.zone)
        var streams = Set(view.todos.map { $0.id })
        for todo in view.todos { if let series = todo.series { streams.insert(series) } }
        return streams
    }
}

