import TallyEngine
import TallyDomain
import TallyEssentials
import TallyArguments

/// `tally gear` — shoes, bikes and what else activities are done with, and how far each has gone.
enum GearGroup {
    static let spec = CommandSpec(
        name: "gear",
        abstract: "Shoes, bikes and other gear: which activities used them and how far they have gone.",
        discussion: """
            Each piece of gear is for one category. New activities of a category (record add, record import) get its \
            default gear unless --gear or --no-gear says otherwise; 'record edit --gear' moves an activity to other gear. \
            Gear is named by its name in any case; every change is an event ('tally undo' takes it back).
            """,
        examples: [
            CommandExample("tally gear add Pegasus 40 --category running --default --retire-at 800km", "New shoes, used by every new run."),
            CommandExample("tally gear list", "Distance, time and activities of each piece of gear."),
        ]
    )
}

/// `tally gear add NAME... --category C [--default] [--retire-at DISTANCE]`
enum GearAddCommand: CommandHandler {
    static let spec = CommandSpec(
        name: "add",
        abstract: "Add a piece of gear.",
        discussion: """
            The name is the words given, trimmed (1-60 characters of any script), and unique without regard to case. \
            --default makes new activities of the category use it (the category's earlier default stops being it). \
            --retire-at is the distance from 1 km to 100,000 km after which 'gear list' warns.
            """,
        arguments: [ArgumentSpec(name: "NAME", help: "What it is called.", repeating: true)],
        options: [
            RecordOptions.requiredCategory,
            OptionSpec(name: "default", help: "New activities of the category get this gear."),
            OptionSpec(name: "retire-at", valueName: "DISTANCE", help: "Warn once it has gone this far, such as 800km or 500mi."),
        ],
        examples: [
            CommandExample(command: "tally gear add Pegasus 40 --category running --default --retire-at 800km", explanation: "New running shoes for every new run."),
            CommandExample(command: "tally gear add Gravel bike --category cycling", explanation: "A bike to name with --gear."),
        ]
    )

    static func run(_ command: ParsedCommand, _ context: CLIContext) throws {
        guard let category = command.value("category") else { throw UsageError(kind: .missingArgument("--category"), commandPath: command.path) }
        let input = GearInput(
            name: command.arguments.joined(separator: " "), category: category, retireAt: command.value("retire-at"),
            makeDefault: command.has("default")
        )
        let outcome = try context.dispatcher().execute(.addGear(input))
        GearText.printChange(outcome, context: context)
    }
}

/// `tally gear edit NAME... [--name N] [--retire-at DISTANCE|none] [--default] [--active]`
enum GearEditCommand: CommandHandler {
    static let spec = CommandSpec(
        name: "edit",
        abstract: "Rename gear, change its retirement distance, make it its category's default or bring it back in use.",
        arguments: [ArgumentSpec(name: "NAME", help: "The gear's name (any case).", repeating: true)],
        options: [
            OptionSpec(name: "name", valueName: "NAME", help: "The new name."),
            OptionSpec(name: "retire-at", valueName: "DISTANCE", help: "The distance to warn at; 'none' for no warning."),
            OptionSpec(name: "default", help: "New activities of its category get this gear."),
            OptionSpec(name: "active", help: "Retired gear back in use."),
        ],
        examples: [
            CommandExample(command: "tally gear edit Pegasus 40 --retire-at 1000km", explanation: "They last longer than expected."),
            CommandExample(command: "tally gear edit Old bike --default", explanation: "Rides use the old bike again."),
        ]
    )

    static func run(_ command: ParsedCommand, _ context: CLIContext) throws {
        let input = GearEditInput(
            name: command.value("name"), retireAt: command.value("retire-at"), makeDefault: command.has("default"),
            retired: command.has("active") ? false : nil
        )
        guard !input.isEmpty else {
            throw UsageError(kind: .custom(context.catalog.text(.usageGearEditNeedsChange)), commandPath: command.path)
        }
        GearText.printChange(try context.dispatcher().execute(.editGear(command.arguments.joined(separator: " "), input)), context: context)
    }
}

/// `tally gear retire NAME...`
enum GearRetireCommand: CommandHandler {
    static let spec = CommandSpec(
        name: "retire",
        abstract: "Retire gear: its activities keep it, new activities no longer get it by default.",
        arguments: [ArgumentSpec(name: "NAME", help: "The gear's name (any case).", repeating: true)],
        examples: [
            CommandExample(command: "tally gear retire Pegasus 40", explanation: "Worn out; 'tally gear edit Pegasus 40 --active' brings it back."),
            CommandExample(command: "tally gear list --all", explanation: "Retired gear is listed with --all."),
        ]
    )

    static func run(_ command: ParsedCommand, _ context: CLIContext) throws {
        let name = command.arguments.joined(separator: " ")
        GearText.printChange(try context.dispatcher().execute(.editGear(name, GearEditInput(retired: true))), context: context)
    }
}

