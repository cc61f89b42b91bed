import Foundation
import Testing
@testable import TallyDomain
@testable import TallyEssentials
@testable import TallyInterchange

@Suite("Taskwarrior and todo.txt conversion")
struct ImportTests {
    let utc = Zone.utc
    let prague = Zone.named("Europe/Prague")!

    func day(_ text: String) -> LocalDate { LocalDate.parse(text)! }

    @Test("a Taskwarrior task maps every supported field and keeps the rest in the note")
    func taskwarriorFields() throws {
        let text = """
            [{"description":"Buy oat milk","due":"20261125T000000Z","entry":"20261101T091500Z","modified":"20261121T171236Z",
              "priority":"H","project":"Home.Kitchen","status":"pending","uuid":"408cb5ff-d093-422f-b02a-5de2f27e32d6",
              "annotations":[{"entry":"20261102T080000Z","description":"unsweetened"}],"tags":["Groceries","čtení"],"wait":"20261201T000000Z"},
             {"description":"Done thing","entry":"20261101T000000Z","end":"20261103T120000Z","status":"completed","uuid":"aaaaaaaa-0000-0000-0000-000000000000"},
             {"description":"Template","status":"recurring","uuid":"bbbbbbbb-0000-0000-0000-000000000000"},
             {"description":"Instance","status":"pending","parent":"bbbbbbbb-0000-0000-0000-000000000000","uuid":"dddddddd-0000-0000-0000-000000000000"},
             {"description":"  ","status":"pending","uuid":"cccccccc-0000-0000-0000-000000000000"}]
            """
        let batch = try TaskwarriorImport.parse(Array(text.utf8), zone: utc)
        #expect(batch.todos.map(\.fields.title) == ["Buy oat milk", "Done thing", "Instance"])
        let milk = batch.todos[0]
        #expect(milk.fields == TodoFields(
            title: "Buy oat milk", tags: ["groceries", "čtení"], priority: .high,
            due: .date(day("2026-11-25")), note: nil, wait: .date(day("2026-12-01")),
            origin: TodoOrigin(tool: .taskwarrior, id: "408cb5ff-d093-422f-b02a-5de2f27e32d6", createdAt: Timestamp.parse("2026-11-01T09:15:00Z")),
            project: "home.kitchen"
        ))
        #expect(milk.status == .pending)
        #expect(milk.annotations.map(\.at) == [Timestamp.parse("2026-11-02T08:00:00Z")] && milk.annotations.map(\.text) == ["unsweetened"])
        #expect(milk.stream == NameUUID.make("taskwarrior:408cb5ff-d093-422f-b02a-5de2f27e32d6"))
        #expect(batch.todos[1].status == .completed && batch.todos[1].closedAt == Timestamp.parse("2026-11-03T12:00:00Z"))
        #expect(batch.warnings == [])
        #expect(batch.skipped == [
            ImportIssue(source: .task("bbbbbbbb"), problem: .recurringTemplate),
            ImportIssue(source: .task("cccccccc"), problem: .missingTitle),
        ])
    }

    @Test("dates in every form task import accepts; an unreadable one says what was used instead")
    func taskwarriorDates() throws {
        let lines = [
            #"{"uuid":"00000000-0000-0000-0000-000000000001","description":"a","entry":"1234524689","due":1793491200}"#,
            #"{"uuid":"00000000-0000-0000-0000-000000000002","description":"b","status":"completed","entry":"20151018T144200","end":"2026-11-01"}"#,
            #"{"uuid":"00000000-0000-0000-0000-000000000003","description":"c","entry":1234524689,"due":"2026-11-01T10:30:00Z"}"#,
            #"{"uuid":"00000000-0000-0000-0000-000000000004","description":"d","entry":"soon","due":"someday","status":"completed","end":"never"}"#,
        ]
        let batch = try TaskwarriorImport.parse(Array(lines.joined(separator: "\n").utf8), zone: prague)
        let todos = batch.todos
        #expect(todos[0].fields.origin?.createdAt == 1_234_524_689_000)
        #expect(todos[0].fields.due == .instant(1_793_491_200_000))
        #expect(todos[1].fields.origin?.createdAt == Timestamp.parse("2015-10-18T12:42:00Z"))
        #expect(todos[1].closedAt == Timestamp.parse("2026-10-31T23:00:00Z"))
        #expect(todos[2].fields.origin?.createdAt == 1_234_524_689_000)
        #expect(todos[2].fields.due == .instant(Timestamp.parse("2026-11-01T10:30:00Z")!))
        #expect(todos[3].fields.origin?.createdAt == nil && todos[3].closedAt == nil && todos[3].fields.due == nil)
        #expect(todos[3].fields.note == "due: someday")
        #expect(batch.warnings.filter { $0.source == .task("00000000") }.map(\.problem) == [
            .invalidDate(field: "due", value: "someday", fallback: .keptInNote),
            .invalidDate(field: "entry", value: "soon", fallback: .importTime),
            .invalidDate(field: "end", value: "never", fallback: .importTime),
        ])
    }

    @Test("shapes: byte-order mark, CR line ends, pretty-printed objects, a uuid twice, tags as a string")
    func taskwarriorShapes() throws {
        let text = "\u{FEFF}{\r  \"uuid\": \"11111111-0000-0000-0000-000000000000\",\r  \"description\": \"One\",\r  \"tags\": \"a,b\"\r}\r"
            + "{\"description\":\"Two\"}\r"
            + "{\"uuid\":\"11111111-0000-0000-0000-000000000000\",\"description\":\"One, changed\",\"annotations\":[{\"entry\":\"20151018T144200Z\"}]}"
        let batch = try TaskwarriorImport.parse(Array(text.utf8), zone: utc)
        #expect(batch.todos.map(\.fields.title) == ["One, changed", "Two"])
        #expect(batch.todos[0].fields.tags == [])
        #expect(batch.warnings.map(\.problem) == [.duplicateTask(earlier: .line(1)), .annotationWithoutDescription])
        let single = try TaskwarriorImport.parse(Array("{\"uuid\":\"2\",\"description\":\"x\",\"tags\":\"a, b\"}".utf8), zone: utc)
        #expect(single.todos[0].fields.tags == ["a", "b"] && single.warnings.map(\.problem) == [.tagsFromString])
        #expect(throws: ImportFormatError(location: .line(2), reason: "unexpected character '}'")) {
            try TaskwarriorImport.parse(Array("[\n{\"a\":}\n]".utf8), zone: utc)
        }
        #expect(throws: ImportFormatError(location: .item(1), reason: "expected a task object")) {
            try TaskwarriorImport.parse(Array("[1]".utf8), zone: utc)
        }
    }

    @Test("a recurring template without its instances becomes a series and its first instance")
    func lonelyTemplate() throws {
        let text = #"{"uuid":"22222222-0000-0000-0000-000000000000","description":"Water plants","status":"recurring","recur":"weekly","due":"20261101T000000Z","mask":"--"}"#
        let batch = try TaskwarriorImport.parse(Array(text.utf8), zone: utc)
        let series = TaskwarriorRecurrence.seriesStream("22222222-0000-0000-0000-000000000000")
        #expect(batch.series.map(\.stream) == [series] && batch.series[0].fields.rule == RecurrenceRule(period: .weeks(1)))
        #expect(batch.todos.count == 1 && batch.todos[0].status == .pending && batch.todos[0].fields.series == series)
        #expect(batch.todos[0].stream == SeriesInstance.id(series: series, occurrence: day("2026-11-01")))
        #expect(batch.todos[0].fields.note == nil && batch.warnings.isEmpty)
    }

    @Test("nothing is dropped for tally's limits: long text, many tags, tabs and line breaks")
    func limits() throws {
        let long = String(repeating: "word ", count: 104) + "end"
        let tags = (1...22).map { "\"t\($0)\"" }.joined(separator: ",")
        let text = """
            {"uuid":"33333333-0000-0000-0000-000000000000","description":"\(long)","tags":[\(tags),"\(String(repeating: "x", count: 40))"]}
            {"uuid":"44444444-0000-0000-0000-000000000000","description":"first\\tline\\nsecond"}
            """
        let batch = try TaskwarriorImport.parse(Array(text.utf8), zone: utc)
        let first = batch.todos[0].fields
        #expect(first.title.count <= Validation.maxTitleLength && first.title.hasSuffix("…") && first.title.hasPrefix("word word"))
        #expect(first.tags == (1...20).map { "t\($0)" })
        #expect(first.note == long + "\ntags: " + String(repeating: "x", count: 40) + " t21 t22")
        let second = batch.todos[1].fields
        #expect(second.title == "first line second" && second.note == "first\tline\nsecond")
        #expect(batch.warnings.map(\.problem) == [
            .titleShortened(max: 500), .tagsKeptInNote([String(repeating: "x", count: 40), "t21", "t22"]),
            .controlCharactersReplaced, .titleLinesJoined,
        ])
    }

    @Test("todo.txt: the title keeps its words and spacing; markers, due and pri become fields")
    func todoTxt() throws {
        let text = """
            (A) 2026-11-20 Call Mom +Family @phone due:2026-11-25
            x 2026-11-10 2026-11-01 Renew insurance +Car pri:B
            (D) Sort photos rec:1w
            my +flowers are +roses

            Call Mom +Family @phone due:2026-11-25
            Meet at 10:30  with\tAda +日本 +🌹 +čeština
            x
            (A)
            x 2011-03-03 Call Mom
            x 2026-11-01 2026-11-10 backwards
            pri:b stays
            """
        let batch = try TodoTxtImport.parse(Array(text.utf8), zone: utc)
        #expect(batch.todos.map(\.fields.title) == [
            "Call Mom +Family @phone", "Renew insurance +Car", "Sort photos", "my +flowers are +roses",
            "Call Mom +Family @phone", "Meet at 10:30  with Ada +日本 +🌹 +čeština", "x", "(A)", "Call Mom", "backwards", "pri:b stays",
        ])
        let mom = batch.todos[0]
        #expect(mom.fields.tags == ["family", "phone"] && mom.fields.priority == .high)
        #expect(mom.fields.due == .date(day("2026-11-25")))
        #expect(mom.fields.origin == TodoOrigin(tool: .todotxt, id: "1", createdAt: Timestamp.parse("2026-11-20T00:00:00Z")))
        let insurance = batch.todos[1]
        #expect(insurance.status == .completed && insurance.fields.priority == .medium)
        #expect(insurance.closedAt == Timestamp.parse("2026-11-10T00:00:00Z"))
        // `rec:` without `due:` cannot start a series: it is kept in the note, not lost.
        #expect(batch.todos[2].fields.priority == nil && batch.todos[2].fields.note == "priority: (D)\nrec: 1w")
        #expect(batch.todos[3].fields.tags == ["flowers", "roses"])
        #expect(batch.todos[5].fields.tags == ["日本", "čeština"])
        #expect(batch.todos[6].status == .pending && batch.todos[7].fields.priority == nil)
        let mom2011 = batch.todos[8]
        #expect(mom2011.fields.origin?.createdAt == Timestamp.parse("2011-03-03T00:00:00Z") && mom2011.closedAt == mom2011.fields.origin?.createdAt)
        let backwards = batch.todos[9]
        #expect(backwards.fields.origin?.createdAt == Timestamp.parse("2026-11-01T00:00:00Z") && backwards.fields.note == "created: 2026-11-10")
        #expect(batch.warnings == [
            ImportIssue(source: .line(3), problem: .unmappedTodoTxtPriority("D")),
            ImportIssue(source: .line(3), problem: .recurrenceWithoutDue(field: "rec")),
            ImportIssue(source: .line(7), problem: .controlCharactersReplaced),
            ImportIssue(source: .line(11), problem: .closedBeforeCreated(
                created: Timestamp.parse("2026-11-10T00:00:00Z")!, closed: Timestamp.parse("2026-11-01T00:00:00Z")!
            )),
            ImportIssue(source: .line(12), problem: .invalidPriorityKeptInTitle("b")),
        ])
        #expect(batch.skipped.isEmpty)
        #expect(Set(batch.todos.map(\.stream)).count == batch.todos.count)
    }

    @Test("todo.txt: long project names stay in the title, a JSON file is refused, CR-only lines and a BOM are read")
    func todoTxtOdd() throws {
        let a = String(repeating: "a", count: 40)
        let batch = try TodoTxtImport.parse(Array("\u{FEFF}one +\(a)1 +\(a)2\rtwo\r".utf8), zone: utc)
        #expect(batch.todos.map(\.fields.title) == ["one +\(a)1 +\(a)2", "two"])
        #expect(batch.todos[0].fields.tags == [])
        #expect(batch.warnings.map(\.problem) == [.tagsKeptInTitle(["+\(a)1", "+\(a)2"])])
        #expect(throws: ImportFormatError(location: .line(1), reason: "this is JSON, not todo.txt", otherFormat: .otherJSON)) {
            try TodoTxtImport.parse(Array("[{\"description\":\"x\"}]".utf8), zone: utc)
        }
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
        #expect(throws: ImportFormatError(location: .line(3), reason: "not valid UTF-8 text")) {
            try TodoTxtImport.parse([0x61, 0x0D, 0x0A, 0x62, 0x0D, 0x63, 0xFF], zone: utc)
        }
    }

    @Test("which tool wrote a file, from its first line")
    func sniffing() {
        #expect(FormatSniffer.format(ofFirstLine: "[") == .taskwarrior)
        #expect(FormatSniffer.format(ofFirstLine: #"{"description":"x","uuid":"1"}"#) == .taskwarrior)
        #expect(FormatSniffer.format(ofFirstLine: #"{"stream":"x","id":"1"}"#) == .otherJSON)
        #expect(FormatSniffer.format(ofFirstLine: "(A) Call Mom") == .todoTxt)
    }

    @Test("the decider creates now with the origin, closes at the source's time, skips live items and restores undone ones")
    func decide() throws {
        let origin = TodoOrigin(tool: .todotxt, id: "1", createdAt: 1_000)
        let items = [
            ImportedTodo(stream: "s1", source: .line(1), fields: TodoFields(title: "A", origin: origin), status: .completed, closedAt: 2_000),
            ImportedTodo(stream: "s2", source: .line(2), fields: TodoFields(title: "B"), status: .deleted),
            ImportedTodo(stream: "s1", source: .line(3), fields: TodoFields(title: "A again")),
        ]
        let context = DecisionContext(now: 9_000, zone: utc, makeID: { "fresh" })
        let decision = try Decider.decide(.importTodos(items), state: ReadModel(), context: context)
        #expect(decision.events == [
            PendingEvent(stream: "s1", version: 1, event: .todoCreated(TodoFields(title: "A", origin: origin)), id: NameUUID.make("s1#1"), recordedAt: nil),
            PendingEvent(stream: "s1", version: 2, event: .todoCompleted, id: NameUUID.make("s1#2"), recordedAt: 2_000),
            PendingEvent(stream: "s2", version: 1, event: .todoCreated(TodoFields(title: "B")), id: NameUUID.make("s2#1"), recordedAt: nil),
            PendingEvent(stream: "s2", version: 2, event: .todoDeleted, id: NameUUID.make("s2#2"), recordedAt: nil),
        ])
        #expect(decision.notices == [.alreadyImported(source: .line(3))])
        #expect(decision.affected == ["s1", "s2"])

        // After an undo deleted them: the live one comes back, the one deleted in the source stays as it is.
        var state = ReadModel()
        var seq: Int64 = 0
        for event in decision.events {
            seq += 1
            Reducer.evolve(&state, event.event, stream: event.stream, version: event.version, seq: seq, at: event.recordedAt ?? 9_000)
        }
        #expect(state.todo(id: "s1")?.createdAt == 1_000 && state.todo(id: "s1")?.completedAt == 2_000)
        seq += 1
        Reducer.evolve(&state, .todoDeleted, stream: "s1", version: 3, seq: seq, at: 9_500)
        let undone = ["s1": ImportBaseline(importUndone: true), "s2": ImportBaseline(importUndone: true)]
        let again = try Decider.decide(.importTodos(Array(items.prefix(2)), earlier: undone), state: state, context: context)
        #expect(again.events == [PendingEvent(stream: "s1", version: 4, event: .todoRestored, id: NameUUID.make("s1#4"), recordedAt: nil)])
        #expect(again.notices == [.importUpdated(source: .line(1), number: 1, changes: [.restored]), .alreadyImported(source: .line(2))])

        // Deleted in tally (not by an undo): it stays deleted and the notice says so, unless a restore is asked for.
        let imported = ["s1": ImportBaseline(fields: TodoFields(title: "A", origin: origin), status: .completed)]
        let kept = try Decider.decide(.importTodos(Array(items.prefix(1)), earlier: imported), state: state, context: context)
        #expect(kept.events.isEmpty && kept.notices == [.importKeptDeleted(source: .line(1), number: 1, openInstance: nil)])
        let restored = try Decider.decide(.importTodos(Array(items.prefix(1)), earlier: imported, restoreDeleted: true), state: state, context: context)
        #expect(restored.events.map(\.event) == [.todoRestored])
    }
}

