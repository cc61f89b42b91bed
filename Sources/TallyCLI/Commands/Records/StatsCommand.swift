import TallyEngine
import TallyDomain
import TallyEssentials
import TallyArguments

/// `tally stats [--by week|month|year|category] [--ytd] [--streaks] [--since WHEN] [--until WHEN] [--category C]... [--as-of WHEN]`
enum StatsCommand: CommandHandler {
    static let spec = CommandSpec(
        name: "stats",
        abstract: "Totals of your activities per week, month, year or category, with a bar chart; year to date; streaks.",
        discussion: "Each row counts the records and sums time and distance; pace is averaged over the records that have a distance. Weeks are ISO weeks in the local time zone.",
        options: [
            OptionSpec(name: "by", valueName: "GROUP", help: "How to group.", defaultValue: "week", allowedValues: StatsGrouping.allCases.map(\.rawValue)),
            OptionSpec(name: "since", valueName: "WHEN", help: "Only records on or after WHEN (without --since or --until, weeks and months show the last 12)."),
            OptionSpec(name: "miles", help: "Distances in miles, paces per mile and speeds in mph."),
            OptionSpec(name: "until", valueName: "WHEN", help: "Only records up to WHEN (a day includes the whole day)."),
            OptionSpec(name: "category", valueName: "CATEGORY", repeatable: true, help: "Only this category. Repeat for several."),
            TodoOptions.asOf,
            OptionSpec(name: "ytd", help: "This year to date against the same span of last year, per category."),
            OptionSpec(name: "streaks", help: "Longest and current streaks of active days and weeks, overall and per category."),
        ],
        examples: [
            CommandExample(command: "tally stats", explanation: "Weekly totals with a chart."),
            CommandExample(command: "tally stats --by year --category running", explanation: "Running, year over year."),
            CommandExample(command: "tally stats --ytd", explanation: "This year so far against last year by the same day."),
            CommandExample(command: "tally stats --streaks", explanation: "Active-day and active-week streaks."),
            CommandExample(command: "tally stats --by month --category running --since 2026-01-01", explanation: "Monthly running this year."),
            CommandExample(command: "tally stats --by category", explanation: "Where the time goes."),
        ]
    )

    static func run(_ command: ParsedCommand, _ context: CLIContext) throws {
        let bound = try context.asOfBound(command.value("as-of"))
        let grouping = command.value("by").flatMap(StatsGrouping.init(rawValue:)) ?? .week
        let checked = try Decider.validated(
            RecordQuery(categories: command.values("category"), since: command.value("since"), until: command.value("until")),
            context: context.environment.decisionContext
        )
        let state = try context.readState(try context.readLog(), bound: bound)
        if command.has("streaks") || command.has("ytd") {
            try StatsViews.run(streaks: command.has("streaks"), categories: checked.categories, state: state, bound: bound, context)
            return
        }
        // Without a range, weeks and months show the recent past: a store with years of imported
        // history would otherwise print a row for every week since the first activity.
        var since = checked.since
        var defaultStart: LocalDate?
        if since == nil, checked.until == nil, grouping == .week || grouping == .month {
            let today: LocalDate = switch bound {
            case .instant(let ms)?: LocalDate.containing(ms, in: context.zone)
            default: LocalDate.containing(context.now, in: context.zone)
            }
            let period: GoalPeriod = grouping == .week ? .week : .month
            var start = period.start(of: today)
            for _ in 1..<defaultPeriods { start = period.previous(start) }
            defaultStart = start
            since = start.description
        }
        let report = try StatsProjection.run(
            grouping: grouping, since: since, until: checked.until, categories: checked.categories,
            on: state, now: context.now, zone: context.zone
        )
        let rangeNote = defaultStart.map { start in
            context.catalog.text(grouping == .week ? .statsDefaultWeeks : .statsDefaultMonths, [
                "count": String(defaultPeriods), "since": start.description,
                "earlier": GoalPeriod.year.start(of: start).adding(days: -1).description.prefix(4) + "-01-01",
            ])
        }
        if context.json {
            context.printJSON(.object([
                "by": .string(grouping.rawValue),
                "buckets": .array(report.buckets.map { bucket in
                    var object = totals(bucket.totals)
                    object = [("key", JSON.string(bucket.key))] + object
                    return .object(JSONObject(object))
                }),
                "totals": .object(JSONObject(totals(report.totals))),
                "since": since.map { .string($0) } ?? .null,
                "defaultRange": .bool(defaultStart != nil),
            ]))
            return
        }
        context.console.line(render(report, context: context, miles: command.has("miles"))
            + (rangeNote.map { "\n" + WordWrap.wrapped($0, width: context.settings.width) } ?? ""))
    }

