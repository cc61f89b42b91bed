#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import TallyDomain
import TallyEssentials

/// The result of a todo query: the rows to show and counts for the footer.
public struct TodoView: Sendable, Equatable {
    /// The matching todos in display order, cut to the limit.
    public var todos: [Todo]
    /// How many matched before the limit.
    public var matched: Int
    /// Active and completed among the matches that are not deleted (before the limit).
    public var active: Int
    public var completed: Int
    /// Waiting todos that matched but were hidden (or, with `--waiting`, shown).
    public var waiting: Int = 0
    /// Deleted todos among the matches (only with `includeDeleted`), counted neither active nor completed.
    public var deleted: Int = 0
    /// For shown todos that wait for pending todos or block pending ones: their numbers.
    public var links: [String: TodoLinks] = [:]
}

/// The pending todos one todo waits for, and the pending ones it blocks, by number.
public struct TodoLinks: Sendable, Equatable {
    public var waitsFor: [Int]
    public var blocks: [Int]

    /// The links of `todo` in `graph`; nil when it has none.
    public init?(_ todo: Todo, in graph: TodoDependencies) {
        waitsFor = graph.blockers(of: todo).map(\.number)
        blocks = graph.blocking(todo).map(\.number)
        if waitsFor.isEmpty && blocks.isEmpty { return nil }
    }
}

/// Serves filtered, sorted views of the todos.
public enum TodoProjection {
    /// Runs a query against the read model. Date bounds are resolved against `now` in `zone`.
    ///
    /// Filters and sort keys are read from the todos' summary rows (see `TodoSummary`), so a todo is
    /// decoded only when the query looks at its tags or text, or when it is shown. Matches are
    /// collected as positions with their sort key, and with a limit only the first `limit` are
    /// ordered (a bounded heap), so a short page of a large list stays cheap. Sorting by title
    /// decodes the matching todos.
    /// - Complexity: O(n log k) in the number of todos n, with k the limit (or n); O(k + waiting)
    ///   for a page in creation order with the standard filters (see `firstPageInCreationOrder`).
    public static func run(_ query: TodoQuery, on model: ReadModel, now: Int64, zone: Zone) throws(DomainError) -> TodoView {
        let graph = model.todos.counts.linked.isEmpty ? nil : TodoDependencies(model)
        var view: TodoView
        if let page = firstPageInCreationOrder(query, on: model, now: now, zone: zone) {
            view = page
        } else {
            view = try scan(query, on: model, now: now, zone: zone, graph: graph)
        }
        if let graph {
            for todo in view.todos { view.links[todo.id] = TodoLinks(todo, in: graph) }
        }
        return view
    }

    /// A limited page in creation order filtered only by status (the default `list --limit N`),
    /// without reading every row: the footer's counts come from the table's stored counts
    /// (`ItemCounts`, with the few todos that have a wait date checked against the clock), and the
    /// page is the first matching rows in position order, which is creation order while
    /// `createdInOrder` holds. nil when the query needs a scan. Gives exactly what `scan` gives.
    static func firstPageInCreationOrder(_ query: TodoQuery, on model: ReadModel, now: Int64, zone: Zone) -> TodoView? {
        let counts = model.todos.counts
        guard let limit = query.limit, query.sort == .created, !query.reverse, query.tags.isEmpty, query.search == nil,
              query.priority == nil, query.dueBefore == nil, query.dueAfter == nil, !query.includeDeleted,
              query.waiting != .only, query.expression == nil, query.project == nil, counts.createdInOrder else { return nil }
        var waitingNow = 0
        for position in counts.waiting where model.todo(at: position).isWaiting(now: now, zone: zone) { waitingNow += 1 }
        let open = model.todos.count - counts.deleted - counts.completed - (query.waiting == .hide ? waitingNow : 0)
        let active = query.status == .completed ? 0 : open
        let completed = query.status == .active ? 0 : counts.completed
        var page: [Todo] = []
        var index = 0
        while page.count < limit, index < model.todos.count {
            defer { index += 1 }
            let row = model.todoSummary(at: index)
            if row.deleted { continue }
            switch query.status {
            case .active where row.completed: continue
            case .completed where !row.completed: continue
            default: break
            }
            let todo = model.todo(at: index)
            if query.waiting == .hide, row.waits, !row.completed, todo.isWaiting(now: now, zone: zone) { continue }
            page.append(todo)
        }
        return TodoView(todos: page, matched: active + completed, active: active, completed: completed,
                        waiting: query.status == .completed ? 0 : waitingNow, deleted: 0)
    }

