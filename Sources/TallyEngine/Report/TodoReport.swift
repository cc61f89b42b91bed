import TallyDomain
import TallyEssentials

/// The todo half of a report: open against done over the period, done per week, overdue now, per
/// project and per tag.
public struct TodoReport: Sendable, Equatable {
    /// Open and done (live) todos at the end of each day of the period.
    public struct Day: Sendable, Equatable {
        public var date: LocalDate
        public var open: Int
        public var done: Int
    }

    /// Counts of one tag's live todos; `tag` is nil for todos without a tag.
    public struct Tag: Sendable, Equatable {
        public var tag: String?
        public var open: Int
        public var done: Int
        public var overdue: Int
    }

    public var days: [Day]
    /// Completions (open → done) per bucket of the period (`ReportPeriod.buckets`).
    public var donePerBucket: [Int]
    /// Live open todos whose due date or time has passed, earliest due first.
    public var overdue: [Todo]
    /// Tags by name, then the untagged.
    public var tags: [Tag]
    /// Projects by name, each counting its sub-projects' todos too (as `tally projects` does), then the
    /// todos without a project; `tag` holds the project's dotted name.
    public var projects: [Tag]
}

/// Folds the todo events of the log into the burndown, and reads the rest from the read model.
public enum TodoReportProjection {
    /// One todo event as the burndown needs it: which todo, what happened, when.
    public struct Change: Sendable, Equatable {
        public var stream: String
        public var type: String
        public var at: Int64
        public var seq: Int64

        public init(stream: String, type: String, at: Int64, seq: Int64) {
            self.stream = stream
            self.type = type
            self.at = at
            self.seq = seq
        }
    }

    /// The todo changes of the log up to `bound` (payloads are not decoded).
    /// - Complexity: O(events in the log).
    public static func changes(in log: EventLog, bound: Replayer.Bound?) throws -> [Change] {
        var result: [Change] = []
        var through: Int64?
        var until: Int64?
        switch bound {
        case .position(let seq): through = seq
        case .instant(let ms): until = ms
        case nil: break
        }
        try log.scanForFold(after: 0, through: through) { row in
            guard row.type.hasPrefix("todo.") else { return }
            if let until, row.recordedAt > until { return }
            result.append(Change(stream: String(decoding: row.stream, as: UTF8.self), type: row.type, at: row.recordedAt, seq: row.seq))
        }
        return result
    }

    /// The report of `period`. Changes are taken in the order of their time (imports keep their
    /// source's times), then of the log; a todo counts once, as open or done, while it is not deleted.
    /// - Complexity: O(c log c + days + todos) for c changes.
    public static func run(changes: [Change], period: ReportPeriod, on model: ReadModel, now: Int64, zone: Zone) -> TodoReport {
        let ordered = changes.sorted { $0.at != $1.at ? $0.at < $1.at : $0.seq < $1.seq }
        var state: [String: (live: Bool, done: Bool)] = [:]
        var open = 0, done = 0
        var days: [TodoReport.Day] = []
        let bucketStarts = period.buckets.map(\.first)
        var donePerBucket = [Int](repeating: 0, count: bucketStarts.count)
        var bucket = 0
        var index = 0
        func apply(_ change: Change) -> Bool {
            let before = state[change.stream] ?? (false, false)
            var after = before
            switch change.type {
            case "todo.created": after = (true, false)
            case "todo.completed": after.done = true
            case "todo.reopened": after.done = false
            case "todo.deleted": after.live = false
            case "todo.restored": after.live = true
            default: return false
            }
            if before.live { if before.done { done -= 1 } else { open -= 1 } }
            if after.live { if after.done { done += 1 } else { open += 1 } }
            state[change.stream] = after
            return after.live && after.done && !(before.live && before.done)
        }
        let periodStart = period.first.startInstant(in: zone)
        while index < ordered.count, ordered[index].at < periodStart {
            _ = apply(ordered[index])
            index += 1
        }
        for date in period.days {
            let end = date.adding(days: 1).startInstant(in: zone)
            while bucket + 1 < bucketStarts.count, bucketStarts[bucket + 1] <= date { bucket += 1 }
            while index < ordered.count, ordered[index].at < end {
                if apply(ordered[index]), bucket < donePerBucket.count { donePerBucket[bucket] += 1 }
                index += 1
            }
            days.append(TodoReport.Day(date: date, open: open, done: done))
        }
        let today = LocalDate.containing(now, in: zone)
        func isOverdue(_ todo: Todo) -> Bool {
            guard !todo.completed, !todo.deleted, let due = todo.due else { return false }
            return switch due {
            case .date(let date): date < today
            case .instant(let ms): ms <= now
            }
        }
        var overdue: [Todo] = []
        var tags: [String: TodoReport.Tag] = [:]
        var untagged = TodoReport.Tag(tag: nil, open: 0, done: 0, overdue: 0)
        var projects: [String: TodoReport.Tag] = [:]
        var noProject = TodoReport.Tag(tag: nil, open: 0, done: 0, overdue: 0)
        for todo in model.todos where !todo.deleted {
            let late = isOverdue(todo)
            if late { overdue.append(todo) }
            func count(_ entry: inout TodoReport.Tag) {
                if todo.completed { entry.done += 1 } else { entry.open += 1 }
                if late { entry.overdue += 1 }
            }
            if todo.tags.isEmpty { count(&untagged) }
            for tag in Set(todo.tags) { count(&tags[tag, default: TodoReport.Tag(tag: tag, open: 0, done: 0, overdue: 0)]) }
            if let project = todo.project {
                // The project and every project above it: `home.garden` counts for `home` too.
                var name = ""
                for part in project.split(separator: ".") {
                    name += name.isEmpty ? String(part) : "." + part
                    count(&projects[name, default: TodoReport.Tag(tag: name, open: 0, done: 0, overdue: 0)])
                }
            } else {
                count(&noProject)
            }
        }
        overdue.sort { ($0.due?.sortInstant(in: zone) ?? 0, $0.number) < ($1.due?.sortInstant(in: zone) ?? 0, $1.number) }
        var tagRows = tags.keys.sorted().map { tags[$0]! }
        if untagged.open + untagged.done > 0 { tagRows.append(untagged) }
        var projectRows = projects.keys.sorted().map { projects[$0]! }
        if !projectRows.isEmpty, noProject.open + noProject.done > 0 { projectRows.append(noProject) }
        return TodoReport(days: days, donePerBucket: donePerBucket, overdue: overdue, tags: tagRows, projects: projectRows)
    }
}
