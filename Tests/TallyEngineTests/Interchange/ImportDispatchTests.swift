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
}