    /// How many weeks or months `stats` shows without `--since` or `--until`.
    static let defaultPeriods = 12

    private static func totals(_ totals: StatsTotals) -> [(String, JSON)] {
        [
            ("count", .int(Int64(totals.count))),
            ("durationSeconds", .int(Int64(totals.durationSeconds))),
            ("distanceMeters", .double(Distance.toMillimetre(totals.distanceMeters))),
            ("paceSecondsPerKm", totals.category == nil ? .null : totals.paceSecondsPerKm.map { .double(($0 * 10).rounded() / 10) } ?? .null),
            ("speedKmh", totals.category == nil || totals.distanceMeters <= 0 || totals.durationWithDistance <= 0 ? .null
                : .double((totals.distanceMeters / 1000 / (Double(totals.durationWithDistance) / 3600) * 100).rounded() / 100)),
        ]
    }

    static func render(_ report: StatsReport, context: CLIContext, miles: Bool = false) -> String {
        let catalog = context.catalog
        guard report.totals.count > 0 else { return catalog.text(.statsEmpty) }
        let keyTitle: MessageID = switch report.grouping {
        case .week: .columnWeek
        case .month: .columnMonth
        case .category: .columnCategory
        case .year: .columnYear
        }
        let chart = BarChart(unicode: context.settings.unicode)
        let longest = Double(report.buckets.map(\.totals.durationSeconds).max() ?? 0)
        let columns = [
            Table.Column(title: catalog.text(keyTitle)),
            Table.Column(title: catalog.text(.columnCount), alignRight: true),
            Table.Column(title: catalog.text(.columnTime), alignRight: true),
            Table.Column(title: catalog.text(.columnDistance), alignRight: true, dropOrder: 2),
            // Only a row of one sport with a distance shows a pace or speed (below).
            Table.Column(
                title: TrainingDetail.paceTitle(([report.totals] + report.buckets.map(\.totals)).filter { $0.distanceMeters > 0 }.compactMap(\.category), catalog: catalog),
                alignRight: true, dropOrder: 1),
        ]
        func row(_ key: String, _ totals: StatsTotals) -> [String] {
            [
                key, String(totals.count), ActivityDuration.format(totals.durationSeconds),
                totals.distanceMeters > 0 ? TrainingDetail.distance(totals.distanceMeters, miles: miles) : "",
                // Pace or speed only over one sport: a run and a ride never make an average.
                totals.category.map { category in
                    totals.distanceMeters > 0 ? TrainingDetail.pace(seconds: Double(totals.durationWithDistance), meters: totals.distanceMeters, category: category, miles: miles) : ""
                } ?? "",
            ]
        }
        let rows = report.buckets.map { row($0.key, $0.totals) } + [row(catalog.text(.statsTotal), report.totals)]
        // The bar takes what the numbers leave, up to 30 columns; the numbers give way (pace, then
        // distance) only to keep a bar of at least `minimumBar`, and a bar narrower than that is left out.
        let minimumBar = 10
        guard let width = context.settings.width else {
            return withBars(columns, rows, report, chart: chart, longest: longest, width: 30).render(maxWidth: nil)
        }
        let numbers = Table(columns: columns, rows: rows)
        let reserved = numbers.renderedWidth(maxWidth: width - minimumBar - Table.gap.count)
        let barWidth = min(30, width - reserved - Table.gap.count)
        guard barWidth >= minimumBar else { return numbers.render(maxWidth: width) }
        return withBars(columns, rows, report, chart: chart, longest: longest, width: barWidth).render(maxWidth: width)
    }

    /// The stats table with a bar column `width` wide after the numbers (the total row has none).
    private static func withBars(_ columns: [Table.Column], _ rows: [[String]], _ report: StatsReport, chart: BarChart, longest: Double, width: Int) -> Table {
        let bars = report.buckets.map { chart.bar(Double($0.totals.durationSeconds), maximum: longest, width: width) } + [""]
        return Table(columns: columns + [Table.Column(title: "")], rows: zip(rows, bars).map { $0 + [$1] })
    }
}
