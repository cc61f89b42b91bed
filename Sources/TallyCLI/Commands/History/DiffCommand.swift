import TallyEngine
import TallyDomain
import TallyEssentials
import TallyArguments

/// `tally diff FROM [TO] [--field FIELD]... [--actor NAME]... [--todos | --records]`
enum DiffCommand: CommandHandler {
    static let spec = CommandSpec(
        name: "diff",
        abstract: "Show what changed between two points of the history, per item and field, and who changed it.",
        discussion: "FROM and TO are WHENs or log positions (@SEQ), read as 'list --as-of' reads them; TO defaults to now. For each todo and record whose fields differ between the two: the field, its value before and after, and the last event in between that changed it (position and actor). An item created in between lists the fields it has a value in.",
        arguments: [
            ArgumentSpec(name: "FROM", help: "The earlier point: a WHEN (a day means its end) or @SEQ."),
            ArgumentSpec(name: "TO", help: "The later point (default: now).", optional: true),
        ],
        options: [
            OptionSpec(name: "field", valueName: "FIELD", repeatable: true, help: "Only this field. Repeat for several.", allowedValues: ItemFields.all),
            OptionSpec(name: "actor", valueName: "NAME", repeatable: true, help: "Only fields last changed by this actor (or PostgreSQL role). Repeat for several."),
            OptionSpec(name: "todos", help: "Only todos."),
            OptionSpec(name: "records", help: "Only records."),
        ],
        examples: [
            CommandExample(command: "tally diff monday", explanation: "What changed since the end of Monday."),
            CommandExample(command: "tally diff 2026-11-20 2026-11-21 --field due", explanation: "Which due dates changed on the 21st."),
            CommandExample(command: "tally --json diff @100 @120", explanation: "[{kind, id, number, field, before, after, seq, actor, ...}] for scripts."),
        ]
    )

    static func run(_ command: ParsedCommand, _ context: CLIContext) throws {
        guard let fromText = command.arguments.first else { throw UsageError(kind: .missingArgument("FROM"), commandPath: command.path) }
        if command.arguments.count > 2 { throw UsageError(kind: .unexpectedArgument(command.arguments[2]), commandPath: command.path) }
        if command.has("todos"), command.has("records") { throw UsageError(kind: .conflictingOptions("--todos", "--records"), commandPath: command.path) }
        let log = try context.readLog()
        let from = try context.asOfBound(fromText)
        let to = try context.asOfBound(command.arguments.count > 1 ? command.arguments[1] : nil)
        try TimeTravel.check(from, against: log)
        try TimeTravel.check(to, against: log)
        var differ = HistoryDiff()
        try log.scan(after: 0, through: nil) { event in
            differ.apply(event, inFrom: includes(from, event), inTo: includes(to, event))
        }
        let fields = Set(command.values("field"))
        let actors = Set(command.values("actor"))
        let diffs = differ.differences().filter { diff in
            (fields.isEmpty || fields.contains(diff.field))
                && (actors.isEmpty || diff.changedBy.map { actors.contains($0.actor) || $0.role.map(actors.contains) == true } == true)
                && (!command.has("todos") || diff.kind == .todo) && (!command.has("records") || diff.kind == .record)
        }
        if context.json {
            context.printJSON(.array(diffs.map(json)))
            return
        }
        let catalog = context.catalog
        guard !diffs.isEmpty else {
            context.console.line(catalog.text(.diffNoChanges))
            return
        }
        let columns = [
            Table.Column(title: catalog.text(.auditColumnItem), truncatable: true, minWidth: 8),
            Table.Column(title: catalog.text(.blameColumnField)),
            Table.Column(title: catalog.text(.diffColumnBefore), truncatable: true, minWidth: 6),
            Table.Column(title: catalog.text(.diffColumnAfter), truncatable: true, minWidth: 6),
            Table.Column(title: catalog.text(.auditColumnSeq), alignRight: true, dropOrder: 2),
            Table.Column(title: catalog.text(.auditColumnActor), truncatable: true, minWidth: 8, dropOrder: 1),
        ]
        var previous: String?
        let numbers = TodoNumbers(differ.after)
        let rows = diffs.map { diff -> [String] in
            let label = self.label(diff, differ.after, context)
            defer { previous = diff.stream }
            return [
                previous == diff.stream ? "" : label, diff.field,
                diff.before.map { FieldText.human($0, field: diff.field, catalog, numbers: numbers) } ?? catalog.text(.diffNew),
                FieldText.human(diff.after, field: diff.field, catalog, numbers: numbers),
                diff.changedBy.map { String($0.seq) } ?? "", diff.changedBy.map(EventDescriber.who) ?? "",
            ]
        }
        context.console.line(Table(columns: columns, rows: rows).render(maxWidth: context.settings.width))
    }

    /// Whether the fold at `bound` takes `event`, as `list --as-of` folds (nil: every event).
    static func includes(_ bound: Replayer.Bound?, _ event: EventEnvelope) -> Bool {
        switch bound {
        case nil: true
        case .position(let seq)?: event.seq <= seq
        case .instant(let ms)?: event.recordedAt <= ms
        }
    }

    /// "3: Buy milk" as the item is at the later point.
    static func label(_ diff: FieldDiff, _ model: ReadModel, _ context: CLIContext) -> String {
        RevertCommand.label(diff.stream, model, context)
    }

    static func json(_ diff: FieldDiff) -> JSON {
        var object: JSONObject = [
            "kind": .string(diff.kind.rawValue), "id": .string(diff.stream), "number": .int(Int64(diff.number)),
            "field": .string(diff.field), "before": diff.before ?? .null, "after": diff.after, "new": .bool(diff.before == nil),
        ]
        if let event = diff.changedBy {
            object["seq"] = .int(event.seq)
            object["actor"] = .string(event.actor)
            object["recordedAt"] = .string(Timestamp.format(event.recordedAt))
            object["command"] = .string(event.command)
            if let role = event.role { object["role"] = .string(role) }
        }
        return .object(object)
    }
}
