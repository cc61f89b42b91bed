import Testing
@testable import TallyEngine
import TallyDomain
import TallyTestSupport
@testable import TallyEssentials

/// What a user can see of the read models: every todo field they set, and the saved views.
///
/// Bookkeeping that records *when* is left out on purpose: the log position, stream versions,
/// `updatedAt` and `completedAt` move forward with every appended event, undo included.
/// `keeping` (`keepingRecords`) cuts the todos (records) to the first n: an item whose creation was undone stays in the log,
/// deleted, because numbers are never reused; callers check that separately.
struct Observable: Equatable {
    var todos: [Todo]
    var records: [Record]
    var filters: [FilterScope: JSONObject]

    init(_ model: ReadModel, keeping count: Int = .max, keepingRecords recordCount: Int = .max) {
        todos = model.todos.prefix(count).map { todo in
            var todo = todo
            todo.version = 0
            todo.updatedAt = 0
            todo.completedAt = nil
            return todo
        }
        records = model.records.prefix(recordCount).map { record in
            var record = record
            record.version = 0
            record.updatedAt = 0
            return record
        }
        filters = model.filters
    }
}

@Suite("Undo and redo")
struct UndoRedoTests {
    let ids = SequentialIDs()
    let clock = TestClock()

    func dispatcher(_ log: InMemoryStore = InMemoryStore()) -> Dispatcher {
        let (ids, clock) = (ids, clock)
        return Dispatcher(log: log, environment: AppEnvironment(now: { clock.now }, makeID: { ids.make() }, actor: "alice", zone: Fixtures.utc))
    }

    /// Four todos (one completed, one deleted, one with every field) and a saved view.
    func seeded(filter: Bool = true) throws -> Dispatcher {
        let dispatcher = dispatcher()
        _ = try dispatcher.execute(.addTodo(TodoInput(title: "a", tags: ["x"], priority: "low", due: "2026-12-01", note: "n")))
        for title in ["b", "c", "d"] { _ = try dispatcher.execute(.addTodo(TodoInput(title: title))) }
        _ = try dispatcher.execute(.completeTodos(["2"]))
        _ = try dispatcher.execute(.deleteTodos(["4"]))
        if filter { _ = try dispatcher.execute(.saveTodoFilter(TodoQuery(status: .active))) }
        _ = try dispatcher.execute(.logRecord(RecordInput(name: "run", category: "run", duration: "30m", distance: "5km", place: "park", note: "easy")))
        _ = try dispatcher.execute(.logRecord(RecordInput(name: "ride", category: "bike", duration: "1h")))
        _ = try dispatcher.execute(.logRecord(RecordInput(name: "swim", category: "swim", duration: "45m")))
        _ = try dispatcher.execute(.deleteRecords(["3"]))
        clock.advance(seconds: 60)
        return dispatcher
    }

    static let commands: [Command] = [
        .addTodo(TodoInput(title: "new", tags: ["t"])),
        .toggleTodos(["1", "2"]),
        .toggleAllTodos,
        .completeTodos(["1", "3"]),
        .reopenTodos(["2"]),
        .editTodo("1", TodoEditInput(title: "A", tagChanges: ["-x", "+y"], priority: "high", due: "none", note: "none")),
        .editTodo("3", TodoEditInput(priority: "medium", due: "2026-12-24T10:00", note: "fresh")),
        .deleteTodos(["1", "2"]),
        .deleteCompletedTodos,
        .saveTodoFilter(TodoQuery(status: .completed, sort: .title)),
        .resetFilter(.todos),
        .logRecord(RecordInput(name: "gym", category: "gym", duration: "50m", distance: "0km", note: "legs")),
        .editRecord("1", RecordEditInput(name: "long run", category: "trail", duration: "1h2m", distance: "none", place: "none", date: "2026-11-01", note: "none")),
        .editRecord("2", RecordEditInput(distance: "20km", place: "hills")),
        .deleteRecords(["1", "2"]),
        .saveRecordFilter(RecordQuery(categories: ["run"], sort: .distance)),
    ]

