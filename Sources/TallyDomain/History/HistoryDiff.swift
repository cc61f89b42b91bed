import TallyEssentials

/// One field of one item that differs between two points of the history.
public struct FieldDiff: Sendable {
    public enum Kind: String, Sendable { case todo, record }
    public var kind: Kind
    public var stream: String
    public var number: Int
    public var field: String
    /// nil when the item did not exist at the first point.
    public var before: JSON?
    public var after: JSON
    /// The last event between the two points that changed this field; nil when none did (the
    /// points are not one after the other, such as an instant and a position that cross).
    public var changedBy: EventEnvelope?
}

/// `diff FROM TO`: folds the log once into the state at each point and says, per item and field,
/// what differs and which event last changed it in between. Pure: the caller says which points
/// each event is part of (as `list --as-of` folds them), in log order.
/// - Complexity: O(events × fields) time; memory O(state) twice.
public struct HistoryDiff {
    private var from = FieldTrail()
    private var to = FieldTrail()
    private var changers: [String: [String: EventEnvelope]] = [:]

    public init() {}

    /// The state at the second point.
    public var after: ReadModel { to.model }

    /// Folds `event` into the states it is part of; an event in `to` but not in `from` is a change in between.
    public mutating func apply(_ event: EventEnvelope, inFrom: Bool, inTo: Bool) {
        if inFrom { _ = from.apply(event) }
        guard inTo else { return }
        let changes = to.apply(event)
        guard !inFrom else { return }
        for change in changes { changers[event.stream, default: [:]][change.field] = event }
    }

    /// The differing fields, todos then records in number order, fields in `ItemFields` order. A
    /// new item lists only the fields it has a value in.
    public func differences() -> [FieldDiff] {
        var diffs: [FieldDiff] = []
        func compare(_ kind: FieldDiff.Kind, _ stream: String, _ number: Int, _ after: [(field: String, value: JSON)]) {
            let before = ItemFields.values(in: from.model, stream: stream)
            for (index, entry) in after.enumerated() {
                let old = before?[index].value
                guard old != entry.value, !(old == nil && entry.value.isEmptyValue) else { continue }
                diffs.append(FieldDiff(
                    kind: kind, stream: stream, number: number, field: entry.field, before: old, after: entry.value,
                    changedBy: changers[stream]?[entry.field]
                ))
            }
        }
        for todo in to.model.todos { compare(.todo, todo.id, todo.number, ItemFields.values(todo)) }
        for record in to.model.records { compare(.record, record.id, record.number, ItemFields.values(record)) }
        return diffs
    }
}
