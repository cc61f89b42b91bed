import TallyEngine
import TallyDomain
import TallyEssentials
import TallyArguments

/// `tally goal` — distance, time or activity goals per week, month or year, and how they went.
enum GoalGroup {
    static let spec: CommandSpec = {
        var spec = CommandSpec(
            name: "goal",
            abstract: "Goals per week, month or year: progress in the current period and the history of past ones.",
            discussion: """
                A goal is a distance, a time or a number of activities per ISO week (Monday to Sunday), calendar month or \
                year in the local time zone, for one category or for all. 'tally goal' alone is 'tally goal show', and takes its \
                options ('tally goal --as-of monday').
                """,
            examples: [
                CommandExample("tally goal set --per week --distance 40km --category running", "Run 40 km a week."),
                CommandExample("tally goal", "Where each goal stands this period, and how the past ones went."),
            ]
        )
        spec.defaultSubcommand = "show"
        return spec
    }()
}

/// Options shared by the goal commands.
enum GoalOptions {
    static let per = OptionSpec(name: "per", valueName: "PERIOD", help: "week, month or year.", allowedValues: GoalPeriod.allCases.map(\.rawValue), required: true)
    static let category = OptionSpec(name: "category", valueName: "CATEGORY", help: "Only activities of this category (default: all).")

    static func period(_ command: ParsedCommand) throws -> GoalPeriod {
        guard let raw = command.value("per"), let per = GoalPeriod(rawValue: raw) else {
            throw UsageError(kind: .missingArgument("--per"), commandPath: command.path)
        }
        return per
    }
}

/// `tally goal set --per week|month|year --distance D | --time T | --count N [--category C] [--from DATE]`
enum GoalSetCommand: CommandHandler {
    static let spec = CommandSpec(
        name: "set",
        abstract: "Set a goal: a distance, a time or a number of activities per week, month or year.",
        discussion: """
            Exactly one of --distance (100 m to 100,000 km), --time (1 minute to 8,784 hours) and --count (1 to 10,000). \
            A goal is known by its period, what it measures and its category: setting it again changes its target. \
            Its history starts with the period holding --from (default today; a goal set again keeps its first day).
            """,
        options: [
            GoalOptions.per,
            OptionSpec(name: "distance", valueName: "DISTANCE", help: "How far: 40km, 25mi."),
            OptionSpec(name: "time", valueName: "DURATION", help: "How long: 5h, 90m."),
            OptionSpec(name: "count", valueName: "N", help: "How many activities."),
            GoalOptions.category,
            OptionSpec(name: "from", valueName: "DATE", help: "The first day whose period counts (default today)."),
        ],
        examples: [
            CommandExample(command: "tally goal set --per week --distance 40km --category running", explanation: "40 km of running every week."),
            CommandExample(command: "tally goal set --per month --count 12 --from 2026-01-01", explanation: "Twelve activities a month, counted from January."),
        ]
    )

    static func run(_ command: ParsedCommand, _ context: CLIContext) throws {
        let given = ["distance", "time", "count"].filter { command.value($0) != nil }
        if given.count > 1 { throw UsageError(kind: .conflictingOptions("--" + given[0], "--" + given[1]), commandPath: command.path) }
        if given.isEmpty {
            throw UsageError(kind: .custom(context.catalog.text(.usageGoalNeedsTarget)), commandPath: command.path)
        }
        let input = GoalInput(
            per: try GoalOptions.period(command), distance: command.value("distance"), time: command.value("time"),
            count: command.value("count"), category: command.value("category"), from: command.value("from")
        )
        let outcome = try context.dispatcher().execute(.setGoal(input))
        let goal = outcome.decision.events.compactMap { pending -> Goal? in
            if case .goalSet(let goal) = pending.event { goal } else { nil }
        }.first
        if context.json {
            context.printJSON(.object(["changed": .bool(goal != nil), "goal": goal.map { .object(GoalPayload.encode($0)) } ?? .null]))
        } else if let goal {
            context.console.line(context.catalog.text(.goalSaved, ["goal": GoalText.title(goal, miles: false, catalog: context.catalog), "from": goal.from.description]))
        }
        for notice in outcome.decision.notices {
            let text = NoticeText.text(notice, context.catalog)
            if context.json { context.console.errorLine(text) } else { context.console.line(text) }
        }
    }
}

