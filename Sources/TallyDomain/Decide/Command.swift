/// A todo's fields as the user typed them; the decider validates and normalises them.
public struct TodoInput: Sendable, Equatable {
    public var title: String
    public var tags: [String]
    public var priority: String?
    public var due: String?
    public var note: String?

    public init(title: String, tags: [String] = [], priority: String? = nil, due: String? = nil, note: String? = nil) {
        self.title = title
        self.tags = tags
        self.priority = priority
        self.due = due
        self.note = note
    }
}

/// What `edit` was asked to change, as typed. `"none"` clears priority, due and note.
public struct TodoEditInput: Sendable, Equatable {
    public var title: String?
    /// `+tag` or `tag` adds, `-tag` removes.
    public var tagChanges: [String]
    public var priority: String?
    public var due: String?
    public var note: String?

    public init(title: String? = nil, tagChanges: [String] = [], priority: String? = nil, due: String? = nil, note: String? = nil) {
        self.title = title
        self.tagChanges = tagChanges
        self.priority = priority
        self.due = due
        self.note = note
    }

    /// True when no field was named at all.
    public var isEmpty: Bool {
        title == nil && tagChanges.isEmpty && priority == nil && due == nil && note == nil
    }
}

/// An intention of the user, in the imperative. The decider turns it into events or rejects it.
public enum Command: Sendable, Equatable {
    case addTodo(TodoInput)
    case toggleTodos([String])
    case toggleAllTodos
    case completeTodos([String])
    case reopenTodos([String])
    case editTodo(String, TodoEditInput)
    case deleteTodos([String])
    case deleteCompletedTodos
    case saveTodoFilter(TodoQuery)
    case resetFilter(FilterScope)
}
