import Testing
@testable import TallyDomain
import TallyTestSupport
@testable import TallyEssentials

@Suite("Compensations")
struct CompensationTests {
    let a = "aaaaaaaa-0000-4000-8000-000000000001"

    func model(_ events: [(String, DomainEvent)]) -> ReadModel {
        var model = ReadModel()
        for (index, (stream, event)) in events.enumerated() {
            Reducer.evolve(&model, event, stream: stream, version: model.version(of: stream) + 1, seq: Int64(index + 1), at: Fixtures.epoch)
        }
        return model
    }

    @Test("each event has its inverse", arguments: [
        (DomainEvent.todoCompleted, DomainEvent.todoReopened),
        (.todoReopened, .todoCompleted),
        (.todoDeleted, .todoRestored),
        (.todoRestored, .todoDeleted),
        (.todoCreated(TodoFields(title: "x")), .todoDeleted),
    ])
    func inverses(event: DomainEvent, inverse: DomainEvent) {
        let created: (String, DomainEvent) = (a, .todoCreated(TodoFields(title: "x")))
        var before = model([created])
        if case .todoReopened = event { before = model([created, (a, .todoCompleted)]) }
        if case .todoRestored = event { before = model([created, (a, .todoDeleted)]) }
        var after = before
        if case .todoCreated = event { before = ReadModel() } else {
            Reducer.evolve(&after, event, stream: a, version: after.version(of: a) + 1, seq: 9, at: Fixtures.epoch)
        }
        let reverted = Compensation.revert([AppliedEvent(stream: a, event: event)], before: before, current: &after, now: Fixtures.epoch)
        #expect(reverted == [AppliedEvent(stream: a, event: inverse)])
    }

    @Test("an edit reverts to the pre-command values of exactly the keys it changed, even after later edits")
    func editAfterLaterEdit() {
        let before = model([(a, .todoCreated(TodoFields(title: "Buy milk", tags: ["shop"], note: "two")))])
        let edit = TodoChanges(title: "Buy oat milk", note: .some(nil))
        var current = model([
            (a, .todoCreated(TodoFields(title: "Buy milk", tags: ["shop"], note: "two"))),
            (a, .todoEdited(edit)),
            (a, .todoEdited(TodoChanges(title: "Buy soy milk", tags: ["home"]))),
        ])
        let reverted = Compensation.revert([AppliedEvent(stream: a, event: .todoEdited(edit))], before: before, current: &current, now: Fixtures.epoch)
        #expect(reverted == [AppliedEvent(stream: a, event: .todoEdited(TodoChanges(title: "Buy milk", note: .some("two"))))])
        #expect(current.todo(id: a)?.tags == ["home"])
    }

    @Test("nothing is produced when the current state already has the old values")
    func noOps() {
        let before = model([(a, .todoCreated(TodoFields(title: "x")))])
        var current = before
        let events = [AppliedEvent(stream: a, event: .todoCompleted), AppliedEvent(stream: a, event: .todoEdited(TodoChanges(title: "y")))]
        #expect(Compensation.revert(events, before: before, current: &current, now: Fixtures.epoch).isEmpty)
    }