    /// Runs a query over every row.
    static func scan(_ query: TodoQuery, on model: ReadModel, now: Int64, zone: Zone, graph: TodoDependencies? = nil) throws(DomainError) -> TodoView {
        let before = try query.dueBefore.map { raw throws(DomainError) in try QueryBounds.when(raw, now: now, zone: zone).startInstant(in: zone) }
        let after = try query.dueAfter.map { raw throws(DomainError) in try QueryBounds.when(raw, now: now, zone: zone).endInstant(in: zone) }
        let needle = query.search.map { $0.lowercased() }
        let program = try query.expression.map { expression throws(DomainError) in try FilterProgram(expression, now: now, zone: zone) }
        let readsItems = !query.tags.isEmpty || needle != nil || program != nil || query.project != nil
        // An expression that names deleted or waiting todos considers them (`status:deleted`, `is:waiting`).
        let includeDeleted = query.includeDeleted || query.expression?.namesDeleted == true
        let waitingFilter = query.waiting == .hide && query.expression?.namesWaiting == true ? .include : query.waiting

        // With a limit, only the page is kept (a bounded heap); without one, every match is sorted.
        let less = ordering(query.sort, reverse: query.reverse)
        var page = query.limit.map { PartialSort.Smallest<Match>($0, by: less) }
        var matches: [Match] = []
        var matched = 0
        var active = 0
        var completed = 0
        var waiting = 0
        var deleted = 0
        for index in 0..<model.todos.count {
            let row = model.todoSummary(at: index)
            if row.deleted && !includeDeleted { continue }
            switch query.status {
            case .active where row.completed: continue
            case .completed where !row.completed: continue
            default: break
            }
            if let priority = query.priority, row.priority != priority { continue }
            var dueInstant: Int64?
            if before != nil || after != nil || query.sort == .due {
                dueInstant = row.due?.sortInstant(in: zone)
            }
            if before != nil || after != nil {
                guard let due = dueInstant else { continue }
                if let before, due >= before { continue }
                if let after, due < after { continue }
            }
            if readsItems {
                let todo = model.todo(at: index)
                if !query.tags.isEmpty, !query.tags.allSatisfy(todo.tags.contains) { continue }
                if let needle, !matchesSearch(todo, needle) { continue }
                if !query.projectMatches(todo.project) { continue }
                if let program, !program.matches(todo, facts: FilterFacts(blocked: graph?.isBlocked(todo) ?? false)) { continue }
            }
            if row.waits {
                // Few todos wait, so reading the item to compare its wait date costs little.
                let isWaiting = !row.completed && model.todo(at: index).isWaiting(now: now, zone: zone)
                if isWaiting { waiting += 1 }
                if isWaiting && waitingFilter == .hide { continue }
                if !isWaiting && waitingFilter == .only { continue }
            } else if waitingFilter == .only {
                continue
            }
            let key: Int64? = switch query.sort {
            case .created: row.createdAt
            case .updated: row.updatedAt
            case .due: dueInstant
            case .priority: row.priority.map { -Int64($0.rank) }
            case .title: 0
            }
            var match = Match(position: index, key: key ?? 0, missing: key == nil)
            // A title sort compares lowercased titles: each is made once, and only the page's stay.
            if query.sort == .title { match.title = model.todo(at: index).title.lowercased() }
            if page != nil { page!.offer(match) } else { matches.append(match) }
            matched += 1
            if row.deleted { deleted += 1 } else if row.completed { completed += 1 } else { active += 1 }
        }
        let ordered = page?.sorted() ?? matches.sorted(by: less)
        return TodoView(todos: ordered.map { model.todo(at: $0.position) }, matched: matched, active: active, completed: completed, waiting: waiting, deleted: deleted)
    }

    /// A matching todo: its position and its sort key (for a title sort, its lowercased title).
    struct Match {
        var position: Int
        var key: Int64
        var missing: Bool
        var title = ""
    }

    private static func matchesSearch(_ todo: Todo, _ needle: String) -> Bool {
        if todo.title.lowercased().contains(needle) { return true }
        if let note = todo.note, note.lowercased().contains(needle) { return true }
        if todo.tags.contains(where: { $0.contains(needle) }) { return true }
        return todo.annotations.contains { $0.text.lowercased().contains(needle) }
    }

    /// A strict order: the sort key in its natural direction (flipped by `reverse`), then creation order.
    ///
    /// Todos without a due date or priority stay last in both directions: reversing
    /// "soonest first" should give "latest first", not "undated first".
    /// A title sort compares the lowercased titles the matches carry (`TextScalars.compareIgnoringCase`'s order).
    static func ordering(_ key: TodoSortKey, reverse: Bool) -> (Match, Match) -> Bool {
        let primary: (Match, Match) -> ComparisonResult = switch key {
        case .title: { lhs, rhs in compare(lhs.title, rhs.title) }
        default: { compare($0.key, $1.key) }
        }
        return { lhs, rhs in
            if lhs.missing != rhs.missing { return rhs.missing }
            var result = lhs.missing ? .orderedSame : primary(lhs, rhs)
            if reverse {
                result = switch result {
                case .orderedAscending: .orderedDescending
                case .orderedDescending: .orderedAscending
                case .orderedSame: .orderedSame
                }
            }
            return result == .orderedSame ? lhs.position < rhs.position : result == .orderedAscending
        }
    }

    private static func compare<T: Comparable>(_ lhs: T, _ rhs: T) -> ComparisonResult {
        lhs < rhs ? .orderedAscending : (lhs > rhs ? .orderedDescending : .orderedSame)
    }
}
