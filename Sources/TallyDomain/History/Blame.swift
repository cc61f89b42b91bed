import TallyEssentials

/// How an event came into this log, as far as the log itself tells.
public enum Arrival: Sendable, Equatable {
    /// An ordinary command run here or on another device.
    case command
    /// Part of an undo of the command with this id.
    case undo(of: String)
    /// Part of a redo of the command with this id.
    case redo(of: String)
    /// Created by an import from another tool: the tool and the item's id there (a Taskwarrior
    /// uuid, a todo.txt line number), or an imported activity file (`tool` "activity", no id).
    case imported(tool: String, id: String?)
    /// Pulled from the shared log by `sync`: appended by another actor (device) and within this
    /// replica's synced prefix.
    case synced(device: String)
}

/// Which commands of a log were undos and redos, and of what: read from the history markers.
public struct HistoryMarkers: Sendable {
    /// Undo command id → the command it undid.
    public var undone: [String: String] = [:]
    /// Redo command id → the command it redid.
    public var redone: [String: String] = [:]
    /// Undo command id → every command it undid (an undo of several steps has a marker for each).
    public var undid: [String: Set<String>] = [:]
    /// Redo command id → every command it re-applied.
    public var redid: [String: Set<String>] = [:]
    /// The commands undone now: undone, and not redone since.
    public var undoneNow: Set<String> = []

    public init() {}

    /// From the events of the history stream (others are ignored), in log order.
    public init(_ events: [EventEnvelope]) {
        for event in events {
            switch try? EventCatalog.decode(event) {
            case .historyUndone(let command)?:
                undone[event.command] = command
                undid[event.command, default: []].insert(command)
                undoneNow.insert(command)
            case .historyRedone(let command)?:
                redone[event.command] = command
                redid[event.command, default: []].insert(command)
                undoneNow.remove(command)
            default: break
            }
        }
    }

    /// How `event` came, given the replica's synced prefix (nil when this log is not a replica)
    /// and who runs the command here.
    public func arrival(of event: EventEnvelope, synced: Int64?, localActor: String) -> Arrival {
        if let undid = undone[event.command] { return .undo(of: undid) }
        if let redid = redone[event.command] { return .redo(of: redid) }
        switch try? EventCatalog.decode(event) {
        case .todoCreated(let fields)? where fields.origin != nil:
            if let origin = fields.origin { return .imported(tool: origin.tool.rawValue, id: origin.id) }
        case .recordLogged(let fields)? where fields.source == .import:
            return .imported(tool: "activity", id: nil)
        default:
            break
        }
        if let synced, event.seq <= synced, event.actor != localActor { return .synced(device: event.actor) }
        return .command
    }
}

/// One field of an item as `blame` shows it: its current value and the event that gave it.
public struct BlameLine: Sendable {
    public var field: String
    public var value: JSON
    public var event: EventEnvelope
    public var arrival: Arrival
}

/// `blame`: for each field of one item, the event whose fold last changed it. Pure.
public enum Blame {
    /// The lines of the item on `stream`, in field order; nil when the events make no todo or record.
    /// - Complexity: O(events × fields).
    public static func lines(
        stream events: [EventEnvelope], markers: HistoryMarkers, synced: Int64?, localActor: String
    ) -> [BlameLine]? {
        var trail = FieldTrail()
        var setBy: [String: EventEnvelope] = [:]
        for event in events {
            for change in trail.apply(event) { setBy[change.field] = event }
        }
        guard let stream = events.first?.stream, let values = ItemFields.values(in: trail.model, stream: stream) else { return nil }
        return values.compactMap { entry in
            guard let event = setBy[entry.field] else { return nil }
            return BlameLine(field: entry.field, value: entry.value, event: event, arrival: markers.arrival(of: event, synced: synced, localActor: localActor))
        }
    }
}
