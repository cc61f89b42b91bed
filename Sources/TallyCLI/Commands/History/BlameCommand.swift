import TallyEngine
import TallyDomain
import TallyEssentials
import TallyArguments

/// `tally blame REF [--record]`: each field's current value and the event that set it.
enum BlameCommand: CommandHandler {
    static let spec = CommandSpec(
        name: "blame",
        abstract: "Show each field of a todo or record with the event that gave it its current value.",
        discussion: "For every field: the current value, the position of the event whose fold last changed it, when, who (and, on PostgreSQL, the database role the server recorded), and how it came: a command, an undo or redo of a command, an import from another tool with the item's id there, or a sync from another device.",
        arguments: [ArgumentSpec(name: "REF", help: "The todo (a number or a unique id prefix); with --record, the record.")],
        options: [OptionSpec(name: "record", help: "REF names a record, not a todo.")],
        examples: [
            CommandExample(command: "tally blame 3", explanation: "Who set todo 3's title, due date, tags, ..., and when."),
            CommandExample(command: "tally blame 12 --record", explanation: "The same for record 12."),
            CommandExample(command: "tally --json blame 3", explanation: "[{field, value, seq, id, actor, role?, recordedAt, command, how}] for scripts."),
        ]
    )

    static func run(_ command: ParsedCommand, _ context: CLIContext) throws {
        guard let ref = command.arguments.first else { throw UsageError(kind: .missingArgument("REF"), commandPath: command.path) }
        if command.arguments.count > 1 { throw UsageError(kind: .unexpectedArgument(command.arguments[1]), commandPath: command.path) }
        let log = try context.readLog()
        let state = try context.readState(log)
        let stream = command.has("record") ? try ReferenceResolver.record(ref, in: state).id : try ReferenceResolver.todo(ref, in: state).id
        let markers = HistoryMarkers(try log.events(inStream: HistoryStream.name))
        let lines = Blame.lines(
            stream: try log.events(inStream: stream), markers: markers, synced: try syncedPrefix(log, context), localActor: context.environment.actor
        ) ?? []
        if context.json {
            context.printJSON(.array(lines.map { line in
                var object: JSONObject = [
                    "field": .string(line.field), "value": line.value, "seq": .int(line.event.seq), "id": .string(line.event.id),
                    "actor": .string(line.event.actor), "recordedAt": .string(Timestamp.format(line.event.recordedAt)),
                    "command": .string(line.event.command), "how": how(line.arrival),
                ]
                if let role = line.event.role { object["role"] = .string(role) }
                return .object(object)
            }))
            return
        }
        let catalog = context.catalog
        let columns = [
            Table.Column(title: catalog.text(.blameColumnField)),
            Table.Column(title: catalog.text(.blameColumnValue), truncatable: true, minWidth: 8),
            Table.Column(title: catalog.text(.auditColumnSeq), alignRight: true),
            Table.Column(title: catalog.text(.auditColumnTime), dropOrder: 2),
            Table.Column(title: catalog.text(.auditColumnActor), truncatable: true, minWidth: 8, dropOrder: 3),
            Table.Column(title: catalog.text(.blameColumnHow), truncatable: true, minWidth: 8, dropOrder: 1),
        ]
        let numbers = TodoNumbers(state)
        let rows = lines.map { line in
            [
                line.field, FieldText.human(line.value, field: line.field, catalog, numbers: numbers), String(line.event.seq),
                Timestamp.formatLocal(line.event.recordedAt, in: context.zone, withTime: true), EventDescriber.who(line.event),
                howText(line.arrival, command: line.event.command, catalog),
            ]
        }
        context.console.line(Table(columns: columns, rows: rows).render(maxWidth: context.settings.width))
    }

    /// The synced prefix when this database is a replica with a remote; nil otherwise.
    static func syncedPrefix(_ log: any EventStore, _ context: CLIContext) throws -> Int64? {
        guard !context.settings.storeLocation.isShared, let replica = log.replica else { return nil }
        let state = try replica.replicaState()
        return state.remote == nil && state.synced.seq == 0 ? nil : state.synced.seq
    }

    /// `how` in `--json`: `{"kind": "command" | "undo" | "redo" | "import" | "sync", ...}`.
    static func how(_ arrival: Arrival) -> JSON {
        switch arrival {
        case .command: .object(["kind": "command"])
        case .undo(let of): .object(["kind": "undo", "of": .string(of)])
        case .redo(let of): .object(["kind": "redo", "of": .string(of)])
        case .imported(let tool, let id): .object(["kind": "import", "tool": .string(tool), "id": id.map { .string($0) } ?? .null])
        case .synced(let device): .object(["kind": "sync", "device": .string(device)])
        }
    }

    /// `how` in words; command ids shortened to 8 digits as `undo` prints them.
    static func howText(_ arrival: Arrival, command: String, _ catalog: Catalog) -> String {
        switch arrival {
        case .command: catalog.text(.blameHowCommand, ["command": String(command.prefix(8))])
        case .undo(let of): catalog.text(.blameHowUndo, ["command": String(of.prefix(8))])
        case .redo(let of): catalog.text(.blameHowRedo, ["command": String(of.prefix(8))])
        case .imported(let tool, let id?): catalog.text(.blameHowImport, ["tool": tool, "id": id])
        case .imported(_, nil): catalog.text(.blameHowImportActivity)
        case .synced(let device): catalog.text(.blameHowSync, ["device": device])
        }
    }
}

/// A field's value in words for tables: text as it is (escaped), none for nothing, lists joined.
enum FieldText {
    /// As `human(_:_:)`, but the todos of `after` by their numbers (`2, 5`) where `--json` gives
    /// ids, and annotations by their texts (`Called; left a message`).
    static func human(_ value: JSON, field: String, _ catalog: Catalog, numbers: TodoNumbers) -> String {
        guard case .array(let items) = value, !items.isEmpty else { return human(value, catalog) }
        switch field {
        case "after": return items.map { $0.stringValue.map(numbers.text) ?? human($0, catalog) }.joined(separator: ", ")
        case "annotations": return items.map { $0.objectValue?["text"].map { human($0, catalog) } ?? human($0, catalog) }.joined(separator: "; ")
        default: return human(value, catalog)
        }
    }

    static func human(_ value: JSON, _ catalog: Catalog) -> String {
        switch value {
        case .null: catalog.text(.fieldValueNone)
        case .bool(let flag): catalog.text(flag ? .fieldValueYes : .fieldValueNo)
        case .int(let number): String(number)
        case .double(let number): String(number)
        case .string(let text): TerminalText.escaped(text)
        case .array(let items): items.isEmpty ? catalog.text(.fieldValueNone) : items.map { human($0, catalog) }.joined(separator: ", ")
        case .object: TerminalText.escaped(value.serialized(.compact))
        }
    }
}
