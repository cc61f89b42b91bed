import TallyEssentials

/// Everything the views are served from, folded from the log up to `position`.
///
/// Only `Reducer.evolve` changes it. A value type, so tests compare whole models.
public struct ReadModel: Sendable, Equatable {
    /// The `seq` of the last event folded in; 0 for an empty log.
    public var position: Int64 = 0
    /// Every todo ever created, deleted ones included, in creation order (`todos[n - 1].number == n`).
    ///
    /// After a snapshot most todos stay encoded in its bytes and are decoded when read (see `ItemTable`).
    public internal(set) var todos = ItemTable<Todo>()
    /// Every record ever logged, deleted ones included, in creation order (`records[n - 1].number == n`).
    public internal(set) var records = ItemTable<Record>()
    /// The saved default views, as stored in `filter.saved`.
    public var filters: [FilterScope: JSONObject] = [:]
    /// Every series ever started, ended ones included.
    public internal(set) var series = SeriesBook()
    /// The athlete's dated settings (`athlete.set`).
    public internal(set) var athlete = AthleteHistory()
    /// Every piece of gear and each category's default (`gear.*`).
    public internal(set) var gear = GearBook()
    /// The goals in force (`goal.set`, `goal.removed`).
    public internal(set) var goals = GoalBook()
    /// Versions of streams that are not items (saved filters, ...).
    public var settingsVersions: [String: Int] = [:]

    public init() {}

    /// True when the snapshot these models read from had a chunk that failed its checksum when it
    /// was read: whatever was read from them may be wrong, and the command must start over from a
    /// full replay before it commits or prints anything.
    public var isPoisoned: Bool { todos.isPoisoned || records.isPoisoned }

    /// The snapshot buffer the item tables read from; nil for models folded from events alone.
    public var snapshotBuffer: SnapshotBuffer? { todos.buffer ?? records.buffer }

    /// The todo with the given stream id.
    /// - Complexity: O(log n) and one todo decoded
    public func todo(id: String) -> Todo? {
        todos.position(of: id).map { todos[$0] }
    }

    /// The todo with the given number.
    /// - Complexity: O(1)
    public func todo(number: Int) -> Todo? {
        number >= 1 && number <= todos.count ? todos[number - 1] : nil
    }

    /// The record with the given stream id.
    /// - Complexity: O(log n) and one record decoded
    public func record(id: String) -> Record? {
        records.position(of: id).map { records[$0] }
    }

    /// The record with the given number.
    /// - Complexity: O(1)
    public func record(number: Int) -> Record? {
        number >= 1 && number <= records.count ? records[number - 1] : nil
    }

    /// The list columns of the todo at `index` (`number - 1`), read without decoding it.
    ///
    /// Concrete, so the table's generic code is specialised here rather than run through generic
    /// metadata from other modules (that cost 45% of `list` on 100k todos).
    /// - Complexity: O(1)
    public func todoSummary(at index: Int) -> TodoSummary {
        todos.summary(at: index)
    }

    /// The todo at `index` (`number - 1`), decoded when it comes from a snapshot.
    public func todo(at index: Int) -> Todo {
        todos[index]
    }

    /// The current version of any stream; 0 when it has no events yet.
    public func version(of stream: String) -> Int {
        if let index = todos.position(of: stream) { return todos[index].version }
        if let index = records.position(of: stream) { return records[index].version }
        if let series = series[stream] { return series.version }
        return settingsVersions[stream] ?? 0
    }

    /// Makes room for `count` todos, so a long replay does not regrow the index.
    mutating func reserveTodos(_ count: Int) {
        todos.reserveCapacity(count)
    }

    mutating func insertTodo(_ todo: consuming Todo) {
        todos.append(todo)
    }

    mutating func insertRecord(_ record: Record) {
        records.append(record)
    }

    mutating func updateRecord(id: String, _ change: (inout Record) -> Void) {
        records.update(id: id, change)
    }

    mutating func updateTodo(id: String, _ change: (inout Todo) -> Void) {
        todos.update(id: id, change)
    }
}

extension ReadModel: CustomReflectable {
    /// The logical content, indexes included, whatever the storage: what dumps, diffs and the golden
    /// digest see is the same for a model decoded from a snapshot and one folded from events.
    public var customMirror: Mirror {
        Mirror(self, children: [
            "position": position, "todos": todos, "todoIndex": todos.idIndex,
            "records": records, "recordIndex": records.idIndex,
            "filters": filters, "settingsVersions": settingsVersions,
            "series": series, "athlete": athlete, "gear": gear, "goals": goals,
        ], displayStyle: .struct)
    }
}
