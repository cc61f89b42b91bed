#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import TallyEssentials

/// A todo as the read model knows it after folding its stream.
public struct Todo: Sendable, Equatable, Identifiable {
    /// The stream id: a lowercase UUID.
    public var id: String
    /// Per-kind number, assigned 1, 2, 3, ... in creation order and never reused.
    public var number: Int
    public var title: String
    public var tags: [String]
    public var priority: Priority?
    public var due: Due?
    public var note: String?
    /// Hidden from `list` until this day or instant.
    public var wait: Due?
    /// The series this todo is an instance of.
    public var series: String?
    public var completed: Bool
    public var completedAt: Int64?
    public var createdAt: Int64
    public var updatedAt: Int64
    public var deleted: Bool
    /// Version of the last event folded into this todo (the stream's length).
    public var version: Int
    /// Where an imported todo came from; nil for todos added in tally.
    public var origin: TodoOrigin?
    /// The project, dotted for sub-projects (`home.garden`); see `ProjectPath`.
    public var project: String?
    /// The todos this one waits for (`--after`), by id, in the order they were added.
    public var after: [String]
    /// Dated notes (`tally annotate`), in date order.
    public var annotations: [Annotation] = []
    /// Time spent on it (`tally start` / `tally stop`), by start; only the last may be running.
    public var intervals: [WorkInterval] = []

    public init(
        id: String, number: Int, title: String, tags: [String] = [], priority: Priority? = nil,
        due: Due? = nil, note: String? = nil, wait: Due? = nil, series: String? = nil, completed: Bool = false, completedAt: Int64? = nil,
        createdAt: Int64, updatedAt: Int64, deleted: Bool = false, version: Int = 1, origin: TodoOrigin? = nil,
        project: String? = nil, after: [String] = [], annotations: [Annotation] = [], intervals: [WorkInterval] = []
    ) {
        self.annotations = annotations
        self.intervals = intervals
        self.id = id
        self.number = number
        self.title = title
        self.tags = tags
        self.priority = priority
        self.due = due
        self.note = note
        self.wait = wait
        self.series = series
        self.completed = completed
        self.completedAt = completedAt
        self.createdAt = createdAt
        self.updatedAt = updatedAt
        self.deleted = deleted
        self.version = version
        self.origin = origin
        self.project = project
        self.after = after
    }
}

extension Todo {
    /// True while the todo waits: its wait day has not begun, or its wait instant has not come.
    public func isWaiting(now: Int64, zone: Zone) -> Bool {
        guard let wait else { return false }
        return wait.sortInstant(in: zone) > now
    }
}
