import Foundation
import Testing
@testable import TallyCLI
import TallyDomain
import TallyTestSupport
@testable import TallyEssentials

/// A small RFC 4180 reader used to check what the exporter writes.
enum CSVReader {
    static func rows(_ text: String) -> [[String]] {
        var rows: [[String]] = []
        var row: [String] = []
        var field = ""
        var quoted = false
        var chars = Array(text.unicodeScalars)[...]
        while let c = chars.popFirst() {
            if quoted {
                if c == "\"" {
                    if chars.first == "\"" { field.unicodeScalars.append("\""); chars.removeFirst() } else { quoted = false }
                } else {
                    field.unicodeScalars.append(c)
                }
            } else if c == "\"" {
                quoted = true
            } else if c == "," {
                row.append(field); field = ""
            } else if c == "\r" && chars.first == "\n" {
                chars.removeFirst()
                row.append(field); rows.append(row); row = []; field = ""
            } else {
                field.unicodeScalars.append(c)
            }
        }
        if !field.isEmpty || !row.isEmpty { row.append(field); rows.append(row) }
        return rows
    }
}

@Suite("tally records, end to end", .tags(.postgresql))
struct RecordCommandTests {
    /// A week of activities, logged on Saturday 2026-11-21.
    func week() -> TallyRunner {
        let tally = TallyRunner(now: "2026-11-21T18:00:00Z", zone: "Europe/Prague")
        tally.run("record", "add", "Morning", "run", "--category", "running", "--duration", "27:30", "--distance", "5km", "--date", "2026-11-16T07:00", "--place", "Stromovka")
        tally.run("record", "add", "Commute", "--category", "cycling", "--duration", "35m", "--distance", "12.4km", "--date", "2026-11-17T08:00")
        tally.run("record", "add", "Gym", "--category", "gym", "--duration", "1h", "--date", "2026-11-18")
        tally.run("record", "add", "Long run", "--category", "running", "--duration", "1:05:00", "--distance", "12km", "--date", "2026-11-21T09:00")
        return tally
    }

    @Test("record add confirms, or prints the record object")
    func add() {
        let tally = TallyRunner()
        let human = tally.run("record", "add", "Morning run", "--category", "running", "--duration", "27:30", "--distance", "5km")
        #expect(human.status == 0 && human.stdout == "Logged 1: Morning run\n")
        let json = tally.run("record", "add", "Swim", "--category", "swimming", "--duration", "45m", "--json")
        guard case .object(let record)? = json.json else { Issue.record("not JSON"); return }
        #expect(record.keys == ["id", "number", "name", "category", "durationSeconds", "distanceMeters", "paceSecondsPerKm", "place", "date", "note", "source", "createdAt", "updatedAt", "deleted", "track", "gear"])
        #expect(record["number"] == 2 && record["durationSeconds"] == 2700 && record["distanceMeters"] == .null && record["paceSecondsPerKm"] == .null)
        #expect(record["date"] == "2026-11-21T12:00:00Z" && record["source"] == "local")
        let first = tally.run("record", "show", "1", "--json").json?.objectValue?["record"]?.objectValue
        #expect(first?["paceSecondsPerKm"] == 330 && first?["distanceMeters"] == 5000)
        // An activity is logged after it happened: on Saturday 2026-11-21 `--date fri` is the day before,
        // and `--date sat` a week ago, never a day ahead.
        func date(_ when: String) -> JSON? {
            tally.run("record", "add", "Ride", "--category", "cycling", "--duration", "1h", "--date", when, "--json").json?.objectValue?["date"]
        }
        #expect(date("fri") != nil && date("fri") == date("2026-11-20"))
        #expect(date("sat") != nil && date("sat") == date("2026-11-14"))
    }

