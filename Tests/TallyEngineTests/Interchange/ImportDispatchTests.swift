import Foundation
import Testing
@testable import TallyEngine
import TallyDomain
import TallyTestSupport

@Suite("Dispatcher: imports from other tools")
struct ImportDispatchTests {
    let ids = SequentialIDs()
    let clock = TestClock()
    let log = InMemoryStore()

    var dispatcher: Dispatcher {
        let (clock, ids) = (clock, ids)
        return Dispatcher(log: log, environment: AppEnvironment(now: { clock.now }, makeID: { ids.make() }, actor: "bob@desk", zone: Fixtures.utc))
    }

    var items: [ImportedTodo] {
        [
            ImportedTodo(
                stream: NameUUID.make("t1"), source: .line(1),
                fields: TodoFields(title: "Old", origin: TodoOrigin(tool: .todotxt, id: "1", createdAt: 1_000)), status: .completed, closedAt: 5_000
            ),
            ImportedTodo(stream: NameUUID.make("t2"), source: .line(2), fields: TodoFields(title: "New")),
            ImportedTodo(stream: NameUUID.make("t3"), source: .line(3), fields: TodoFields(title: "Gone"), status: .deleted, closedAt: 6_000),
        ]
    }

    @Test("an import is recorded now, keeps the source's times in the todos, is one command, and a second run appends nothing")
    func fixedIdsAndTimes() throws {
        _ = try dispatcher.execute(.addTodo(TodoInput(title: "local")))
        let outcome = try dispatcher.execute(.importTodos(items))
        let t1 = NameUUID.make("t1")
        #expect(outcome.appended.map(\.id).prefix(3) == [
            NameUUID.make(t1 + "#1"), NameUUID.make(t1 + "#2"), NameUUID.make(NameUUID.make("t2") + "#1"),
        ])
        #expect(outcome.appended.map(\.recordedAt) == [clock.now, 5_000, clock.now, clock.now, 6_000])
        #expect(Set(outcome.appended.map(\.command)) == [outcome.commandID!])
        let old = try #require(outcome.state.todo(id: t1))
        #expect(old.number == 2 && old.completed && old.createdAt == 1_000 && old.completedAt == 5_000)
        #expect(old.origin == TodoOrigin(tool: .todotxt, id: "1", createdAt: 1_000))
        #expect(try Replayer.fold(log, into: ReadModel()) == outcome.state)

        let again = try dispatcher.execute(.importTodos(items))
        #expect(again.appended.isEmpty && again.commandID == nil)
        #expect(again.decision.notices == [.alreadyImported(source: .line(1)), .alreadyImported(source: .line(2)), .alreadyImported(source: .line(3))])
    }

    /// The todos' visible state: what a user compares, without versions and update times.
    func visible(_ model: ReadModel) -> [String] {
        model.todos.map { todo in
            "\(todo.number) \(todo.title) completed=\(todo.completed)@\(todo.completedAt.map(String.init) ?? "-") "
                + "deleted=\(todo.deleted) created=\(todo.createdAt) origin=\(todo.origin?.id ?? "-")"
        }
    }

    @Test("undo removes everything, import after undo restores everything, undo and redo keep the source's times")
    func undoRedoReimport() throws {
        let imported = try dispatcher.execute(.importTodos(items))
        let after = visible(imported.state)
        clock.advance(seconds: 60)
        let undone = try dispatcher.undo()
        let importedAt = imported.appended[0].recordedAt
        #expect(undone.steps.first?.recordedAt == importedAt)
        #expect(undone.outcome.state.todos.allSatisfy { $0.deleted })
        #expect(undone.outcome.appended.map(\.type) == ["todo.deleted", "todo.deleted", "history.undone"])

        clock.advance(seconds: 60)
        let back = try dispatcher.importTodos(ImportBatch(todos: items), restoreDeleted: false).outcome
        #expect(back.appended.map(\.type) == ["todo.restored", "todo.restored"])
        #expect(back.decision.notices == [
            .importUpdated(source: .line(1), number: 1, changes: [.restored]), .importUpdated(source: .line(2), number: 2, changes: [.restored]),
            .alreadyImported(source: .line(3)),
        ])
        #expect(visible(back.state) == after)

        clock.advance(seconds: 60)
        _ = try dispatcher.undo()
        let redone = try dispatcher.redo()
        #expect(visible(redone.outcome.state) == after)
        #expect(redone.outcome.state.todo(id: NameUUID.make("t1"))?.completedAt == 5_000)
    }

    @Test("time travel before and after a back-dated import gives every todo the number it has today")
    func numbersInTimeTravel() throws {
        clock.advance(seconds: 10)
        _ = try dispatcher.execute(.addTodo(TodoInput(title: "first")))
        clock.advance(seconds: 10)
        let imported = try dispatcher.execute(.importTodos(items))
        clock.advance(seconds: 10)
        _ = try dispatcher.execute(.addTodo(TodoInput(title: "last")))
        let today = try Replayer.fold(log, into: ReadModel())
        let before = try Replayer.fold(log, into: ReadModel(), bound: .instant(imported.appended[0].recordedAt - 1))
        #expect(before.todos.map(\.number) == [1] && before.todo(number: 1)?.title == "first")
        let at = try Replayer.fold(log, into: ReadModel(), bound: .instant(imported.appended[0].recordedAt))
        for todo in at.todos {
            #expect(today.todo(number: todo.number)?.id == todo.id)
        }
        #expect(at.todos.count == 4)
    }

    /// A Taskwarrior item with annotations (`at` in seconds) and a start, as a newer export would give it.
    func task(annotations: [(Int64, String)], started: Int64?, modified: Int64? = nil) -> ImportedTodo {
        var item = ImportedTodo(
            stream: NameUUID.make("tw1"), source: .task("0000aaaa"),
            fields: TodoFields(title: "Paint", origin: TodoOrigin(tool: .taskwarrior, id: "0000aaaa", createdAt: 1_000))
        )
        item.annotations = annotations.map { (Int64?($0.0 * 1000), $0.1) }
        item.started = started
        item.modifiedAt = modified
        return item
    }

    func reimport(_ item: ImportedTodo) throws -> CommandOutcome {
        try dispatcher.importTodos(ImportBatch(todos: [item]), restoreDeleted: false).outcome
    }

    @Test("re-import: the source's new annotations come once, only an import's own are taken off, the import's interval is stopped at the last change")
    func annotationsAndTime() throws {
        clock.advance(seconds: 100_000)
        let stream = NameUUID.make("tw1")
        _ = try reimport(task(annotations: [(10, "one"), (20, "two")], started: 30_000))
        _ = try dispatcher.execute(.annotateTodo("1", text: "two"))
        _ = try dispatcher.execute(.annotateTodo("1", text: "mine"))

        // "one" gone there, "three" added, stopped; tally's "two" and "mine" are not the import's.
        let changed = try reimport(task(annotations: [(20, "two"), (40, "three")], started: nil, modified: 50_000))
        #expect(changed.decision.notices == [.importUpdated(source: .task("0000aaaa"), number: 1, changes: [.stopped, .annotated, .denotated])])
        let todo = try #require(changed.state.todo(id: stream))
        #expect(todo.annotations.map(\.text) == ["two", "three", "two", "mine"])
        #expect(todo.annotations.map(\.at).prefix(2) == [20_000, 40_000])
        #expect(todo.intervals == [WorkInterval(start: 30_000, end: 50_000)])
        // Every event of the re-import carries an id an import gives, so the next one knows them.
        #expect(changed.appended.allSatisfy { $0.id == ImportBaseline.eventID(stream: stream, version: $0.version) })

        // The same again: nothing. Then the user takes "three" off; the source still has it: it stays off.
        #expect(try reimport(task(annotations: [(20, "two"), (40, "three")], started: nil, modified: 50_000)).appended.isEmpty)
        _ = try dispatcher.execute(.denotateTodo("1", index: "2"))
        #expect(try reimport(task(annotations: [(20, "two"), (40, "three")], started: nil, modified: 50_000)).appended.isEmpty)

        // Started in tally; the source starts it too: tally's interval runs, nothing is added or stopped.
        _ = try dispatcher.execute(.startTodos(["1"]))
        let mineRunning = try reimport(task(annotations: [(20, "two"), (40, "three")], started: 60_000))
        #expect(mineRunning.appended.isEmpty)
        #expect(mineRunning.state.todo(id: stream)?.running?.start == clock.now)
        #expect(try Replayer.fold(log, into: ReadModel()) == mineRunning.state)
    }
}
