import Foundation
import Testing
@testable import TallyDomain
import TallyTestSupport
@testable import TallyEssentials

/// Given events → when command → then events (or a rejection).
struct Scenario {
    let ids = SequentialIDs()
    var state = ReadModel()
    private var seq: Int64 = 0

    /// Folds the given events into the state.
    mutating func given(_ events: [(String, DomainEvent)]) {
        for (stream, event) in events {
            seq += 1
            Reducer.evolve(&state, event, stream: stream, version: state.version(of: stream) + 1, seq: seq, at: Fixtures.epoch - 3_600_000 + seq)
        }
    }

    /// Adds todos titled as given, with streams t1, t2, ...
    mutating func givenTodos(_ titles: String...) {
        given(titles.enumerated().map { ("t\($0.offset + 1)", .todoCreated(TodoFields(title: $0.element))) })
    }

    func when(_ command: Command, now: Int64 = Fixtures.epoch, zone: Zone = Fixtures.utc) throws(DomainError) -> Decision {
        try Decider.decide(command, state: state, context: DecisionContext(now: now, zone: zone, makeID: { ids.make() }))
    }

    func rejects(_ command: Command, _ expected: DomainError, sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(throws: expected, sourceLocation: sourceLocation) { try when(command) }
    }
}

@Suite("Decider")
struct DecideTests {
    let newID = "00000000-0000-4000-8000-000000000001"

    // MARK: add

