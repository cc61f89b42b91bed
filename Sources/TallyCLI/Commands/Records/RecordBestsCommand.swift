import TallyEngine
import TallyDomain
import TallyEssentials
import TallyArguments

/// `tally record bests [--category C]... [--year Y] [--as-of WHEN]`
enum RecordBestsCommand: CommandHandler {
    static let spec = CommandSpec(
        name: "bests",
        abstract: "Your fastest times over the standard distances, per category.",
        discussion: """
            400 m, 1 km, 1 mile, 5 km, 10 km, half marathon and marathon (for cycling 10, 20, 40 and 100 km). \
            A best is the fastest stretch inside any imported track, or a whole activity without a track whose \
            distance is within 1% of the standard one. Categories never mix: a walk is never a running best.
            """,
        options: [
            OptionSpec(name: "category", valueName: "CATEGORY", repeatable: true, help: "Only this category. Repeat for several."),
            OptionSpec(name: "year", valueName: "YEAR", help: "Only activities of this calendar year."),
            TodoOptions.asOf,
        ],
        examples: [
            CommandExample(command: "tally record bests --category running", explanation: "Your running bests, with the activity each comes from."),
            CommandExample(command: "tally record bests --year 2025", explanation: "The bests of 2025 only."),
            CommandExample(command: "tally record bests --as-of 2026-04-30", explanation: "Your bests as they stood at the end of April."),
        ]
    )

    static func run(_ command: ParsedCommand, _ context: CLIContext) throws {
        let bound = try context.asOfBound(command.value("as-of"))
        var year: Int?
        if let raw = command.value("year") {
            guard let value = Int(raw), (1...9999).contains(value) else {
                throw CLIError.invalidOptionValue(option: "--year", value: raw, expected: context.catalog.text(.bestsExpectedYear))
            }
            year = value
        }
        let checked = try Decider.validated(RecordQuery(categories: command.values("category")), context: context.environment.decisionContext)
        let state = try context.readState(try context.readLog(), bound: bound)
        let bests = BestsProjection.run(categories: checked.categories, year: year, on: state, zone: context.zone)
        if context.json {
            context.printJSON(.object(["bests": .array(bests.map { group in
                .object(["category": .string(group.category), "efforts": .array(group.efforts.map(json))])
            })]))
            return
        }
        context.console.line(render(bests, context))
    }

    static func json(_ effort: BestEffort) -> JSON {
        .object([
            "meters": .int(Int64(effort.meters)),
            "distance": .string(BestEfforts.label(effort.meters)),
            "seconds": .double(effort.seconds),
            "paceSecondsPerKm": .double((effort.seconds / (Double(effort.meters) / 1000) * 10).rounded() / 10),
            "record": .object([
                "id": .string(effort.recordID), "number": .int(Int64(effort.recordNumber)), "name": .string(effort.recordName),
                "date": .string(Timestamp.format(effort.date)),
            ]),
            "fromTrack": .bool(effort.fromTrack),
        ])
    }

    /// `1 km`, `1 mile`, `half marathon` in the user's language.
    static func label(_ meters: Int, _ catalog: Catalog) -> String {
        switch meters {
        case 1_609: catalog.text(.bestsMile)
        case 21_097: catalog.text(.bestsHalfMarathon)
        case 42_195: catalog.text(.bestsMarathon)
        default: BestEfforts.label(meters)
        }
    }

    /// `4:05.3` under an hour, `1:02:03` above: the effort's time to the tenth under ten minutes.
    static func time(_ seconds: Double) -> String {
        if seconds < 600 {
            // Rounded to the tenth first, so 131.96 s is 2:12, not 2:11.
            let all = Int((seconds * 10).rounded())
            let (whole, tenths) = (all / 10, all % 10)
            let (m, s) = (whole / 60, whole % 60)
            return "\(m):" + (s < 10 ? "0" : "") + "\(s)" + (tenths > 0 ? ".\(tenths)" : "")
        }
        let rounded = Int(seconds.rounded())
        let (h, m, s) = (rounded / 3600, rounded / 60 % 60, rounded % 60)
        let mm = (m < 10 ? "0" : "") + "\(m)", ss = (s < 10 ? "0" : "") + "\(s)"
        return h > 0 ? "\(h):\(mm):\(ss)" : "\(m):\(ss)"
    }

    static func render(_ bests: [CategoryBests], _ context: CLIContext) -> String {
        let catalog = context.catalog
        guard !bests.isEmpty else { return catalog.text(.bestsEmpty) }
        let columns = [
            Table.Column(title: catalog.text(.columnCategory)),
            Table.Column(title: catalog.text(.columnDistance), alignRight: true),
            Table.Column(title: catalog.text(.columnTime), alignRight: true),
            // Narrow terminals keep the distance and its time: the pace goes first, then the date, then the record.
            Table.Column(title: TrainingDetail.paceTitle(bests.map(\.category), catalog: catalog), alignRight: true, dropOrder: 1),
            Table.Column(title: catalog.text(.columnDate), dropOrder: 2),
            Table.Column(title: catalog.text(.columnRecord), truncatable: true, minWidth: 10, dropOrder: 3),
        ]
        var rows: [[String]] = []
        for group in bests {
            for (index, effort) in group.efforts.enumerated() {
                rows.append([
                    index == 0 ? group.category : "", label(effort.meters, catalog), time(effort.seconds),
                    TrainingDetail.pace(seconds: effort.seconds, meters: Double(effort.meters), category: group.category, miles: false),
                    Timestamp.formatLocal(effort.date, in: context.zone, withTime: false),
                    "\(effort.recordNumber): \(effort.recordName)",
                ])
            }
        }
        return Table(columns: columns, rows: rows, ellipsis: context.settings.unicode ? "…" : "...").render(maxWidth: context.settings.width)
    }
}
