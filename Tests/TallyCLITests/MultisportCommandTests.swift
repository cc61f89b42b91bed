import Foundation
import Testing
import TallyDomain
import TallyTestSupport
@testable import TallyEssentials

/// Multisport files end to end on the built binary: one record per leg shown, deleted, restored and
/// undone together; a file imported whole by an earlier version split by `record reanalyze`; efforts
/// faster than the world record named at import.
@Suite("multisport and multi-day files, end to end", .tags(.postgresql))
struct MultisportCommandTests {
    static let fixture = PackageFiles.url("Tests/Fixtures/activities/fenix2-multisport.fit").path

    @Test("a multisport file is seven legs: listed and shown as one activity, deleted and restored together, one undo step")
    func legs() throws {
        let tally = TallyRunner(now: "2026-11-21T12:00:00Z")
        let imported = tally.run("record", "import", Self.fixture)
        #expect(imported.status == 0, "\(imported.stderr)")
        #expect(imported.stdout.hasPrefix("Imported 7 activities"))
        #expect(tally.eventCount == 7)
        let list = tally.run("record", "list").stdout
        #expect(list.contains("Multisport: Running (leg 3/7)"))
        #expect(list.contains("7 records, 6:50:17, 69.83 km"))
        let show = tally.run("record", "show", "3").stdout
        #expect(show.contains("Multisport      leg 3 of 7: 1 other 3:15:38, 2 transition 5:35, 3 running 38:15, 4 transition 0:04, 5 running 1:52:44, 6 transition 4:30, 7 cycling 53:31\n"))
        #expect(show.contains("                6:50:17 in all, 69.83 km\n"))
        let json = try #require(tally.run("record", "show", "7", "--json").json?.objectValue)
        #expect(json["multisport"]?.arrayValue?.count == 7)
        #expect(json["record"]?.objectValue?["track"]?.objectValue?["part"] == .object(["index": .int(7), "count": .int(7), "kind": .string("leg")]))
        // Deleting one leg deletes the activity; one undo brings it all back.
        let delete = tally.run("record", "delete", "5")
        #expect(delete.status == 0)
        #expect(delete.stdout.split(separator: "\n").count == 7)
        #expect(tally.run("record", "list").stdout.hasPrefix("No records."))
        #expect(tally.run("undo").status == 0)
        #expect(tally.run("record", "list").stdout.contains("7 records"))
        #expect(tally.run("record", "delete", "1").status == 0)
        #expect(tally.run("record", "restore", "6").stdout.split(separator: "\n").count == 7)
        // A new date for one leg moves the whole activity (one undo step); a new name is the leg's own.
        let moved = tally.run("record", "edit", "3", "--date", "2015-08-30 10:36")
        #expect(moved.status == 0, "\(moved.stderr)")
        #expect(tally.run("record", "show", "7").stdout.contains("Date            2015-08-30 13:11\n"))
        #expect(tally.run("record", "show", "1").stdout.contains("Date            2015-08-30 07:14\n"))
        #expect(tally.run("undo").status == 0)
        #expect(tally.run("record", "show", "7").stdout.contains("Date            2015-08-29 13:11\n"))
        #expect(tally.run("record", "edit", "3", "--name", "Hill run").status == 0)
        // A leg's category edited by hand stays through a reanalysis of every record.
        #expect(tally.run("record", "edit", "1", "--category", "swimming").status == 0)
        #expect(tally.run("record", "reanalyze", "--all").status == 0)
        #expect(tally.run("record", "show", "1").stdout.contains("Category        swimming\n"))
        #expect(tally.run("record", "list").stdout.contains("Multisport: Running (leg 5/7)"))
        // Importing again adds nothing; bests come from the legs of their own category.
        let again = tally.run("record", "import", Self.fixture)
        #expect(again.stdout.contains("7 activities were imported before; skipped."))
        let bests = tally.run("--json", "record", "bests").json?.objectValue?["bests"]?.arrayValue ?? []
        let categories = bests.compactMap { $0.objectValue?["category"]?.stringValue }
        #expect(Set(categories) == ["swimming", "running", "cycling"])
        #expect(tally.run("verify").status == 0)
        // Export and import keep the legs and their group.
        let path = tally.directory.path("all.jsonl")
        #expect(tally.run("export", "--output", path).status == 0)
        let other = TallyRunner(now: "2026-11-22T12:00:00Z")
        #expect(other.run("import", path).status == 0)
        #expect(other.run("record", "show", "3").stdout.contains("Multisport      leg 3 of 7: "))
        #expect(other.run("record", "delete", "2").stdout.split(separator: "\n").count == 7)
        #expect(other.run("verify").status == 0)
    }