/// `tally goal remove --per P --metric M [--category C]`
enum GoalRemoveCommand: CommandHandler {
    static let spec = CommandSpec(
        name: "remove",
        aliases: ["rm"],
        abstract: "Remove a goal ('tally undo' brings it back).",
        options: [
            GoalOptions.per,
            OptionSpec(name: "metric", valueName: "METRIC", help: "distance, time or count.", allowedValues: GoalMetric.allCases.map(\.rawValue), required: true),
            GoalOptions.category,
        ],
        examples: [
            CommandExample(command: "tally goal remove --per week --metric distance --category running", explanation: "No more weekly running distance goal."),
            CommandExample(command: "tally goal rm --per month --metric count", explanation: "Remove the monthly activity count goal."),
        ]
    )

    static func run(_ command: ParsedCommand, _ context: CLIContext) throws {
        guard let metric = command.value("metric").flatMap(GoalMetric.init(rawValue:)) else {
            throw UsageError(kind: .missingArgument("--metric"), commandPath: command.path)
        }
        let category: String?
        do { category = try command.value("category").map { raw throws(DomainError) in try Validation.category(raw) } }
        let key = GoalKey(per: try GoalOptions.period(command), metric: metric, category: category)
        let outcome = try context.dispatcher().execute(.removeGoal(key))
        if context.json {
            context.printJSON(.object(["removed": .object(GoalPayload.key(key))]))
        } else {
            let describer = EventDescriber(catalog: context.catalog, zone: context.zone)
            for event in outcome.appended { context.console.line(describer.summary(event)) }
        }
    }
}

/// `tally goal show [--periods N] [--miles] [--as-of WHEN]`
enum GoalShowCommand: CommandHandler {
    static let spec = CommandSpec(
        name: "show",
        abstract: "Show each goal: the current period's progress and what is left, and the past periods, met or not.",
        options: [
            OptionSpec(name: "periods", valueName: "N", help: "How many past periods to list (default 8, at most 1000)."),
            OptionSpec(name: "miles", help: "Distances in miles."),
            TodoOptions.asOf,
        ],
        examples: [
            CommandExample(command: "tally goal", explanation: "Every goal as it stands today."),
            CommandExample(command: "tally goal show --periods 52", explanation: "A year of past weeks."),
        ]
    )

