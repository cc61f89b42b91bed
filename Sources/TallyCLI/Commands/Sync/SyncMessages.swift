import TallyEngine
import TallyDomain
import TallyEssentials

/// How sync results and failures read: conflict lines, renumberings, and their JSON shapes.
enum SyncMessages {
    static func failure(_ error: RemoteError, catalog: Catalog) -> Failure {
        switch error {
        case .noRemote:
            return Failure(exit: .failure, code: "no_remote", message: catalog.text(.syncNoRemote))
        case .unreachable(let address, let reason):
            return Failure(exit: .ioError, code: "unreachable", message: catalog.text(.syncUnreachable, ["url": address, "reason": reason]))
        case .notLocal(let address):
            return Failure(exit: .failure, code: "not_local", message: catalog.text(.syncNotLocal, ["url": address]))
        case .sameFile(let address):
            return Failure(exit: .failure, code: "same_file", message: catalog.text(.syncSameFile, ["url": address]))
        case .sync(let address, .diverged(let synced, let remoteHead, let found, let first)):
            return Failure(exit: .failure, code: "diverged", message: catalog.text(.syncDiverged, [
                "url": address, "seq": String(synced.seq), "first": String(first), "hash": String(synced.hash.prefix(16)),
                "found": found.map { String($0.prefix(16)) } ?? catalog.text(.syncMissing, ["count": String(remoteHead.seq)]),
            ]))
        case .sync(let address, .brokenRemote(let seq)):
            return Failure(exit: .failure, code: "broken_remote", message: catalog.text(.syncBroken, ["url": address, "seq": String(seq)]))
        case .sync(let address, .altered(let mismatch)):
            return Failure(exit: .failure, code: "altered", message: catalog.text(.syncAltered, [
                "url": address, "seq": String(mismatch.seq), "what": catalog.text(words(mismatch.kind)),
            ]))
        case .sync(let address, .invalidEvent(let seq, let type, let reason)):
            return Failure(exit: .invalidData, code: "invalid_event", message: catalog.text(.syncInvalidEvent, [
                "url": address, "seq": String(seq), "type": type, "reason": reason,
            ]))
        case .sync(_, .kept(let attempts)):
            return Failure(exit: .busy, code: "busy", message: catalog.text(.syncKeptMoving, ["count": String(attempts)]))
        }
    }

    /// How the shared log's copy of an event differs from this database's.
    static func words(_ kind: PrefixMismatch.Kind) -> MessageID {
        switch kind {
        case .content: .syncAlteredContent
        case .link: .syncAlteredLink
        case .missing: .syncAlteredMissing
        }
    }

    /// `todo 3 'Milk'`, `record 2 'Run'`, `the saved view of todos`: the item as it is now, else as it was.
    static func item(_ stream: String, now: ReadModel, before: ReadModel, catalog: Catalog) -> String {
        for model in [now, before] {
            if let todo = model.todo(id: stream) { return catalog.text(.syncItemTodo, ["number": String(todo.number), "title": todo.title]) }
            if let record = model.record(id: stream) { return catalog.text(.syncItemRecord, ["number": String(record.number), "title": record.name]) }
        }
        if let scope = FilterScope.allCases.first(where: { $0.stream == stream }) {
            return catalog.text(.syncItemView, ["scope": scope.rawValue])
        }
        return catalog.text(.syncItemOther, ["stream": stream])
    }

    /// One line naming a conflict.
    static func line(_ conflict: SyncConflict, now: ReadModel, before: ReadModel, context: CLIContext) -> String {
        let catalog = context.catalog
        let numbers = TodoNumbers(now, before)
        let words = words(conflict, numbers: numbers, context: context)
        var arguments = [
            "item": item(conflict.stream, now: now, before: before, catalog: catalog),
            "field": words.field, "change": words.change, "value": words.value,
        ]
        if let other = conflict.other {
            arguments["actor"] = other.actor
            arguments["other"] = value(other.value, field: conflict.field, type: conflict.type, numbers: numbers, context: context).value
            arguments["time"] = Timestamp.formatLocal(other.recordedAt, in: context.zone, withTime: true)
        }
        let id: MessageID = switch conflict.kind {
        case .overridden: .syncOverridden
        case .overrides: .syncOverrides
        case .deleted: conflict.other == nil ? .syncDeleted : .syncDeletedBy
        case .redundant: .syncRedundant
        case .duplicate: .syncDuplicate
        case .impossible: .syncImpossible
        case .cycle: .syncCycle
        }
        if conflict.kind == .cycle {
            // The cycle the dropped edges would close on the merged state.
            let after = conflict.value?.arrayValue?.compactMap(\.stringValue) ?? []
            let ids = TodoDependencies(now).cycle(from: conflict.stream, after: after) ?? []
            arguments["cycle"] = ids.map(numbers.text).joined(separator: " → ")
        }
        return catalog.text(id, arguments)
    }