    @Test("a TCX multisport session is one activity of four legs: listed, shown, deleted and restored together, one undo step")
    func tcxLegs() throws {
        let tally = TallyRunner(now: "2026-11-21T12:00:00Z")
        let fixture = PackageFiles.url("Tests/Fixtures/activities/goldencheetah-multisession.tcx").path
        let imported = tally.run("record", "import", fixture)
        #expect(imported.status == 0 && imported.stdout.hasPrefix("Imported 4 activities"), "\(imported.stderr)")
        #expect(tally.eventCount == 4)
        let list = tally.run("record", "list").stdout
        #expect(list.contains("2011-12-01 12:59  Multisport: Cycling (leg 2/4)  cycling     46:08"))
        #expect(list.contains("4 records, 3:29:50, 17.06 km"))
        let show = tally.run("record", "show", "3").stdout
        #expect(show.contains("Multisport      leg 3 of 4: 1 running 1:00:01, 2 cycling 46:08, 3 running 1:00:23, 4 cycling 43:18\n"))
        #expect(show.contains("Heart rate      143 bpm average, 177 max\n"))
        let delete = tally.run("record", "delete", "2")
        #expect(delete.status == 0 && delete.stdout.split(separator: "\n").count == 4)
        #expect(tally.run("record", "list").stdout.hasPrefix("No records."))
        #expect(tally.run("undo").status == 0)
        #expect(tally.run("record", "list").stdout.contains("4 records"))
        #expect(tally.run("record", "delete", "4").status == 0)
        #expect(tally.run("record", "restore", "1").stdout.split(separator: "\n").count == 4)
        #expect(tally.run("record", "import", fixture).stdout.contains("4 activities were imported before; skipped."))
        #expect(tally.run("verify").status == 0)
        // A record of such a file imported by analysis 3 (its first activity alone) is split by record reanalyze.
        let old = TallyRunner(now: "2026-11-21T12:00:00Z")
        #expect(old.run("import", try Self.wholeExport(old, fixture: fixture, analysis: 3)).status == 0)
        let split = old.run("record", "reanalyze")
        #expect(split.status == 0, "\(split.stderr)")
        #expect(split.stdout.contains("Record 1 held a whole file of 4 activities: it is now the first of them, the others were added.\n"))
        #expect(old.run("record", "list").stdout.contains("4 records, 3:29:50, 17.06 km"))
        #expect(old.run("undo").status == 0 && old.run("record", "list").stdout.contains("1 record"))
        #expect(old.run("verify").status == 0)
    }

