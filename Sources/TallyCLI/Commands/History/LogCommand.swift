import TallyEngine
import TallyDomain
import TallyArguments
import TallyEssentials

/// `tally log [REF] [--type TYPE]... [--actor NAME]... [--field FIELD]... [--since WHEN] [--until WHEN] [--limit N] [--reverse]`
enum LogCommand: CommandHandler {
    static let spec = CommandSpec(
        name: "log",
        abstract: "Show the audit history: who changed what, and when.",
        discussion: "Newest first: position in the log, time, actor, event type, the item and what changed. With REF, only that todo's events.",
        arguments: [ArgumentSpec(name: "REF", help: "Only the events of this todo (a number or a unique id prefix).", optional: true)],
        options: [
            OptionSpec(name: "type", valueName: "TYPE", repeatable: true, help: "Only events of this type. Repeat for several.", allowedValues: EventCatalog.types),
            OptionSpec(name: "actor", valueName: "NAME", repeatable: true, help: "Only events appended by this actor (or, on PostgreSQL, this database role). Repeat for several."),
            OptionSpec(name: "field", valueName: "FIELD", repeatable: true, help: "Only events that changed this field of a todo or record. Repeat for several.", allowedValues: ItemFields.all),
            OptionSpec(name: "since", valueName: "WHEN", help: "Only events recorded at or after WHEN (a day means from its start)."),
            OptionSpec(name: "until", valueName: "WHEN", help: "Only events recorded at or before WHEN (a day means to its end)."),
            OptionSpec(name: "limit", valueName: "N", help: "Show at most the N newest matching events."),
            OptionSpec(name: "reverse", help: "Oldest first."),
            OptionSpec(name: "follow", help: "Keep running and print each event as it is committed, by any process or device, until Ctrl-C (with --limit N, the N newest first). One line per event, or one JSON object per line with --json."),
        ],
        examples: [
            CommandExample(command: "tally log --limit 10", explanation: "The ten most recent events."),
            CommandExample(command: "tally log 3", explanation: "Everything that happened to todo 3."),
            CommandExample(command: "tally log --type todo.completed --since -1w", explanation: "What was completed in the last week."),
            CommandExample(command: "tally log 3 --field due", explanation: "Every change of todo 3's due date."),
            CommandExample(command: "tally log --actor bob@work --since monday", explanation: "What bob did since Monday."),
            CommandExample(command: "tally --json log --follow", explanation: "Every new event as a JSON line, as it is committed."),
        ]
    )

    static func run(_ command: ParsedCommand, _ context: CLIContext) throws {
        if command.has("follow") {
            let types = Set(command.values("type"))
            let actors = Set(command.values("actor"))
            let limit = try context.positiveInt(command.value("limit"), option: "--limit")
            try FollowLog.run(command, context, stream: command.arguments.first, matches: { event in
                (types.isEmpty || types.contains(event.type))
                    && (actors.isEmpty || actors.contains(event.actor) || event.role.map(actors.contains) == true)
            }, limit: limit)
            return
        }
        let log = try context.readLog()
        let state = try context.readState(log)
        let stream = try command.arguments.first.map { ref in try ReferenceResolver.todo(ref, in: state).id }
        let types = Set(command.values("type"))
        let since = try instant(command.value("since"), context: context).map { $0.startInstant(in: context.zone) }
        let until = try instant(command.value("until"), context: context).map { $0.endInstant(in: context.zone) }
        let limit = try context.positiveInt(command.value("limit"), option: "--limit") ?? .max
        let actors = Set(command.values("actor"))
        let changed = try fieldChanges(Set(command.values("field")), stream: stream, log: log)
        func matches(_ event: EventEnvelope) -> Bool {
            (types.isEmpty || types.contains(event.type))
                && (actors.isEmpty || actors.contains(event.actor) || event.role.map(actors.contains) == true)
                && changed.map { $0.contains(event.seq) } ?? true
                && since.map { event.recordedAt >= $0 } ?? true
                && until.map { event.recordedAt < $0 } ?? true
        }
        var events: [EventEnvelope] = []
        if let stream {
            for event in try log.events(inStream: stream).reversed() where matches(event) && events.count < limit {
                events.append(event)
            }
        } else {
            try log.scanBackward(before: nil) { event in
                if matches(event) { events.append(event) }
                return events.count < limit
            }
        }
        if command.has("reverse") { events.reverse() }
        if context.json {
            context.printJSON(.array(events.map(JSONShapes.event)))
            return
        }
        guard !events.isEmpty else {
            context.console.line(context.catalog.text(.auditNoEvents))
            return
        }
        let lines = AuditLines(context: context, state: state, prior: try priorItems(events, log: log))
        context.console.line(lines.table(events))
    }