    @Test("command then undo leaves the read models as before; redo brings the command's result back", arguments: commands)
    func undoInvertsEveryCommand(command: Command) throws {
        let dispatcher = try seeded()
        let before = Observable(dispatcher.state)
        let done = try dispatcher.execute(command)
        #expect(!done.appended.isEmpty)
        let after = Observable(dispatcher.state)
        let undo = try dispatcher.undo()
        let (kept, keptRecords) = (before.todos.count, before.records.count)
        let undone = Observable(undo.outcome.state, keeping: kept, keepingRecords: keptRecords)
        #expect(undone == before, "\(Diff.describe(before, undone))")
        #expect(undo.outcome.state.todos.dropFirst(kept).allSatisfy { $0.deleted })
        #expect(undo.outcome.state.records.dropFirst(keptRecords).allSatisfy { $0.deleted })
        #expect(undo.steps.map(\.command) == [done.commandID])
        #expect(undo.outcome.appended.last?.type == "history.undone")
        let redo = try dispatcher.redo()
        #expect(Observable(redo.outcome.state) == after, "\(Diff.describe(after, Observable(redo.outcome.state)))")
        _ = try dispatcher.undo()
        #expect(Observable(dispatcher.state, keeping: kept, keepingRecords: keptRecords) == before)
        #expect(try Replayer.fold(dispatcher.log, into: ReadModel()) == dispatcher.state)
    }

    @Test("undoing the first saved view resets it")
    func firstFilter() throws {
        let dispatcher = try seeded(filter: false)
        _ = try dispatcher.execute(.saveTodoFilter(TodoQuery(status: .active)))
        let undo = try dispatcher.undo()
        #expect(undo.outcome.appended.map(\.type) == ["filter.reset", "history.undone"])
        #expect(dispatcher.state.filters.isEmpty)
    }

    @Test("undo walks back over earlier undos; --steps is one command; nothing left is an error")
    func walkBack() throws {
        let dispatcher = dispatcher()
        for title in ["a", "b", "c"] { _ = try dispatcher.execute(.addTodo(TodoInput(title: title))) }
        _ = try dispatcher.undo()
        let two = try dispatcher.undo(steps: 2)
        #expect(Set(two.outcome.appended.map(\.command)).count == 1)
        #expect(two.outcome.appended.map(\.type) == ["todo.deleted", "history.undone", "todo.deleted", "history.undone"])
        #expect(dispatcher.state.todos.allSatisfy { $0.deleted })
        #expect(throws: HistoryError.nothingToUndo) { try dispatcher.undo() }
        #expect(throws: HistoryError.nothingToUndo) { try self.dispatcher().undo() }
    }

    @Test("redo re-applies the most recently undone command first, and only until something new happens")
    func redoStack() throws {
        let dispatcher = dispatcher()
        for title in ["a", "b"] { _ = try dispatcher.execute(.addTodo(TodoInput(title: title))) }
        _ = try dispatcher.execute(.completeTodos(["1", "2"]))
        _ = try dispatcher.undo()
        _ = try dispatcher.undo()
        #expect(dispatcher.state.todos.map(\.deleted) == [false, true])
        _ = try dispatcher.redo()
        #expect(dispatcher.state.todos.map(\.deleted) == [false, false])
        #expect(dispatcher.state.todos.map(\.completed) == [false, false])
        _ = try dispatcher.redo()
        #expect(dispatcher.state.todos.map(\.completed) == [true, true])
        #expect(throws: HistoryError.nothingToRedo) { try dispatcher.redo() }
        _ = try dispatcher.undo()
        _ = try dispatcher.execute(.addTodo(TodoInput(title: "c")))
        #expect(throws: HistoryError.nothingToRedo) { try dispatcher.redo() }
        #expect(throws: HistoryError.nothingToRedo) { try self.dispatcher().redo() }
    }

    @Test("undo after redo undoes the redo; a redo undone can be redone again")
    func undoRedo() throws {
        let dispatcher = dispatcher()
        _ = try dispatcher.execute(.addTodo(TodoInput(title: "a")))
        _ = try dispatcher.execute(.editTodo("1", TodoEditInput(title: "b")))
        _ = try dispatcher.undo()
        _ = try dispatcher.redo()
        #expect(dispatcher.state.todos[0].title == "b")
        _ = try dispatcher.undo()
        #expect(dispatcher.state.todos[0].title == "a")
        _ = try dispatcher.redo()
        #expect(dispatcher.state.todos[0].title == "b")
        _ = try dispatcher.undo(steps: 2)
        #expect(dispatcher.state.todos[0].deleted && dispatcher.state.todos[0].title == "a")
        let log = dispatcher.log as! InMemoryStore
        let markers = log.events.filter { $0.stream == HistoryStream.name }
        #expect(markers.map(\.type) == ["history.undone", "history.redone", "history.undone", "history.redone", "history.undone", "history.undone"])
    }
}
