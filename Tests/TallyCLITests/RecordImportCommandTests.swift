import Foundation
import Testing
import TallyDomain
@testable import TallySQLite
import TallyTestSupport
@testable import TallyInterchange

/// `record import`, `record bests` and the new `stats` views, end to end on generated exports.
@Suite("record import, bests, streaks and year to date, end to end")
struct RecordImportCommandTests {
    static let csvHeader = "Activity ID,Activity Date,Activity Name,Activity Type,Activity Description,Elapsed Time,Distance,Filename,Elapsed Time,Moving Time,Distance\n"

    /// A Strava-like bulk export: a gzipped GPX 5 km run, a gzipped FIT 10 km ride, a TCX walk, a manual
    /// swim without a file, a row whose file is missing and one whose file is damaged.
    static func stravaExport(in tally: TallyRunner) throws -> String {
        let folder = tally.directory.path("export_123")
        try FileManager.default.createDirectory(atPath: folder + "/activities", withIntermediateDirectories: true)
        let run = SyntheticTrack.line(start: Timestamp.parse("2026-11-02T07:00:00Z")!, speed: 4, seconds: 1_250)
        let ride = SyntheticTrack.line(start: Timestamp.parse("2026-11-03T16:00:00Z")!, speed: 8, seconds: 1_250)
        let walk = SyntheticTrack.line(start: Timestamp.parse("2026-11-04T12:00:00Z")!, speed: 4.2, seconds: 1_250)
        try Data(try Gzip.compress(Array(SyntheticTrack.gpx(run, name: "From the file").utf8))).write(to: URL(fileURLWithPath: folder + "/activities/1001.gpx.gz"))
        try Data(try Gzip.compress(SyntheticTrack.fit(ride, sport: 2))).write(to: URL(fileURLWithPath: folder + "/activities/1002.fit.gz"))
        try SyntheticTrack.tcx(walk, sport: "Other").write(toFile: folder + "/activities/1003.tcx", atomically: true, encoding: .utf8)
        try Data([0x1F, 0x8B, 0x08, 0x00, 0x01]).write(to: URL(fileURLWithPath: folder + "/activities/1006.gpx.gz"))
        let csv = csvHeader + #"""
            1001,"Nov 2, 2026, 7:00:00 AM","Morning Run, easy",Run,,1250,5.00,activities/1001.gpx.gz,1250,1250,5000.0
            1002,"Nov 3, 2026, 4:00:00 PM",Commute,Ride,,1250,10.00,activities/1002.fit.gz,1250,1250,10000.0
            1003,"Nov 4, 2026, 12:00:00 PM",Lunch walk,Walk,,1250,5.25,activities/1003.tcx,1250,1250,5250.0
            1004,"Nov 5, 2026, 6:30:00 PM",Pool,Swim,"""quoted"" note",1800,1.50,,1800,1700,1500.0
            1005,"Nov 6, 2026, 6:30:00 PM",Lost,Run,,1800,5.00,activities/1005.gpx,1800,1800,5000.0
            1006,"Nov 7, 2026, 6:30:00 PM",Broken,Run,,1800,5.00,activities/1006.gpx.gz,1800,1800,5000.0

            """#
        try csv.write(toFile: folder + "/activities.csv", atomically: true, encoding: .utf8)
        return folder
    }