    static func run(_ command: ParsedCommand, _ context: CLIContext) throws {
        var limit = 8
        if let raw = command.value("periods") {
            guard raw.utf8.count <= 5, let value = Int(raw), (0...1_000).contains(value) else {
                throw CLIError.invalidOptionValue(option: "--periods", value: String(raw.prefix(40)), expected: "a whole number from 0 to 1000")
            }
            limit = value
        }
        let bound = try context.asOfBound(command.value("as-of"))
        let state = try context.readState(try context.readLog(), bound: bound)
        let today: LocalDate = switch bound {
        case .instant(let ms)?: LocalDate.containing(ms, in: context.zone)
        default: LocalDate.containing(context.now, in: context.zone)
        }
        let progress = GoalProgress.of(state, today: today, zone: context.zone, limit: limit)
        let miles = command.has("miles")
        if context.json {
            context.printJSON(.object(["date": .string(today.description), "goals": .array(progress.map(GoalText.json))]))
            return
        }
        let catalog = context.catalog
        guard !progress.isEmpty else {
            context.console.line(catalog.text(.goalNone))
            return
        }
        var blocks: [String] = []
        for item in progress {
            let goal = item.goal
            let current = item.current
            var lines = [Style(color: context.settings.color).bold(GoalText.title(goal, miles: miles, catalog: catalog))]
            let daysLeft = Int(current.end.dayNumber - today.dayNumber)
            let percent = Int(min(current.done / goal.target * 100, 999).rounded(.down))
            lines.append(WordWrap.wrapped(catalog.text(current.met ? .goalCurrentMet : .goalCurrent, [
                "period": current.label, "done": GoalText.amount(current.done, goal.key.metric, miles: miles),
                "left": GoalText.amount(current.left, goal.key.metric, miles: miles), "percent": String(min(percent, 999)),
                "days": catalog.plural(.goalDaysLeft, count: daysLeft),
            ]), width: context.settings.width))
            if !item.history.isEmpty {
                // Each past period with the target in force for it; "-" where the goal was not.
                let table = Table(columns: [
                    Table.Column(title: catalog.text(.columnPeriod)), Table.Column(title: catalog.text(.columnDone), alignRight: true),
                    Table.Column(title: catalog.text(.columnGoalTarget), alignRight: true), Table.Column(title: catalog.text(.columnMet)),
                ], rows: item.history.map { past in
                    [
                        past.label, GoalText.amount(past.done, goal.key.metric, miles: miles),
                        past.target.map { GoalText.amount($0, goal.key.metric, miles: miles) } ?? "-",
                        past.target == nil ? "-" : catalog.text(past.met ? .goalMetYes : .goalMetNo),
                    ]
                })
                lines.append(table.render(maxWidth: context.settings.width))
                let met = item.history.filter(\.met).count
                lines.append(WordWrap.wrapped(catalog.text(.goalMetSummary, ["met": String(met), "shown": String(item.history.count), "all": String(item.pastPeriods)]), width: context.settings.width))
            }
            blocks.append(lines.joined(separator: "\n"))
        }
        context.console.line(blocks.joined(separator: "\n\n"))
    }
}

/// Words and JSON for goals.
enum GoalText {
    /// `40.00 km`, `5:00:00`, `4` in the goal's metric.
    static func amount(_ value: Double, _ metric: GoalMetric, miles: Bool) -> String {
        switch metric {
        case .distance: TrainingDetail.distance(value, miles: miles)
        case .time: ActivityDuration.format(Int(value.rounded()))
        case .count: String(Int(value.rounded()))
        }
    }

    /// What the goal measures, in the catalog's language.
    static func metric(_ metric: GoalMetric, _ catalog: Catalog) -> String {
        let id: MessageID = switch metric {
        case .distance: .goalMetricDistance
        case .time: .goalMetricTime
        case .count: .goalMetricCount
        }
        return catalog.text(id)
    }

    /// `week distance (running)`: a goal's key in the catalog's language.
    static func key(_ key: GoalKey, _ catalog: Catalog) -> String {
        let id: MessageID = switch key.per {
        case .week: .goalPerWeek
        case .month: .goalPerMonth
        case .year: .goalPerYear
        }
        return catalog.text(id) + " " + metric(key.metric, catalog) + (key.category.map { " (\($0))" } ?? "")
    }

    /// `Weekly distance (running): 40.00 km`.
    static func title(_ goal: Goal, miles: Bool, catalog: Catalog) -> String {
        let id: MessageID = switch goal.key.per {
        case .week: .goalWeekly
        case .month: .goalMonthly
        case .year: .goalYearly
        }
        return catalog.text(id, [
            "metric": metric(goal.key.metric, catalog), "category": goal.key.category.map { " (\($0))" } ?? "",
            "target": amount(goal.target, goal.key.metric, miles: miles),
        ])
    }

    static func period(_ result: GoalPeriodResult) -> JSON {
        .object([
            "period": .string(result.label), "start": .string(result.start.description), "end": .string(result.end.adding(days: -1).description),
            "done": .double(Distance.toMillimetre(result.done)), "target": result.target.map(JSON.double) ?? .null,
            "left": result.target == nil ? .null : .double(Distance.toMillimetre(result.left)), "met": result.target == nil ? .null : .bool(result.met),
        ])
    }

    static func json(_ progress: GoalProgress) -> JSON {
        var object = GoalPayload.encode(progress.goal)
        object["current"] = period(progress.current)
        object["history"] = .array(progress.history.map(period))
        object["pastPeriods"] = .int(Int64(progress.pastPeriods))
        return .object(object)
    }
}