    /// A conflict in the user's words: the field as `show` labels it, the value as the CLI prints
    /// it, and the change as a whole (`title 'Oat milk'`, `status completed`, `edit`); the todos
    /// one waits for by the numbers `numbers` finds.
    static func words(_ conflict: SyncConflict, numbers: TodoNumbers, context: CLIContext) -> (field: String, value: String, change: String) {
        guard let field = conflict.field else {
            let change = context.catalog.text(change(of: conflict.type))
            return (change, "", change)
        }
        let (label, text) = value(conflict.value ?? .null, field: field, type: conflict.type, numbers: numbers, context: context)
        return (label, text, label + " " + text)
    }

    /// The noun for a whole local event that was dropped: `completion`, `edit`, ...
    static func change(of type: String) -> MessageID {
        switch type {
        case "todo.edited", "record.edited": .syncChangeEdit
        case "todo.completed": .syncChangeCompletion
        case "todo.reopened": .syncChangeReopening
        case "todo.deleted", "record.deleted": .syncChangeDeletion
        case "todo.restored", "record.restored": .syncChangeRestoration
        case "todo.created", "record.logged": .syncChangeCreation
        case "series.started", "series.changed", "series.ended", "series.resumed": .syncChangeRecurrence
        case "filter.saved", "filter.reset": .syncFieldView
        default: .syncChangeOther
        }
    }

    /// One field's label and value as `show` and the CLI print them; an unknown field keeps its
    /// name and its value as typed.
    static func value(_ json: JSON, field: String?, type: String, numbers: TodoNumbers, context: CLIContext) -> (label: String, value: String) {
        let catalog = context.catalog
        let describer = ChangeDescriber(context: context, todoNumbers: numbers)
        let flag = json.boolValue
        switch field {
        case "completed"?:
            return (describer.label(.fieldStatus), catalog.text(flag == true ? .statusCompleted : .statusActive))
        case "deleted"?:
            return (describer.label(.fieldStatus), catalog.text(flag == true ? .statusDeleted : .statusActive))
        case "ended"?:
            return (describer.label(.showSeries), catalog.text(flag == true ? .showSeriesEnded : .syncSeriesRunning))
        case "filter"?:
            let view = describer.view(json.objectValue)
            return (catalog.text(.syncFieldView), json.objectValue == nil ? view : "'\(view)'")
        case let key?:
            let payload = JSONObject([(key, json)])
            if type.hasPrefix("todo."),
               case .todoEdited(let changes)? = try? EventCatalog.decode(type: "todo.edited", schema: EventCatalog.currentSchemas["todo.edited"] ?? 1, data: payload),
               let words = describer.field(key, of: changes)
            {
                return words
            }
            if type.hasPrefix("record."),
               case .recordEdited(let changes)? = try? EventCatalog.decode(type: "record.edited", schema: EventCatalog.currentSchemas["record.edited"] ?? 1, data: payload),
               let words = describer.field(key, of: changes)
            {
                return words
            }
            return (key, value(json))
        case nil:
            return ("", value(json))
        }
    }

    /// A value as the user typed it: strings quoted, lists joined, null as `none`.
    static func value(_ json: JSON?) -> String {
        switch json {
        case nil, .null?: return "none"
        case .string(let text)?: return "'\(text)'"
        case .array(let items)?: return "[" + items.map { $0.stringValue ?? $0.serialized(.compact) }.joined(separator: ", ") + "]"
        case let other?: return other.serialized(.compact)
        }
    }

    static func renumbered(_ item: Renumbering, catalog: Catalog) -> String {
        catalog.text(item.kind == .todo ? .syncRenumberedTodo : .syncRenumberedRecord, ["from": String(item.from), "to": String(item.to)])
    }

    static func json(_ conflict: SyncConflict, now: ReadModel) -> JSON {
        var object: JSONObject = [
            "kind": .string(conflict.kind.rawValue), "dropped": .bool(conflict.dropped),
            "event": .string(conflict.event), "command": .string(conflict.command), "stream": .string(conflict.stream),
            "type": .string(conflict.type), "actor": .string(conflict.actor),
            "recordedAt": .string(Timestamp.format(conflict.recordedAt)),
            "field": conflict.field.map(JSON.string) ?? .null, "value": conflict.value ?? .null,
            "other": conflict.other.map { other in
                .object(["event": .string(other.event), "actor": .string(other.actor), "recordedAt": .string(Timestamp.format(other.recordedAt)), "value": other.value])
            } ?? .null,
        ]
        if let todo = now.todo(id: conflict.stream) {
            object["item"] = .object(["kind": "todo", "number": .int(Int64(todo.number))])
        } else if let record = now.record(id: conflict.stream) {
            object["item"] = .object(["kind": "record", "number": .int(Int64(record.number))])
        } else {
            object["item"] = .null
        }
        return .object(object)
    }

    static func json(_ item: Renumbering) -> JSON {
        .object(["kind": .string(item.kind.rawValue), "id": .string(item.stream), "from": .int(Int64(item.from)), "to": .int(Int64(item.to))])
    }
}