    @Test("a Strava export: every activity once, the CSV's name and type, the file's distance and time, a report of what was skipped")
    func stravaImport() throws {
        let tally = TallyRunner(now: "2026-11-21T12:00:00Z")
        let folder = try Self.stravaExport(in: tally)
        let result = tally.run("record", "import", folder)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.hasPrefix("Imported 4 activities (files read: 4, "))
        #expect(result.stdout.contains("Skipped 2 files:\n"))
        #expect(result.stdout.contains("  activities.csv line 6: the track file activities/1005.gpx is missing\n"))
        #expect(result.stdout.contains("1006.gpx.gz: corrupt (the gzip data cannot be read"))
        let records = try #require(tally.run("record", "list", "--sort", "date", "--reverse", "--json").json?.arrayValue)
        #expect(records.map { $0.objectValue?["name"]?.stringValue } == ["Morning Run, easy", "Commute", "Lunch walk", "Pool"])
        #expect(records.map { $0.objectValue?["category"]?.stringValue } == ["running", "cycling", "walking", "swimming"])
        let distances = records.map { $0.objectValue?["distanceMeters"]?.doubleValue ?? 0 }
        #expect(abs(distances[0] - 5_000) < 1 && abs(distances[1] - 10_000) < 1 && abs(distances[2] - 5_250) < 1)
        #expect(distances[3] == 1_500)
        #expect(records.map { $0.objectValue?["durationSeconds"]?.intValue } == [1_250, 1_250, 1_250, 1_800])
        #expect(records[0].objectValue?["date"] == "2026-11-02T07:00:00Z")
        #expect(records[0].objectValue?["track"]?.objectValue?["format"] == "gpx")
        #expect(records[3].objectValue?["track"] == .null)
        #expect(records.allSatisfy { $0.objectValue?["source"] == "import" })
    }

    @Test("importing again, or a file already inside the imported export, adds nothing; one undo takes it all back")
    func idempotentAndUndoable() throws {
        let tally = TallyRunner(now: "2026-11-21T12:00:00Z")
        let folder = try Self.stravaExport(in: tally)
        tally.run("record", "import", folder)
        let events = tally.eventCount
        #expect(events == 4)
        let again = tally.run("record", "import", folder)
        #expect(again.status == 0)
        #expect(again.stdout.hasPrefix("No new activities.\n4 activities were imported before; skipped.\n"))
        let plain = tally.directory.path("run.gpx")
        let run = SyntheticTrack.line(start: Timestamp.parse("2026-11-02T07:00:00Z")!, speed: 4, seconds: 1_250)
        try SyntheticTrack.gpx(run, name: "From the file").write(toFile: plain, atomically: true, encoding: .utf8)
        #expect(tally.run("record", "import", plain).stdout == "No new activities.\n1 activity was imported before; skipped.\n")
        #expect(tally.eventCount == events)
        #expect(tally.run("undo").status == 0)
        #expect(tally.run("record", "list", "--json").json?.arrayValue?.count == 0)
        let back = tally.run("record", "import", folder)
        #expect(back.stdout.hasPrefix("Imported 4 activities"))
        #expect(tally.run("record", "list", "--json").json?.arrayValue?.count == 4)
    }

    @Test("bests per category from tracks and from whole activities; --year, --as-of and --json")
    func bests() throws {
        let tally = TallyRunner(now: "2026-11-21T12:00:00Z")
        let folder = try Self.stravaExport(in: tally)
        tally.run("record", "import", folder)
        // A whole 5.03 km run without a track (within 1%), faster than the tracked one, logged later.
        tally.run(["record", "add", "Race", "--category", "running", "--duration", "20:00", "--distance", "5.03km", "--date", "2026-11-10T09:00"])
        // 5.1 km is more than 1% off: not a 5 km candidate.
        tally.run(["record", "add", "Tempo", "--category", "running", "--duration", "19:00", "--distance", "5.1km", "--date", "2026-11-11T09:00"])
        let json = try #require(tally.run("record", "bests", "--json").json?.objectValue?["bests"]?.arrayValue)
        let groups = json.compactMap(\.objectValue)
        #expect(groups.map { $0["category"]?.stringValue } == ["cycling", "running", "walking"])
        let runningList = groups[1]["efforts"]?.arrayValue?.compactMap(\.objectValue)
        let running = try #require(runningList)
        #expect(running.map { $0["meters"]?.intValue } == [400, 1_000, 1_609, 5_000])
        #expect(running[0]["seconds"] == 100)
        #expect(running[3]["seconds"] == 1_200 && running[3]["fromTrack"] == false)
        #expect(running[3]["record"]?.objectValue?["name"] == "Race")
        #expect(running[2]["record"]?.objectValue?["name"] == "Morning Run, easy")
        let walkingList = groups[2]["efforts"]?.arrayValue?.compactMap(\.objectValue)
        let walking = try #require(walkingList)
        #expect(walking.first { $0["meters"] == 5_000 }?["seconds"]?.doubleValue.map { abs($0 - 5_000 / 4.2) < 0.1 } == true, "the walk is faster but stays a walk")
        let cyclingList = groups[0]["efforts"]?.arrayValue?.compactMap(\.objectValue)
        let cycling = try #require(cyclingList)
        #expect(cycling.map { $0["meters"]?.intValue } == [10_000])
        // As of the import (log position 4), before the race was logged: the 5 km best is the tracked run's.
        let past = tally.run("record", "bests", "--category", "running", "--as-of", "@4", "--json")
        let pastRunning = past.json?.objectValue?["bests"]?.arrayValue?.first?.objectValue?["efforts"]?.arrayValue
        #expect(pastRunning?.last?.objectValue?["seconds"] == 1_250 && pastRunning?.last?.objectValue?["meters"] == 5_000)
        let human = tally.run("record", "bests", "--category", "running")
        #expect(human.status == 0)
        #expect(human.stdout == """
            Category  Distance    Time      Pace  Date        Record
            running      400 m    1:40  4:10 /km  2026-11-02  1: Morning Run, easy
                          1 km    4:10  4:10 /km  2026-11-02  1: Morning Run, easy
                        1 mile  6:42.2  4:10 /km  2026-11-02  1: Morning Run, easy
                          5 km   20:00  4:00 /km  2026-11-10  5: Race

            """)
        #expect(tally.run("record", "bests", "--year", "2025").stdout.hasPrefix("No best efforts yet"))
        let bad = tally.run("record", "bests", "--year", "soon")
        #expect(bad.status == 65 && bad.stderr.contains("--year") && bad.stderr.contains("a year such as 2026"))
        let czech = tally.run(["record", "bests"], environment: ["LANG": "cs_CZ.UTF-8"])
        #expect(czech.stdout.contains("Záznam") && czech.stdout.contains("Kategorie"))
    }

    @Test("stats --by year, --ytd against last year, --streaks of days and weeks")
    func yearsAndStreaks() throws {
        let tally = TallyRunner(now: "2026-11-21T12:00:00Z")
        for date in ["2025-03-01", "2025-11-20", "2025-11-22", "2026-11-18", "2026-11-19", "2026-11-20", "2026-11-21"] {
            tally.run(["record", "add", "Run", "--category", "running", "--duration", "30m", "--distance", "5km", "--date", date + "T08:00"])
        }
        tally.run(["record", "add", "Ride", "--category", "cycling", "--duration", "1h", "--distance", "20km", "--date", "2026-11-10T08:00"])
        let years = tally.run("stats", "--by", "year", "--json").json?.objectValue?["buckets"]?.arrayValue?.compactMap(\.objectValue)
        #expect(years?.map { $0["key"]?.stringValue } == ["2025", "2026"])
        #expect(years?.map { $0["count"]?.intValue } == [3, 5])
        let ytd = try #require(tally.run("stats", "--ytd", "--json").json?.objectValue)
        #expect(ytd["year"] == 2026)
        #expect(ytd["current"]?.objectValue?["count"] == 5 && ytd["current"]?.objectValue?["distanceMeters"] == 40_000)
        #expect(ytd["previous"]?.objectValue?["count"] == 2, "22 November 2025 is after the same day last year")
        let human = tally.run("stats", "--ytd")
        #expect(human.stdout.hasPrefix("2026 to 11-21 against 2025 to 11-21\n"))
        #expect(human.stdout.contains("+300%"))
        let streaksList = tally.run("stats", "--streaks", "--json").json?.objectValue?["streaks"]?.arrayValue?.compactMap(\.objectValue)
        let streaks = try #require(streaksList)
        #expect(streaks.map { $0["category"]?.stringValue } == [nil, "cycling", "running"])
        #expect(streaks[0]["currentDays"] == 4 && streaks[0]["longestDays"] == 4 && streaks[0]["longestDaysEnd"] == "2026-11-21")
        #expect(streaks[0]["currentWeeks"] == 2 && streaks[0]["longestWeeks"] == 2)
        // The ride was last week: this week has none yet, so the week streak still stands at one.
        #expect(streaks[1]["currentDays"] == 0 && streaks[1]["currentWeeks"] == 1 && streaks[1]["longestDays"] == 1)
        let table = tally.run("stats", "--streaks")
        #expect(table.stdout.contains("(all)") && table.stdout.contains("4 (2026-11-21)"))
        let czech = tally.run(["stats", "--streaks"], environment: ["LANG": "cs_CZ.UTF-8"])
        #expect(czech.stdout.contains("(vše)"))
    }

    @Test("corrupt, empty, hostile and foreign files are reported and add nothing; a missing path is exit 66")
    func badFiles() throws {
        let tally = TallyRunner()
        let folder = tally.directory.path("bad")
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        try Data().write(to: URL(fileURLWithPath: folder + "/empty.gpx"))
        try "<gpx><trk><name>never closed".write(toFile: folder + "/open.gpx", atomically: true, encoding: .utf8)
        let deep = "<gpx>" + String(repeating: "<a>", count: 10_000) + String(repeating: "</a>", count: 10_000) + "</gpx>"
        try deep.write(toFile: folder + "/deep.gpx", atomically: true, encoding: .utf8)
        var lying = SyntheticTrack.fit(SyntheticTrack.line(speed: 3, seconds: 60))
        lying[4] = 0xFF; lying[5] = 0xFF; lying[6] = 0xFF
        try Data(lying).write(to: URL(fileURLWithPath: folder + "/lying.fit"))
        try "hello".write(toFile: folder + "/notes.tcx", atomically: true, encoding: .utf8)
        let result = tally.run("record", "import", folder)
        #expect(result.status == 0)
        #expect(result.stdout.hasPrefix("No new activities.\nSkipped 5 files:\n"), "\(result.stdout)")
        #expect(result.stdout.contains("empty.gpx: corrupt (the file is empty)"))
        #expect(result.stdout.contains("deep.gpx: corrupt (XML at byte"))
        #expect(result.stdout.contains("lying.fit: the file is cut short"))
        #expect(result.stdout.contains("notes.tcx: not a GPX, TCX or FIT file"))
        #expect(tally.eventCount <= 0)
        let json = try #require(tally.run("record", "import", folder, "--json").json?.objectValue)
        #expect(json["skipped"]?.arrayValue?.count == 5 && json["imported"]?.arrayValue?.count == 0)
        let missing = tally.run("record", "import", folder, tally.directory.path("nowhere.gpx"))
        #expect(missing.status == 66 && missing.stderr.contains("nowhere.gpx"))
        let czech = tally.run(["record", "import", folder], environment: ["LANG": "cs_CZ.UTF-8"])
        #expect(czech.stdout.contains("Přeskočeno 5 souborů:") && czech.stdout.contains("není soubor GPX, TCX ani FIT"))
    }

    @Test("export carries the original files and import restores them, checked against their names")
    func exportCarriesBlobs() throws {
        let tally = TallyRunner(now: "2026-11-21T12:00:00Z")
        tally.run("record", "import", try Self.stravaExport(in: tally))
        let exported = tally.run("export")
        let lines = exported.stdout.split(separator: "\n")
        #expect(lines.filter { $0.hasPrefix("{\"blob\":") }.count == 3)
        let copy = TallyRunner(now: "2026-11-21T12:00:00Z")
        let file = tally.directory.path("backup.jsonl")
        try exported.stdout.write(toFile: file, atomically: true, encoding: .utf8)
        let restored = copy.run("import", file)
        #expect(restored.status == 0)
        #expect(restored.stdout.contains("Stored 3 original activity files."))
        #expect(copy.run("export").stdout == exported.stdout)
        var tampered = exported.stdout
        if let range = tampered.range(of: "\"encoding\":\"gzip\"") { tampered.replaceSubrange(range, with: "\"encoding\":\"identity\"") }
        let third = TallyRunner()
        try tampered.write(toFile: file, atomically: true, encoding: .utf8)
        let refused = third.run("import", file)
        #expect(refused.status == 65 && refused.stderr.contains("does not match its name"))
        #expect(third.eventCount <= 0)
    }

    @Test("verify checks that every stored original file has the content its name promises; a missing one is no damage")
    func verifyBlobs() throws {
        let tally = TallyRunner(now: "2026-11-21T12:00:00Z")
        tally.run("record", "import", try Self.stravaExport(in: tally))
        #expect(tally.run("verify").stdout == "OK: 4 events, chain intact\n")
        let connection = try Connection(path: tally.databasePath, access: .readWrite)
        try connection.execute("DROP TRIGGER blobs_reject_update")
        try connection.execute("UPDATE blobs SET body = x'3c6770782f3e' WHERE encoding = 'identity' AND sha256 = (SELECT min(sha256) FROM blobs WHERE encoding = 'identity')")
        try connection.execute("DELETE FROM blobs WHERE encoding = 'gzip'")
        connection.close()
        let result = tally.run("verify")
        #expect(result.status == 1)
        #expect(result.stdout.components(separatedBy: "does not match its name").count == 2, "\(result.stdout)")
        let fresh = TallyRunner(now: "2026-11-21T12:00:00Z")
        fresh.run("record", "import", try Self.stravaExport(in: fresh))
        let plain = try Connection(path: fresh.databasePath, access: .readWrite)
        try plain.execute("DELETE FROM blobs")
        plain.close()
        #expect(fresh.run("verify").status == 0)
    }

    @Test("on a terminal a progress bar by megabytes read is drawn on stderr and erased; off a terminal nothing", .enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/script")))
    func progressOnTerminal() throws {
        let tally = TallyRunner(now: "2026-11-21T12:00:00Z")
        let folder = try Self.stravaExport(in: tally)
        // script(1) runs the command on a fresh pseudo-terminal: $0 is the binary, $1 to $3 its arguments.
        let result = tally.run(["record", "import", folder], launcher: ["/bin/sh", "-c", "exec /usr/bin/script -qec \"'$0' '$1' '$2' '$3'\" /dev/null"])
        #expect(result.status == 0)
        #expect(result.stdout.contains("\rReading ["), "\(result.stdout.debugDescription)")
        #expect(result.stdout.contains("100%") && result.stdout.contains("\u{1B}[K"))
        #expect(result.stdout.contains("Imported 4 activities"))
        let plain = TallyRunner(now: "2026-11-21T12:00:00Z")
        let piped = plain.run("record", "import", try Self.stravaExport(in: plain))
        #expect(!piped.stderr.contains("Reading") && !piped.stdout.contains("Reading"))
    }

    @Test("a folder of a watch's FIT files and Garmin Connect's Activities.csv: the device's figures, each once")
    func watchFolderAndGarminCSV() throws {
        let tally = TallyRunner(now: "2026-11-21T12:00:00Z", zone: "Europe/Prague")
        let watch = tally.directory.path("GARMIN/Activity")
        try FileManager.default.createDirectory(atPath: watch, withIntermediateDirectories: true)
        for name in ["fenix5-run.fit", "fenix5-bike.fit", "fenix5-walk.fit", "fenix2-run.fit", "weight-scale.fit"] {
            try FileManager.default.copyItem(atPath: PackageFiles.url("Tests/Fixtures/activities/\(name)").path, toPath: watch + "/" + name.uppercased())
        }
        let result = tally.run("record", "import", watch, "--json")
        let imported = result.json?.objectValue?["imported"]?.arrayValue?.compactMap(\.objectValue) ?? []
        #expect(imported.count == 4)
        #expect(result.json?.objectValue?["skipped"]?.arrayValue?.count == 1)
        let byDate = Dictionary(uniqueKeysWithValues: imported.map { ($0["date"]?.stringValue ?? "", $0) })
        #expect(byDate["2015-08-15T14:45:08Z"]?["distanceMeters"] == 9_008.2 && byDate["2015-08-15T14:45:08Z"]?["durationSeconds"] == 2_832)
        #expect(byDate["2017-06-12T16:09:22Z"]?["category"] == "cycling")
        let csv = tally.directory.path("Activities.csv")
        try "Activity Type,Date,Favorite,Title,Distance,Calories,Time\nRunning,2026-11-20 18:05:00,false,Evening run,8.40,600,00:42:00\n"
            .write(toFile: csv, atomically: true, encoding: .utf8)
        #expect(tally.run("record", "import", csv).stdout.hasPrefix("Imported 1 activity"))
        #expect(tally.run("record", "import", csv, watch).stdout.hasPrefix("No new activities.\n5 activities were imported before; skipped.\n"))
        let evening = tally.run("record", "list", "--search", "Evening", "--json").json?.arrayValue?.first?.objectValue
        #expect(evening?["date"] == "2026-11-20T17:05:00Z" && evening?["distanceMeters"] == 8_400 && evening?["durationSeconds"] == 2_520)
    }
}