    /// With `--field`: the positions of the events that changed one of `fields` (of the one stream,
    /// or of every item); nil without the option. Creating an item counts for the fields it gave a
    /// value, not for those it left empty.
    /// - Complexity: O(events of the stream), or one pass over the log.
    static func fieldChanges(_ fields: Set<String>, stream: String?, log: EventLog) throws -> Set<Int64>? {
        guard !fields.isEmpty else { return nil }
        var trail = FieldTrail()
        var seqs = Set<Int64>()
        func apply(_ event: EventEnvelope) {
            let changes = trail.apply(event)
            if changes.contains(where: { fields.contains($0.field) && !($0.before == nil && $0.after.isEmptyValue) }) {
                seqs.insert(event.seq)
            }
        }
        if let stream {
            for event in try log.events(inStream: stream) { apply(event) }
        } else {
            try log.scan(after: 0, through: nil) { apply($0) }
        }
        return seqs
    }

    /// Each shown edit event's todo or record as it was just before it, so summaries read before → after.
    /// - Complexity: O(events of the streams edited in the shown events).
    static func priorItems(_ events: [EventEnvelope], log: EventLog) throws -> [Int64: PriorItem] {
        let edits = Set(events.filter { $0.type == "todo.edited" || $0.type == "record.edited" }.map(\.seq))
        var prior: [Int64: PriorItem] = [:]
        var folded = Set<String>()
        for event in events where edits.contains(event.seq) && folded.insert(event.stream).inserted {
            var model = ReadModel()
            for earlier in try log.events(inStream: event.stream) {
                if edits.contains(earlier.seq) {
                    if let todo = model.todo(id: earlier.stream) {
                        prior[earlier.seq] = .todo(todo)
                    } else if let record = model.record(id: earlier.stream) {
                        prior[earlier.seq] = .record(record)
                    }
                }
                try? Reducer.evolve(&model, earlier)
            }
        }
        return prior
    }

    private static func instant(_ raw: String?, context: CLIContext) throws -> When? {
        guard let raw else { return nil }
        do {
            return try When.parse(raw, now: context.now, zone: context.zone, lookingBack: true)
        } catch {
            throw DomainError.invalid(.value(error))
        }
    }
}

/// A todo or record as it was just before an edit.
enum PriorItem {
    case todo(Todo)
    case record(Record)
}

/// The lines of `tally log`: a table of seq, time, actor, type, item and summary.
struct AuditLines {
    let context: CLIContext
    /// The current read models, for item labels.
    let state: ReadModel
    /// Todos and records as they were before shown edits, by the edit's seq.
    let prior: [Int64: PriorItem]

    /// The events as a table, in the order given.
    func table(_ events: [EventEnvelope]) -> String {
        let catalog = context.catalog
        let columns = [
            Table.Column(title: catalog.text(.auditColumnSeq), alignRight: true),
            Table.Column(title: catalog.text(.auditColumnTime)),
            Table.Column(title: catalog.text(.auditColumnActor), truncatable: true, minWidth: 8, dropOrder: 1),
            Table.Column(title: catalog.text(.auditColumnType), dropOrder: 2),
            Table.Column(title: catalog.text(.auditColumnItem), truncatable: true, minWidth: 8, dropOrder: 4),
            Table.Column(title: catalog.text(.auditColumnSummary), truncatable: true, minWidth: 12),
        ]
        // Labels and summaries are worked out once, for either form of the table.
        let described = events.map { (item: item($0), summary: summary($0)) }
        func table(withTime: Bool) -> Table {
            Table(columns: columns, rows: zip(events, described).map { event, described in
                [String(event.seq), Timestamp.formatLocal(event.recordedAt, in: context.zone, withTime: withTime), EventDescriber.who(event), event.type, described.item, described.summary]
            })
        }
        // The item says what a row is about: the time of day goes before it, after actor and type.
        let chosen = Table.leastLoss([(table(withTime: true), nil), (table(withTime: false), 3)], maxWidth: context.settings.width)
        return chosen.render(maxWidth: context.settings.width)
    }

    /// "3: Buy milk" for a known todo or record, the stream name for settings, nothing for history markers.
    func item(_ event: EventEnvelope) -> String {
        if let todo = state.todo(id: event.stream) { return TodoRenderer(context: context).label(todo) }
        if let record = state.record(id: event.stream) { return RecordRenderer(context: context).label(record) }
        if let series = state.series[event.stream] { return (context.settings.unicode ? "↻ " : "r ") + TerminalText.escaped(series.fields.title) }
        if let gear = state.gear[event.stream] { return TerminalText.escaped(gear.name) }
        return event.stream == HistoryStream.name ? "" : event.stream
    }

    /// What the event did; edits as before → after when the todo before them is known.
    func summary(_ event: EventEnvelope) -> String {
        switch (prior[event.seq], try? EventCatalog.decode(event)) {
        case (.todo(let before)?, .todoEdited(let changes)?):
            return ChangeDescriber(context: context, todoNumbers: TodoNumbers(state)).edit(changes, before: before)
        case (.record(let before)?, .recordEdited(let changes)?):
            return ChangeDescriber(context: context, gearNames: GearText.names(state)).edit(changes, before: before)
        default:
            break
        }
        return EventDescriber(catalog: context.catalog, zone: context.zone, gearNames: GearText.names(state), todoNumbers: TodoNumbers(state)).summary(event)
    }
}
