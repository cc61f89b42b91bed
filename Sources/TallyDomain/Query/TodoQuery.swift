import TallyEssentials

/// Which todos a view shows by completion state.
public enum TodoStatus: String, Sendable, CaseIterable {
    case active, completed, all
}

/// What a view does with todos that wait (`--wait`) until a later day or time.
public enum WaitingFilter: String, Sendable, CaseIterable {
    /// Hidden, and counted in the footer (the default).
    case hide
    /// Shown with the others (`--status all` typed out).
    case include
    /// Only the waiting ones (`--waiting`).
    case only
}

/// The orders a todo view can be sorted in; each has a natural direction.
public enum TodoSortKey: String, Sendable, CaseIterable {
    /// Oldest first.
    case created
    /// Least recently changed first.
    case updated
    /// Soonest first, undated last.
    case due
    /// High first, unprioritised last.
    case priority
    /// A to Z, ignoring case.
    case title
}

/// The options of `tally list`: what to show and in which order.
///
/// Date bounds are kept as the user wrote them (`tomorrow`, `+3d`) so that a
/// saved view stays relative; they are resolved against the clock when the
/// query runs.
public struct TodoQuery: Sendable, Equatable {
    public var status: TodoStatus
    public var tags: [String]
    public var priority: Priority?
    public var dueBefore: String?
    public var dueAfter: String?
    public var search: String?
    public var sort: TodoSortKey
    public var reverse: Bool
    public var limit: Int?
    public var includeDeleted: Bool
    public var waiting: WaitingFilter = .hide
    /// `--project home`: todos in the project or below it.
    public var project: String?
    /// A filter expression (`tag:shop or project:home`), on top of the other options.
    public var expression: FilterExpression?

    public init(
        status: TodoStatus = .all, tags: [String] = [], priority: Priority? = nil,
        dueBefore: String? = nil, dueAfter: String? = nil, search: String? = nil,
        sort: TodoSortKey = .created, reverse: Bool = false, limit: Int? = nil,
        includeDeleted: Bool = false
    ) {
        self.status = status
        self.tags = tags
        self.priority = priority
        self.dueBefore = dueBefore
        self.dueAfter = dueAfter
        self.search = search
        self.sort = sort
        self.reverse = reverse
        self.limit = limit
        self.includeDeleted = includeDeleted
    }

    /// The default view: every live todo in creation order.
    public static let standard = TodoQuery()
}

extension TodoQuery {
    /// The JSON object stored in a `filter.saved` event; only options that differ from the default are written.
    public var json: JSONObject {
        var object = JSONObject()
        if status != .all { object["status"] = .string(status.rawValue) }
        if !tags.isEmpty { object["tags"] = .array(tags.map { .string($0) }) }
        if let priority { object["priority"] = .string(priority.rawValue) }
        if let dueBefore { object["dueBefore"] = .string(dueBefore) }
        if let dueAfter { object["dueAfter"] = .string(dueAfter) }
        if let search { object["search"] = .string(search) }
        if sort != .created { object["sort"] = .string(sort.rawValue) }
        if reverse { object["reverse"] = .bool(true) }
        if let limit { object["limit"] = .int(Int64(limit)) }
        if includeDeleted { object["deleted"] = .bool(true) }
        if waiting != .hide { object["waiting"] = .string(waiting.rawValue) }
        if let project { object["project"] = .string(project) }
        if let expression { object["expression"] = .string(expression.canonical) }
        return object
    }

    /// Reads a stored filter object; unknown keys are ignored, malformed values fall back to the default.
    public init(json object: JSONObject) {
        self.init()
        if let raw = object["status"]?.stringValue, let value = TodoStatus(rawValue: raw) { status = value }
        if let values = object["tags"]?.arrayValue { tags = values.compactMap(\.stringValue) }
        if let raw = object["priority"]?.stringValue { priority = Priority(rawValue: raw) }
        dueBefore = object["dueBefore"]?.stringValue
        dueAfter = object["dueAfter"]?.stringValue
        search = object["search"]?.stringValue
        if let raw = object["sort"]?.stringValue, let value = TodoSortKey(rawValue: raw) { sort = value }
        reverse = object["reverse"]?.boolValue ?? false
        if let value = object["limit"]?.intValue, value > 0 { limit = Int(value) }
        includeDeleted = object["deleted"]?.boolValue ?? false
        if let raw = object["waiting"]?.stringValue, let value = WaitingFilter(rawValue: raw) { waiting = value }
        project = object["project"]?.stringValue.flatMap(ProjectPath.normalized)
        // Stored in the canonical English form; every door checks it parses (`EventRules`).
        if let raw = object["expression"]?.stringValue { expression = try? FilterParser.parse(raw) }
    }
}
