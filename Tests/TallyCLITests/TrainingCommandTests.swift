import Foundation
import Testing
import TallyDomain
import TallyTestSupport
@testable import TallyEssentials

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
        // Each lap's height at its last point minus at its first, as python-fitparse reads the records inside the lap.
        #expect(ride["laps"]?.arrayValue?.compactMap { $0.objectValue?["elevationChange"]?.doubleValue } == [26.6, -54.2, -1.6, -21.6, 94.6, 1.4, -46.2, -1.8])
        #expect(ride["splits"]?.arrayValue?.count == 42)
        #expect(ride["splitUnit"] == "km")
        let text = tally.run("record", "show", "1").stdout
        #expect(text.contains("Heart-rate zones (friel-lthr)\n"))
        #expect(text.contains("   1  < 146 bpm    19:51  26 %\n"))
        #expect(text.contains("  1  20:07   9.22 km  27.5 km/h  139     153  251 W      +27 m\n"))
        #expect(text.contains(" 1 km  2:03  29.4 km/h  107      -13 m\n"))
        let miles = tally.run("record", "show", "1", "--miles")
        #expect(miles.stdout.contains("  1  20:07   5.73 mi  17.1 mph  139     153  251 W      +27 m\n"))
        #expect(tally.run("record", "show", "1", "--miles", "--json").json?.objectValue?["detail"]?.objectValue?["splits"]?.arrayValue?.count == 26)
        // A ride's laps and splits are speeds, and their column says so; a run's are paces.
        func headers(_ text: String) -> [String] {
            text.split(separator: "\n").map(String.init).filter { $0.hasPrefix("Lap ") || $0.hasPrefix("Split ") }
        }
        #expect(headers(text).count == 2 && headers(text).allSatisfy { $0.contains(" Speed ") && !$0.contains("Pace") }, "\(headers(text))")
        #expect(headers(miles.stdout).allSatisfy { $0.contains(" Speed ") })
        // A record typed by hand has no detail.
        tally.run("record", "add", "Gym", "--category", "gym", "--duration", "1h")
        #expect(tally.run("record", "show", "3", "--json").json?.objectValue?["detail"] == .null)
        tally.run("record", "import", Self.fixture("fenix2-run.fit"))
        let run = tally.run("record", "show", "4").stdout
        #expect(headers(run).count == 2 && headers(run).allSatisfy { $0.contains(" Pace ") && !$0.contains("Speed") }, "\(headers(run))")
    }

    @Test("a column of rides' speeds is headed Speed in record list, stats and record bests; with a run's pace among them, Pace")
    func speedColumns() throws {
        let tally = TallyRunner(now: "2026-11-21T12:00:00Z")
        tally.run("record", "add", "Ride", "--category", "cycling", "--duration", "1h", "--distance", "40km", "--date", "2026-11-18")
        tally.run("record", "add", "Gym", "--category", "gym", "--duration", "1h", "--date", "2026-11-19")
        func header(_ arguments: String...) -> String {
            String(tally.run(arguments).stdout.split(separator: "\n").first ?? "")
        }
        // A record without a distance shows no pace and does not count.
        for arguments in [["record", "list"], ["stats", "--category", "cycling"], ["stats", "--by", "category"], ["record", "bests"]] {
            let line = String(tally.run(arguments).stdout.split(separator: "\n").first ?? "")
            #expect(line.contains(" Speed") && !line.contains("Pace"), "\(arguments): \(line)")
        }
        tally.run("record", "add", "Run", "--category", "running", "--duration", "50m", "--distance", "10km", "--date", "2026-11-20")
        #expect(header("record", "bests", "--category", "cycling").contains(" Speed"))
        #expect(header("record", "list", "--category", "cycling").contains(" Speed"))
        #expect(header("stats", "--category", "cycling").contains(" Speed"))
        for line in [header("record", "list"), header("stats", "--by", "category"), header("record", "bests"), header("record", "list", "--category", "running")] {
            #expect(line.contains(" Pace") && !line.contains("Speed"), "\(line)")
        }
        // Over several sports stats shows no pace at all; its column keeps the name Pace.
        #expect(header("stats").contains(" Pace"))
    }

    /// The series Tests/Fixtures/load/expected_load.py computes from the published formulas: date, load, fitness, fatigue, form.
    static let expectedLoad: [(String, Double, Double, Double, Double)] = [
        ("2013-08-16", 155.0, 3.7, 22.1, 0.0), ("2013-08-17", 0.0, 3.6, 19.0, -18.5), ("2013-08-18", 420, 13.5, 76.3, -15.4),
        ("2013-08-19", 0.0, 13.2, 65.4, -62.8), ("2013-08-20", 225, 18.2, 88.2, -52.2), ("2013-08-21", 0.0, 17.8, 75.6, -69.9),
        ("2013-08-22", 0.0, 17.4, 64.8, -57.8), ("2013-08-23", 0.0, 17.0, 55.5, -47.4), ("2013-08-24", 0.0, 16.6, 47.6, -38.6),
        ("2013-08-25", 720, 33.3, 143.7, -31.0), ("2013-08-26", 0.0, 32.5, 123.1, -110.3), ("2013-08-27", 0.0, 31.7, 105.5, -90.6),
        ("2013-08-28", 0.0, 31.0, 90.5, -73.8), ("2013-08-29", 0.0, 30.3, 77.5, -59.5), ("2013-08-30", 0.0, 29.5, 66.5, -47.3),
        ("2013-08-31", 0.0, 28.8, 57.0, -36.9), ("2013-09-01", 240, 33.9, 83.1, -28.1), ("2013-09-02", 0.0, 33.0, 71.2, -49.3),
        ("2013-09-03", 0.0, 32.3, 61.1, -38.2), ("2013-09-04", 0.0, 31.5, 52.3, -28.8), ("2013-09-05", 0.0, 30.7, 44.9, -20.8),
        ("2013-09-06", 0.0, 30.0, 38.5, -14.1), ("2013-09-07", 0.0, 29.3, 33.0, -8.4), ("2013-09-08", 0.0, 28.6, 28.3, -3.7),
        ("2013-09-09", 0.0, 27.9, 24.2, 0.3), ("2013-09-10", 0.0, 27.3, 20.8, 3.7),
    ]

    @Test("load: TRIMP from heart rate with the settings of the activity's day, session RPE from --effort, the 42/7-day series against an independent computation")
    func load() throws {
        let tally = TallyRunner(now: "2026-11-21T12:00:00Z")
        tally.run("athlete", "set", "--max-hr", "190", "--resting-hr", "48", "--from", "2011-01-01")
        tally.run("athlete", "set", "--resting-hr", "50", "--from", "2013-01-01")
        tally.run("record", "import", Self.fixture("edge810-vector-ride.fit"))
        for (name, date, duration, effort) in [("Gym", "2013-08-18", "1h", "7"), ("Run", "2013-08-20", "45m", "5"), ("Ride", "2013-08-25", "2h", "6"), ("Intervals", "2013-09-01", "30m", "8")] {
            #expect(tally.run("record", "add", name, "--category", "other", "--duration", duration, "--date", date, "--effort", effort).status == 0)
        }
        tally.run("record", "add", "Walk", "--category", "walking", "--duration", "30m", "--date", "2013-08-22")
        let json = try #require(tally.run("load", "--from", "2013-08-14", "--to", "2013-09-10", "--json").json?.objectValue)
        let days = try #require(json["days"]?.arrayValue).compactMap(\.objectValue)
        #expect(days.count == 28)
        let computed = days.filter { ($0["date"]?.stringValue ?? "") >= "2013-08-16" }
        #expect(computed.count == Self.expectedLoad.count)
        for (day, expected) in zip(computed, Self.expectedLoad) {
            #expect(day["date"]?.stringValue == expected.0)
            let values = ["load", "fitness", "fatigue", "form"].map { day[$0]?.doubleValue ?? .nan }
            let wanted = [expected.1, expected.2, expected.3, expected.4]
            #expect(zip(values, wanted).allSatisfy { abs($0 - $1) <= 0.1 + 1e-9 }, "\(expected.0): \(values) against \(wanted)")
        }
        let methods = try #require(json["activities"]?.arrayValue).compactMap { $0.objectValue?["method"]?.stringValue }
        #expect(methods == ["trimp", "effort", "effort", "effort", "effort"])
        #expect(json["unscored"]?.arrayValue?.count == 1, "the walk without heart rate, power or effort has no load")
        let text = tally.run("load", "--from", "2013-08-14", "--to", "2013-09-10")
        #expect(text.status == 0)
        #expect(text.stdout.contains("2013-08-25   720       33      144   -31\n"))
        #expect(text.stdout.contains("1 activity has no load: no heart rate with resting and maximum heart rate, no power with FTP, no --effort.\n"))
        #expect(text.stdout.contains("fitness (42-day load)"))
        // A range without activities says so; --from after --to is refused.
        #expect(tally.run("load").stdout == "No training load in this range.\n")
        #expect(tally.run("load", "--from", "2013-09-10", "--to", "2013-08-14").status == 65)
        #expect(tally.run("load", "--from", "not a day").status == 65)
    }

    @Test("load: TSS from power with the FTP in force on each ride's day; a setting undone gives the older FTP back, --as-of too")
    func powerLoad() throws {
        let tally = TallyRunner(now: "2026-11-21T12:00:00Z")
        tally.run("record", "import", Self.fixture("indoor-trainer.fit"), Self.fixture("edge810-vector-ride.fit"))
        tally.run("athlete", "set", "--ftp", "200", "--from", "2011-01-01")
        // seconds × NP × (NP / FTP) / (FTP × 3600) × 100, by hand: the indoor ride of 2011 (2,262 s at NP 228)
        // on FTP 200 is 81.7, the Edge 810 ride of 2013 (4,700 s at NP 301) 295.7 on FTP 200 and 189.3 on 250.
        func loads(_ extra: String...) throws -> [Double] {
            let json = try #require(tally.run(["load", "--from", "2011-01-01", "--to", "2013-12-31", "--json"] + extra).json?.objectValue)
            let activities = try #require(json["activities"]?.arrayValue).compactMap(\.objectValue)
            #expect(activities.allSatisfy { $0["method"] == "tss" })
            return activities.compactMap { $0["load"]?.doubleValue }
        }
        #expect(try loads() == [81.7, 295.7])
        tally.run("athlete", "set", "--ftp", "250", "--from", "2013-01-01")
        #expect(try loads() == [81.7, 189.3], "the older ride keeps the older FTP")
        // Event 3 is the first setting (two records logged, then it): the log as it was then.
        #expect(try loads("--as-of", "@3") == [81.7, 295.7])
        tally.run("undo")
        #expect(try loads() == [81.7, 295.7])
    }

    @Test("load: an activity with heart rate but no settings for its day is said to lack the settings, not data")
    func unscoredForLackOfSettings() throws {
        let tally = TallyRunner(now: "2026-11-21T12:00:00Z")
        tally.run("record", "import", Self.fixture("edge810-vector-ride.fit"))
        tally.run("record", "add", "Walk", "--category", "walking", "--duration", "30m", "--date", "2013-08-17")
        // Settings from today only: the ride of 2013 had heart rate and power, but nothing was set for its day.
        tally.run("athlete", "set", "--max-hr", "190", "--resting-hr", "48", "--ftp", "250")
        let text = tally.run("load", "--from", "2013-08-14", "--to", "2013-08-20").stdout
        #expect(text == """
            No training load in this range.
            2 activities have no load: no heart rate with resting and maximum heart rate, no power with FTP, no --effort.
            1 of them has heart rate or power, but no resting and maximum heart rate or FTP is set for its day: 'tally athlete set --from DAY' sets them from an earlier day.
            1 of them has neither heart rate nor power: 'tally record edit N --effort 1-10' gives it a load from how hard it felt.

            """, "\(text)")
        let czech = tally.run(["load", "--from", "2013-08-14", "--to", "2013-08-20"], environment: ["LANG": "cs_CZ.UTF-8"]).stdout
        #expect(czech.contains("Z nich 1 má tep nebo výkon, ale pro její den není nastaven klidový a maximální tep ani FTP"), "\(czech)")
        #expect(czech.hasSuffix("Z nich 1 nemá tep ani výkon: 'tally record edit N --effort 1-10' jí dá zátěž podle toho, jak náročná byla.\n"), "\(czech)")
        // Dated back, the ride has its load and the walk alone is left, without the second line.
        tally.run("athlete", "set", "--max-hr", "190", "--resting-hr", "48", "--from", "2013-01-01")
        let after = tally.run("load", "--from", "2013-08-14", "--to", "2013-08-20").stdout
        #expect(after.hasSuffix("""

            1 activity has no load: no heart rate with resting and maximum heart rate, no power with FTP, no --effort.
            1 of them has neither heart rate nor power: 'tally record edit N --effort 1-10' gives it a load from how hard it felt.

            """), "\(after)")
        // The walk given an effort after the fact: every activity has a load, and nothing is said.
        #expect(tally.run("record", "edit", "2", "--effort", "3").status == 0)
        let scored = tally.run("load", "--from", "2013-08-14", "--to", "2013-08-20", "--json").json?.objectValue
        #expect(scored?["activities"]?.arrayValue?.compactMap { $0.objectValue?["method"]?.stringValue } == ["trimp", "effort"])
        #expect(scored?["unscored"] == .array([]))
        #expect(!tally.run("load", "--from", "2013-08-14", "--to", "2013-08-20").stdout.contains("no load"))
    }
}
