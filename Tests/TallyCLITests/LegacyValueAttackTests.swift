import Foundation
import Testing
import TallyDomain
import TallyTestSupport
@testable import TallyEssentials

/// A log written by earlier versions can hold values today's limits refuse, because older doors let
/// them in (a FIT or TCX file's 5,000 km climb, a negative lap time, a best effort of 0 s or of a
/// time that was not finite, an instant past 9999-12-31 from a time zone edge). Such a store reads
/// them normalised (`LegacyValues`), `verify` passes, no command traps, and its export imports into
/// an empty store byte-identical, and syncs to a shared file and a clone.
@Suite("Values earlier versions let in: read normalised, exported and restored")
struct LegacyValueAttackTests {
    static let record = "1e6ac700-0000-4000-8000-000000000001"
    static let record2 = "1e6ac700-0000-4000-8000-000000000002"
    static let todo = "1e6ac700-0000-4000-8000-000000000003"
    static let series = "1e6ac700-0000-4000-8000-000000000004"
    static let sha = String(repeating: "ab", count: 32)

    /// Payloads as earlier versions stored them: (stream, version, type, schema, data).
    static let legacy: [(String, Int, String, Int, String)] = [
        // A TCX lap with a negative time, a climb of 5,000 km, a negative distance, a best effort of
        // 0 s and one whose time was not finite (written as null), 40 best efforts in all.
        (record, 1, "record.logged", 2, """
            {"category":"running","date":"2026-11-20T07:00:00Z","distanceMeters":-5,"durationSeconds":-42,"name":"Lap","note":null,\
            "place":null,"source":"import","track":{"bestEfforts":[{"meters":400,"seconds":0},{"meters":1000,"seconds":null},\
            \((0..<38).map { #"{"meters":\#(1609 + $0),"seconds":\#(421 + $0)}"# }.joined(separator: ",")),{"meters":5000,"seconds":-3}],\
            "elevationGainMeters":5000000,"format":"tcx","movingSeconds":-42,"sha256":"\(sha)"}}
            """),
        // Schema 1 (no track): a duration of 31 years, 5,000 km, a date past 9999-12-31.
        (record2, 1, "record.logged", 1, """
            {"category":"cycling","date":"10000-01-01T04:59:00Z","distanceMeters":5000000,"durationSeconds":999999999,\
            "name":"Ride","note":null,"place":null,"source":"local"}
            """),
        (record2, 2, "record.edited", 1, #"{"date":"-0001-06-01T00:00:00Z","distanceMeters":2000000000,"durationSeconds":0}"#),
        // `TZ=America/New_York tally add x --due "9999-12-31 23:59"` once stored this.
        (todo, 1, "todo.created", 4, """
            {"due":"10000-01-01T04:59:00Z","note":null,"priority":null,"series":null,"tags":[],"title":"Legacy due","wait":"0000-12-31T23:00:00Z"}
            """),
        (todo, 2, "todo.edited", 3, #"{"due":"10000-01-01"}"#),
        (series, 1, "series.started", 1, """
            {"every":"1y","from":"due","note":null,"priority":null,"start":"10000-01-01","tags":[],"title":"Yearly","until":"10000-06-01"}
            """),
    ]

    /// A store made by today's commands, then the legacy events appended raw with their hashes chained.
    static func legacyStore() throws -> TallyRunner {
        let tally = TallyRunner()
        #expect(tally.run("add", "Today's todo").status == 0)
        #expect(tally.run("record", "add", "Walk", "--category", "walking", "--duration", "20m").status == 0)
        try RawEvents.append(legacy.map { RawEvents.Event(stream: $0.0, version: $0.1, type: $0.2, schema: $0.3, data: $0.4) }, to: tally)
        return tally
    }

    static func records(_ tally: TallyRunner) -> [String: JSONObject] {
        let list = tally.run("--json", "record", "list")
        var byName: [String: JSONObject] = [:]
        for item in list.json?.arrayValue ?? [] {
            if let object = item.objectValue, let name = object["name"]?.stringValue { byName[name] = object }
        }
        return byName
    }

    @Test("verify passes; every view shows the values normalised, without a warning or a trap")
    func views() throws {
        guard !TallyRunner.onPostgres else { return }
        let tally = try Self.legacyStore()
        let count = tally.eventCount
        let verify = tally.run("verify")
        #expect(verify.status == 0, "\(verify.stdout)\(verify.stderr)")
        #expect(verify.stdout.hasPrefix("OK: 8 events, chain intact\nNote: 6 events written by an earlier version hold values past today's limits"
            + " and are read normalised (first: seq 3, record.logged: field 'durationSeconds' is not above zero and at most 7 days).\n"), "\(verify.stdout)")
        let json = tally.run("--json", "verify").json?.objectValue
        #expect(json?["ok"] == .bool(true) && json?["notes"]?.arrayValue?.count == Self.legacy.count, "\(String(describing: json))")
        #expect(json?["notes"]?.arrayValue?.last?.objectValue?["message"] == .string("series.started: field 'start' is outside the years 0001-9999"), "the series' start")
        #expect(tally.run(["verify"], environment: ["LANG": "cs_CZ.UTF-8"]).stdout.contains("Poznámka: 6 událostí zapsaných starší verzí"))

        let records = Self.records(tally)
        let lap = try #require(records["Lap"], "\(records.keys)")
        #expect(lap["durationSeconds"] == .int(1), "a negative lap time reads as the shortest duration: \(lap)")
        #expect(lap["distanceMeters"] == nil || lap["distanceMeters"] == .null, "a negative distance reads as none: \(lap)")
        let track = try #require(lap["track"]?.objectValue, "\(lap)")
        #expect(track["elevationGainMeters"] == nil || track["elevationGainMeters"] == .null, "a 5,000 km climb reads as none: \(track)")
        #expect(track["movingSeconds"] == .int(0))
        let efforts = track["bestEfforts"]?.arrayValue ?? []
        #expect(efforts.count == Validation.maxBestEfforts, "0 s, null and negative efforts dropped, at most 32 kept: \(efforts.count)")
        let ride = try #require(records["Ride"])
        #expect(ride["durationSeconds"] == .int(1), "an edit to 0 s reads as 1 s: \(ride)")
        #expect(ride["distanceMeters"] == nil || ride["distanceMeters"] == .null)
        #expect(ride["date"] == .string("0001-01-01T00:00:00Z"), "\(ride)")

        let todos = tally.run("--json", "list").json?.arrayValue ?? []
        let legacyTodo = try #require(todos.compactMap(\.objectValue).first { $0["title"] == .string("Legacy due") }, "\(todos)")
        #expect(legacyTodo["due"] == .string("9999-12-31"), "\(legacyTodo)")
        #expect(legacyTodo["wait"] == .string("0001-01-01T00:00:00Z"), "\(legacyTodo)")

        for arguments in [["list"], ["show", "2"], ["record", "list"], ["record", "show", "2"], ["record", "bests"],
                          ["stats"], ["stats", "--by", "year"], ["log"], ["record", "export"], ["snapshot"], ["rebuild"], ["list"], ["info"]] {
            let result = tally.run(arguments)
            #expect(result.status == 0 && result.stderr.isEmpty, "\(arguments): exit \(result.status) \(result.stderr)")
        }
        #expect(tally.eventCount == count, "reads appended nothing")
        #expect(Self.records(tally) == records, "a snapshot and a replay agree")
        #expect(tally.run("verify").status == 0)
    }

