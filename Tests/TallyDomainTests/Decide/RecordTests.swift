import Foundation
import Testing
@testable import TallyDomain
import TallyTestSupport
@testable import TallyEssentials

@Suite("Records: folds and decisions")
struct RecordTests {
    let r = "cccccccc-0000-4000-8000-000000000001"
    let run = RecordFields(name: "Morning run", category: "running", durationSeconds: 1650, distanceMeters: 5000, place: "Park", date: Fixtures.epoch - 3_600_000, note: nil)

    @Test("a record's whole lifecycle folds field by field")
    func lifecycle() {
        var store = FoldStore()
        store.send(.recordLogged(run), to: r) { model in
            model.insertRecord(Record(
                id: r, number: 1, name: "Morning run", category: "running", durationSeconds: 1650, distanceMeters: 5000,
                place: "Park", date: Fixtures.epoch - 3_600_000, createdAt: Fixtures.epoch + 60_000, updatedAt: Fixtures.epoch + 60_000
            ))
        }
        store.send(.recordEdited(RecordChanges(name: "Run", durationSeconds: 1700, distanceMeters: .some(nil), place: .some(nil), note: .some("easy"))), to: r) { model in
            model.records[0].name = "Run"
            model.records[0].durationSeconds = 1700
            model.records[0].distanceMeters = nil
            model.records[0].place = nil
            model.records[0].note = "easy"
            model.records[0].updatedAt = Fixtures.epoch + 120_000
            model.records[0].version = 2
        }
        store.send(.recordDeleted, to: r) { model in
            model.records[0].deleted = true
            model.records[0].updatedAt = Fixtures.epoch + 180_000
            model.records[0].version = 3
        }
        store.send(.recordRestored, to: r) { model in
            model.records[0].deleted = false
            model.records[0].updatedAt = Fixtures.epoch + 240_000
            model.records[0].version = 4
        }
        #expect(store.model.record(number: 1)?.paceSecondsPerKm == nil)
    }

    @Test("records and todos are numbered separately")
    func separateNumbers() {
        var model = ReadModel()
        Reducer.evolve(&model, .todoCreated(TodoFields(title: "t")), stream: "t1", version: 1, seq: 1, at: 0)
        Reducer.evolve(&model, .recordLogged(run), stream: "r1", version: 1, seq: 2, at: 0)
        #expect(model.todo(number: 1)?.id == "t1" && model.record(number: 1)?.id == "r1")
        #expect(model.version(of: "r1") == 1)
    }

    @Test("pace is seconds per kilometre")
    func pace() {
        let record = Record(id: "x", number: 1, name: "n", category: "running", durationSeconds: 1650, distanceMeters: 5000, date: 0, createdAt: 0, updatedAt: 0)
        #expect(record.paceSecondsPerKm == 330)
    }

    @Test("record payloads survive the catalog both ways")
    func payloadRoundTrip() throws {
        for event: DomainEvent in [
            .recordLogged(run), .recordLogged(RecordFields(name: "Gym", category: "gym", durationSeconds: 3600, date: 0, source: .import)),
            .recordEdited(RecordChanges(category: "trail-running", distanceMeters: .some(12_345.6), date: 1000)),
            .recordEdited(RecordChanges(place: .some(nil))), .recordDeleted, .recordRestored,
        ] {
            let type = EventCatalog.typeName(of: event)
            let text = JSON.object(EventCatalog.payload(of: event)).serialized(.canonical)
            guard case .object(let object) = try JSON.parse(text) else { Issue.record("not an object"); continue }
            #expect(try EventCatalog.decode(type: type, schema: 1, data: object) == event)
        }
    }

