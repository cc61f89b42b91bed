import Foundation
import Testing
@testable import TallyDomain
import TallyTestSupport
@testable import TallyEssentials
@testable import TallyInterchange

/// CSV exports, the track payload and the import decision.
@Suite("Activity import in the domain")
struct ActivityImportDomainTests {
    @Test("Strava's activities.csv: quoted commas and quotes, its date format, the metre distance column, the file")
    func strava() throws {
        let csv = #"""
            Activity ID,Activity Date,Activity Name,Activity Type,Elapsed Time,Distance,Filename,Distance
            17,"Jan 5, 2024, 7:30:00 PM","Hills, ""hard""",Run,1800,5.01,activities/17.fit.gz,5012.5
            18,"Dec 31, 2023, 12:05:00 AM",Swim,Swim,1200,1.5,,
            19,not a date,X,Run,1,1,,

            """#
        let parsed = try ActivityCSV.parse(Array(csv.utf8), zone: Fixtures.utc)
        #expect(parsed.kind == .strava)
        #expect(parsed.rows.count == 2)
        #expect(parsed.rows[0] == CSVActivity(line: 2, key: "strava:17", name: "Hills, \"hard\"", sport: "Run", date: Timestamp.parse("2024-01-05T19:30:00Z")!,
                                               elapsedSeconds: 1_800, distanceMeters: 5_012.5, filename: "activities/17.fit.gz"))
        #expect(parsed.rows[1].date == Timestamp.parse("2023-12-31T00:05:00Z")! && parsed.rows[1].distanceMeters == 1_500 && parsed.rows[1].filename == nil)
        #expect(parsed.skipped.map(\.line) == [4])
    }

    @Test("Garmin Connect's Activities.csv: local dates, km and h:mm:ss")
    func garmin() throws {
        let csv = "Activity Type,Date,Favorite,Title,Distance,Calories,Time\nRunning,2024-03-31 09:15:00,false,Easter run,10.02,700,00:50:10\n"
        let parsed = try ActivityCSV.parse(Array(csv.utf8), zone: Zone.named("Europe/Prague")!)
        #expect(parsed.kind == .garmin)
        #expect(parsed.rows.first?.date == Timestamp.parse("2024-03-31T09:15:00+02:00"), "after the switch to summer time")
        #expect(parsed.rows.first?.distanceMeters == 10_020 && parsed.rows.first?.elapsedSeconds == 3_010)
        #expect(throws: ActivityFileProblem.unknownFormat) { try ActivityCSV.parse(Array("a,b\n1,2\n".utf8), zone: Fixtures.utc) }
        #expect(throws: ActivityFileProblem.self) { try ActivityCSV.parse(Array("Activity ID\n\"open".utf8), zone: Fixtures.utc) }
    }

    @Test("record.logged schema 2 round-trips its track; schema 1 upcasts to no track; the rules refuse a bad hash")
    func payload() throws {
        let track = TrackSummary(sha256: String(repeating: "c", count: 64), format: "fit", movingSeconds: 1_234, elevationGainMeters: 56.5,
                                 bestEfforts: [TrackEffort(meters: 400, seconds: 88.8)])
        let event = DomainEvent.recordLogged(RecordFields(name: "Run", category: "running", durationSeconds: 1_300, distanceMeters: 5_000,
                                                          date: 1_700_000_000_000, source: .import, track: track))
        let payload = EventCatalog.payload(of: event)
        #expect(try EventCatalog.decode(type: "record.logged", schema: 2, data: payload) == event)
        var old = payload
        old["track"] = nil
        guard case .recordLogged(let fields) = try EventCatalog.decode(type: "record.logged", schema: 1, data: old) else { Issue.record("not logged"); return }
        #expect(fields.track == nil)
        #expect(throws: EventDecodingError.self) { try EventCatalog.decode(type: "record.logged", schema: 2, data: old) }
        var bad = track
        bad.sha256 = "XYZ"
        #expect(throws: EventLineError.self) { try EventRules.checkPayload(.recordLogged(RecordFields(name: "Run", category: "running", durationSeconds: 1, date: 0, track: bad))) }
        bad = track
        bad.format = "kml"
        #expect(throws: EventLineError.self) { try EventRules.checkPayload(.recordLogged(RecordFields(name: "Run", category: "running", durationSeconds: 1, date: 0, track: bad))) }
    }

    @Test("the import decision: new records logged with derived ids, present ones noticed, deleted ones restored")
    func decide() throws {
        let fields = RecordFields(name: "Run", category: "running", durationSeconds: 600, date: 0, source: .import)
        let first = ImportedRecord(stream: ImportedRecord.stream(sha256: String(repeating: "d", count: 64)), fields: fields)
        let second = ImportedRecord(stream: ImportedRecord.stream(rowKey: "strava:1"), fields: fields)
        let context = DecisionContext(now: Fixtures.epoch, zone: Fixtures.utc, makeID: SequentialIDs().make)
        let decision = try Decider.decide(.importRecords([first, second, first]), state: ReadModel(), context: context)
        #expect(decision.events.map(\.stream) == [first.stream, second.stream])
        #expect(decision.events.map(\.id) == [NameUUID.make(first.stream + "#1"), NameUUID.make(second.stream + "#1")])
        #expect(decision.notices == [.recordAlreadyImported(id: first.stream)])
        var model = ReadModel()
        for (index, pending) in decision.events.enumerated() {
            Reducer.evolve(&model, pending.event, stream: pending.stream, version: pending.version, seq: Int64(index + 1), at: 0)
        }
        Reducer.evolve(&model, .recordDeleted, stream: second.stream, version: 2, seq: 3, at: 0)
        let again = try Decider.decide(.importRecords([first, second]), state: model, context: context)
        #expect(again.events.map(\.event) == [.recordRestored])
        #expect(again.events.map(\.stream) == [second.stream])
        #expect(again.notices == [.recordAlreadyImported(id: first.stream)])
        #expect(ImportedRecord.stream(sha256: "e") != ImportedRecord.stream(rowKey: "e"))
    }
}
