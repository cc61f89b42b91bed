import TallyDomain
import TallyEssentials

/// The days of one month with how many todos fall due and how many were completed on each.
public struct TodoCalendar: Sendable, Equatable {
    public struct Day: Sendable, Equatable {
        public var date: LocalDate
        /// Live todos (open or done) due within the day.
        public var due: Int
        /// Live todos completed within the day.
        public var completed: Int
    }

    public var year: Int
    public var month: Int
    public var days: [Day]

    /// Counts the live todos of `model` that `selection` holds, by local day in `zone`.
    /// - Complexity: O(n) in the todos.
    public static func run(year: Int, month: Int, on model: ReadModel, selection: TodoSelection = .all, zone: Zone) -> TodoCalendar {
        let length = LocalDate.daysInMonth(year: year, month: month)
        var due = [Int](repeating: 0, count: length)
        var completed = [Int](repeating: 0, count: length)
        func slot(_ date: LocalDate) -> Int? {
            date.year == year && date.month == month ? date.day - 1 : nil
        }
        for todo in model.todos where !todo.deleted && selection.contains(todo) {
            if let day = todo.due.flatMap({ due -> LocalDate? in
                switch due {
                case .date(let date): date
                case .instant(let instant): LocalDate.containing(instant, in: zone)
                }
            }), let index = slot(day) {
                due[index] += 1
            }
            if todo.completed, let at = todo.completedAt, let index = slot(LocalDate.containing(at, in: zone)) {
                completed[index] += 1
            }
        }
        let days = (0..<length).map { Day(date: LocalDate(uncheckedYear: year, month: month, day: $0 + 1), due: due[$0], completed: completed[$0]) }
        return TodoCalendar(year: year, month: month, days: days)
    }
}

/// Open todos over time, from the history of the todo events (`TodoReportProjection.changes`).
public struct TodoBurndown: Sendable, Equatable {
    public enum Step: String, Sendable, CaseIterable {
        case daily, weekly

        /// How many steps the chart goes back: two months of days, a year of weeks.
        public var count: Int { self == .daily ? 60 : 52 }
    }

    public struct Point: Sendable, Equatable {
        /// The last day of the step (a Sunday for a week, or the last day of the chart).
        public var end: LocalDate
        /// Open (live, not done) todos at the end of that day.
        public var open: Int
        /// Todos created, and todos completed, within the step.
        public var added: Int
        public var closed: Int
    }

    public var step: Step
    public var points: [Point]

    /// The steps up to the one holding `last`, no earlier than the one holding the first todo
    /// change. Only the todos `selection` holds (as they are now) are counted.
    /// - Complexity: O(c log c + days) for c changes.
    public static func run(changes: [TodoReportProjection.Change], step: Step, last: LocalDate, on model: ReadModel,
                           selection: TodoSelection = .all, now: Int64, zone: Zone) -> TodoBurndown {
        var kept = changes
        if !selection.isEverything {
            var held: Set<String> = []
            for todo in model.todos where selection.contains(todo) { held.insert(todo.id) }
            kept = changes.filter { held.contains($0.stream) }
        }
        guard let earliest = kept.map(\.at).min() else { return TodoBurndown(step: step, points: []) }
        let length = step == .daily ? 1 : 7
        // Weeks end on Sunday; the last one ends with the chart.
        let lastEnd = step == .daily ? last : last.adding(days: 7 - last.weekday)
        let firstChange = LocalDate.containing(earliest, in: zone)
        // Steps back to the one holding the first change, at most `step.count` in all.
        let behind = max(0, Int(lastEnd.dayNumber - firstChange.dayNumber) / length)
        let firstEnd = lastEnd.adding(days: -length * min(behind, step.count - 1))
        let period = ReportPeriod(first: firstEnd.adding(days: 1 - length), last: min(lastEnd, last))
        let report = TodoReportProjection.run(changes: kept, period: period, on: model, now: now, zone: zone)
        var openOn: [LocalDate: Int] = [:]
        for day in report.days { openOn[day.date] = day.open }
        var points: [Point] = []
        var end = firstEnd
        while end <= lastEnd {
            let shown = min(end, last)
            points.append(Point(end: shown, open: openOn[shown] ?? 0, added: 0, closed: 0))
            end = end.adding(days: length)
        }
        // What happened within each step, by the day each change was recorded.
        let starts = points.map { $0.end.adding(days: 1 - length).startInstant(in: zone) }
        let ends = points.map { $0.end.adding(days: 1).startInstant(in: zone) }
        for change in kept where change.type == "todo.created" || change.type == "todo.completed" {
            guard let index = starts.indices.first(where: { starts[$0] <= change.at && change.at < ends[$0] }) else { continue }
            if change.type == "todo.created" { points[index].added += 1 } else { points[index].closed += 1 }
        }
        return TodoBurndown(step: step, points: points)
    }
}
