import Foundation
import TallyDomain

/// The result of a todo query: the rows to show and counts for the footer.
public struct TodoView: Sendable, Equatable {
    /// The matching todos in display order, cut to the limit.
    public var todos: [Todo]
    /// How many matched before the limit.
    public var matched: Int
    /// Active and completed among the matches that are not deleted (before the limit).
    public var active: Int
    public var completed: Int
    /// Deleted todos among the matches (only with `includeDeleted`), counted neither active nor completed.
    public var deleted: Int = 0
}

/// Serves filtered, sorted views of the todos.
public enum TodoProjection {
    /// Runs a query against the read model. Date bounds are resolved against `now` in `zone`.
    ///
    /// Matches are collected as positions, not copies, and with a limit only the first `limit`
    /// are ordered (a bounded heap), so a short page of a large list stays cheap.
    /// - Complexity: O(n log k) in the number of todos n, with k the limit (or n).
    public static func run(_ query: TodoQuery, on model: ReadModel, now: Int64, zone: TimeZone) throws(DomainError) -> TodoView {
        let before = try query.dueBefore.map { raw throws(DomainError) in try QueryBounds.when(raw, now: now, zone: zone).startInstant(in: zone) }
        let after = try query.dueAfter.map { raw throws(DomainError) in try QueryBounds.when(raw, now: now, zone: zone).endInstant(in: zone) }
        let needle = query.search.map { $0.lowercased() }

        var matches: [Int] = []
        var active = 0
        var completed = 0
        var deleted = 0
        let less = ordering(query.sort, reverse: query.reverse, zone: zone)
        // Through a buffer pointer, fields are read in place: the array's accessor copied whole todos.
        let ordered: [Todo] = model.todos.withUnsafeBufferPointer { todos in
            for index in todos.indices {
                if todos[index].deleted && !query.includeDeleted { continue }
                switch query.status {
                case .active where todos[index].completed: continue
                case .completed where !todos[index].completed: continue
                default: break
                }
                if !query.tags.isEmpty, !query.tags.allSatisfy(todos[index].tags.contains) { continue }
                if let priority = query.priority, todos[index].priority != priority { continue }
                if before != nil || after != nil {
                    guard let due = todos[index].due?.sortInstant(in: zone) else { continue }
                    if let before, due >= before { continue }
                    if let after, due < after { continue }
                }
                if let needle, !matchesSearch(todos[index], needle) { continue }
                matches.append(index)
                if todos[index].deleted {
                    deleted += 1
                } else if todos[index].completed {
                    completed += 1
                } else {
                    active += 1
                }
            }
            let byIndex: (Int, Int) -> Bool = { less(todos[$0], todos[$1]) }
            let positions = query.limit.map { PartialSort.smallest($0, of: matches, by: byIndex) } ?? matches.sorted(by: byIndex)
            return positions.map { todos[$0] }
        }
        return TodoView(todos: ordered, matched: matches.count, active: active, completed: completed, deleted: deleted)
    }

    private static func matchesSearch(_ todo: Todo, _ needle: String) -> Bool {
        if todo.title.lowercased().contains(needle) { return true }
        if let note = todo.note, note.lowercased().contains(needle) { return true }
        return todo.tags.contains { $0.contains(needle) }
    }

    /// A strict order: the sort key in its natural direction (flipped by `reverse`), then creation order.
    ///
    /// Todos without a due date or priority stay last in both directions: reversing
    /// "soonest first" should give "latest first", not "undated first".
    static func ordering(_ key: TodoSortKey, reverse: Bool, zone: TimeZone) -> (Todo, Todo) -> Bool {
        let missing: (Todo) -> Bool = switch key {
        case .due: { $0.due == nil }
        case .priority: { $0.priority == nil }
        case .created, .updated, .title: { _ in false }
        }
        let primary: (Todo, Todo) -> ComparisonResult = switch key {
        case .created: { compare($0.createdAt, $1.createdAt) }
        case .updated: { compare($0.updatedAt, $1.updatedAt) }
        case .due: { compare($0.due?.sortInstant(in: zone) ?? 0, $1.due?.sortInstant(in: zone) ?? 0) }
        case .priority: { compare($1.priority?.rank ?? 0, $0.priority?.rank ?? 0) }
        case .title: { lhs, rhs in lhs.title.compare(rhs.title, options: [.caseInsensitive]) }
        }
        return { lhs, rhs in
            let (lhsMissing, rhsMissing) = (missing(lhs), missing(rhs))
            if lhsMissing != rhsMissing { return rhsMissing }
            var result = lhsMissing ? .orderedSame : primary(lhs, rhs)
            if reverse {
                result = switch result {
                case .orderedAscending: .orderedDescending
                case .orderedDescending: .orderedAscending
                case .orderedSame: .orderedSame
                }
            }
            return result == .orderedSame ? lhs.number < rhs.number : result == .orderedAscending
        }
    }

    private static func compare<T: Comparable>(_ lhs: T, _ rhs: T) -> ComparisonResult {
        lhs < rhs ? .orderedAscending : (lhs > rhs ? .orderedDescending : .orderedSame)
    }
}