    @Test("log validates and converts every field")
    func logRecord() throws {
        let decision = try Scenario().when(.logRecord(RecordInput(
            name: " Morning run ", category: "Running", duration: "27:30", distance: "5km", place: " Park ", date: "2026-11-20T07:00", note: "easy"
        )))
        #expect(decision.events == [PendingEvent(stream: "00000000-0000-4000-8000-000000000001", version: 1, event: .recordLogged(RecordFields(
            name: "Morning run", category: "running", durationSeconds: 1650, distanceMeters: 5000, place: "Park",
            date: Timestamp.parse("2026-11-20T07:00:00Z")!, note: "easy"
        )))])
        let now = try Scenario().when(.logRecord(RecordInput(name: "Gym", category: "gym", duration: "1h")))
        guard case .recordLogged(let fields) = now.events.first?.event else { Issue.record("no record"); return }
        #expect(fields.date == Fixtures.epoch && fields.distanceMeters == nil && fields.source == .local)
    }

    @Test("log rejects bad input", arguments: [
        (RecordInput(name: "  ", category: "running", duration: "10m"), DomainError.invalid(.emptyName)),
        (RecordInput(name: String(repeating: "n", count: 201), category: "running", duration: "10m"), .invalid(.textTooLong(field: "name", max: 200))),
        (RecordInput(name: "x", category: "9lives", duration: "10m"), .invalid(.invalidCategory("9lives"))),
        (RecordInput(name: "x", category: "run ning", duration: "10m"), .invalid(.invalidCategory("run ning"))),
        (RecordInput(name: "x", category: String(repeating: "a", count: 33), duration: "10m"), .invalid(.invalidCategory(String(repeating: "a", count: 33)))),
        (RecordInput(name: "x", category: "running", duration: "0"), .invalid(.durationOutOfRange(seconds: 0))),
        (RecordInput(name: "x", category: "running", duration: "169h"), .invalid(.durationOutOfRange(seconds: 169 * 3600))),
        (RecordInput(name: "x", category: "running", duration: "10m", distance: "1001km"), .invalid(.distanceOutOfRange(meters: 1_001_000))),
        (RecordInput(name: "x", category: "running", duration: "10m", date: "+2d"), .invalid(.dateTooFarInFuture("+2d"))),
        (RecordInput(name: "x\u{0}", category: "running", duration: "10m"), .invalid(.controlCharacters(field: "name"))),
    ])
    func logRejects(input: RecordInput, expected: DomainError) {
        Scenario().rejects(.logRecord(input), expected)
    }

    @Test("unparseable durations, distances and dates are invalid values")
    func badValues() {
        for input in [
            RecordInput(name: "x", category: "running", duration: "-5m"),
            RecordInput(name: "x", category: "running", duration: "10m", distance: "5"),
            RecordInput(name: "x", category: "running", duration: "10m", date: "2026-02-30"),
        ] {
            #expect {
                try Scenario().when(.logRecord(input))
            } throws: { error in
                if case .invalid(.value)? = error as? DomainError { return true }
                return false
            }
        }
    }

    @Test("the limits themselves are accepted: 7 days, 1000 km, exactly one day ahead")
    func boundaries() throws {
        let decision = try Scenario().when(.logRecord(RecordInput(name: "x", category: "a", duration: "168h", distance: "1000km", date: "+1d")))
        #expect(decision.events.count == 1)
    }

    @Test("edit emits only real changes; none clears; deleted records are refused")
    func edit() throws {
        var scenario = Scenario()
        scenario.given([("r1", .recordLogged(run))])
        let decision = try scenario.when(.editRecord("1", RecordEditInput(name: "Morning run", category: "trail", distance: "none", place: "Park", note: "hills")))
        #expect(decision.events == [PendingEvent(stream: "r1", version: 2, event: .recordEdited(RecordChanges(category: "trail", distanceMeters: .some(nil), note: .some("hills"))))])
        #expect(try scenario.when(.editRecord("1", RecordEditInput(duration: "27:30"))) == Decision(notices: [.recordUnchanged(number: 1)], affected: ["r1"]))
        scenario.rejects(.editRecord("2", RecordEditInput(name: "x")), .unknownReference(.record, "2"))
        scenario.given([("r1", .recordDeleted)])
        scenario.rejects(.editRecord("1", RecordEditInput(name: "x")), .itemDeleted(.record, number: 1))
        #expect(try scenario.when(.deleteRecords(["1", "1"])) == Decision(notices: [.recordAlreadyDeleted(number: 1)], affected: ["r1"]))
    }

    @Test("delete deletes each named record once")
    func delete() throws {
        var scenario = Scenario()
        scenario.given([("r1", .recordLogged(run)), ("r2", .recordLogged(run))])
        #expect(try scenario.when(.deleteRecords(["2", "1", "2"])).events == [
            PendingEvent(stream: "r2", version: 2, event: .recordDeleted),
            PendingEvent(stream: "r1", version: 2, event: .recordDeleted),
        ])
    }

    @Test("record filters save validated, non-default options")
    func saveFilter() throws {
        let query = RecordQuery(categories: ["Running", "running"], sources: [.import], since: "-4w", sort: .distance, limit: 3)
        let decision = try Scenario().when(.saveRecordFilter(query))
        let saved: JSONObject = ["categories": ["running"], "sources": ["import"], "since": "-4w", "sort": "distance", "limit": 3]
        #expect(decision.events == [PendingEvent(stream: "filter:records", version: 1, event: .filterSaved(scope: .records, filter: saved))])
        #expect(RecordQuery(json: saved) == RecordQuery(categories: ["running"], sources: [.import], since: "-4w", sort: .distance, limit: 3))
        Scenario().rejects(.saveRecordFilter(RecordQuery(categories: ["Not OK"])), .invalid(.invalidCategory("Not OK")))
    }
}