    @Test("filters revert to the previous filter, or to a reset when there was none")
    func filters() {
        let stream = FilterScope.todos.stream
        let first: JSONObject = ["status": "active"]
        let second: JSONObject = ["sort": "due"]
        var current = model([(stream, .filterSaved(scope: .todos, filter: first))])
        #expect(Compensation.revert([AppliedEvent(stream: stream, event: .filterSaved(scope: .todos, filter: first))], before: ReadModel(), current: &current, now: 0)
            == [AppliedEvent(stream: stream, event: .filterReset(scope: .todos))])
        let before = model([(stream, .filterSaved(scope: .todos, filter: first))])
        current = model([(stream, .filterSaved(scope: .todos, filter: first)), (stream, .filterSaved(scope: .todos, filter: second))])
        #expect(Compensation.revert([AppliedEvent(stream: stream, event: .filterSaved(scope: .todos, filter: second))], before: before, current: &current, now: 0)
            == [AppliedEvent(stream: stream, event: .filterSaved(scope: .todos, filter: first))])
        current = model([(stream, .filterSaved(scope: .todos, filter: first)), (stream, .filterReset(scope: .todos))])
        #expect(Compensation.revert([AppliedEvent(stream: stream, event: .filterReset(scope: .todos))], before: before, current: &current, now: 0)
            == [AppliedEvent(stream: stream, event: .filterSaved(scope: .todos, filter: first))])
    }

    @Test("an undo decision ends each step with a history.undone marker on the history stream")
    func markers() {
        let created = model([(a, .todoCreated(TodoFields(title: "x"))), (a, .todoCompleted)])
        let step = RevertStep(command: "c1", events: [AppliedEvent(stream: a, event: .todoCompleted)], before: model([(a, .todoCreated(TodoFields(title: "x")))]))
        let decision = Compensation.undo([step], current: created, now: 0)
        #expect(decision.events == [
            PendingEvent(stream: a, version: 3, event: .todoReopened),
            PendingEvent(stream: HistoryStream.name, version: 1, event: .historyUndone(command: "c1")),
        ])
        #expect(decision.affected == [a])
    }
}

@Suite("Log verifier")
struct LogVerifierTests {
    func chain() -> [EventEnvelope] {
        var factory = EventFactory()
        let a = "aaaaaaaa-0000-4000-8000-000000000001"
        return [
            factory.make(.todoCreated(TodoFields(title: "a")), stream: a),
            factory.make(.todoCompleted, stream: a),
            factory.make(.todoCreated(TodoFields(title: "b")), stream: "bbbbbbbb-0000-4000-8000-000000000002"),
            factory.make(.todoReopened, stream: a),
        ]
    }

    func verify(_ events: [EventEnvelope]) -> LogVerifier {
        var verifier = LogVerifier()
        for event in events { verifier.check(event) }
        return verifier
    }

    @Test("an intact chain has no problems and replays the log")
    func intact() {
        let verifier = verify(chain())
        #expect(verifier.isIntact && verifier.count == 4 && verifier.head.seq == 4)
        #expect(verifier.replay.todos.count == 2)
    }

    @Test("altered data breaks exactly that link")
    func altered() {
        var events = chain()
        events[1].data = #"{"x":1}"#
        #expect(verify(events).problems.map(\.seq) == [2])
        #expect(verify(events).problems.first?.code == "hash")
    }

    @Test("a missing event is a sequence gap and a broken link at the next event")
    func missing() {
        var events = chain()
        events.remove(at: 1)
        let problems = verify(events).problems
        #expect(problems.first == LogProblem(seq: 3, kind: .sequenceGap(expected: 2)))
        #expect(problems.map(\.code) == ["sequence", "hash", "version"])
    }

    @Test("swapped payloads break both links; an unreadable payload is reported")
    func swappedAndUndecodable() {
        var events = chain()
        (events[0].data, events[2].data) = (events[2].data, events[0].data)
        #expect(verify(events).problems.map(\.seq) == [1, 3])
        events = chain()
        events[3].type = "todo.frobnicated"
        #expect(verify(events).problems.map(\.code) == ["hash", "decode"])
    }
}

@Suite("Event lines and upcasting")
struct EventLinesTests {
    static let stream = "5a0f0c2e-0000-4000-8000-000000000001"
    static let uuid = "00000000-0000-4000-8000-000000000009"

    /// A well-formed line with the given type, payload and stream.
    static func line(type: String, data: String, stream: String = stream, schema: Int = 1) -> String {
        #"{"id":"\#(uuid)","stream":"\#(stream)","version":1,"type":"\#(type)","schema":\#(schema),"recordedAt":"2026-11-21T12:00:00Z","actor":"a","command":"\#(uuid)","data":\#(data)}"#
    }