    @Test("add trims the title, normalises tags and parses the due date")
    func addTodo() throws {
        let decision = try Scenario().when(.addTodo(TodoInput(title: "  Buy milk \n", tags: ["Shop", "home", "shop"], priority: "H", due: "tomorrow", note: " 2 l ")))
        #expect(decision == Decision(
            events: [PendingEvent(stream: newID, version: 1, event: .todoCreated(TodoFields(
                title: "Buy milk", tags: ["shop", "home"], priority: .high, due: .date(LocalDate(year: 2026, month: 11, day: 22)!), note: "2 l"
            )))],
            affected: [newID]
        ))
    }

    @Test("a due date-time becomes a UTC instant in the local zone")
    func addWithDueTime() throws {
        let prague = Zone.named("Europe/Prague")!
        let decision = try Scenario().when(.addTodo(TodoInput(title: "Train", due: "2026-11-23T08:15")), zone: prague)
        guard case .todoCreated(let fields) = decision.events.first?.event else { Issue.record("no creation"); return }
        #expect(fields.due == .instant(Timestamp.parse("2026-11-23T07:15:00Z")!))
    }

    @Test("add rejects invalid input", arguments: [
        (TodoInput(title: "   "), DomainError.invalid(.emptyTitle)),
        (TodoInput(title: String(repeating: "x", count: 501)), .invalid(.titleTooLong(max: 500))),
        (TodoInput(title: "bell\u{7}"), .invalid(.controlCharacters(field: "title"))),
        (TodoInput(title: "ok", tags: ["two words"]), .invalid(.invalidTag("two words"))),
        (TodoInput(title: "ok", tags: [String(repeating: "a", count: 33)]), .invalid(.invalidTag(String(repeating: "a", count: 33)))),
        (TodoInput(title: "ok", tags: [""]), .invalid(.invalidTag(""))),
        (TodoInput(title: "ok", tags: (1...21).map { "t\($0)" }), .invalid(.tooManyTags(max: 20))),
        (TodoInput(title: "ok", priority: "urgent"), .invalid(.invalidPriority("urgent"))),
        (TodoInput(title: "ok", note: "a\u{1B}b"), .invalid(.controlCharacters(field: "note"))),
        (TodoInput(title: "ok", note: String(repeating: "n", count: 10_001)), .invalid(.noteTooLong(max: 10_000))),
    ])
    func addRejects(input: TodoInput, expected: DomainError) {
        Scenario().rejects(.addTodo(input), expected)
    }

    @Test("add rejects an impossible due date with the value parser's reason")
    func addRejectsBadDue() {
        #expect {
            try Scenario().when(.addTodo(TodoInput(title: "ok", due: "2026-02-30")))
        } throws: { error in
            guard case .invalid(.value(let value))? = error as? DomainError else { return false }
            return value.kind == .when && value.input == "2026-02-30"
        }
        #expect(throws: DomainError.self) { try Scenario().when(.addTodo(TodoInput(title: "ok", due: "@5"))) }
    }

    @Test("500 characters is the longest title accepted, counted in characters")
    func titleBoundary() throws {
        let title = String(repeating: "é", count: 500)
        let decision = try Scenario().when(.addTodo(TodoInput(title: title)))
        #expect(decision.events.count == 1)
    }

    // MARK: toggle, done, reopen

    @Test("toggle flips each named todo once, in command order")
    func toggle() throws {
        var scenario = Scenario()
        scenario.givenTodos("a", "b", "c")
        scenario.given([("t2", .todoCompleted)])
        let decision = try scenario.when(.toggleTodos(["3", "2", "3"]))
        #expect(decision == Decision(
            events: [
                PendingEvent(stream: "t3", version: 2, event: .todoCompleted),
                PendingEvent(stream: "t2", version: 3, event: .todoReopened),
            ],
            affected: ["t3", "t2"]
        ))
    }

    @Test("toggle --all completes every active todo, or reopens all when none is active")
    func toggleAll() throws {
        var scenario = Scenario()
        scenario.givenTodos("a", "b", "c")
        scenario.given([("t2", .todoCompleted), ("t3", .todoDeleted)])
        let first = try scenario.when(.toggleAllTodos)
        #expect(first.events == [PendingEvent(stream: "t1", version: 2, event: .todoCompleted)])
        scenario.given([("t1", .todoCompleted)])
        let second = try scenario.when(.toggleAllTodos)
        #expect(second.events == [
            PendingEvent(stream: "t1", version: 3, event: .todoReopened),
            PendingEvent(stream: "t2", version: 3, event: .todoReopened),
        ])
        #expect(try Scenario().when(.toggleAllTodos) == Decision(notices: [.noTodos]))
    }

    @Test("done and reopen skip todos already in that state with a notice")
    func doneAndReopen() throws {
        var scenario = Scenario()
        scenario.givenTodos("a", "b")
        scenario.given([("t1", .todoCompleted)])
        #expect(try scenario.when(.completeTodos(["1", "2"])) == Decision(
            events: [PendingEvent(stream: "t2", version: 2, event: .todoCompleted)],
            notices: [.alreadyCompleted(number: 1)],
            affected: ["t1", "t2"]
        ))
        #expect(try scenario.when(.reopenTodos(["1", "2"])) == Decision(
            events: [PendingEvent(stream: "t1", version: 3, event: .todoReopened)],
            notices: [.alreadyActive(number: 2)],
            affected: ["t1", "t2"]
        ))
    }

    @Test("changing a deleted todo is refused; unknown REFs are refused")
    func refusals() {
        var scenario = Scenario()
        scenario.givenTodos("a", "b")
        scenario.given([("t2", .todoDeleted)])
        scenario.rejects(.completeTodos(["1", "2"]), .itemDeleted(.todo, number: 2))
        scenario.rejects(.toggleTodos(["2"]), .itemDeleted(.todo, number: 2))
        scenario.rejects(.editTodo("2", TodoEditInput(title: "x")), .itemDeleted(.todo, number: 2))
        scenario.rejects(.toggleTodos(["1", "9"]), .unknownReference(.todo, "9"))
        scenario.rejects(.reopenTodos(["0"]), .unknownReference(.todo, "0"))
        scenario.rejects(.completeTodos(["zz"]), .unknownReference(.todo, "zz"))
    }

    // MARK: edit

    @Test("edit emits only the fields that really change")
    func edit() throws {
        var scenario = Scenario()
        scenario.given([("t1", .todoCreated(TodoFields(title: "Buy milk", tags: ["shop", "old"], priority: .low, note: "n")))])
        let decision = try scenario.when(.editTodo("1", TodoEditInput(title: "Buy milk", tagChanges: ["+home", "-old", "shop"], priority: "none", due: "2026-12-01", note: "n")))
        #expect(decision.events == [PendingEvent(stream: "t1", version: 2, event: .todoEdited(TodoChanges(
            tags: ["shop", "home"], priority: .some(nil), due: .some(.date(LocalDate(year: 2026, month: 12, day: 1)!))
        )))])
    }

    @Test("an edit that changes nothing appends nothing and says so")
    func editNoop() throws {
        var scenario = Scenario()
        scenario.given([("t1", .todoCreated(TodoFields(title: "Buy milk", tags: ["shop"])))])
        #expect(try scenario.when(.editTodo("1", TodoEditInput(title: " Buy milk ", tagChanges: ["shop", "-absent"], note: "none"))) ==
            Decision(notices: [.unchanged(number: 1)], affected: ["t1"]))
    }

    @Test("edit validates what it is given")
    func editRejects() {
        var scenario = Scenario()
        scenario.givenTodos("a")
        scenario.rejects(.editTodo("1", TodoEditInput(title: "")), .invalid(.emptyTitle))
        scenario.rejects(.editTodo("1", TodoEditInput(tagChanges: ["+Bad Tag"])), .invalid(.invalidTag("Bad Tag")))
        scenario.rejects(.editTodo("1", TodoEditInput(priority: "asap")), .invalid(.invalidPriority("asap")))
        scenario.rejects(.editTodo("1", TodoEditInput(tagChanges: (1...21).map { "+t\($0)" })), .invalid(.tooManyTags(max: 20)))
    }

    // MARK: delete

    @Test("delete deletes live todos and notes those already deleted")
    func delete() throws {
        var scenario = Scenario()
        scenario.givenTodos("a", "b")
        scenario.given([("t2", .todoDeleted)])
        #expect(try scenario.when(.deleteTodos(["1", "2"])) == Decision(
            events: [PendingEvent(stream: "t1", version: 2, event: .todoDeleted)],
            notices: [.alreadyDeleted(number: 2)],
            affected: ["t1", "t2"]
        ))
    }

    @Test("delete --completed deletes every completed live todo as one decision")
    func deleteCompleted() throws {
        var scenario = Scenario()
        scenario.givenTodos("a", "b", "c", "d")
        scenario.given([("t1", .todoCompleted), ("t3", .todoCompleted), ("t4", .todoCompleted), ("t4", .todoDeleted)])
        #expect(try scenario.when(.deleteCompletedTodos).events == [
            PendingEvent(stream: "t1", version: 3, event: .todoDeleted),
            PendingEvent(stream: "t3", version: 3, event: .todoDeleted),
        ])
        #expect(try Scenario().when(.deleteCompletedTodos) == Decision(notices: [.noCompletedTodos]))
    }

    // MARK: filters

    @Test("filter set saves only non-default options; saving the same again is a no-op")
    func saveFilter() throws {
        var scenario = Scenario()
        let query = TodoQuery(status: .active, tags: ["Home"], dueBefore: "tomorrow", sort: .due, limit: 5)
        let decision = try scenario.when(.saveTodoFilter(query))
        let saved: JSONObject = ["status": "active", "tags": ["home"], "dueBefore": "tomorrow", "sort": "due", "limit": 5]
        // The saved view is the context `default`, made active.
        let contexts: JSONObject = ["contexts": .object(["default": .object(saved)]), "active": "default"]
        #expect(decision.events == [PendingEvent(stream: "filter:todos", version: 1, event: .filterSaved(scope: .todos, filter: contexts))])
        // A view stored in the 0.9 shape reads as that same context.
        scenario.given([("filter:todos", .filterSaved(scope: .todos, filter: saved))])
        #expect(try scenario.when(.saveTodoFilter(query)) == Decision(notices: [.filterUnchanged(.todos)]))
        #expect(try scenario.when(.resetFilter(.todos)).events == [PendingEvent(stream: "filter:todos", version: 2, event: .filterReset(scope: .todos))])
        #expect(try Scenario().when(.resetFilter(.todos)) == Decision(notices: [.noSavedFilter(.todos)]))
    }

    @Test("filter set rejects bad dates, tags and limits")
    func saveFilterRejects() {
        let scenario = Scenario()
        #expect(throws: DomainError.self) { try scenario.when(.saveTodoFilter(TodoQuery(dueBefore: "someday"))) }
        scenario.rejects(.saveTodoFilter(TodoQuery(tags: ["a b"])), .invalid(.invalidTag("a b")))
        scenario.rejects(.saveTodoFilter(TodoQuery(limit: 0)), .invalid(.invalidLimit("0")))
    }

    @Test("a saved query survives its JSON form")
    func queryRoundTrip() {
        let query = TodoQuery(status: .completed, tags: ["a", "b"], priority: .medium, dueBefore: "+3d", dueAfter: "2026-01-01", search: "milk", sort: .title, reverse: true, limit: 7, includeDeleted: true)
        #expect(TodoQuery(json: query.json) == query)
        #expect(TodoQuery(json: TodoQuery.standard.json) == .standard)
        #expect(TodoQuery.standard.json.count == 0)
    }
}

