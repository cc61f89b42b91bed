import TallyArguments
import TallyEssentials
import TallyEngine
import TallyDomain

/// `tally burndown [--weekly | --daily] [FILTER] [--as-of WHEN]`
enum BurndownCommand: CommandHandler {
    static let spec = CommandSpec(
        name: "burndown",
        abstract: "Chart the open todos over time, from the history of the log.",
        discussion: "Each column is the number of open todos at the end of a week (the default, up to 52) or a day (up to 60), as the events recorded them: created, completed, reopened, deleted and restored. With a filter expression, or a context active, only the todos it matches now are counted, over their whole history.",
        arguments: [ReportScope.filterArgument],
        options: [
            OptionSpec(name: "weekly", help: "A column per week, Monday to Sunday (the default)."),
            OptionSpec(name: "daily", help: "A column per day."),
            TodoOptions.asOf,
        ],
        examples: [
            CommandExample(command: "tally burndown", explanation: "Open todos week by week."),
            CommandExample(command: "tally burndown --daily project:work", explanation: "The work todos day by day."),
            CommandExample(command: "tally burndown --as-of 2026-10-31", explanation: "The chart as it stood at the end of October."),
        ]
    )

    static let height = 8

    static func run(_ command: ParsedCommand, _ context: CLIContext) throws {
        if command.has("weekly"), command.has("daily") {
            throw UsageError(kind: .conflictingOptions("--weekly", "--daily"), commandPath: command.path)
        }
        let step: TodoBurndown.Step = command.has("daily") ? .daily : .weekly
        let bound = try context.asOfBound(command.value("as-of"))
        let log = try context.readLog()
        let state = try context.readState(log, bound: bound)
        let selection = try ReportScope.selection(command, context, state: state)
        let changes = try TodoReportProjection.changes(in: log, bound: bound)
        let end: Int64 = if case .instant(let ms) = bound { ms } else { context.now }
        let last = LocalDate.containing(end, in: context.zone)
        let burndown = TodoBurndown.run(changes: changes, step: step, last: last, on: state, selection: selection, now: end, zone: context.zone)
        if context.json {
            context.printJSON(.object([
                "step": .string(step.rawValue),
                "points": .array(burndown.points.map { point in
                    .object(["end": .string(point.end.description), "open": .int(Int64(point.open)), "added": .int(Int64(point.added)), "closed": .int(Int64(point.closed))])
                }),
            ]))
            return
        }
        guard let final = burndown.points.last else { return context.console.line(context.catalog.text(.burndownEmpty)) }
        context.console.line(chart(burndown, context: context))
        context.console.line(WordWrap.wrapped(context.catalog.text(.burndownNow, [
            "open": String(final.open),
            "added": String(burndown.points.reduce(0) { $0 + $1.added }),
            "closed": String(burndown.points.reduce(0) { $0 + $1.closed }),
        ]), width: context.settings.width))
    }

    /// Columns of blocks (`#` without UTF-8), the highest count on the top row's label, dates under.
    static func chart(_ burndown: TodoBurndown, context: CLIContext) -> String {
        let catalog = context.catalog
        let unicode = context.settings.unicode
        let maximum = max(1, burndown.points.map(\.open).max() ?? 1)
        let label = String(maximum).count
        // One column per point, a space between when there is room.
        let room = max(10, (context.settings.width ?? 80) - label - 2)
        let points = Array(burndown.points.suffix(room))
        let gap = points.count * 2 <= room ? 1 : 0
        let eighths = ["", "▁", "▂", "▃", "▄", "▅", "▆", "▇"]
        var lines: [String] = []
        let first = points.first?.end.description ?? ""
        let lastDate = points.last?.end.description ?? ""
        let period = catalog.text(burndown.step == .daily ? .burndownDaily : .burndownWeekly)
        lines.append(Style(color: context.settings.color).bold(WordWrap.wrapped(catalog.text(.burndownTitle, ["period": period, "end": lastDate]), width: context.settings.width)))
        for row in stride(from: height - 1, through: 0, by: -1) {
            var line = row == height - 1 ? TextWidth.pad(String(maximum), to: label, alignRight: true) : (row == 0 ? TextWidth.pad("0", to: label, alignRight: true) : String(repeating: " ", count: label))
            line += unicode ? " │" : " |"
            for point in points {
                // Height in eighths of a row; a column with any open todo shows at least a sliver.
                let units = point.open == 0 ? 0 : max(1, Int((Double(point.open) / Double(maximum) * Double(height * 8)).rounded()))
                let filled = units - row * 8
                let cell = filled >= 8 ? (unicode ? "█" : "#") : (filled > 0 ? (unicode ? eighths[filled] : (filled >= 4 ? "#" : " ")) : " ")
                line += cell + (gap == 1 ? " " : "")
            }
            lines.append(line.trimmingTrailingSpaces())
        }
        let width = points.count * (1 + gap)
        lines.append(String(repeating: " ", count: label + 1) + (unicode ? "└" : "+") + String(repeating: unicode ? "─" : "-", count: width))
        let axis = first + String(repeating: " ", count: max(1, width - first.count - lastDate.count)) + (points.count > 1 ? lastDate : "")
        lines.append(String(repeating: " ", count: label + 2) + axis)
        return lines.joined(separator: "\n")
    }
}
