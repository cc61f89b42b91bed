/// Everything the views are served from, folded from the log up to `position`.
///
/// Only `Reducer.evolve` changes it. A value type, so tests compare whole models.
public struct ReadModel: Sendable, Equatable {
    /// The `seq` of the last event folded in; 0 for an empty log.
    public var position: Int64 = 0
    /// Every todo ever created, deleted ones included, in creation order (`todos[n - 1].number == n`).
    public internal(set) var todos: [Todo] = []
    /// Todo stream id to its index in `todos`.
    private var todoIndex: [String: Int] = [:]
    /// Every record ever logged, deleted ones included, in creation order (`records[n - 1].number == n`).
    public internal(set) var records: [Record] = []
    /// Record stream id to its index in `records`.
    private var recordIndex: [String: Int] = [:]
    /// The saved default views, as stored in `filter.saved`.
    public var filters: [FilterScope: JSONObject] = [:]
    /// Every series ever started, ended ones included.
    public internal(set) var series = SeriesBook()
    /// Versions of streams that are not items (saved filters, ...).
    public var settingsVersions: [String: Int] = [:]

    public init() {}

    /// The todo with the given stream id.
    /// - Complexity: O(1)
    public func todo(id: String) -> Todo? {
        todoIndex[id].map { todos[$0] }
    }

    /// The todo with the given number.
    /// - Complexity: O(1)
    public func todo(number: Int) -> Todo? {
        number >= 1 && number <= todos.count ? todos[number - 1] : nil
    }

    /// The record with the given stream id.
    /// - Complexity: O(1)
    public func record(id: String) -> Record? {
        recordIndex[id].map { records[$0] }
    }

    /// The record with the given number.
    /// - Complexity: O(1)
    public func record(number: Int) -> Record? {
        number >= 1 && number <= records.count ? records[number - 1] : nil
    }

    /// The current version of any stream; 0 when it has no events yet.
    public func version(of stream: String) -> Int {
        if let index = todoIndex[stream] { return todos[index].version }
        if let index = recordIndex[stream] { return records[index].version }
        if let series = series[stream] { return series.version }
        return settingsVersions[stream] ?? 0
    }

    /// Makes room for `count` todos, so decoding a snapshot does not regrow the index.
    mutating func reserveTodos(_ count: Int) {
        todos.reserveCapacity(count)
        todoIndex.reserveCapacity(count)
    }

    mutating func insertTodo(_ todo: consuming Todo) {
        todoIndex[todo.id] = todos.count
        todos.append(todo)
    }

    mutating func insertRecord(_ record: Record) {
        recordIndex[record.id] = records.count
        records.append(record)
    }

    mutating func updateRecord(id: String, _ change: (inout Record) -> Void) {
        guard let index = recordIndex[id] else { return }
        change(&records[index])
    }

    mutating func updateTodo(id: String, _ change: (inout Todo) -> Void) {
        guard let index = todoIndex[id] else { return }
        change(&todos[index])
    }
}