    @Test("lines that break the rules every event obeys are refused with the field named", arguments: [
        (line(type: "todo.created", data: #"{"title":"\#(String(repeating: "a", count: 501))","tags":[],"priority":null,"due":null,"note":null}"#, schema: 2), "field 'title'"),
        (line(type: "todo.created", data: #"{"title":"a\u0001b","tags":[],"priority":null,"due":null,"note":null}"#, schema: 2), "field 'title'"),
        (line(type: "todo.created", data: #"{"title":"ok","tags":["Bad Tag"],"priority":null,"due":null,"note":null}"#, schema: 2), "tag 'Bad Tag'"),
        (line(type: "todo.created", data: #"{"title":"ok","tags":[\#((1...21).map { "\"t\($0)\"" }.joined(separator: ","))],"priority":null,"due":null,"note":null}"#, schema: 2), "more than 20 tags"),
        (line(type: "todo.edited", data: #"{"note":"\#(String(repeating: "n", count: 10_001))"}"#, schema: 2), "field 'note'"),
        (line(type: "todo.created", data: #"{"title":"ok","tags":[],"priority":null,"due":null,"note":null}"#, stream: "s1", schema: 2), "field 'stream' is not a lowercase UUID"),
        (line(type: "record.edited", data: #"{"category":"Run!"}"#), "field 'category'"),
        (line(type: "record.edited", data: #"{"name":""}"#), "field 'name'"),
        (line(type: "filter.reset", data: #"{"scope":"todos"}"#), "belongs on stream 'filter:todos'"),
        (line(type: "history.undone", data: #"{"command":"\#(uuid)"}"#), "belongs on stream 'history'"),
        (line(type: "todo.completed", data: "{}").replacingOccurrences(of: #""id":"\#(uuid)""#, with: #""id":"e1""#), "field 'id' is not a lowercase UUID"),
        (line(type: "todo.completed", data: "{}").replacingOccurrences(of: #""actor":"a""#, with: #""actor":"a\tb""#), "field 'actor'"),
    ])
    func rules(line: String, reason: String) {
        let bytes = Array(line.utf8)
        #expect {
            try bytes.withUnsafeBufferPointer { try EventLines.decode($0) }
        } throws: { error in
            (error as? EventLineError)?.reason.contains(reason) == true
        }
    }

    @Test("a figure past the limits is read as the log reads it (LegacyValues): the line imports with its bytes")
    func legacyFigures() throws {
        for (data, expected) in [
            (#"{"category":"run","date":"2026-11-21T12:00:00Z","distanceMeters":null,"durationSeconds":0,"name":"Run","note":null,"place":null,"source":"local"}"#,
             RecordFields(name: "Run", category: "run", durationSeconds: 1, date: 1_795_262_400_000)),
            (#"{"category":"run","date":"2026-11-21T12:00:00Z","distanceMeters":2000000,"durationSeconds":60,"name":"Run","note":null,"place":null,"source":"local"}"#,
             RecordFields(name: "Run", category: "run", durationSeconds: 60, distanceMeters: nil, date: 1_795_262_400_000)),
        ] {
            let bytes = Array(Self.line(type: "record.logged", data: data).utf8)
            let imported = try bytes.withUnsafeBufferPointer { try EventLines.decode($0) }
            #expect(imported.data == data)
            #expect(try EventCatalog.decode(type: "record.logged", schema: 1, data: #require(try JSON.parse(data).objectValue)) == .recordLogged(expected))
        }
    }

    @Test("the rules accept what the commands produce: saved views, markers and records at their limits")
    func rulesAccept() throws {
        let accepted = [
            Self.line(type: "filter.reset", data: #"{"scope":"todos"}"#, stream: "filter:todos"),
            Self.line(type: "history.redone", data: #"{"command":"\#(Self.uuid)"}"#, stream: "history"),
            Self.line(type: "record.logged", data: #"{"name":"\#(String(repeating: "r", count: 200))","category":"trail-run","durationSeconds":604800,"distanceMeters":1000000,"date":"2026-11-21T12:00:00Z","source":"import","place":null,"note":null}"#),
            Self.line(type: "todo.created", data: #"{"title":"\#(String(repeating: "t", count: 500))","tags":["a_b-1"],"priority":null,"due":null,"note":"line\nnext"}"#, schema: 2),
        ]
        for line in accepted {
            let bytes = Array(line.utf8)
            _ = try bytes.withUnsafeBufferPointer { try EventLines.decode($0) }
        }
    }

    @Test("a line round-trips, and seq and hash may be absent")
    func roundTrip() throws {
        var factory = EventFactory()
        let event = factory.make(.todoCreated(TodoFields(title: "Buy \"milk\"", tags: ["a"], note: "x\ny")), stream: Self.stream)
        var line = Array(EventLines.encode(event).utf8)
        let decoded = try line.withUnsafeBufferPointer { try EventLines.decode($0) }
        #expect(decoded.sameContent(as: event))
        #expect(decoded.envelope(seq: 1, previous: EventHash.genesis) == event)
        line = Array(Self.line(type: "todo.completed", data: "{}").replacingOccurrences(of: "12:00:00Z", with: "12:00:00.5Z").utf8)
        let bare = try line.withUnsafeBufferPointer { try EventLines.decode($0) }
        #expect(bare.recordedAt == Fixtures.epoch + 500 && bare.data == "{}")
    }

    @Test("malformed lines say what is wrong", arguments: [
        (#"{"id":"e1""#, "not valid JSON"),
        ("[1]", "not a JSON object"),
        (#"{"id":"e1","stream":"s","version":1,"type":"todo.completed","schema":1,"recordedAt":"2026-11-21T12:00:00Z","actor":"a","command":"c"}"#, "missing field 'data'"),
        (#"{"id":"e1","stream":"s","version":"1","type":"todo.completed","schema":1,"recordedAt":"2026-11-21T12:00:00Z","actor":"a","command":"c","data":{}}"#, "field 'version' is not a whole number"),
        (#"{"id":"e1","stream":"s","version":1,"type":"todo.zapped","schema":1,"recordedAt":"2026-11-21T12:00:00Z","actor":"a","command":"c","data":{}}"#, "unknown event type"),
        (#"{"id":"e1","stream":"s","version":1,"type":"todo.created","schema":1,"recordedAt":"2026-11-21T12:00:00Z","actor":"a","command":"c","data":{"title":3}}"#, "field 'title' is not a string"),
        (#"{"id":"e1","stream":"s","version":1,"type":"todo.completed","schema":1,"recordedAt":"noon","actor":"a","command":"c","data":{}}"#, "'recordedAt' is not an ISO-8601 instant"),
        (#"{"seq":"x","id":"e1","stream":"s","version":1,"type":"todo.completed","schema":1,"recordedAt":"2026-11-21T12:00:00Z","actor":"a","command":"c","data":{}}"#, "field 'seq' is not an integer"),
    ])
    func malformed(line: String, reason: String) {
        let bytes = Array(line.utf8)
        #expect {
            try bytes.withUnsafeBufferPointer { try EventLines.decode($0) }
        } throws: { error in
            (error as? EventLineError)?.reason.contains(reason) == true
        }
    }

    @Test("schema 1 titles and notes are upcast to NFC; new payloads are written as schema 2 in NFC")
    func upcast() throws {
        let decomposed = "Cafe\u{301}"
        let event = try EventCatalog.decode(type: "todo.created", schema: 1, data: [
            "title": .string(decomposed), "tags": [], "priority": nil, "due": nil, "note": .string(decomposed),
        ])
        guard case .todoCreated(let fields) = event else { Issue.record("not a creation"); return }
        #expect(Array(fields.title.unicodeScalars) == Array("Caf\u{E9}".unicodeScalars))
        #expect(Array(fields.note!.unicodeScalars) == Array("Caf\u{E9}".unicodeScalars))
        let edited = try EventCatalog.decode(type: "todo.edited", schema: 1, data: ["title": .string(decomposed)])
        #expect(edited == .todoEdited(TodoChanges(title: "Caf\u{E9}")))
        #expect(EventCatalog.currentSchemas["todo.created"] == 4 && EventCatalog.currentSchemas["todo.edited"] == 3)
        let payload = EventCatalog.payload(of: .todoCreated(TodoFields(title: decomposed)))
        #expect(payload["title"] == .string("Caf\u{E9}"))
        #expect(Array(try Validation.title(decomposed).unicodeScalars) == Array("Caf\u{E9}".unicodeScalars))
        #expect(throws: EventDecodingError.self) { try EventCatalog.decode(type: "todo.created", schema: 4, data: [:]) }
    }
}
