/// A dated note on a todo (`tally annotate`); annotations accumulate, each from its own event.
public struct Annotation: Sendable, Equatable {
    /// A lowercase UUID naming the annotation, so removing it (`denotate`, undo) names it on every device.
    public var id: String
    /// When it was written, in ms since the epoch (an import keeps the source's date).
    public var at: Int64
    /// One line of text, 1 to `maxLength` characters.
    public var text: String

    public init(id: String, at: Int64, text: String) {
        self.id = id
        self.at = at
        self.text = text
    }

    /// The longest annotation, in code points after NFC (`Validation.length`).
    public static let maxLength = 1000
    /// At most this many annotations on one todo; the reducer leaves out any beyond it.
    public static let maxPerTodo = 1000
}

/// A span of time spent on a todo (`tally start` / `tally stop`); `end` is nil while it runs.
public struct WorkInterval: Sendable, Equatable {
    /// When it began, in ms since the epoch; it names the interval (a todo has one interval per start).
    public var start: Int64
    public var end: Int64?

    public init(start: Int64, end: Int64? = nil) {
        self.start = start
        self.end = end
    }

    /// At most this many intervals on one todo; the reducer leaves out starts beyond it.
    public static let maxPerTodo = 10_000

    /// Its length in ms, a running one counted up to `now` (never negative).
    public func duration(now: Int64) -> Int64 {
        let end = end ?? now
        return end > start ? end - start : 0
    }

    /// The part of it that lies in `[from, to)`, in ms.
    public func overlap(from: Int64, to: Int64, now: Int64) -> Int64 {
        let end = min(end ?? now, to)
        let start = max(start, from)
        return end > start ? end - start : 0
    }
}

extension Todo {
    /// The interval that is running, if any (at most one per todo).
    public var running: WorkInterval? {
        guard let last = intervals.last, last.end == nil else { return nil }
        return last
    }

    /// The time spent on it, a running interval counted up to `now`, in ms.
    public func timeSpent(now: Int64) -> Int64 {
        intervals.reduce(0) { $0 + $1.duration(now: now) }
    }

    /// Folds `todo.started`: the interval beginning at `start` is set to `(start, end)`; a new start
    /// while another interval runs is merged into that one (the earlier start stands); a start past
    /// the limit is left out.
    mutating func start(at start: Int64, end: Int64?) {
        let end = end.map { max($0, start) }
        if let index = intervals.firstIndex(where: { $0.start == start }) {
            intervals[index].end = end
        } else {
            if end == nil, running != nil { return }
            guard intervals.count < WorkInterval.maxPerTodo else { return }
            let position = intervals.firstIndex(where: { $0.start > start }) ?? intervals.count
            intervals.insert(WorkInterval(start: start, end: end), at: position)
        }
        // Only the last interval may run: a running one followed by another ends where the next begins.
        for index in intervals.indices.dropLast() where intervals[index].end == nil {
            intervals[index].end = intervals[index + 1].start
        }
    }

    /// Folds `todo.stopped`: the running interval ends at `at` (not before it began).
    mutating func stop(at: Int64) {
        guard let last = intervals.indices.last, intervals[last].end == nil else { return }
        intervals[last].end = max(at, intervals[last].start)
    }

    /// Folds `todo.unstarted`: the interval that began at `start` is taken back.
    mutating func unstart(at start: Int64) {
        intervals.removeAll { $0.start == start }
    }

    /// Folds `todo.annotated`: added in date order (the same id twice is one annotation); past the limit left out.
    mutating func annotate(_ annotation: Annotation) {
        guard !annotations.contains(where: { $0.id == annotation.id }), annotations.count < Annotation.maxPerTodo else { return }
        let position = annotations.lastIndex(where: { $0.at <= annotation.at }).map { $0 + 1 } ?? 0
        annotations.insert(annotation, at: position)
    }

    /// Folds `todo.denotated`.
    mutating func denotate(id: String) {
        annotations.removeAll { $0.id == id }
    }
}