    @Test("record list shows a table with totals; filters and sorts")
    func list() {
        let tally = week()
        let table = tally.run("record", "list")
        #expect(table.status == 0)
        #expect(table.stdout == """
            #  Date              Name         Category     Time  Distance       Pace  Place
            4  2026-11-21 09:00  Long run     running   1:05:00  12.00 km   5:25 /km
            3  2026-11-18 00:00  Gym          gym       1:00:00
            2  2026-11-17 08:00  Commute      cycling     35:00  12.40 km  21.3 km/h
            1  2026-11-16 07:00  Morning run  running     27:30   5.00 km   5:30 /km  Stromovka

            4 records, 3:07:30, 29.40 km

            """)
        func numbers(_ arguments: String...) -> [Int64] {
            tally.run(["record", "list", "--json"] + arguments).json?.arrayValue?.compactMap { $0.objectValue?["number"]?.intValue } ?? [-1]
        }
        #expect(numbers("--category", "running") == [4, 1])
        #expect(numbers("--category", "running", "--category", "gym", "--sort", "duration") == [4, 3, 1])
        #expect(numbers("--since", "2026-11-17", "--until", "2026-11-18") == [3, 2])
        #expect(numbers("--search", "stromovka") == [1])
        #expect(numbers("--sort", "distance", "--reverse") == [1, 4, 2, 3])
        #expect(numbers("--sort", "name", "--limit", "2") == [2, 3])
        #expect(numbers("--source", "import") == [])
        #expect(tally.run("record", "list", "--limit", "1").stdout.hasSuffix("1 record, 1:05:00, 12.00 km (showing 1 of 4)\n"))
    }

    @Test("stats: weekly chart, by category, JSON, and an empty range says so")
    func stats() {
        let tally = week()
        tally.run(["record", "add", "Swim", "--category", "swimming", "--duration", "45m", "--distance", "1500m", "--date", "2026-11-03"])
        let weekly = tally.run("stats")
        #expect(weekly.status == 0)
        #expect(weekly.stdout.contains("2026-W45      1    45:00   1.50 km  30:00 /km  ███████▎\n"))
        #expect(weekly.stdout.contains("2026-W46      0"))
        // A week of runs, a ride and the gym has no pace: sports are never averaged together.
        #expect(weekly.stdout.contains("2026-W47      4  3:07:30  29.40 km             ██████████████████████████████"))
        #expect(weekly.stdout.hasSuffix("The last 12 weeks, from 2026-08-31; --since widens the range (--since 2025-01-01 or an earlier day).\n"))
        let running = tally.run("stats", "--category", "running", "--json").json?.objectValue?["totals"]?.objectValue
        #expect(running?["paceSecondsPerKm"] == .double(326.5))
        let cycling = tally.run("stats", "--by", "category", "--json").json?.objectValue?["buckets"]?.arrayValue?.first { $0.objectValue?["key"] == "cycling" }?.objectValue
        #expect(cycling?["speedKmh"] == .double(21.26))
        #expect(tally.run("stats", "--json").json?.objectValue?["totals"]?.objectValue?["paceSecondsPerKm"] == .null)
        let ascii = tally.run(["stats"], environment: ["LANG": "C"])
        #expect(ascii.stdout.contains("##########") && !ascii.stdout.contains("█"))
        let byCategory = tally.run("stats", "--by", "category", "--json")
        guard case .object(let report)? = byCategory.json else { Issue.record("not JSON"); return }
        #expect(report["buckets"]?.arrayValue?.compactMap { $0.objectValue?["key"]?.stringValue } == ["running", "gym", "swimming", "cycling"])
        #expect(report["totals"]?.objectValue?["count"] == 5 && report["totals"]?.objectValue?["durationSeconds"] == 13_950)
        let empty = tally.run("stats", "--since", "2027-01-01")
        #expect(empty.status == 0 && empty.stdout == "No records in this range.\n")
        #expect(tally.run("stats", "--by", "month", "--category", "running", "--json").json?.objectValue?["buckets"]?.arrayValue?.count == 1)
    }

    @Test("record export writes RFC 4180 CSV that a reader gets back field for field")
    func exportCSV() throws {
        let tally = TallyRunner()
        let awkward = "Park, \"the big one\"\nnorth gate"
        tally.run("record", "add", "Run, with \"quotes\"", "--category", "running", "--duration", "30m", "--distance", "5km", "--place", "x", "--note", awkward)
        tally.run("record", "add", "Plain", "--category", "gym", "--duration", "1h")
        let csv = tally.run("record", "export")
        #expect(csv.status == 0)
        #expect(csv.stdout.hasPrefix("id,number,date,name,category,durationSeconds,distanceMeters,paceSecondsPerKm,place,note,source,createdAt,updatedAt\r\n"))
        let rows = CSVReader.rows(csv.stdout)
        #expect(rows.count == 3 && rows.allSatisfy { $0.count == 13 })
        let run = try #require(rows.first { $0[1] == "1" })
        #expect(run[3] == "Run, with \"quotes\"" && run[9] == awkward && run[5] == "1800" && run[6] == "5000" && run[7] == "360")
        let plain = try #require(rows.first { $0[1] == "2" })
        #expect(plain[6] == "" && plain[7] == "" && plain[8] == "")
        let file = tally.directory.path("out.csv")
        let written = tally.run("record", "export", "--output", file, "--category", "gym")
        #expect(written.stdout == "Wrote 1 record to \(file).\n")
        #expect(CSVReader.rows(try String(contentsOfFile: file, encoding: .utf8)).count == 2)
        let json = tally.run("record", "export", "--format", "json")
        #expect(json.json?.arrayValue?.count == 2)
        let unwritable = tally.run("record", "export", "--output", tally.directory.path("missing/dir/out.csv"))
        #expect(unwritable.status == 74)
    }

    @Test("edit, delete, show with history, and the saved record view")
    func editDeleteShowFilter() {
        let tally = week()
        let edited = tally.run("record", "edit", "1", "--distance", "5.2km", "--place", "none")
        #expect(edited.status == 0 && edited.stdout == "Updated 1: Morning run (edited distance → 5.20 km, place cleared)\n")
        let shown = tally.run("record", "show", "1")
        #expect(shown.stdout.contains("Distance  5.20 km") && shown.stdout.contains("logged 'Morning run': 5.00 km running in 27:30"))
        #expect(tally.run("record", "rm", "3").stdout == "Deleted 3: Gym\n")
        #expect(tally.run("record", "list", "--json").json?.arrayValue?.count == 3)
        #expect(tally.run("record", "filter", "set", "--category", "running").stdout == "Saved the default view: --category running\n")
        #expect(tally.run("record", "list", "--json").json?.arrayValue?.count == 2)
        #expect(tally.run("record", "filter", "show", "--json").json == .object(["scope": "records", "filter": ["categories": ["running"]]]))
        #expect(tally.run("record", "filter", "reset").status == 0)
        #expect(tally.run("record", "list", "--json").json?.arrayValue?.count == 3)
        #expect(tally.run("record", "show", "1", "--as-of", "@1", "--json").json?.objectValue?["record"]?.objectValue?["distanceMeters"] == 5000)
        #expect(tally.run("record", "list", "--as-of", "@2", "--json").json?.arrayValue?.count == 2)
    }

    @Test("record errors exit with the documented codes and append nothing", arguments: [
        (["record", "add", "x", "--duration", "10m"], Int32(64), "Error: Missing expected argument '--category'."),
        (["record", "add", "x", "--category", "running"], 64, "Error: Missing expected argument '--duration'."),
        (["record", "add", "--category", "running", "--duration", "10m"], 64, "Error: Missing expected argument 'NAME'."),
        (["record", "edit", "1"], 64, "Error: Nothing to change"),
        (["record", "list", "--sort", "pace"], 64, "Error: Invalid value 'pace' for '--sort'"),
        (["stats", "--by", "decade"], 64, "Error: Invalid value 'decade' for '--by'"),
        (["record", "add", "x", "--category", "Run Fast", "--duration", "10m"], 65, "Error: Invalid category 'Run Fast'"),
        (["record", "add", "x", "--category", "running", "--duration", "0"], 65, "Error: The duration must be above zero"),
        (["record", "add", "x", "--category", "running", "--duration", "-5m"], 65, "Error: Invalid duration '-5m'"),
        (["record", "add", "x", "--category", "running", "--duration", "8d"], 65, "Error: Invalid duration '8d'"),
        (["record", "add", "x", "--category", "running", "--duration", "200h"], 65, "Error: The duration must be above zero and at most 7 days."),
        (["record", "add", "x", "--category", "running", "--duration", "10m", "--distance", "5"], 65, "Error: Invalid distance '5'"),
        (["record", "add", "x", "--category", "running", "--duration", "10m", "--distance", "2000km"], 65, "Error: The distance must be between 0 and 1000 km."),
        (["record", "add", "x", "--category", "running", "--duration", "10m", "--date", "+3d"], 65, "Error: The date '+3d' is more than a day in the future."),
        (["record", "add", "   ", "--category", "running", "--duration", "10m"], 65, "Error: The name is empty."),
        (["record", "list", "--since", "2026-02-30"], 65, "Error: Invalid date or time '2026-02-30'"),
        (["stats", "--category", "BAD CAT"], 65, "Error: Invalid category 'BAD CAT'"),
        // An effort given after the fact is checked as record add checks it; a bad one appends nothing, with any other field.
        (["record", "edit", "1", "--effort", "11"], 65, "Error: --effort must be a whole number from 1 to 10, not '11'"),
        (["record", "edit", "1", "--effort", "0"], 65, "Error: --effort must be a whole number from 1 to 10, not '0'"),
        (["record", "edit", "1", "--effort", "5.5"], 65, "Error: --effort must be a whole number from 1 to 10, not '5.5'"),
        (["record", "edit", "1", "--effort", "hard"], 65, "Error: --effort must be a whole number from 1 to 10, not 'hard'"),
        (["record", "edit", "1", "--note", "windy", "--effort", "-3"], 65, "Error: --effort must be a whole number from 1 to 10, not '-3'"),
        (["record", "add", "x", "--category", "running", "--duration", "10m", "--effort", "11"], 65, "Error: --effort must be a whole number from 1 to 10, not '11'"),
        (["record", "edit", "1", "--effort", "5", "--no-effort"], 64, "Error: Options '--effort' and '--no-effort' cannot be used together."),
        (["record", "edit", "9", "--effort", "5"], 1, "Error: No record matches '9'."),
        (["record", "show", "9"], 1, "Error: No record matches '9'."),
        (["record", "delete", "1", "7"], 1, "Error: No record matches '7'."),
    ])
    func errors(arguments: [String], status: Int32, message: String) {
        let tally = TallyRunner()
        tally.run("record", "add", "seed", "--category", "running", "--duration", "10m")
        let result = tally.run(arguments)
        #expect(result.status == status, "\(arguments): \(result.stderr)")
        #expect(result.stderr.hasPrefix(message), "\(arguments): \(result.stderr)")
        #expect(tally.eventCount == 1)
    }

    /// An activity file without heart rate or power: one record, 1:59:50 on 2010-08-05 (GPX, no extensions).
    static let withoutSensors = PackageFiles.url("Tests/Fixtures/activities/cerknicko-jezero.gpx").path

    /// `tally load --json` over the week of that activity: each activity's method and load, and how many have none.
    static func load(_ tally: TallyRunner, _ extra: [String] = []) throws -> (methods: [String], loads: [Double], unscored: Int) {
        let json = try #require(tally.run(["--json", "load", "--from", "2010-08-02", "--to", "2010-08-08"] + extra).json?.objectValue)
        let activities = try #require(json["activities"]?.arrayValue).compactMap(\.objectValue)
        return (activities.compactMap { $0["method"]?.stringValue }, activities.compactMap { $0["load"]?.doubleValue }, json["unscored"]?.arrayValue?.count ?? -1)
    }

    /// The effort `record show --json` gives record 1 (nil when it has none).
    static func effort(_ tally: TallyRunner, _ extra: String...) -> JSON? {
        tally.run(["--json", "record", "show", "1"] + extra).json?.objectValue?["record"]?.objectValue?["effort"]
    }

    @Test("record edit --effort gives an imported activity without heart rate a load of RPE × minutes; --no-effort takes it away; undo, redo, --as-of")
    func effortAfterTheFact() throws {
        let tally = TallyRunner()
        #expect(tally.run("record", "import", Self.withoutSensors).status == 0)
        #expect(try Self.load(tally) == ([], [], 1))
        let hint = tally.run("load", "--from", "2010-08-02", "--to", "2010-08-08")
        #expect(hint.stdout.hasSuffix("""
            1 activity has no load: no heart rate with resting and maximum heart rate, no power with FTP, no --effort.
            1 of them has neither heart rate nor power: 'tally record edit N --effort 1-10' gives it a load from how hard it felt.

            """), "\(hint.stdout)")
        let imported = tally.eventCount
        let edited = tally.run("record", "edit", "1", "--effort", "5")
        #expect(edited.status == 0 && edited.stdout == "Updated 1: ACTIVE LOG (edited effort → 5/10)\n", "\(edited.stdout)\(edited.stderr)")
        #expect(tally.eventCount == imported + 1)
        // 5 × 119.83 minutes (1:59:50 of the record's duration), to 0.1.
        #expect(try Self.load(tally) == (["effort"], [599.2], 0))
        #expect(!tally.run("load", "--from", "2010-08-02", "--to", "2010-08-08").stdout.contains("no load"))
        let show = tally.run("record", "show", "1").stdout
        #expect(show.split(separator: "\n").contains { $0.hasPrefix("Effort ") && $0.hasSuffix(" 5/10") }, "\(show)")
        #expect(show.contains("  \(tally.who("tester@e2e"))  edited effort → 5/10\n"), "\(show)")
        #expect(Self.effort(tally) == 5)
        // The past before the edit: no effort, no load.
        #expect(Self.effort(tally, "--as-of", "@\(imported)") == nil)
        #expect(try Self.load(tally, ["--as-of", "@\(imported)"]) == ([], [], 1))
        // With another field: one event, one undo step, which gives both back.
        let both = tally.run("record", "edit", "1", "--note", "windy", "--effort", "8")
        #expect(both.stdout == "Updated 1: ACTIVE LOG (edited note → 'windy', effort → 8/10)\n", "\(both.stdout)")
        #expect(tally.eventCount == imported + 2)
        #expect(try Self.load(tally).loads == [958.7])
        let undone = tally.run("undo")
        #expect(undone.status == 0 && undone.stdout.contains("effort: 8/10 → 5/10"), "\(undone.stdout)")
        #expect(Self.effort(tally) == 5 && tally.run("--json", "record", "show", "1").json?.objectValue?["record"]?.objectValue?["note"] == .null)
        #expect(try Self.load(tally).loads == [599.2])
        #expect(tally.run("redo").status == 0)
        #expect(Self.effort(tally) == 8)
        #expect(try Self.load(tally).loads == [958.7])
        // --no-effort clears it: no load again; undo gives it back.
        let cleared = tally.run("record", "edit", "1", "--no-effort")
        #expect(cleared.stdout == "Updated 1: ACTIVE LOG (edited effort cleared)\n", "\(cleared.stdout)")
        #expect(Self.effort(tally) == nil)
        #expect(try Self.load(tally) == ([], [], 1))
        let again = tally.run("record", "edit", "1", "--no-effort")
        #expect(again.status == 0 && again.stdout == "Record 1 already has those values; nothing changed.\n")
        let count = tally.eventCount
        tally.run("undo")
        #expect(Self.effort(tally) == 8 && tally.eventCount == count + 2)
        #expect(tally.run("verify").status == 0)
    }

    @Test("an edited effort in the history: log --field effort, blame --record, diff, record show's history")
    func effortHistory() throws {
        let tally = TallyRunner()
        tally.run("record", "import", Self.withoutSensors)
        tally.run("record", "edit", "1", "--effort", "6")
        tally.run("record", "edit", "1", "--place", "Cerknica")
        tally.run("record", "edit", "1", "--effort", "7")
        let log = tally.run("log", "--field", "effort")
        #expect(log.status == 0)
        let lines = log.stdout.split(separator: "\n").dropFirst()
        #expect(lines.count == 2 && lines.first?.hasSuffix("effort: 6/10 → 7/10") == true && lines.last?.hasSuffix("effort: none → 6/10") == true, "\(log.stdout)")
        let blame = try #require(tally.run("--json", "blame", "1", "--record").json?.arrayValue).compactMap(\.objectValue)
        let line = try #require(blame.first { $0["field"] == "effort" })
        #expect(line["value"] == 7 && line["seq"] == .int(tally.eventCount))
        #expect(blame.map { $0["field"]?.stringValue ?? "" } == ItemFields.record)
        let diff = try #require(tally.run("--json", "diff", "@1", "--field", "effort").json?.arrayValue).compactMap(\.objectValue)
        #expect(diff.count == 1 && diff.first?["before"] == .null && diff.first?["after"] == 7, "\(diff)")
        #expect(tally.run("--json", "diff", "@2", "@3", "--field", "effort").json == .array([]))
    }

    @Test("an edited effort survives export → import, and sync through a shared log: the later of two devices' efforts wins", arguments: SharedLogKind.available)
    func effortTravels(kind: SharedLogKind) throws {
        let tally = TallyRunner()
        tally.run("record", "import", Self.withoutSensors)
        tally.run("record", "edit", "1", "--effort", "6")
        tally.run("record", "edit", "1", "--no-effort")
        tally.run("record", "edit", "1", "--effort", "4", "--note", "lake")
        let export = tally.run("export")
        #expect(export.stdout.contains("\"effort\":null") && export.stdout.contains("\"effort\":4"))
        let path = tally.directory.path("export.jsonl")
        try export.stdout.write(toFile: path, atomically: true, encoding: .utf8)
        let other = TallyRunner()
        #expect(other.run("import", path).status == 0)
        #expect(Self.effort(other) == 4)
        #expect(try Self.load(other) == (["effort"], [479.3], 0))
        #expect(other.run("export").stdout == export.stdout)
        // A hand-edited export line with an effort past 10 is refused whole.
        let third = TallyRunner()
        let bad = tally.directory.path("bad.jsonl")
        try export.stdout.replacingOccurrences(of: "\"effort\":4", with: "\"effort\":40").write(toFile: bad, atomically: true, encoding: .utf8)
        let refused = third.run("import", bad)
        #expect(refused.status == 65 && refused.stderr.contains(": field 'effort' is not between 1 and 10. Nothing was imported."), "\(refused.stderr)")
        #expect(third.eventCount == 0)

        // Devices are SQLite replicas (the shared log SQLite or PostgreSQL); the PostgreSQL stage runs the other tests on a server store.
        guard !TallyRunner.onPostgres else { return }
        let fleet = Fleet(["ada", "bob"], kind: kind)
        #expect(fleet.run(0, at: "2026-11-21T10:00:00Z", "record", "import", Self.withoutSensors).status == 0)
        #expect(fleet.sync(0, at: "2026-11-21T10:01:00Z").status == 0)
        #expect(fleet.sync(1, at: "2026-11-21T10:02:00Z").status == 0)
        #expect(try Self.load(fleet[1]) == ([], [], 1))
        fleet.run(0, at: "2026-11-21T10:03:00Z", "record", "edit", "1", "--effort", "5")
        fleet.run(1, at: "2026-11-21T10:04:00Z", "record", "edit", "1", "--effort", "7", "--place", "Cerknica")
        #expect(fleet.sync(0, at: "2026-11-21T10:05:00Z").status == 0)
        let synced = fleet.sync(1, at: "2026-11-21T10:06:00Z")
        #expect(synced.status == 0, "\(synced.stderr)")
        #expect(fleet.sync(0, at: "2026-11-21T10:07:00Z").status == 0)
        for device in 0 ..< 2 {
            #expect(Self.effort(fleet[device]) == 7, "device \(device)")
            #expect(try Self.load(fleet[device]) == (["effort"], [838.8], 0))
        }
        // Ada clears it later: the clear travels.
        fleet.run(0, at: "2026-11-21T10:08:00Z", "record", "edit", "1", "--no-effort")
        #expect(fleet.sync(0, at: "2026-11-21T10:09:00Z").status == 0)
        #expect(fleet.sync(1, at: "2026-11-21T10:10:00Z").status == 0)
        #expect(Self.effort(fleet[1]) == nil)
        #expect(try Self.load(fleet[1]).unscored == 1)
        #expect(fleet.server.run("verify").status == 0)
        #expect(fleet.export(fleet[0]) == fleet.export(fleet[1]))
    }

    @Test("CSV fields are quoted exactly when they must be")
    func csvQuoting() {
        #expect(CSV.row(["plain", "a,b", "say \"hi\"", "two\nlines", ""]) == "plain,\"a,b\",\"say \"\"hi\"\"\",\"two\nlines\",\r\n")
        #expect(CSVReader.rows(CSV.row(["a,b", "\"", "x\r\ny"])) == [["a,b", "\"", "x\r\ny"]])
    }
}
