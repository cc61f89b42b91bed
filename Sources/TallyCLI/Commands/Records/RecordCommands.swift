import TallyEngine
import TallyDomain
import TallyEssentials
import TallyArguments

/// `tally record` — the group of activity-record commands.
enum RecordGroup {
    static let spec = CommandSpec(
        name: "record",
        abstract: "Log and review activities: runs, rides, swims, gym sessions.",
        discussion: "Records work like todos: every change is an event, REF is a number or an id prefix, and 'tally undo' reverts.",
        examples: [
            CommandExample("tally record add Evening ride --category cycling --duration 1h10m --distance 32km", "Log a ride."),
            CommandExample("tally record list --category cycling --since -30d", "Rides of the last thirty days, with totals."),
        ]
    )
}

/// `tally record add NAME... --category C --duration D [--distance X] [--place P] [--date WHEN] [--note TEXT]`
enum RecordAddCommand: CommandHandler {
    static let spec = CommandSpec(
        name: "add",
        abstract: "Log an activity.",
        discussion: "The name is the words given, trimmed (1-200 characters). Pace is derived when a distance is given.",
        arguments: [ArgumentSpec(name: "NAME", help: "What it was.", repeating: true)],
        options: [RecordOptions.requiredCategory, RecordOptions.requiredDuration, RecordOptions.distance, RecordOptions.place, RecordOptions.date, RecordOptions.note, RecordOptions.effort,
                  RecordOptions.gear, RecordOptions.noGear],
        examples: [
            CommandExample(command: "tally record add Morning run --category running --duration 27:30 --distance 5km", explanation: "Log a 5 km run of 27 minutes 30 seconds, now."),
            CommandExample(command: "tally record add Gym --category gym --duration 1h --date yesterday", explanation: "Log yesterday's gym session."),
        ]
    )

    static func run(_ command: ParsedCommand, _ context: CLIContext) throws {
        let missing = [RecordOptions.requiredCategory, RecordOptions.requiredDuration].filter { command.value($0.name) == nil }
        if missing.count > 1 {
            let names = missing.map { "'\($0.displayName)'" }.joined(separator: context.catalog.text(.usageListAnd))
            throw UsageError(kind: .custom(context.catalog.text(.usageMissingOptions, ["names": names])), commandPath: command.path)
        }
        guard let category = command.value("category") else { throw UsageError(kind: .missingArgument("--category"), commandPath: command.path) }
        guard let duration = command.value("duration") else { throw UsageError(kind: .missingArgument("--duration"), commandPath: command.path) }
        let input = RecordInput(
            name: command.arguments.joined(separator: " "), category: category, duration: duration,
            distance: command.value("distance"), place: command.value("place"), date: command.value("date"), note: command.value("note"),
            effort: command.value("effort"), gear: command.value("gear"), noGear: command.has("no-gear")
        )
        try RecordOptions.refuseConflicts(command, context)
        MutationPrinter(context: context).print(try context.dispatcher().execute(.logRecord(input)), single: true)
    }
}

/// `tally record edit REF [...]`
enum RecordEditCommand: CommandHandler {
    static let spec = CommandSpec(
        name: "edit",
        abstract: "Change a record's fields.",
        discussion: "Only the fields named change. 'none' clears the distance, place or note; --no-gear and --no-effort clear the gear and the effort.",
        arguments: [ArgumentSpec(name: "REF", help: "A record number or a unique id prefix.")],
        options: [OptionSpec(name: "name", valueName: "NAME", help: "The new name."), RecordOptions.category, RecordOptions.duration,
                  RecordOptions.distance, RecordOptions.place, RecordOptions.date, RecordOptions.note, RecordOptions.gear, RecordOptions.noGear,
                  RecordOptions.effort, RecordOptions.noEffort],
        examples: [
            CommandExample(command: "tally record edit 4 --distance 5.2km --place none", explanation: "Correct the distance and clear the place."),
            CommandExample(command: "tally record edit 7 --date 2026-11-20T07:15 --duration 45m", explanation: "Fix when it happened and how long it took."),
            CommandExample(command: "tally record edit 12 --effort 6", explanation: "Say how hard an imported activity felt: tally load then counts 6 times its minutes."),
        ]
    )

    static func run(_ command: ParsedCommand, _ context: CLIContext) throws {
        let input = RecordEditInput(
            name: command.value("name"), category: command.value("category"), duration: command.value("duration"),
            distance: command.value("distance"), place: command.value("place"), date: command.value("date"), note: command.value("note"),
            gear: command.value("gear"), noGear: command.has("no-gear"), effort: command.value("effort"), noEffort: command.has("no-effort")
        )
        try RecordOptions.refuseConflicts(command, context)
        guard !input.isEmpty else {
            throw UsageError(kind: .custom(context.catalog.text(.usageRecordEditNeedsChange)), commandPath: command.path)
        }
        MutationPrinter(context: context).print(try context.dispatcher().execute(.editRecord(command.arguments[0], input)))
    }
}