    /// The export of a log holding this file as one record, the way versions before the split stored it.
    static func wholeExport(_ tally: TallyRunner, fixture: String = Self.fixture, analysis: Int64 = 2) throws -> String {
        let first = TallyRunner(now: "2026-11-20T12:00:00Z")
        first.run("record", "import", fixture)
        var lines: [String] = []
        for line in first.run("export").stdout.split(separator: "\n") {
            guard case .object(var object)? = try? JSON.parse(String(line)) else { continue }
            if object["blob"] != nil { lines.append(String(line)); continue }
            guard object["type"] == "record.logged", case .object(var data)? = object["data"], case .object(var track)? = data["track"],
                  track["part"]?.objectValue?["index"] == .int(1) else { continue }
            track["part"] = nil
            track["analysis"] = .int(analysis)
            data["track"] = .object(track)
            data["name"] = "Race"
            data["category"] = "running"
            data["durationSeconds"] = .int(24_626)
            data["note"] = "a good day"
            object["data"] = .object(data)
            lines.append(JSON.object(object).serialized())
        }
        let path = tally.directory.path("whole.jsonl")
        try (lines.joined(separator: "\n") + "\n").write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    @Test("a file imported whole before is not added again beside itself; record reanalyze splits it openly, one undo step, nothing lost")
    func splitOld() throws {
        let tally = TallyRunner(now: "2026-11-21T12:00:00Z")
        #expect(tally.run("import", try Self.wholeExport(tally)).status == 0)
        #expect(tally.eventCount == 1)
        let imported = tally.run("record", "import", Self.fixture)
        #expect(imported.stdout.contains("Record 1 holds this whole file, imported by an earlier version; its other parts were not added beside it. 'tally record reanalyze' splits it.\n"))
        #expect(tally.eventCount == 1)
        let split = tally.run("record", "reanalyze")
        #expect(split.status == 0, "\(split.stderr)")
        #expect(split.stdout.contains("Record 1 held a whole file of 7 activities: it is now the first of them, the others were added.\n"))
        #expect(tally.eventCount == 8)
        let list = tally.run("record", "list").stdout
        #expect(list.contains("7 records, 6:50:17, 69.83 km"))
        let first = tally.run("record", "show", "1").stdout
        #expect(first.contains("Name            Race: Other\n"))
        #expect(first.contains("Note            a good day\n"))
        #expect(first.contains("Multisport      leg 1 of 7"))
        #expect(tally.run("record", "show", "2").stdout.contains("Name            Race: Transition\n"))
        // Nothing more to do; importing the file finds every leg present.
        #expect(tally.run("record", "reanalyze").stdout.hasPrefix("No record needed a new analysis"))
        #expect(tally.run("record", "import", Self.fixture).stdout.contains("7 activities were imported before; skipped."))
        // One undo takes the split back: the one record as it was.
        #expect(tally.run("undo").status == 0)
        let back = tally.run("record", "list").stdout
        #expect(back.contains("1 record, 6:50:26"))
        #expect(tally.run("record", "show", "1").stdout.contains("Name            Race\n"))
        #expect(tally.run("verify").status == 0)
    }

    @Test("a GPX file of a three-day hike is three records, each a day of its own (deleted one by one)")
    func gpxDays() throws {
        let tally = TallyRunner(now: "2026-11-21T12:00:00Z")
        let day: Int64 = 86_400_000
        var points: [TrackPoint] = []
        var text = "<?xml version=\"1.0\"?><gpx version=\"1.1\" creator=\"test\" xmlns=\"http://www.topografix.com/GPX/1/1\">"
        for number in 0..<3 {
            points = SyntheticTrack.line(start: 1_700_000_000_000 + Int64(number) * day, speed: 1.2, seconds: 3_600)
            text += "<trk><name>Stage \(number + 1)</name><type>hiking</type><trkseg>"
            for point in points {
                text += "<trkpt lat=\"\(point.latitude + Double(number) * 0.05)\" lon=\"\(point.longitude)\"><time>\(Timestamp.format(point.time ?? 0))</time></trkpt>"
            }
            text += "</trkseg></trk>"
        }
        let path = tally.directory.path("hike.gpx")
        try (text + "</gpx>").write(toFile: path, atomically: true, encoding: .utf8)
        let result = tally.run("record", "import", path)
        #expect(result.stdout.hasPrefix("Imported 3 activities"), "\(result.stdout)\(result.stderr)")
        let list = tally.run("record", "list").stdout
        #expect(list.contains("Stage 1") && list.contains("Stage 2") && list.contains("Stage 3") && !list.contains("(leg"))
        #expect(tally.run("record", "show", "2").stdout.contains("From its file   day 2 of 3 (the file's other days are records of their own)\n"))
        #expect(tally.run("record", "delete", "2").stdout.split(separator: "\n").count == 1)
        #expect(tally.run("record", "list").stdout.contains("2 records"))
        #expect(tally.run("record", "import", path).stdout.contains("2 activities were imported before; skipped."))
        #expect(tally.run("verify").status == 0)
    }

    @Test("an effort faster than the world record is left out of the best efforts and named at import")
    func worldRecord() throws {
        let tally = TallyRunner(now: "2026-11-21T12:00:00Z")
        let path = tally.directory.path("fast.gpx")
        try SyntheticTrack.gpx(SyntheticTrack.line(speed: 11.9, seconds: 200), name: "Car").write(toFile: path, atomically: true, encoding: .utf8)
        let result = tally.run("record", "import", path)
        #expect(result.status == 0)
        #expect(result.stdout.contains("Left out of the best efforts, faster than the world record (a GPS error, or a ride recorded as a run):\n"))
        #expect(result.stdout.contains("  1: Car: 400 m in 0:33.6 (running; the world record is 0:43)\n"))
        #expect(result.stdout.contains("  1: Car: 1 km in 1:24 (running; the world record is 2:12)\n"))
        #expect(tally.run("record", "bests").stdout.contains("No best efforts") || !tally.run("record", "bests").stdout.contains("Car"))
        let again = TallyRunner(now: "2026-11-21T12:00:00Z")
        let json = try #require(again.run("--json", "record", "import", path).json?.objectValue?["droppedEfforts"]?.arrayValue)
        #expect(json.first?.objectValue?["meters"] == .int(400))
        #expect(json.first?.objectValue?["worldRecordSeconds"] == .double(43.03))
        #expect(json.first?.objectValue?["number"] == .int(1))
    }

    @Test("a ski run faster than a runner is no GPS error: its efforts are skiing bests; the same speed on foot is left out")
    func fastSportsKeepTheirEfforts() throws {
        let tally = TallyRunner(now: "2026-11-21T12:00:00Z")
        // 16 m/s (57.6 km/h) for two minutes: a downhill run, passed by the GPS filter (60 m/s off foot and off a bike).
        let ski = tally.directory.path("ski.gpx")
        try SyntheticTrack.gpx(SyntheticTrack.line(speed: 16, seconds: 120), name: "Piste", type: "AlpineSki").write(toFile: ski, atomically: true, encoding: .utf8)
        let result = tally.run("record", "import", ski)
        #expect(result.status == 0 && !result.stdout.contains("Left out"), "\(result.stdout)")
        let bests = tally.run("record", "bests", "--category", "skiing").stdout
        #expect(bests.contains("skiing") && bests.contains("400 m") && bests.contains("1 km") && bests.contains("1: Piste"), "\(bests)")
        // A run as fast as the GPS filter lets one be (11 m/s) beats the world record on foot and is left out, as before.
        let run = tally.directory.path("run.gpx")
        try SyntheticTrack.gpx(SyntheticTrack.line(speed: 11, seconds: 120), name: "Not a run").write(toFile: run, atomically: true, encoding: .utf8)
        let left = tally.run("record", "import", run).stdout
        #expect(left.contains("  2: Not a run: 400 m in 0:36.4 (running; the world record is 0:43)\n"), "\(left)")
    }
}