@Suite("REF resolution")
struct ReferenceTests {
    func model(ids: [String]) -> ReadModel {
        var model = ReadModel()
        for (index, id) in ids.enumerated() {
            Reducer.evolve(&model, .todoCreated(TodoFields(title: "todo \(index + 1)")), stream: id, version: 1, seq: Int64(index + 1), at: 0)
        }
        return model
    }

    @Test("numbers, unique prefixes, ambiguous prefixes and garbage")
    func resolution() throws {
        let state = model(ids: ["abcd1234-0000-4000-8000-000000000000", "abce9999-0000-4000-8000-000000000000", "12345678-0000-4000-8000-000000000000"])
        #expect(try ReferenceResolver.todo("2", in: state).number == 2)
        #expect(try ReferenceResolver.todo("abcd", in: state).number == 1)
        #expect(try ReferenceResolver.todo("ABCE9", in: state).number == 2)
        #expect(try ReferenceResolver.todo("1234", in: state).number == 3)
        #expect(try ReferenceResolver.todo("abcd1234-0000", in: state).number == 1)
        #expect {
            try ReferenceResolver.todo("abc", in: state)
        } throws: { ($0 as? DomainError) == .unknownReference(.todo, "abc") }
        #expect {
            try ReferenceResolver.todo("abc9", in: state)
        } throws: { ($0 as? DomainError) == .unknownReference(.todo, "abc9") }
        #expect {
            try ReferenceResolver.todo("ab-c", in: state)
        } throws: { ($0 as? DomainError) == .unknownReference(.todo, "ab-c") }
        let twins = model(ids: ["abcd1234-0000-4000-8000-000000000000", "abcd5678-0000-4000-8000-000000000000"])
        #expect {
            try ReferenceResolver.todo("abcd", in: twins)
        } throws: { error in
            guard case .ambiguousReference(.todo, "abcd", let candidates)? = error as? DomainError else { return false }
            return candidates.map(\.number) == [1, 2] && candidates[0].label == "todo 1"
        }
    }
}
