import Testing
@testable import TallyDomain
import TallyTestSupport
@testable import TallyEssentials

/// Folds events one at a time and compares the whole read model with an expected copy, like a TestStore.
struct FoldStore {
    private(set) var model = ReadModel()
    private var seq: Int64 = 0
    private var versions: [String: Int] = [:]
    var clock = Fixtures.epoch

    /// Folds `event`, applies `update` to a copy of the previous model, and expects the two to be equal.
    mutating func send(
        _ event: DomainEvent, to stream: String, advancing seconds: Int64 = 60,
        sourceLocation: SourceLocation = #_sourceLocation, _ update: (inout ReadModel) -> Void
    ) {
        clock += seconds * 1000
        seq += 1
        let version = (versions[stream] ?? 0) + 1
        versions[stream] = version
        var expected = model
        expected.position = seq
        update(&expected)
        Reducer.evolve(&model, event, stream: stream, version: version, seq: seq, at: clock)
        #expect(model == expected, "\(Diff.describe(expected, model))", sourceLocation: sourceLocation)
    }
}

@Suite("Reducer folds")
struct FoldTests {
    let a = "aaaaaaaa-0000-4000-8000-000000000001"
    let b = "bbbbbbbb-0000-4000-8000-000000000002"

    @Test("a created todo appears with number 1 and every field")
    func created() {
        var store = FoldStore()
        let fields = TodoFields(title: "Buy milk", tags: ["shop"], priority: .high, due: .date(LocalDate(year: 2026, month: 11, day: 22)!), note: "2 litres")
        store.send(.todoCreated(fields), to: a) { model in
            model.insertTodo(Todo(
                id: a, number: 1, title: "Buy milk", tags: ["shop"], priority: .high,
                due: .date(LocalDate(year: 2026, month: 11, day: 22)!), note: "2 litres",
                createdAt: Fixtures.epoch + 60_000, updatedAt: Fixtures.epoch + 60_000, version: 1
            ))
        }
    }

    @Test("the whole lifecycle of a todo changes exactly the fields each event names")
    func lifecycle() {
        var store = FoldStore()
        store.send(.todoCreated(TodoFields(title: "Buy milk")), to: a) { model in
            model.insertTodo(Todo(id: a, number: 1, title: "Buy milk", createdAt: Fixtures.epoch + 60_000, updatedAt: Fixtures.epoch + 60_000))
        }
        store.send(.todoEdited(TodoChanges(title: "Buy oat milk", tags: ["shop", "home"], priority: .some(.low))), to: a) { model in
            model.todos[0].title = "Buy oat milk"
            model.todos[0].tags = ["shop", "home"]
            model.todos[0].priority = .low
            model.todos[0].updatedAt = Fixtures.epoch + 120_000
            model.todos[0].version = 2
        }
        store.send(.todoCompleted, to: a) { model in
            model.todos[0].completed = true
            model.todos[0].completedAt = Fixtures.epoch + 180_000
            model.todos[0].updatedAt = Fixtures.epoch + 180_000
            model.todos[0].version = 3
        }
        store.send(.todoReopened, to: a) { model in
            model.todos[0].completed = false
            model.todos[0].completedAt = nil
            model.todos[0].updatedAt = Fixtures.epoch + 240_000
            model.todos[0].version = 4
        }
        store.send(.todoEdited(TodoChanges(priority: .some(nil), note: .some("oat"))), to: a) { model in
            model.todos[0].priority = nil
            model.todos[0].note = "oat"
            model.todos[0].updatedAt = Fixtures.epoch + 300_000
            model.todos[0].version = 5
        }
        store.send(.todoDeleted, to: a) { model in
            model.todos[0].deleted = true
            model.todos[0].updatedAt = Fixtures.epoch + 360_000
            model.todos[0].version = 6
        }
        store.send(.todoRestored, to: a) { model in
            model.todos[0].deleted = false
            model.todos[0].updatedAt = Fixtures.epoch + 420_000
            model.todos[0].version = 7
        }
    }

    @Test("numbers follow creation order and survive deletion")
    func numbering() {
        var store = FoldStore()
        store.send(.todoCreated(TodoFields(title: "first")), to: a) { model in
            model.insertTodo(Todo(id: a, number: 1, title: "first", createdAt: Fixtures.epoch + 60_000, updatedAt: Fixtures.epoch + 60_000))
        }
        store.send(.todoDeleted, to: a) { model in
            model.todos[0].deleted = true
            model.todos[0].updatedAt = Fixtures.epoch + 120_000
            model.todos[0].version = 2
        }
        store.send(.todoCreated(TodoFields(title: "second")), to: b) { model in
            model.insertTodo(Todo(id: b, number: 2, title: "second", createdAt: Fixtures.epoch + 180_000, updatedAt: Fixtures.epoch + 180_000))
        }
        #expect(store.model.todo(number: 2)?.id == b)
        #expect(store.model.todo(number: 3) == nil)
        #expect(store.model.todo(number: 0) == nil)
    }

    @Test("saved filters are set and reset, and their stream versions tracked")
    func filters() {
        var store = FoldStore()
        let filter: JSONObject = ["status": "active"]
        store.send(.filterSaved(scope: .todos, filter: filter), to: "filter:todos") { model in
            model.filters[.todos] = filter
            model.settingsVersions["filter:todos"] = 1
        }
        store.send(.filterReset(scope: .todos), to: "filter:todos") { model in
            model.filters[.todos] = nil
            model.settingsVersions["filter:todos"] = 2
        }
        #expect(store.model.version(of: "filter:todos") == 2)
    }

    @Test("events about unknown streams move the position but change no item")
    func unknownStream() {
        var store = FoldStore()
        store.send(.todoCompleted, to: a) { _ in }
        store.send(.todoEdited(TodoChanges(title: "x")), to: b) { _ in }
        #expect(store.model.todos.isEmpty)
    }

    @Test("a second todo.created for the same stream is ignored")
    func duplicateCreation() {
        var store = FoldStore()
        store.send(.todoCreated(TodoFields(title: "one")), to: a) { model in
            model.insertTodo(Todo(id: a, number: 1, title: "one", createdAt: Fixtures.epoch + 60_000, updatedAt: Fixtures.epoch + 60_000))
        }
        store.send(.todoCreated(TodoFields(title: "again")), to: a) { _ in }
    }
}
