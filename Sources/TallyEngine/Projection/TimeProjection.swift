import TallyDomain
import TallyEssentials

/// Time spent on todos in a period, summed by project, by tag and per todo (`tally time`). Pure.
public struct TimeSummary: Sendable, Equatable {
    /// `[from, to)` in ms; nil bounds are open.
    public var from: Int64?
    public var to: Int64?
    /// Per project (the whole dotted name; a sub-project's time also counts in its parents), sorted by name; `nil` is no project.
    public var projects: [(project: String?, ms: Int64)]
    /// Per tag, sorted by name; `nil` is no tag. A todo with several tags counts in each.
    public var tags: [(tag: String?, ms: Int64)]
    /// Per todo with time in the period, in number order.
    public var todos: [(todo: Todo, ms: Int64)]
    public var total: Int64
    /// The todos running now.
    public var running: [Todo]

    public static func == (lhs: TimeSummary, rhs: TimeSummary) -> Bool {
        lhs.from == rhs.from && lhs.to == rhs.to && lhs.total == rhs.total
            && lhs.projects.map(\.project) == rhs.projects.map(\.project) && lhs.projects.map(\.ms) == rhs.projects.map(\.ms)
            && lhs.tags.map(\.tag) == rhs.tags.map(\.tag) && lhs.tags.map(\.ms) == rhs.tags.map(\.ms)
            && lhs.todos.map(\.todo.id) == rhs.todos.map(\.todo.id) && lhs.todos.map(\.ms) == rhs.todos.map(\.ms)
    }
}

public enum TimeProjection {
    /// The period `tally time` sums over.
    public enum Period: Sendable {
        case all, week, month
    }

    /// `[from, to)` of the local week (Monday to Sunday) or month containing `now`; nil bounds for `.all`.
    public static func bounds(_ period: Period, now: Int64, zone: Zone) -> (from: Int64?, to: Int64?) {
        let today = LocalDate.containing(now, in: zone)
        switch period {
        case .all:
            return (nil, nil)
        case .week:
            let monday = today.adding(days: 1 - today.weekday)
            return (monday.startInstant(in: zone), monday.adding(days: 7).startInstant(in: zone))
        case .month:
            let first = LocalDate(uncheckedYear: today.year, month: today.month, day: 1)
            let next = today.month == 12 ? LocalDate(uncheckedYear: today.year + 1, month: 1, day: 1) : LocalDate(uncheckedYear: today.year, month: today.month + 1, day: 1)
            return (first.startInstant(in: zone), next.startInstant(in: zone))
        }
    }

    /// Sums the time of `todos` that lies in `[from, to)`, a running interval counted up to `now`.
    public static func run(_ todos: [Todo], from: Int64?, to: Int64?, now: Int64) -> TimeSummary {
        let low = from ?? Int64.min
        let high = to ?? Int64.max
        var projects: [String: Int64] = [:]
        var noProject: Int64 = 0
        var tags: [String: Int64] = [:]
        var noTag: Int64 = 0
        var perTodo: [(todo: Todo, ms: Int64)] = []
        var total: Int64 = 0
        var running: [Todo] = []
        for todo in todos where !todo.intervals.isEmpty {
            if todo.running != nil { running.append(todo) }
            // Intervals lie in the years 0001-9999, so their sum over 10 000 of them cannot overflow.
            let ms = todo.intervals.reduce(Int64(0)) { $0 + $1.overlap(from: low, to: high, now: now) }
            guard ms > 0 else { continue }
            perTodo.append((todo, ms))
            total += ms
            if let project = todo.project {
                for ancestor in ancestors(of: project) { projects[ancestor, default: 0] += ms }
            } else {
                noProject += ms
            }
            if todo.tags.isEmpty { noTag += ms }
            for tag in todo.tags { tags[tag, default: 0] += ms }
        }
        var projectRows: [(project: String?, ms: Int64)] = projects.sorted { $0.key.split(separator: ".").lexicographicallyPrecedes($1.key.split(separator: ".")) }.map { ($0.key, $0.value) }
        if noProject > 0 { projectRows.append((nil, noProject)) }
        var tagRows: [(tag: String?, ms: Int64)] = tags.sorted { $0.key < $1.key }.map { ($0.key, $0.value) }
        if noTag > 0 { tagRows.append((nil, noTag)) }
        return TimeSummary(from: from, to: to, projects: projectRows, tags: tagRows, todos: perTodo.sorted { $0.todo.number < $1.todo.number }, total: total, running: running)
    }

    /// `home.garden.beds` → `home`, `home.garden`, `home.garden.beds`.
    private static func ancestors(of project: String) -> [String] {
        var result: [String] = []
        var prefix = ""
        for segment in project.split(separator: ".") {
            prefix = prefix.isEmpty ? String(segment) : prefix + "." + segment
            result.append(prefix)
        }
        return result
    }
}
