import TallyEssentials

/// The fields of a todo or record that history questions name (`log --field`, `blame`, `diff`),
/// with their values as JSON, the same shapes `--json` prints. Pure.
public enum ItemFields {
    /// A todo's fields, in the order they are shown.
    public static let todo = ["title", "tags", "project", "priority", "due", "wait", "note", "annotations", "after", "series", "completed", "deleted"]
    /// A record's fields, in the order they are shown.
    public static let record = ["name", "category", "date", "durationSeconds", "distanceMeters", "place", "note", "effort", "gear", "deleted"]
    /// Every field name a history option takes.
    public static let all: [String] = {
        var seen = Set<String>()
        return (todo + record).filter { seen.insert($0).inserted }
    }()

    /// A todo's fields and values, in `todo` order.
    public static func values(_ todo: Todo) -> [(field: String, value: JSON)] {
        [
            ("title", .string(todo.title)),
            ("tags", .array(todo.tags.map { .string($0) })),
            ("project", todo.project.map { .string($0) } ?? .null),
            ("priority", todo.priority.map { .string($0.rawValue) } ?? .null),
            ("due", todo.due.map { .string($0.storageText) } ?? .null),
            ("wait", todo.wait.map { .string($0.storageText) } ?? .null),
            ("note", todo.note.map { .string($0) } ?? .null),
            // Each as `--json` gives it: `{"id", "at", "text"}`, oldest first.
            ("annotations", .array(todo.annotations.map { annotation in
                .object(["id": .string(annotation.id), "at": .string(Timestamp.format(annotation.at)), "text": .string(annotation.text)])
            })),
            // The ids of the todos it waits for, as `--json` gives them.
            ("after", .array(todo.after.map { .string($0) })),
            ("series", todo.series.map { .string($0) } ?? .null),
            ("completed", .bool(todo.completed)),
            ("deleted", .bool(todo.deleted)),
        ]
    }

    /// A record's fields and values, in `record` order.
    public static func values(_ record: Record) -> [(field: String, value: JSON)] {
        [
            ("name", .string(record.name)),
            ("category", .string(record.category)),
            ("date", .string(Timestamp.format(record.date))),
            ("durationSeconds", .int(Int64(record.durationSeconds))),
            ("distanceMeters", record.distanceMeters.map { .double(Distance.toMillimetre($0)) } ?? .null),
            ("place", record.place.map { .string($0) } ?? .null),
            ("note", record.note.map { .string($0) } ?? .null),
            ("effort", record.effort.map { .int(Int64($0)) } ?? .null),
            ("gear", record.gear.map { .string($0) } ?? .null),
            ("deleted", .bool(record.deleted)),
        ]
    }

    /// The fields of the todo or record with this stream id in `model`; nil when it holds neither.
    public static func values(in model: ReadModel, stream: String) -> [(field: String, value: JSON)]? {
        if let todo = model.todo(id: stream) { return values(todo) }
        if let record = model.record(id: stream) { return values(record) }
        return nil
    }
}

/// One field of one item changed by one event.
public struct FieldChange: Sendable, Equatable {
    public var field: String
    /// nil before the item existed.
    public var before: JSON?
    public var after: JSON

    public init(field: String, before: JSON?, after: JSON) {
        self.field = field
        self.before = before
        self.after = after
    }
}

/// Folds events one at a time and says which fields of which item each one changed: the ground
/// truth behind `log --field`, `blame` and `diff`, taken from the reducer itself, so a field is
/// attributed to an event exactly when folding that event changed its value. Pure.
/// - Complexity: O(fields) per event on top of the fold.
public struct FieldTrail {
    public private(set) var model = ReadModel()

    public init() {}

    /// Folds `event` and returns the fields of its item it changed (none for events on other
    /// streams, on no item, or that cannot be decoded; those are folded as the replay folds them).
    public mutating func apply(_ event: EventEnvelope) -> [FieldChange] {
        let before = ItemFields.values(in: model, stream: event.stream)
        do {
            try Reducer.evolve(&model, event)
        } catch {
            return []
        }
        guard let after = ItemFields.values(in: model, stream: event.stream) else { return [] }
        var changes: [FieldChange] = []
        for (index, entry) in after.enumerated() {
            let old = before?[index].value
            if old != entry.value { changes.append(FieldChange(field: entry.field, before: old, after: entry.value)) }
        }
        return changes
    }
}

extension JSON {
    /// True for the values an item's field holds when nothing was set: null, false, an empty list or text.
    public var isEmptyValue: Bool {
        switch self {
        case .null, .bool(false): true
        case .array(let items): items.isEmpty
        case .string(let text): text.isEmpty
        default: false
        }
    }
}
