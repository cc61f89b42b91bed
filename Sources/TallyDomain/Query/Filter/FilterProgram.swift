import TallyEssentials
/// What a filter looks at besides the todo's own fields: facts that come from other todos.
public struct FilterFacts: Sendable, Equatable {
    /// The todo waits for another todo that is still pending (`--after`).
    public var blocked: Bool

    public init(blocked: Bool = false) {
        self.blocked = blocked
    }
}

/// A filter expression made ready to run: its relative dates read against one clock and zone.
///
/// Evaluation is recursive only as deep as the expression's nesting, which the parser limits
/// (`FilterParser.maxDepth`).
public struct FilterProgram: Sendable {
    indirect enum Node: Sendable {
        case tag(String)
        case project(String)
        case hasProject(Bool)
        /// Due at or after `from` and before `to` (either may be open).
        case due(from: Int64?, to: Int64?)
        case hasDue(Bool)
        case priority(Priority?)
        case status(FilterStatus)
        case flag(FilterFlag)
        case word(String)
        case category(String)
        case source(RecordSource)
        /// A record's date at or after `from` and before `to` (either may be open).
        case date(from: Int64?, to: Int64?)
        case not(Node)
        case and([Node])
        case or([Node])
    }

    let root: Node
    let now: Int64
    let zone: Zone
    /// Midnight that began today: a todo due on an earlier day is overdue.
    let today: Int64

    /// Reads every date of `expression` against `now` in `zone`.
    public init(_ expression: FilterExpression, now: Int64, zone: Zone) throws(DomainError) {
        self.now = now
        self.zone = zone
        self.today = LocalDate.containing(now, in: zone).startInstant(in: zone)
        self.root = try Self.compile(expression, now: now, zone: zone)
    }

    /// A WHEN of a date term; a log position is refused.
    static func bound(_ raw: String, now: Int64, zone: Zone) throws(ValueError) -> When {
        let when = try When.parse(raw, now: now, zone: zone)
        if case .logPosition = when { throw ValueError(kind: .when, input: raw, key: .logPositionNotAllowed) }
        return when
    }

    private static func compile(_ expression: FilterExpression, now: Int64, zone: Zone) throws(DomainError) -> Node {
        func when(_ raw: String) throws(DomainError) -> When {
            do { return try bound(raw, now: now, zone: zone) } catch { throw .invalid(.value(error)) }
        }
        switch expression {
        case .not(let inner): return .not(try compile(inner, now: now, zone: zone))
        case .and(let operands):
            var nodes: [Node] = []
            for operand in operands { nodes.append(try compile(operand, now: now, zone: zone)) }
            return .and(nodes)
        case .or(let operands):
            var nodes: [Node] = []
            for operand in operands { nodes.append(try compile(operand, now: now, zone: zone)) }
            return .or(nodes)
        case .term(let term):
            switch term {
            case .tag(let tag): return .tag(tag)
            case .project(let project): return .project(project)
            case .hasProject(let has): return .hasProject(has)
            case .dueOn(let raw):
                let value = try when(raw)
                return .due(from: value.startInstant(in: zone), to: value.endInstant(in: zone))
            case .dueBefore(let raw): return .due(from: nil, to: try when(raw).startInstant(in: zone))
            case .dueAfter(let raw): return .due(from: try when(raw).endInstant(in: zone), to: nil)
            case .hasDue(let has): return .hasDue(has)
            case .priority(let priority): return .priority(priority)
            case .status(let status): return .status(status)
            case .flag(let flag): return .flag(flag)
            case .word(let word): return .word(word)
            case .category(let category): return .category(category)
            case .source(let source): return .source(source)
            case .dateOn(let raw):
                let value = try when(raw)
                return .date(from: value.startInstant(in: zone), to: value.endInstant(in: zone))
            case .dateBefore(let raw): return .date(from: nil, to: try when(raw).startInstant(in: zone))
            case .dateAfter(let raw): return .date(from: try when(raw).endInstant(in: zone), to: nil)
            }
        }
    }

    /// True when `todo` (with the facts about it) satisfies the expression.
    public func matches(_ todo: Todo, facts: FilterFacts = FilterFacts()) -> Bool {
        evaluate(root, todo, todo.project, facts)
    }

    private func evaluate(_ node: Node, _ todo: Todo, _ project: String?, _ facts: FilterFacts) -> Bool {
        let pending = !todo.completed && !todo.deleted
        switch node {
        case .not(let inner): return !evaluate(inner, todo, project, facts)
        case .and(let nodes): return nodes.allSatisfy { evaluate($0, todo, project, facts) }
        case .or(let nodes): return nodes.contains { evaluate($0, todo, project, facts) }
        case .tag(let tag): return todo.tags.contains(tag)
        case .project(let ancestor): return project.map { ProjectPath.isWithin($0, ancestor) } ?? false
        case .hasProject(let has): return (project != nil) == has
        case .due(let from, let to):
            guard let due = todo.due?.sortInstant(in: zone) else { return false }
            if let from, due < from { return false }
            if let to, due >= to { return false }
            return true
        case .hasDue(let has): return (todo.due != nil) == has
        case .priority(let priority): return todo.priority == priority
        case .status(let status):
            switch status {
            case .pending: return pending
            case .completed: return todo.completed && !todo.deleted
            case .deleted: return todo.deleted
            case .waiting: return pending && todo.isWaiting(now: now, zone: zone)
            }
        case .flag(let flag):
            switch flag {
            case .blocked: return pending && facts.blocked
            case .ready: return pending && !facts.blocked && !todo.isWaiting(now: now, zone: zone)
            case .waiting: return pending && todo.isWaiting(now: now, zone: zone)
            case .recurring: return todo.series != nil
            case .overdue:
                guard pending, let due = todo.due else { return false }
                return switch due {
                case .date: due.sortInstant(in: zone) < today
                case .instant(let instant): instant < now
                }
            }
        case .word(let word):
            if todo.title.lowercased().contains(word) { return true }
            if let note = todo.note, note.lowercased().contains(word) { return true }
            if let project, project.contains(word) { return true }
            if todo.tags.contains(where: { $0.contains(word) }) { return true }
            return todo.annotations.contains { $0.text.lowercased().contains(word) }
        case .category, .source, .date:
            // Record terms; the parser keeps them out of a todo filter.
            return false
        }
    }

    /// True when `record` satisfies the expression (an expression parsed for `FilterSubject.records`).
    public func matches(_ record: Record) -> Bool {
        evaluate(root, record)
    }

    private func evaluate(_ node: Node, _ record: Record) -> Bool {
        switch node {
        case .not(let inner): return !evaluate(inner, record)
        case .and(let nodes): return nodes.allSatisfy { evaluate($0, record) }
        case .or(let nodes): return nodes.contains { evaluate($0, record) }
        case .category(let category): return record.category == category
        case .source(let source): return record.source == source
        case .date(let from, let to):
            if let from, record.date < from { return false }
            if let to, record.date >= to { return false }
            return true
        case .status(let status): return status == .deleted && record.deleted
        case .word(let word):
            if record.name.lowercased().contains(word) || record.category.contains(word) { return true }
            if let place = record.place, place.lowercased().contains(word) { return true }
            if let note = record.note, note.lowercased().contains(word) { return true }
            return false
        case .tag, .project, .hasProject, .due, .hasDue, .priority, .flag:
            // Todo terms; the parser keeps them out of a record filter.
            return false
        }
    }
}
