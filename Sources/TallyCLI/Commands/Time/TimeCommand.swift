import TallyArguments
import TallyDomain
import TallyEngine
import TallyEssentials

/// `tally time [--week | --month] [FILTER...] [--as-of WHEN]`
enum TimeCommand: CommandHandler {
    static let spec = CommandSpec(
        name: "time",
        abstract: "Sum the time spent on todos by project and tag.",
        discussion: "Time comes from 'tally start' and 'tally stop'; a running todo counts up to now (with --as-of, up to then: this week is that week). A sub-project's time also counts in its parents; a todo with several tags counts under each. The filter expression picks the todos, as in 'list'.",
        arguments: [TodoOptions.filterArgument],
        options: [
            OptionSpec(name: "week", help: "Only this week (Monday to Sunday)."),
            OptionSpec(name: "month", help: "Only this month."),
            TodoOptions.asOf,
        ],
        examples: [
            CommandExample(command: "tally time --week", explanation: "This week's time by project and tag."),
            CommandExample(command: "tally time --month project:work", explanation: "This month's time on the work project."),
        ]
    )

    static func run(_ command: ParsedCommand, _ context: CLIContext) throws {
        if command.has("week"), command.has("month") {
            throw UsageError(kind: .conflictingOptions("--week", "--month"), commandPath: command.path)
        }
        let bound = try context.asOfBound(command.value("as-of"))
        let log = try context.readLog()
        let state = try context.readState(log, bound: bound)
        // What runs counts up to the --as-of instant, and this week is the week of that instant.
        let clock = try context.asOfClock(bound, in: log)
        var query = TodoQuery()
        query.waiting = .include
        query.expression = try FilterExpressionText.parse(command.arguments, context)
        query = try Decider.validated(query, context: context.environment.decisionContext)
        let todos = try TodoProjection.run(query, on: state, now: context.now, zone: context.zone).todos
        let period: TimeProjection.Period = command.has("week") ? .week : command.has("month") ? .month : .all
        let (from, to) = TimeProjection.bounds(period, now: clock, zone: context.zone)
        let summary = TimeProjection.run(todos, from: from, to: to, now: clock)
        if context.json {
            context.printJSON(json(summary))
            return
        }
        let catalog = context.catalog
        let periodText = from.map { from in
            catalog.text(.timePeriodRange, [
                "from": LocalDate.containing(from, in: context.zone).description,
                "to": LocalDate.containing((to ?? from) - 1, in: context.zone).description,
            ])
        } ?? catalog.text(.timePeriodAll)
        guard summary.total > 0 else {
            context.console.line(catalog.text(.timeNone, ["period": periodText]))
            return
        }
        let ellipsis = context.settings.unicode ? "…" : "..."
        var lines = [catalog.text(.timeHeader, ["period": periodText]), ""]
        var cells: [String] = []
        for row in summary.projects {
            guard let project = row.project else {
                cells += [catalog.text(.projectsNone), TimeText.length(row.ms)]
                continue
            }
            let depth = project.split(separator: ".").count - 1
            let name = project.split(separator: ".").last.map(String.init) ?? project
            cells += [String(repeating: "  ", count: depth) + TerminalText.escaped(name), TimeText.length(row.ms)]
        }
        let timeColumn = Table.Column(title: catalog.text(.columnTime), alignRight: true)
        lines.append(Table(columns: [Table.Column(title: catalog.text(.columnProject), truncatable: true, minWidth: 8), timeColumn], cells: cells, ellipsis: ellipsis).render(maxWidth: context.settings.width))
        lines.append("")
        cells = []
        for row in summary.tags { cells += [row.tag.map(TerminalText.escaped) ?? catalog.text(.timeNoTag), TimeText.length(row.ms)] }
        lines.append(Table(columns: [Table.Column(title: catalog.text(.columnTag), truncatable: true, minWidth: 8), timeColumn], cells: cells, ellipsis: ellipsis).render(maxWidth: context.settings.width))
        lines.append("")
        lines.append("\(catalog.text(.timeTotal))  \(TimeText.length(summary.total))")
        if !summary.running.isEmpty {
            let renderer = TodoRenderer(context: context)
            lines.append(catalog.text(.timeRunningNote, ["todos": summary.running.map { todo in
                let since = todo.running.map { catalog.text(.timeRunningSince, [
                    "since": Timestamp.formatLocal($0.start, in: context.zone, withTime: true), "age": TimeText.length($0.duration(now: clock)),
                ]) } ?? ""
                return "\(renderer.label(todo)) \(since)"
            }.joined(separator: "; ")]))
        }
        context.console.line(lines.joined(separator: "\n"))
    }

    static func json(_ summary: TimeSummary) -> JSON {
        func seconds(_ ms: Int64) -> JSON { .int(ms / 1000) }
        return .object([
            "from": summary.from.map { .string(Timestamp.format($0)) } ?? .null,
            "to": summary.to.map { .string(Timestamp.format($0)) } ?? .null,
            "totalSeconds": seconds(summary.total),
            "projects": .array(summary.projects.map { .object(["project": $0.project.map { .string($0) } ?? .null, "seconds": seconds($0.ms)]) }),
            "tags": .array(summary.tags.map { .object(["tag": $0.tag.map { .string($0) } ?? .null, "seconds": seconds($0.ms)]) }),
            "todos": .array(summary.todos.map { .object(["id": .string($0.todo.id), "number": .int(Int64($0.todo.number)), "seconds": seconds($0.ms)]) }),
            "running": .array(summary.running.map { todo in
                .object(["id": .string(todo.id), "number": .int(Int64(todo.number)), "since": todo.running.map { .string(Timestamp.format($0.start)) } ?? .null])
            }),
        ])
    }
}
