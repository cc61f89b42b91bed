import Foundation
import Testing
@testable import TallyApp
import TallyDomain
import TallyTestSupport

@Suite("Dispatcher: imports from other tools")
struct ImportDispatchTests {
    @Test("an import keeps the source's event ids and times, is one command, and a second run appends nothing")
    func fixedIdsAndTimes() throws {
        let ids = SequentialIDs()
        let clock = TestClock()
        let environment = AppEnvironment(now: { clock.now }, makeID: { ids.make() }, actor: "bob@desk", zone: Fixtures.utc)
        let log = InMemoryEventLog()
        let dispatcher = Dispatcher(log: log, environment: environment)
        _ = try dispatcher.execute(.addTodo(TodoInput(title: "local")))
        let items = [
            ImportedTodo(stream: NameUUID.make("t1"), source: .line(1), fields: TodoFields(title: "Old"), status: .completed, createdAt: 1_000, closedAt: 5_000),
            ImportedTodo(stream: NameUUID.make("t2"), source: .line(2), fields: TodoFields(title: "New")),
        ]
        let outcome = try dispatcher.execute(.importTodos(items))
        #expect(outcome.appended.map(\.id) == [
            NameUUID.make(NameUUID.make("t1") + "#1"), NameUUID.make(NameUUID.make("t1") + "#2"), NameUUID.make(NameUUID.make("t2") + "#1"),
        ])
        #expect(outcome.appended.map(\.recordedAt) == [1_000, 5_000, clock.now])
        #expect(Set(outcome.appended.map(\.command)) == [outcome.commandID!])
        let old = try #require(outcome.state.todo(id: NameUUID.make("t1")))
        #expect(old.number == 2 && old.completed && old.createdAt == 1_000 && old.completedAt == 5_000)
        #expect(try Replayer.fold(log, into: ReadModel()) == outcome.state)

        let again = try dispatcher.execute(.importTodos(items))
        #expect(again.appended.isEmpty && again.commandID == nil)
        #expect(again.decision.notices == [.alreadyImported(source: .line(1)), .alreadyImported(source: .line(2))])
    }
}
