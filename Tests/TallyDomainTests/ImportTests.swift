import Foundation
import Testing
@testable import TallyDomain

@Suite("Taskwarrior and todo.txt conversion")
struct ImportTests {
    let utc = TimeZone(identifier: "UTC")!

    @Test("a Taskwarrior task maps every supported field and reports the rest")
    func taskwarriorFields() throws {
        let text = """
            [{"description":"Buy oat milk","due":"20261125T000000Z","entry":"20261101T091500Z","modified":"20261121T171236Z",
              "priority":"H","project":"Home.Kitchen","status":"pending","uuid":"408cb5ff-d093-422f-b02a-5de2f27e32d6",
              "annotations":[{"entry":"20261102T080000Z","description":"unsweetened"}],"tags":["Groceries","čtení"],"wait":"20261201T000000Z"},
             {"description":"Done thing","entry":"20261101T000000Z","end":"20261103T120000Z","status":"completed","uuid":"aaaaaaaa-0000-0000-0000-000000000000"},
             {"description":"Template","status":"recurring","uuid":"bbbbbbbb-0000-0000-0000-000000000000"},
             {"description":"  ","status":"pending","uuid":"cccccccc-0000-0000-0000-000000000000"}]
            """
        let batch = try TaskwarriorImport.parse(Array(text.utf8), zone: utc)
        #expect(batch.todos.count == 2)
        let milk = batch.todos[0]
        #expect(milk.fields == TodoFields(
            title: "Buy oat milk", tags: ["home-kitchen", "groceries", "cteni"], priority: .high,
            due: .date(LocalDate(year: 2026, month: 11, day: 25)!), note: "2026-11-02 unsweetened",
            wait: .date(LocalDate(year: 2026, month: 12, day: 1)!)
        ))
        #expect(milk.status == .pending && milk.createdAt == Timestamp.parse("2026-11-01T09:15:00Z"))
        #expect(milk.stream == NameUUID.make("taskwarrior:408cb5ff-d093-422f-b02a-5de2f27e32d6"))
        #expect(batch.todos[1].status == .completed && batch.todos[1].closedAt == Timestamp.parse("2026-11-03T12:00:00Z"))
        #expect(batch.warnings == [])
        #expect(batch.skipped == [
            ImportIssue(source: .task("bbbbbbbb"), problem: .recurringTemplate),
            ImportIssue(source: .task("cccccccc"), problem: .missingTitle),
        ])
    }

    @Test("one task per line is accepted, and broken JSON names its line")
    func taskwarriorLines() throws {
        let lines = #"{"description":"One","uuid":"11111111-0000-0000-0000-000000000000"}"# + "\n\n" + #"{"description":"Two"}"#
        let batch = try TaskwarriorImport.parse(Array(lines.utf8), zone: utc)
        #expect(batch.todos.map(\.fields.title) == ["One", "Two"])
        #expect(throws: ImportFormatError(location: .line(2), reason: "unexpected character '}'")) {
            try TaskwarriorImport.parse(Array("[\n{\"a\":}\n]".utf8), zone: utc)
        }
        #expect(throws: ImportFormatError(location: .item(1), reason: "expected a task object")) {
            try TaskwarriorImport.parse(Array("[1]".utf8), zone: utc)
        }
    }

    @Test("todo.txt: completion, priorities, dates, projects, contexts and key:value pairs")
    func todoTxt() throws {
        let text = """
            (A) 2026-11-20 Call Mom +Family @phone due:2026-11-25
            x 2026-11-10 2026-11-01 Renew insurance +Car pri:B
            (D) Sort photos rec:1w
            +Errands @town

            Call Mom +Family @phone due:2026-11-25
            """
        let batch = try TodoTxtImport.parse(Array(text.utf8), zone: utc)
        #expect(batch.todos.map(\.fields.title) == ["Call Mom", "Renew insurance", "Sort photos", "Call Mom"])
        let mom = batch.todos[0]
        #expect(mom.fields.tags == ["family", "phone"] && mom.fields.priority == .high)
        #expect(mom.fields.due == .date(LocalDate(year: 2026, month: 11, day: 25)!))
        #expect(mom.createdAt == Timestamp.parse("2026-11-20T00:00:00Z") && mom.status == .pending)
        let insurance = batch.todos[1]
        #expect(insurance.status == .completed && insurance.fields.priority == .medium)
        #expect(insurance.closedAt == Timestamp.parse("2026-11-10T00:00:00Z"))
        #expect(batch.todos[2].fields.priority == nil)
        #expect(batch.warnings == [
            ImportIssue(source: .line(3), problem: .unmappedPriority("D")),
            ImportIssue(source: .line(3), problem: .recurrenceWithoutDue(field: "rec")),
        ])
        #expect(batch.skipped == [ImportIssue(source: .line(4), problem: .missingTitle)])
        #expect(Set(batch.todos.map(\.stream)).count == 4)
    }

    @Test("the same file gives the same ids; invalid UTF-8 names its line")
    func deterministic() throws {
        let text = Array("Buy milk\nBuy milk\n".utf8)
        let first = try TodoTxtImport.parse(text, zone: utc)
        #expect(first == (try TodoTxtImport.parse(text, zone: utc)))
        #expect(NameUUID.make("x").count == 36 && NameUUID.make("x") == NameUUID.make("x") && NameUUID.make("x") != NameUUID.make("y"))
        #expect(Array(NameUUID.make("x"))[14] == "8")
        #expect(throws: ImportFormatError(location: .line(2), reason: "not valid UTF-8 text")) {
            try TodoTxtImport.parse([0x61, 0x0A, 0xFF, 0x0A], zone: utc)
        }
    }

    @Test("the decider creates, completes and deletes with the source's ids and times, and skips what exists")
    func decide() throws {
        let items = [
            ImportedTodo(stream: "s1", source: .line(1), fields: TodoFields(title: "A"), status: .completed, createdAt: 1_000, closedAt: 2_000),
            ImportedTodo(stream: "s2", source: .line(2), fields: TodoFields(title: "B"), status: .deleted, createdAt: 3_000),
            ImportedTodo(stream: "s1", source: .line(3), fields: TodoFields(title: "A again")),
        ]
        let context = DecisionContext(now: 9_000, zone: utc, makeID: { "fresh" })
        let decision = try Decider.decide(.importTodos(items), state: ReadModel(), context: context)
        #expect(decision.events == [
            PendingEvent(stream: "s1", version: 1, event: .todoCreated(TodoFields(title: "A")), id: NameUUID.make("s1#1"), recordedAt: 1_000),
            PendingEvent(stream: "s1", version: 2, event: .todoCompleted, id: NameUUID.make("s1#2"), recordedAt: 2_000),
            PendingEvent(stream: "s2", version: 1, event: .todoCreated(TodoFields(title: "B")), id: NameUUID.make("s2#1"), recordedAt: 3_000),
            PendingEvent(stream: "s2", version: 2, event: .todoDeleted, id: NameUUID.make("s2#2"), recordedAt: 3_000),
        ])
        #expect(decision.notices == [.alreadyImported(source: .line(3))])
        #expect(decision.affected == ["s1", "s2"])
    }
}