@Suite struct TaskwarriorProjectImportTests {
    @Test("a project becomes the todo's project; an empty one is no project and adds no note line; one that breaks the rules stays in the note")
    func projects() throws {
        let text = """
            [{"description":"a","status":"pending","uuid":"11111111-0000-4000-8000-000000000001","project":"Domov.Zahrada"},
             {"description":"b","status":"pending","uuid":"11111111-0000-4000-8000-000000000002","project":""},
             {"description":"c","status":"pending","uuid":"11111111-0000-4000-8000-000000000003","project":"a..b"}]
            """
        let batch = try TaskwarriorImport.parse(Array(text.utf8), zone: .utc)
        #expect(batch.todos.map(\.fields.project) == ["domov.zahrada", nil, nil])
        #expect(batch.todos[1].fields.note == nil && batch.todos[1].fields.tags == [])
        #expect(batch.todos[2].fields.note?.contains("a..b") == true)
    }
}

@Suite struct TaskwarriorKeptDateTests {
    @Test("a date kept in the note keeps its seconds when it has some")
    func seconds() throws {
        let text = """
            [{"description":"a","status":"pending","uuid":"22222222-0000-4000-8000-000000000001","until":"20261123T064324Z","scheduled":"20261124T090000Z"}]
            """
        let batch = try TaskwarriorImport.parse(Array(text.utf8), zone: .utc)
        let note = batch.todos[0].fields.note ?? ""
        #expect(note.contains("until: 2026-11-23 06:43:24"), "\(note)")
        #expect(note.contains("scheduled: 2026-11-24 09:00\n") || note.hasSuffix("scheduled: 2026-11-24 09:00"), "\(note)")
    }
}