/// `tally gear list [--all] [--miles] [--as-of WHEN]`
enum GearListCommand: CommandHandler {
    static let spec = CommandSpec(
        name: "list",
        aliases: ["ls"],
        abstract: "List gear with the distance, time and activities of each, warning past the retirement distance.",
        discussion: "Deleted activities do not count. Retired gear is listed with --all.",
        options: [
            OptionSpec(name: "all", help: "Retired gear too."),
            OptionSpec(name: "miles", help: "Distances in miles."),
            TodoOptions.asOf,
        ],
        examples: [
            CommandExample(command: "tally gear list", explanation: "Gear in use, with what it has done."),
            CommandExample(command: "tally gear list --all --as-of 2025-12-31", explanation: "All gear as it stood at the end of 2025."),
        ]
    )

    static func run(_ command: ParsedCommand, _ context: CLIContext) throws {
        let state = try context.readState(try context.readLog(), bound: try context.asOfBound(command.value("as-of")))
        let usage = GearUsage.of(state)
        let shown = state.gear.live.filter { command.has("all") || !$0.retired }
        if context.json {
            context.printJSON(.object(["gear": .array(shown.map { GearText.json($0, usage: usage[$0.id] ?? GearUsage(), state: state, zone: context.zone) })]))
            return
        }
        let catalog = context.catalog
        guard !shown.isEmpty else {
            context.console.line(catalog.text(state.gear.live.isEmpty ? .gearNone : .gearNoneInUse))
            return
        }
        let miles = command.has("miles")
        let rows = shown.map { gear -> [String] in
            let used = usage[gear.id] ?? GearUsage()
            return [
                GearText.label(gear, state: state, catalog: catalog), gear.category, String(used.activities),
                ActivityDuration.format(used.durationSeconds), TrainingDetail.distance(used.distanceMeters, miles: miles),
                gear.retireAtMeters.map { TrainingDetail.distance($0, miles: miles) } ?? "-",
            ]
        }
        let table = Table(columns: [
            Table.Column(title: catalog.text(.columnGear), truncatable: true, minWidth: 6, shrinkOrder: 1),
            Table.Column(title: catalog.text(.columnCategory), dropOrder: 2),
            Table.Column(title: catalog.text(.columnActivities), alignRight: true),
            Table.Column(title: catalog.text(.columnTime), alignRight: true),
            Table.Column(title: catalog.text(.columnDistance), alignRight: true),
            Table.Column(title: catalog.text(.columnRetireAt), alignRight: true, dropOrder: 1),
        ], rows: rows, ellipsis: context.settings.unicode ? "…" : "...")
        var lines = [table.render(maxWidth: context.settings.width)]
        for gear in shown where !gear.retired {
            let used = usage[gear.id] ?? GearUsage()
            guard used.worn(gear), let limit = gear.retireAtMeters else { continue }
            lines.append(WordWrap.wrapped(catalog.text(.gearWorn, [
                "name": TerminalText.escaped(gear.name), "distance": TrainingDetail.distance(used.distanceMeters, miles: miles),
                "limit": TrainingDetail.distance(limit, miles: miles),
            ]), width: context.settings.width))
        }
        context.console.line(lines.joined(separator: "\n"))
    }
}

/// `tally gear show NAME... [--miles] [--as-of WHEN]`
enum GearShowCommand: CommandHandler {
    static let spec = CommandSpec(
        name: "show",
        abstract: "Show a piece of gear, its totals and its latest activities.",
        arguments: [ArgumentSpec(name: "NAME", help: "The gear's name (any case).", repeating: true)],
        options: [OptionSpec(name: "miles", help: "Distances in miles."), TodoOptions.asOf],
        examples: [
            CommandExample(command: "tally gear show Pegasus 40", explanation: "How far the shoes have gone, and their last runs."),
            CommandExample(command: "tally --json gear show pegasus 40 --as-of 2026-01-01", explanation: "As they stood on 1 January, as JSON."),
        ]
    )

    /// How many of its activities are listed.
    static let latest = 10

