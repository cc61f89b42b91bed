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

    @Test("CSV fields are quoted exactly when they must be")
    func csvQuoting() {
        #expect(CSV.row(["plain", "a,b", "say \"hi\"", "two\nlines", ""]) == "plain,\"a,b\",\"say \"\"hi\"\"\",\"two\nlines\",\r\n")
        #expect(CSVReader.rows(CSV.row(["a,b", "\"", "x\r\ny"])) == [["a,b", "\"", "x\r\ny"]])
    }
}
