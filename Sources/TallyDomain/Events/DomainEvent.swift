/// The fields a todo is created with.
public struct TodoFields: Sendable, Equatable {
    public var title: String
    public var tags: [String]
    public var priority: Priority?
    public var due: Due?
    public var note: String?

    public init(title: String, tags: [String] = [], priority: Priority? = nil, due: Due? = nil, note: String? = nil) {
        self.title = title
        self.tags = tags
        self.priority = priority
        self.due = due
        self.note = note
    }
}

/// The fields an edit changes. `nil` means unchanged; for nullable fields `.some(nil)` clears.
public struct TodoChanges: Sendable, Equatable {
    public var title: String?
    public var tags: [String]?
    public var priority: Priority??
    public var due: Due??
    public var note: String??

    public init(title: String? = nil, tags: [String]? = nil, priority: Priority?? = nil, due: Due?? = nil, note: String?? = nil) {
        self.title = title
        self.tags = tags
        self.priority = priority
        self.due = due
        self.note = note
    }

    /// True when the edit would change nothing at all.
    public var isEmpty: Bool {
        title == nil && tags == nil && priority == nil && due == nil && note == nil
    }
}

/// Which saved default view a filter event is about.
public enum FilterScope: String, Sendable, CaseIterable {
    case todos, records

    /// The stream that holds the scope's saved filter.
    public var stream: String { "filter:\(rawValue)" }
}

/// An immutable fact, named in the past tense. The envelope (stream, time, actor) lives in `EventEnvelope`.
public enum DomainEvent: Sendable, Equatable {
    case todoCreated(TodoFields)
    case todoEdited(TodoChanges)
    case todoCompleted
    case todoReopened
    case todoDeleted
    case todoRestored
    case filterSaved(scope: FilterScope, filter: JSONObject)
    case filterReset(scope: FilterScope)
    case historyUndone(command: String)
    case historyRedone(command: String)
}