    static func run(_ command: ParsedCommand, _ context: CLIContext) throws {
        let state = try context.readState(try context.readLog(), bound: try context.asOfBound(command.value("as-of")))
        let gear = try Decider.gear(command.arguments.joined(separator: " "), in: state)
        let used = GearUsage.of(state)[gear.id] ?? GearUsage()
        var records: [Record] = []
        for index in 0..<state.records.count {
            let record = state.records[index]
            if record.gear == gear.id, !record.deleted { records.append(record) }
        }
        records.sort { $0.date > $1.date }
        if context.json {
            var object = GearText.json(gear, usage: used, state: state, zone: context.zone).objectValue ?? [:]
            object["activities"] = .array(records.map(JSONShapes.record))
            context.printJSON(.object(object))
            return
        }
        let catalog = context.catalog
        let miles = command.has("miles")
        var rows: [(String, String)] = [
            (catalog.text(.fieldName), TerminalText.escaped(gear.name)),
            (catalog.text(.fieldCategory), gear.category),
            (catalog.text(.fieldStatus), catalog.text(gear.retired ? .gearRetired : state.gear.defaults[gear.category] == gear.id ? .gearDefault : .gearInUse)),
            (catalog.text(.columnActivities), String(used.activities)),
            (catalog.text(.fieldDuration), ActivityDuration.format(used.durationSeconds)),
            (catalog.text(.fieldDistance), TrainingDetail.distance(used.distanceMeters, miles: miles)),
            (catalog.text(.columnRetireAt), gear.retireAtMeters.map { TrainingDetail.distance($0, miles: miles) } ?? "-"),
            (catalog.text(.fieldCreated), Timestamp.formatLocal(gear.createdAt, in: context.zone, withTime: true)),
        ]
        if let last = used.lastUsed { rows.append((catalog.text(.gearLastUsed), Timestamp.formatLocal(last, in: context.zone, withTime: false))) }
        let width = rows.map { TextWidth.of($0.0) }.max() ?? 0
        var lines = rows.map { WordWrap.wrapped(TextWidth.pad($0.0, to: width, alignRight: false) + "  " + $0.1, width: context.settings.width) }
        if used.worn(gear), let limit = gear.retireAtMeters {
            lines.append(WordWrap.wrapped(catalog.text(.gearWorn, [
                "name": TerminalText.escaped(gear.name), "distance": TrainingDetail.distance(used.distanceMeters, miles: miles),
                "limit": TrainingDetail.distance(limit, miles: miles),
            ]), width: context.settings.width))
        }
        if !records.isEmpty {
            lines += ["", Style(color: context.settings.color).bold(catalog.plural(.gearLatest, count: min(records.count, latest)))]
            let renderer = RecordRenderer(context: context)
            let table = Table(columns: [
                Table.Column(title: catalog.text(.columnNumber), alignRight: true), Table.Column(title: catalog.text(.columnDate), dropOrder: 1),
                Table.Column(title: catalog.text(.columnName), truncatable: true, minWidth: 6, shrinkOrder: 1),
                Table.Column(title: catalog.text(.columnDuration), alignRight: true), Table.Column(title: catalog.text(.columnDistance), alignRight: true, dropOrder: 2),
            ], rows: records.prefix(latest).map { record in
                [
                    String(record.number), Timestamp.formatLocal(record.date, in: context.zone, withTime: false), renderer.name(record),
                    ActivityDuration.format(record.durationSeconds), record.distanceMeters.map { TrainingDetail.distance($0, miles: miles) } ?? "",
                ]
            }, ellipsis: context.settings.unicode ? "…" : "...")
            lines.append(table.render(maxWidth: context.settings.width))
        }
        context.console.line(lines.joined(separator: "\n"))
    }
}

/// Words and JSON for gear.
enum GearText {
    /// The name, marked `(default)` or `(retired)`.
    static func label(_ gear: Gear, state: ReadModel, catalog: Catalog) -> String {
        let name = TerminalText.escaped(gear.name)
        if gear.retired { return catalog.text(.gearLabelRetired, ["name": name]) }
        if state.gear.defaults[gear.category] == gear.id { return catalog.text(.gearLabelDefault, ["name": name]) }
        return name
    }

    static func json(_ gear: Gear, usage: GearUsage, state: ReadModel, zone: Zone) -> JSON {
        .object([
            "id": .string(gear.id), "number": .int(Int64(gear.number)), "name": .string(gear.name), "category": .string(gear.category),
            "default": .bool(state.gear.defaults[gear.category] == gear.id), "retired": .bool(gear.retired),
            "retireAtMeters": gear.retireAtMeters.map { .double($0) } ?? .null,
            "activityCount": .int(Int64(usage.activities)), "durationSeconds": .int(Int64(usage.durationSeconds)),
            "distanceMeters": .double(Distance.toMillimetre(usage.distanceMeters)), "worn": .bool(usage.worn(gear)),
            "lastUsed": usage.lastUsed.map { .string(Timestamp.format($0)) } ?? .null,
            "createdAt": .string(Timestamp.format(gear.createdAt)),
        ])
    }

    /// Confirms what `gear add`, `edit` or `retire` appended, or prints the notices; `--json` the gear as it is now.
    static func printChange(_ outcome: CommandOutcome, context: CLIContext) {
        let streams = outcome.decision.events.compactMap { pending -> String? in
            if case .gearDefaulted(_, let gear) = pending.event { return gear }
            return pending.stream
        }
        let touched = outcome.state.gear.items.filter { streams.contains($0.id) }
        if context.json {
            let usage = GearUsage.of(outcome.state)
            context.printJSON(.object([
                "changed": .bool(!outcome.appended.isEmpty),
                "gear": .array(touched.map { json($0, usage: usage[$0.id] ?? GearUsage(), state: outcome.state, zone: context.zone) }),
            ]))
        } else {
            let describer = EventDescriber(catalog: context.catalog, zone: context.zone, gearNames: names(outcome.state))
            for event in outcome.appended { context.console.line(describer.summary(event)) }
        }
        for notice in outcome.decision.notices {
            let text = NoticeText.text(notice, context.catalog)
            if context.json { context.console.errorLine(text) } else { context.console.line(text) }
        }
    }

    /// Gear id → name, for describing events.
    static func names(_ state: ReadModel) -> [String: String] {
        Dictionary(state.gear.items.map { ($0.id, $0.name) }, uniquingKeysWith: { first, _ in first })
    }
}
