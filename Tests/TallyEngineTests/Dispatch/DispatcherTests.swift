import Foundation
import Testing
@testable import TallyEngine
import TallyDomain
import TallySQLite
import TallyTestSupport
@testable import TallyEssentials

@Suite("Dispatcher")
struct DispatcherTests {
    let ids = SequentialIDs()
    let clock = TestClock()

    func environment(actor: String = "alice@laptop") -> AppEnvironment {
        let ids = ids
        let clock = clock
        return AppEnvironment(now: { clock.now }, makeID: { ids.make() }, actor: actor, zone: Fixtures.utc)
    }

    @Test("a multi-item command is one append with one command id, chained hashes and the state folded")
    func multiItemCommand() throws {
        let log = InMemoryStore()
        let dispatcher = Dispatcher(log: log, environment: environment())
        _ = try dispatcher.execute(.addTodo(TodoInput(title: "a")))
        _ = try dispatcher.execute(.addTodo(TodoInput(title: "b")))
        clock.advance(seconds: 60)
        let outcome = try dispatcher.execute(.toggleTodos(["1", "2"]))
        #expect(outcome.appended.map(\.type) == ["todo.completed", "todo.completed"])
        #expect(Set(outcome.appended.map(\.command)).count == 1)
        #expect(outcome.appended.map(\.command).first == outcome.commandID)
        #expect(outcome.appended.map(\.seq) == [3, 4])
        #expect(outcome.appended.allSatisfy { $0.actor == "alice@laptop" && $0.recordedAt == Fixtures.epoch + 60_000 })
        var previous = EventHash.genesis
        for event in log.events {
            #expect(event.hash == EventHash.link(previous: previous, event))
            previous = event.hash
        }
        #expect(outcome.state.todos.allSatisfy { $0.completed })
        #expect(try Replayer.fold(log, into: ReadModel()) == outcome.state)
    }

    @Test("a no-op appends nothing and a rejected command appends nothing")
    func nothingAppended() throws {
        let log = InMemoryStore()
        let dispatcher = Dispatcher(log: log, environment: environment())
        _ = try dispatcher.execute(.addTodo(TodoInput(title: "a")))
        let noop = try dispatcher.execute(.reopenTodos(["1"]))
        #expect(noop.appended.isEmpty && noop.commandID == nil)
        #expect(noop.decision.notices == [.alreadyActive(number: 1)])
        #expect(throws: DomainError.self) { try dispatcher.execute(.toggleTodos(["1", "7"])) }
        #expect(log.events.count == 1)
    }

    @Test("the payload is stored as canonical JSON with its schema")
    func payloadFormat() throws {
        let log = InMemoryStore()
        _ = try Dispatcher(log: log, environment: environment()).execute(.addTodo(TodoInput(title: "Buy \"milk\"", tags: ["b", "a"])))
        let event = try #require(log.events.first)
        // A fresh 16-byte salt for each erasable value that is set (title, tags), first in canonical order.
        let salts = try #require(try JSON.parse(event.data).objectValue?[Commitment.saltsKey]?.objectValue)
        #expect(salts.keys.sorted() == ["tags", "title"])
        #expect(salts.pairs.allSatisfy { $0.value.stringValue?.utf8.count == 32 && $0.value.stringValue?.allSatisfy(\.isHexDigit) == true })
        let rest = event.data.drop { $0 != "}" }.dropFirst()
        #expect(String(rest) == #","due":null,"note":null,"priority":null,"series":null,"tags":["b","a"],"title":"Buy \"milk\"","wait":null}"#)
        #expect(JSON.object(Commitment.readable(try #require(try JSON.parse(event.data).objectValue))).serialized(.canonical)
            == #"{"due":null,"note":null,"priority":null,"series":null,"tags":["b","a"],"title":"Buy \"milk\"","wait":null}"#)
        #expect(event.schema == 4 && event.type == "todo.created" && event.version == 1)
    }

    @Test("two dispatchers on one file catch up inside the write lock and never decide on stale state")
    func catchUpAcrossProcesses() throws {
        let directory = TemporaryDirectory()
        let path = directory.path("shared.db")
        let first = Dispatcher(log: try SQLiteEventLog.openForWriting(path: path, now: 0), environment: environment(actor: "one"))
        let second = Dispatcher(log: try SQLiteEventLog.openForWriting(path: path, now: 0), environment: environment(actor: "two"))
        _ = try first.execute(.addTodo(TodoInput(title: "from one")))
        let outcome = try second.execute(.toggleTodos(["1"]))
        #expect(outcome.appended.first?.version == 2)
        _ = try first.execute(.addTodo(TodoInput(title: "again from one")))
        #expect(first.state.todos.map(\.title) == ["from one", "again from one"])
        #expect(first.state.todos[0].completed)
    }

    @Test("time travel folds up to a position or an instant")
    func timeTravel() throws {
        let log = InMemoryStore()
        let dispatcher = Dispatcher(log: log, environment: environment())
        _ = try dispatcher.execute(.addTodo(TodoInput(title: "a")))
        clock.advance(seconds: 3600)
        _ = try dispatcher.execute(.completeTodos(["1"]))
        clock.advance(seconds: 3600)
        _ = try dispatcher.execute(.editTodo("1", TodoEditInput(title: "b")))
        let atTwo = try Replayer.fold(log, into: ReadModel(), bound: .position(2))
        #expect(atTwo.todos[0].completed && atTwo.todos[0].title == "a")
        let early = try Replayer.fold(log, into: ReadModel(), bound: .instant(Fixtures.epoch + 1000))
        #expect(early.todos.count == 1 && !early.todos[0].completed)
        let before = try Replayer.fold(log, into: ReadModel(), bound: .instant(Fixtures.epoch - 1))
        #expect(before.todos.isEmpty)
    }

    @Test("an undecodable event is passed over: nothing of it applied, its stream's version and the position move on, and it is named")
    func undecodable() throws {
        var factory = EventFactory()
        let good = factory.make(.todoCreated(TodoFields(title: "a")), stream: "s")
        var bad = factory.make(.todoCompleted, stream: "s")
        bad.type = "todo.exploded"
        let after = factory.make(.todoCreated(TodoFields(title: "b")), stream: "t")
        let log = InMemoryStore(events: [good, bad, after])
        var folded = Replayer.Folded()
        try Replayer.fold(log, into: &folded)
        #expect(folded.unreadable == ReplayError(seq: 2, type: "todo.exploded", reason: "unknown event type"))
        #expect(folded.model.position == 3 && folded.model.todos.map(\.title) == ["a", "b"])
        #expect(!folded.model.todos[0].completed && folded.model.todos[0].version == 2, "the next event on the stream is version 3")
        // A fold that starts after the bad event equals one that passed it over.
        var tail = Replayer.Folded()
        try Replayer.fold(log, into: &tail, bound: .position(2))
        try Replayer.fold(log, into: &tail)
        #expect(tail == folded)
    }
}