    @Test("export imports into an empty store, which exports the same bytes; the stored lines keep their bytes")
    func exportImport() throws {
        guard !TallyRunner.onPostgres else { return }
        let tally = try Self.legacyStore()
        let exported = tally.run("export")
        #expect(exported.status == 0)
        for (_, _, _, _, data) in Self.legacy { #expect(exported.stdout.contains(data), "the export holds the stored bytes: \(data.prefix(60))") }
        let copy = TallyRunner()
        let path = copy.directory.path("backup.jsonl")
        try exported.stdout.write(toFile: path, atomically: true, encoding: .utf8)
        let imported = copy.run("import", path)
        #expect(imported.status == 0, "the backup restores: \(imported.stderr)")
        #expect(copy.run("export").stdout == exported.stdout, "byte-identical, hashes included")
        #expect(copy.run("verify").status == 0)
        #expect(Self.records(copy) == Self.records(tally))
        #expect(copy.run("--json", "list").stdout == tally.run("--json", "list").stdout)
    }

    @Test("generated legacy stores: verify passes, every record inside the limits, export imports byte-identical")
    func generated() throws {
        guard !TallyRunner.onPostgres else { return }
        var payloads = LegacyPayloads(seed: 5)
        for round in 0..<AttackScale.count(short: 2, full: 20) {
            let tally = TallyRunner()
            #expect(tally.run("add", "Today's todo").status == 0)
            try RawEvents.append(RawEvents.legacy(&payloads, count: AttackScale.count(short: 30, full: 120), first: 1), to: tally)
            let verify = tally.run("verify")
            #expect(verify.status == 0, "round \(round): \(verify.stdout)")
            for record in Self.records(tally).values {
                let duration = record["durationSeconds"]?.intValue ?? -1
                #expect((1...Int64(Validation.maxDurationSeconds)).contains(duration), "round \(round): \(record)")
                if let distance = record["distanceMeters"]?.doubleValue { #expect(distance >= 0 && distance <= Validation.maxDistanceMeters) }
                if let track = record["track"]?.objectValue {
                    #expect((track["bestEfforts"]?.arrayValue?.count ?? 99) <= Validation.maxBestEfforts)
                    if let gain = track["elevationGainMeters"]?.doubleValue { #expect(gain >= 0 && gain <= Validation.maxElevationGainMeters) }
                }
            }
            for arguments in [["list"], ["record", "list"], ["record", "bests"], ["stats"], ["snapshot"], ["rebuild"]] {
                let result = tally.run(arguments)
                #expect(result.status == 0 && result.stderr.isEmpty, "round \(round), \(arguments): \(result.stderr)")
            }
            let exported = tally.run("export").stdout
            let copy = TallyRunner()
            let path = copy.directory.path("backup.jsonl")
            try exported.write(toFile: path, atomically: true, encoding: .utf8)
            let imported = copy.run("import", path)
            #expect(imported.status == 0, "round \(round): \(imported.stderr)")
            #expect(copy.run("export").stdout == exported, "round \(round): the export changes on import")
        }
    }

    @Test("a legacy store syncs to a shared log, and a clone of it reads the same", arguments: SharedLogKind.available)
    func sync(_ kind: SharedLogKind) throws {
        guard !TallyRunner.onPostgres else { return }
        let tally = try Self.legacyStore()
        let fleet = Fleet(["clone"], kind: kind)
        let pushed = tally.run("sync", "--remote", fleet.shared)
        #expect(pushed.status == 0, "\(pushed.stderr)")
        let cloned = fleet.sync(0, at: "2026-11-21T12:00:00Z")
        #expect(cloned.status == 0, "\(cloned.stderr)")
        #expect(fleet[0].eventCount == tally.eventCount)
        #expect(fleet[0].run("verify").status == 0)
        #expect(Self.records(fleet[0]) == Self.records(tally))
        #expect(fleet[0].run("export").stdout == fleet.server.run("export").stdout)
        // Both go on: a change on the clone reaches the legacy store.
        #expect(fleet[0].run("add", "from the clone").status == 0)
        #expect(fleet.sync(0, at: "2026-11-21T12:01:00Z").status == 0)
        #expect(tally.run("sync", "--remote", fleet.shared).status == 0)
        #expect(tally.run("list").stdout.contains("from the clone"))
    }

    @Test("import still refuses new values past the text limits; a figure past them in an edited export is read normalised")
    func newInput() throws {
        guard !TallyRunner.onPostgres else { return }
        let tally = try Self.legacyStore()
        let lines = tally.run("export").stdout.split(separator: "\n").map(String.init)
        let copy = TallyRunner()
        let path = copy.directory.path("edited.jsonl")
        // A 2,000-character title: refused with the reason, nothing stored.
        let long = lines[0].replacingOccurrences(of: "Today's todo", with: String(repeating: "t", count: 2000))
        try long.write(toFile: path, atomically: true, encoding: .utf8)
        let refused = copy.run("import", path)
        #expect(refused.status == 65 && refused.stderr.contains("title"), "\(refused.status) \(refused.stderr)")
        #expect(copy.eventCount <= 0)
        // Commands refuse the figures as before.
        let before = tally.eventCount
        let zero = tally.run("record", "add", "X", "--category", "running", "--duration", "0")
        #expect([64, 65].contains(zero.status) && !zero.stderr.isEmpty, "\(zero.status) \(zero.stderr)")
        #expect(tally.run("add", "x", "--due", "10000-01-01").status != 0)
        #expect(tally.eventCount == before)
    }
}
