#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import TallyEngine
import TallyDomain
import TallyArguments

/// `tally report --html FILE [--from WHEN] [--to WHEN] [--measure time|distance] [--as-of WHEN|@SEQ]`
enum ReportCommand: CommandHandler {
    static let spec = CommandSpec(
        name: "report",
        abstract: "Write a page of charts: calendar, weekly volume, bests, streaks, routes, todos.",
        discussion: "One self-contained HTML file (inline SVG and CSS, no script, nothing loaded from the network) that opens from disk and prints. The period is the 52 weeks up to today unless --from and --to say otherwise; streaks, bests and the year to date are those of the whole log. The footer names the log position and head hash: the same --as-of writes the same bytes.",
        options: [
            OptionSpec(name: "html", valueName: "FILE", help: "Write the page to FILE (required).", required: true),
            OptionSpec(name: "from", valueName: "WHEN", help: "First day of the period (default: 52 weeks before --to)."),
            OptionSpec(name: "to", valueName: "WHEN", help: "Last day of the period, included (default: today)."),
            OptionSpec(name: "measure", valueName: "MEASURE", help: "What the calendar's shades measure.", defaultValue: "time", allowedValues: ["time", "distance"]),
            TodoOptions.asOf,
        ],
        examples: [
            CommandExample(command: "tally report --html report.html", explanation: "The last 52 weeks."),
            CommandExample(command: "tally report --html 2025.html --from 2025-01-01 --to 2025-12-31", explanation: "One calendar year."),
            CommandExample(command: "tally report --html then.html --as-of @120", explanation: "The report as the log stood at position 120, byte for byte the same every time."),
        ]
    )

    static func run(_ command: ParsedCommand, _ context: CLIContext) throws {
        guard let file = command.value("html") else { throw UsageError(kind: .missingArgument("--html"), commandPath: command.path) }
        let bound = try context.asOfBound(command.value("as-of"))
        let checked = try Decider.validated(RecordQuery(since: command.value("from"), until: command.value("to")), context: context.environment.decisionContext)
        let log = try context.readLog()
        let state = try context.readState(log, bound: bound)
        let anchor = try ReportAnchor.resolve(bound, model: state, log: log, context: context)
        let period = try TrainingReportProjection.period(from: checked.since, to: checked.until, now: anchor.now, zone: context.zone)
        guard period.first <= period.last else {
            throw UsageError(kind: .custom(context.catalog.text(.reportPeriodReversed, ["from": period.first.description, "to": period.last.description])), commandPath: command.path)
        }
        guard period.dayCount <= ReportPeriod.maxDays else {
            throw UsageError(kind: .custom(context.catalog.text(.reportPeriodTooLong, ["days": String(period.dayCount), "max": String(ReportPeriod.maxDays)])), commandPath: command.path)
        }
        let training = try TrainingReportProjection.run(period: period, on: state, now: anchor.now, zone: context.zone)
        let changes = try TodoReportProjection.changes(in: log, bound: bound)
        let todos = TodoReportProjection.run(changes: changes, period: period, on: state, now: anchor.now, zone: context.zone)
        // A file that cannot be read back leaves its activity without a route, not the report unwritten.
        let routes = training.tracked.map { ReportPage.Route(record: $0, line: try? TrackLoader.line(of: $0, in: log)) }
        var page = ReportPage(training: training, todos: todos, routes: routes, position: anchor.position, zone: context.zone, byDistance: command.value("measure") == "distance")
        page.loadDays = TrainingLoad.series(TrainingLoad.loads(state, zone: context.zone).loads, from: period.first, through: period.last)
        try write(page.render(), to: file)
        if context.json {
            context.printJSON(.object([
                "path": .string(file), "from": .string(period.first.description), "to": .string(period.last.description),
                "seq": .int(anchor.position.seq), "hash": .string(anchor.position.hash),
            ]))
        } else {
            context.console.line(context.catalog.text(.reportWritten, ["first": period.first.description, "last": period.last.description, "path": file]))
        }
    }

    /// Writes `text` to `path` in one go (a temporary file renamed over it), or fails with exit 74.
    static func write(_ text: String, to path: String) throws {
        do {
            try Data(text.utf8).write(to: URL(fileURLWithPath: path), options: .atomic)
        } catch {
            throw CLIError.cannotWriteOutput(path: path, reason: CFormat.reason(error))
        }
    }
}

/// The moment and log position a report describes: the `--as-of` bound, or now and the head.
struct ReportAnchor {
    var now: Int64
    var position: ReportPage.Position

    /// For `@SEQ` the time that event was recorded, for a WHEN that instant (a date: its last
    /// millisecond), else the clock. The position is the last event folded into `model`.
    static func resolve(_ bound: Replayer.Bound?, model: ReadModel, log: EventLog, context: CLIContext) throws -> ReportAnchor {
        var envelope: EventEnvelope?
        if model.position > 0 {
            try log.scan(after: model.position - 1, through: model.position) { envelope = $0 }
        }
        let now: Int64 = switch bound {
        case .instant(let ms): ms
        case .position: envelope?.recordedAt ?? context.now
        case nil: context.now
        }
        let asOf = Timestamp.formatLocal(now, in: context.zone, withTime: true) + " " + context.zone.name
        return ReportAnchor(now: now, position: ReportPage.Position(seq: model.position, hash: envelope?.hash ?? LogHead.empty.hash, asOf: asOf))
    }
}

/// `record show N --svg FILE`: one activity's route and elevation profile as an SVG file.
enum RouteSVGWriter {
    static func write(_ record: Record, log: any EventStore, to file: String, context: CLIContext) throws {
        guard let line = try TrackLoader.line(of: record, in: log), line.count >= 2 else {
            throw ReportError.noTrack(ref: String(record.number))
        }
        try ReportCommand.write(ReportPage.standaloneSVG(record: record, line: line), to: file)
        if context.json {
            context.printJSON(.object(["path": .string(file), "number": .int(Int64(record.number)), "points": .int(Int64(line.count))]))
        } else {
            context.console.line(context.catalog.text(.reportSVGWritten, ["number": String(record.number), "path": file]))
        }
    }
}
