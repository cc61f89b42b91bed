#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import TallyEngine
import TallyDomain
import TallyEssentials
import TallyArguments

/// `tally record export [--format csv|json] [--output FILE] [view options]`
enum RecordExportCommand: CommandHandler {
    static let spec = CommandSpec(
        name: "export",
        abstract: "Write the records view as CSV (for spreadsheets) or JSON.",
        discussion: "CSV follows RFC 4180: a header row, CRLF line ends, fields quoted when they hold a comma, quote or line break. Without view options or a filter expression the saved view is exported.",
        arguments: [RecordOptions.filterArgument],
        options: [
            OptionSpec(name: "format", valueName: "FORMAT", help: "Output format.", defaultValue: "csv", allowedValues: ["csv", "json"]),
            OptionSpec(name: "output", valueName: "FILE", help: "Write to FILE instead of standard output."),
        ] + RecordOptions.view,
        examples: [
            CommandExample(command: "tally record export --output runs.csv --category running", explanation: "All runs, for a spreadsheet."),
            CommandExample(command: "tally record export --format json --since 2026-01-01", explanation: "This year's records as JSON."),
            CommandExample(command: "tally record export 'category:running date.after:2026-10-31'", explanation: "Runs since November, chosen by a filter expression."),
        ]
    )

    /// The CSV columns, named as the JSON keys.
    static let columns = ["id", "number", "date", "name", "category", "durationSeconds", "distanceMeters", "paceSecondsPerKm", "place", "note", "source", "createdAt", "updatedAt"]

    static func run(_ command: ParsedCommand, _ context: CLIContext) throws {
        let state = try context.readState(try context.readLog())
        let query = try RecordOptions.effectiveQuery(command, context, state: state)
        let view = try RecordProjection.run(query, on: state, now: context.now, zone: context.zone)
        let text = command.value("format") == "json" ? json(view.records) : csv(view.records)
        guard let output = command.value("output") else {
            context.console.out(text)
            return
        }
        do {
            try Data(text.utf8).write(to: URL(fileURLWithPath: output), options: .atomic)
        } catch {
            throw CLIError.cannotWriteOutput(path: output, reason: CFormat.reason(error))
        }
        if context.json {
            context.printJSON(.object(["path": .string(output), "count": .int(Int64(view.records.count))]))
        } else {
            context.console.line(context.catalog.plural(.exportWritten, count: view.records.count, ["path": output]))
        }
    }

    static func csv(_ records: [Record]) -> String {
        var text = CSV.row(columns)
        for record in records {
            guard case .object(let object) = JSONShapes.record(record) else { continue }
            text += CSV.row(columns.map { key in
                switch object[key] {
                case .string(let value)?: value
                case .int(let value)?: String(value)
                case .double(let value)?: JSON.double(value).serialized(.compact)
                case .bool(let value)?: String(value)
                default: ""
                }
            })
        }
        return text
    }

    static func json(_ records: [Record]) -> String {
        JSON.array(records.map(JSONShapes.record)).serialized(.pretty) + "\n"
    }
}