@Suite struct TaskwarriorDependsImportTests {
    @Test("depends on tasks of the file become the todos it waits for; unknown uuids stay in the note")
    func depends() throws {
        let text = """
            [{"description":"a","status":"pending","uuid":"33333333-0000-4000-8000-000000000001"},
             {"description":"b","status":"pending","uuid":"33333333-0000-4000-8000-000000000002","depends":["33333333-0000-4000-8000-000000000001","99999999-0000-4000-8000-000000000009"]},
             {"description":"c","status":"pending","uuid":"33333333-0000-4000-8000-000000000003","depends":"33333333-0000-4000-8000-000000000001,33333333-0000-4000-8000-000000000002"}]
            """
        let batch = try TaskwarriorImport.parse(Array(text.utf8), zone: .utc)
        let streams = batch.todos.map(\.stream)
        #expect(batch.todos[1].fields.after == [streams[0]])
        #expect(batch.todos[1].fields.note == "depends: 99999999-0000-4000-8000-000000000009")
        #expect(batch.warnings.map(\.problem) == [.dependencyNotInFile(["99999999-0000-4000-8000-000000000009"])])
        #expect(batch.todos[2].fields.after == [streams[0], streams[1]])
        #expect(batch.todos[2].fields.note == nil)
    }
}

@Suite struct TaskwarriorStartTests {
    @Test("start is a running interval; an unreadable one stays in the note, reported")
    func start() throws {
        let text = """
            [{"description":"a","status":"pending","uuid":"22222222-0000-4000-8000-000000000001","start":"20261123T064324Z"},
             {"description":"b","status":"pending","uuid":"22222222-0000-4000-8000-000000000002","start":"soon"}]
            """
        let batch = try TaskwarriorImport.parse(Array(text.utf8), zone: .utc)
        #expect(batch.todos[0].started == Timestamp.parse("2026-11-23T06:43:24Z"))
        #expect(batch.todos[0].fields.note == nil)
        #expect(batch.todos[1].started == nil)
        #expect(batch.todos[1].fields.note == "start: soon")
        #expect(batch.warnings == [ImportIssue(source: .task("22222222"), problem: .invalidDate(field: "start", value: "soon", fallback: .keptInNote))])
    }
}
