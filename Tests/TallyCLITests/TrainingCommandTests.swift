import Foundation
import Testing
import TallyDomain
import TallyTestSupport

/// Sensor figures, `record reanalyze`, athlete settings, zones and training load, end to end on the built binary.
@Suite("training: sensors, reanalysis, athlete settings, zones and load, end to end")
struct TrainingCommandTests {
    static func fixture(_ name: String) -> String {
        PackageFiles.url("Tests/Fixtures/activities/\(name)").path
    }

    /// The export of `tally` with every track's analysis taken back to what tally stored before it read
    /// sensors (no `analysis`, no `sensors`); `keepBlobs: false` also leaves the original files out.
    static func oldExport(of tally: TallyRunner, keepBlobs: Bool = true) throws -> String {
        let lines = tally.run("export").stdout.split(separator: "\n").compactMap { line -> String? in
            guard case .object(var object)? = try? JSON.parse(String(line)) else { return nil }
            if object["blob"] != nil { return keepBlobs ? String(line) : nil }
            if object["type"] == "record.logged", case .object(var data)? = object["data"], case .object(var track)? = data["track"] {
                track["analysis"] = nil
                track["sensors"] = nil
                data["track"] = .object(track)
                object["data"] = .object(data)
            }
            return JSON.object(object).serialized()
        }
        let path = tally.directory.path("old.jsonl")
        try (lines.joined(separator: "\n") + "\n").write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    @Test("an imported ride shows its heart rate, cadence and power; --json has them under track.sensors with the analysis version")
    func importedSensors() throws {
        let tally = TallyRunner(now: "2026-11-21T12:00:00Z")
        #expect(tally.run("record", "import", Self.fixture("edge810-vector-ride.fit")).status == 0)
        let show = tally.run("record", "show", "1")
        #expect(show.stdout.contains("Heart rate      154 bpm average, 176 max\n"))
        #expect(show.stdout.contains("Cadence         87 /min average\n"))
        #expect(show.stdout.contains("Power           276 W average, 301 W normalised\n"))
        let track = try #require(tally.run("record", "show", "1", "--json").json?.objectValue?["record"]?.objectValue?["track"]?.objectValue)
        #expect(track["analysis"] == .int(Int64(SensorAnalysis.version)))
        #expect(track["sensors"] == .object([
            "averageHeartRate": .int(154), "maxHeartRate": .int(176), "averageCadence": .int(87), "averagePower": .int(276), "normalizedPower": .int(301),
        ]))
        let again = tally.run("record", "reanalyze")
        #expect(again.status == 0)
        #expect(again.stdout == "No record needed a new analysis (analysis \(SensorAnalysis.version)).\n")
        #expect(tally.eventCount == 1)
    }

    @Test("record reanalyze reads the kept originals of records imported before sensors, in one undo step; export and import keep the result")
    func reanalyze() throws {
        let first = TallyRunner(now: "2026-11-21T12:00:00Z")
        first.run("record", "import", Self.fixture("edge810-vector-ride.fit"), Self.fixture("tcxparser-run.tcx"), Self.fixture("fenix5-walk.fit"))
        let old = try Self.oldExport(of: first)
        let tally = TallyRunner(now: "2026-11-22T12:00:00Z")
        #expect(tally.run("import", old).status == 0)
        #expect(!tally.run("record", "show", "1").stdout.contains("Heart rate"))
        #expect(tally.run("record", "show", "1", "--json").json?.objectValue?["record"]?.objectValue?["track"]?.objectValue?["analysis"] == nil)
        let result = tally.run("record", "reanalyze")
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout == "Reanalysed 3 records (analysis \(SensorAnalysis.version)).\n")
        #expect(tally.eventCount == 6)
        #expect(tally.run("record", "show", "1").stdout.contains("Power           276 W average, 301 W normalised\n"))
        #expect(tally.run("record", "show", "2").stdout.contains("Heart rate      160 bpm average, 189 max\n"))
        #expect(tally.run("record", "show", "1").stdout.contains("edited analysis → \(SensorAnalysis.version)"))
        // Running it again finds nothing to do; --all reads every file again and changes nothing.
        #expect(tally.run("record", "reanalyze").stdout.hasPrefix("No record needed a new analysis"))
        let all = tally.run("record", "reanalyze", "--all")
        #expect(all.stdout.contains("3 records read again were already up to date.\n"))
        #expect(tally.eventCount == 6)
        // One undo takes the three analyses back; redo brings them again.
        let undo = tally.run("undo")
        #expect(undo.status == 0)
        #expect(undo.stdout.contains("1: Cycling: analysis: \(SensorAnalysis.version) → 1"))
        #expect(!tally.run("record", "show", "1").stdout.contains("Heart rate"))
        #expect(tally.run("redo").status == 0)
        #expect(tally.run("record", "show", "1").stdout.contains("Heart rate"))
        #expect(tally.run("verify").status == 0)
        // Time travel: before the reanalysis the record had no sensors.
        #expect(!tally.run("record", "show", "1", "--as-of", "@3").stdout.contains("Heart rate"))
        // Export and import into a third log keeps the analyses and the chain.
        let third = TallyRunner(now: "2026-11-23T12:00:00Z")
        let path = tally.directory.path("all.jsonl")
        #expect(tally.run("export", "--output", path).status == 0)
        #expect(third.run("import", path).status == 0)
        #expect(third.run("record", "show", "1").stdout.contains("Power           276 W average, 301 W normalised\n"))
        #expect(third.run("verify").status == 0)
    }

    @Test("a record whose original file is not stored is listed and left alone; nothing is appended")
    func missingOriginal() throws {
        let first = TallyRunner(now: "2026-11-21T12:00:00Z")
        first.run("record", "import", Self.fixture("fenix5-run.fit"))
        let old = try Self.oldExport(of: first, keepBlobs: false)
        let tally = TallyRunner(now: "2026-11-22T12:00:00Z")
        #expect(tally.run("import", old).status == 0)
        let result = tally.run("record", "reanalyze")
        #expect(result.status == 0)
        #expect(result.stdout == "No record needed a new analysis (analysis \(SensorAnalysis.version)).\n  1: Run: the original file is not stored\n")
        #expect(tally.eventCount == 1)
        let json = tally.run("record", "reanalyze", "--json").json?.objectValue
        #expect(json?["skipped"]?.arrayValue?.first?.objectValue?["reason"] == "the original file is not stored")
        #expect(json?["analyzed"] == .array([]))
    }

    @Test("athlete set and show: dated settings, zones, history; one undo step each; --as-of is the day whose settings are shown")
    func athlete() throws {
        let tally = TallyRunner(now: "2026-11-21T12:00:00Z")
        #expect(tally.run("athlete", "show").stdout.hasPrefix("No athlete settings yet"))
        let set = tally.run("athlete", "set", "--max-hr", "190", "--resting-hr", "48", "--threshold-hr", "172", "--ftp", "250", "--from", "2013-01-01")
        #expect(set.status == 0, "\(set.stderr)")
        #expect(set.stdout == "Athlete settings from 2013-01-01: --max-hr 190 --resting-hr 48 --threshold-hr 172 --ftp 250\n")
        #expect(tally.run("athlete", "set", "--ftp", "300", "--from", "2014-01-01").status == 0)
        let same = tally.run("athlete", "set", "--ftp", "300", "--from", "2014-01-01")
        #expect(same.stdout == "The athlete's settings of that day are already these.\n")
        #expect(tally.eventCount == 2)
        let show = tally.run("athlete", "show")
        #expect(show.stdout.contains("FTP                   300 W\n"))
        #expect(show.stdout.contains("   2  146-154 bpm\n"))
        #expect(show.stdout.contains("2014-01-01  --ftp 300\n"))
        let then = try #require(tally.run("athlete", "show", "--as-of", "2013-06-01", "--json").json?.objectValue)
        #expect(then["settings"]?.objectValue?["ftp"] == .int(250))
        #expect(then["powerZones"]?.objectValue?["bounds"] == .array([140, 190, 228, 265, 303, 378].map { .int($0) }))
        #expect(then["history"]?.arrayValue?.count == 2)
        // The log as it was at position 1 had only the first entry.
        #expect(tally.run("athlete", "show", "--as-of", "@1", "--json").json?.objectValue?["settings"]?.objectValue?["ftp"] == .int(250))
        let undo = tally.run("undo")
        #expect(undo.stdout.contains("athlete settings from 2014-01-01: --ftp 300 → -"))
        #expect(tally.run("athlete", "show", "--json").json?.objectValue?["settings"]?.objectValue?["ftp"] == .int(250))
        #expect(tally.run("verify").status == 0)
        #expect(tally.run("log").stdout.contains("athlete settings from 2013-01-01: --max-hr 190"))
    }

    @Test("record show: time in zones with the settings in force on each activity's day, laps and splits, --miles, --json")
    func recordDetail() throws {
        let tally = TallyRunner(now: "2026-11-21T12:00:00Z")
        tally.run("record", "import", Self.fixture("edge810-vector-ride.fit"), Self.fixture("indoor-trainer.fit"))
        // Without settings: no zones, but laps and splits.
        let plain = try #require(tally.run("record", "show", "1", "--json").json?.objectValue?["detail"]?.objectValue)
        #expect(plain["heartRateZones"] == .null)
        #expect(plain["laps"]?.arrayValue?.count == 8)
        tally.run("athlete", "set", "--max-hr", "190", "--threshold-hr", "172", "--ftp", "200", "--from", "2011-01-01")
        tally.run("athlete", "set", "--ftp", "250", "--from", "2013-01-01")
        // Record 1 is the Edge 810 ride of 2013 (FTP 250), record 2 the indoor ride of 2011 (FTP 200).
        let indoor = try #require(tally.run("record", "show", "2", "--json").json?.objectValue?["detail"]?.objectValue)
        #expect(indoor["powerZones"]?.objectValue?["bounds"] == .array([112, 152, 182, 212, 242, 302].map { .int($0) }))
        #expect(indoor["splits"] == .array([]), "no positions, no splits")
        let ride = try #require(tally.run("record", "show", "1", "--json").json?.objectValue?["detail"]?.objectValue)
        #expect(ride["heartRateZones"]?.objectValue?["seconds"]?.arrayValue?.compactMap(\.doubleValue) == [1_191, 866, 672, 1_681, 260])
        #expect(ride["powerZones"]?.objectValue?["seconds"]?.arrayValue?.compactMap(\.doubleValue) == [470, 311, 373, 545, 817, 1_608, 575])
        #expect(ride["laps"]?.arrayValue?.compactMap { $0.objectValue?["averageHeartRate"]?.intValue } == [139, 149, 162, 117, 163, 141, 165, 144])
        #expect(ride["splits"]?.arrayValue?.count == 42)
        #expect(ride["splitUnit"] == "km")
        let text = tally.run("record", "show", "1").stdout
        #expect(text.contains("Heart-rate zones (friel-lthr)\n"))
        #expect(text.contains("   1  < 146 bpm    19:51  26 %\n"))
        #expect(text.contains("  1  20:07   9.22 km  27.5 km/h  139     153  251 W\n"))
        #expect(text.contains(" 1 km  2:03  29.4 km/h  107      -13 m\n"))
        let miles = tally.run("record", "show", "1", "--miles")
        #expect(miles.stdout.contains("  1  20:07   5.73 mi  17.1 mph  139     153  251 W\n"))
        #expect(tally.run("record", "show", "1", "--miles", "--json").json?.objectValue?["detail"]?.objectValue?["splits"]?.arrayValue?.count == 26)
        // A record typed by hand has no detail.
        tally.run("record", "add", "Gym", "--category", "gym", "--duration", "1h")
        #expect(tally.run("record", "show", "3", "--json").json?.objectValue?["detail"] == .null)
    }
}