/// `tally record delete REF...`
enum RecordDeleteCommand: CommandHandler {
    static let spec = CommandSpec(
        name: "delete",
        aliases: ["rm"],
        abstract: "Delete records ('tally record restore' brings them back).",
        arguments: [ArgumentSpec(name: "REF", help: "A record number or a unique id prefix.", repeating: true)],
        examples: [
            CommandExample(command: "tally record delete 4", explanation: "Delete record 4."),
            CommandExample(command: "tally record rm 4 5 6", explanation: "Delete three records as one command (one undo step)."),
        ]
    )

    static func run(_ command: ParsedCommand, _ context: CLIContext) throws {
        MutationPrinter(context: context).print(try context.dispatcher().execute(.deleteRecords(command.arguments)))
    }
}

/// `tally record show REF [--as-of WHEN] [--svg FILE]`
enum RecordShowCommand: CommandHandler {
    static let spec = CommandSpec(
        name: "show",
        abstract: "Show all fields of a record and its history.",
        discussion: "An imported activity also shows its time in each heart-rate and power zone (by the athlete's settings on its day), its laps and its splits.",
        arguments: [ArgumentSpec(name: "REF", help: "A record number or a unique id prefix.")],
        options: [
            TodoOptions.asOf, OptionSpec(name: "miles", help: "Splits per mile, paces per mile and speeds in mph."),
            OptionSpec(name: "svg", valueName: "FILE", help: "Write the route and elevation profile of the record's kept track to FILE as SVG."),
        ],
        examples: [
            CommandExample(command: "tally record show 4", explanation: "Everything about record 4, with its history."),
            CommandExample(command: "tally record show 4 --svg run.svg", explanation: "Draw the route of record 4 (an imported track file)."),
            CommandExample(command: "tally --json record show 4", explanation: "The record and its events as JSON."),
        ]
    )

    static func run(_ command: ParsedCommand, _ context: CLIContext) throws {
        let bound = try context.asOfBound(command.value("as-of"))
        let log = try context.readLog()
        let state = try context.readState(log, bound: bound)
        let record = try TimeTravel.resolve(command.arguments[0], kind: .record, asOf: command.value("as-of"), in: state, log: log, context: context, ReferenceResolver.record)
        if let file = command.value("svg") {
            try RouteSVGWriter.write(record, log: log, to: file, context: context)
            return
        }
        let history = try log.events(inStream: record.id).filter { Replayer.includes($0, bound: bound) }
        let miles = command.has("miles")
        let detail = try TrainingDetail.compute(record, state: state, log: log, miles: miles, zone: context.zone)
        let legs = state.legs(of: record)
        if context.json {
            var object: JSONObject = [
                "record": JSONShapes.record(record), "history": .array(history.map(JSONShapes.event)),
                "detail": detail.map { TrainingDetail.json($0.0, miles: miles) } ?? .null,
            ]
            // The legs of its multisport activity, in order (null when it is no leg).
            object["multisport"] = record.track?.part?.kind == .leg ? .array(legs.map(JSONShapes.record)) : .null
            context.printJSON(.object(object))
        } else {
            var text = RecordRenderer(context: context).detail(record, history: history, legs: legs, gearNames: GearText.names(state), miles: miles)
            if let (computed, _) = detail {
                let sections = TrainingDetail.text(computed, record: record, miles: miles, context: context)
                if !sections.isEmpty { text += "\n\n" + sections }
            }
            context.console.line(text)
        }
    }
}

/// `tally record list [view options] [--as-of WHEN]`
enum RecordListCommand: CommandHandler {
    static let spec = CommandSpec(
        name: "list",
        aliases: ["ls"],
        abstract: "Show records, filtered and sorted, with totals.",
        discussion: "Without view options, the saved default view ('tally record filter set') is used, or all records, newest first.",
        arguments: [RecordOptions.filterArgument],
        options: RecordOptions.view + [TodoOptions.asOf],
        examples: [
            CommandExample(command: "tally record list --category running --since -4w", explanation: "Runs of the last four weeks."),
            CommandExample(command: "tally record list 'category:running or (category:cycling date.after:-1w)'", explanation: "A filter expression over records: category, source, date, words."),
            CommandExample(command: "tally record ls --sort distance --limit 5", explanation: "The five longest activities."),
        ]
    )

    static func run(_ command: ParsedCommand, _ context: CLIContext) throws {
        let bound = try context.asOfBound(command.value("as-of"))
        let explicit = RecordOptions.hasViewOptions(command) ? try RecordOptions.query(command, context) : nil
        let state = try context.readState(try context.readLog(), bound: bound)
        let query = explicit ?? state.filters[.records].map(RecordQuery.init(json:)) ?? .standard
        let view = try RecordProjection.run(query, on: state, now: context.now, zone: context.zone)
        if context.json {
            context.printJSON(.array(view.records.map(JSONShapes.record)))
        } else {
            context.console.line(RecordRenderer(context: context).table(view))
        }
    }
}
