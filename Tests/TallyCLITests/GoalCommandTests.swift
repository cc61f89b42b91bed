import Foundation
import Testing
import TallyDomain
import TallyTestSupport
@testable import TallyEssentials

/// `tally goal` end to end on the built binary: progress, history, refusals, undo, time travel, export → import.
@Suite("goals: set, show, remove, end to end", .tags(.postgresql))
struct GoalCommandTests {
    static let now = "2026-11-21T12:00:00Z"

    /// Runs of 10 km in weeks 44-47 of 2026 and a ride.
    static func store() -> TallyRunner {
        let tally = TallyRunner(now: now)
        for date in ["2026-10-27", "2026-11-03", "2026-11-05", "2026-11-12", "2026-11-18", "2026-11-20"] {
            tally.run("record", "add", "Run", "--category", "running", "--duration", "40m", "--distance", "10km", "--date", date)
        }
        tally.run("record", "add", "Ride", "--category", "cycling", "--duration", "2h", "--distance", "60km", "--date", "2026-11-19")
        return tally
    }

    @Test("tally goal shows the current period, what is left, and past periods met or not")
    func show() throws {
        let tally = Self.store()
        let set = tally.run("goal", "set", "--per", "week", "--distance", "25km", "--category", "running", "--from", "2026-10-20")
        #expect(set.status == 0 && set.stdout == "Goal: Weekly distance (running): 25.00 km, counted from 2026-10-20\n")
        let shown = tally.run("goal")
        #expect(shown.status == 0 && shown.stderr.isEmpty)
        #expect(shown.stdout == """
            Weekly distance (running): 25.00 km
            2026-W47: 20.00 km done, 5.00 km to go (80 %), 2 days left
            Period        Done    Target  Met
            2026-W46  10.00 km  25.00 km  no
            2026-W45  20.00 km  25.00 km  no
            2026-W44  10.00 km  25.00 km  no
            2026-W43       0 m  25.00 km  no
            Met in 0 of the 4 periods shown (4 past periods in all).

            """)
        tally.run("goal", "set", "--per", "week", "--distance", "15km", "--category", "running")
        let again = tally.run("goal", "show", "--periods", "2", "--miles")
        #expect(again.stdout.contains("2026-W47: 12.43 mi done, the goal is met (133 %), 2 days left"))
        #expect(again.stdout.contains("Met in 1 of the 2 periods shown (4 past periods in all)."))
        let json = try #require(tally.run("--json", "goal").json?.objectValue?["goals"]?.arrayValue?.first?.objectValue)
        #expect(json["target"] == .int(15_000) && json["from"] == .string("2026-10-20") && json["pastPeriods"] == .int(4))
        #expect(json["current"]?.objectValue?["done"] == .int(20_000) && json["current"]?.objectValue?["met"] == .bool(true))
        #expect(json["history"]?.arrayValue?.compactMap { $0.objectValue?["met"] } == [.bool(false), .bool(true), .bool(false), .bool(false)])
        tally.run("goal", "set", "--per", "month", "--time", "5h")
        tally.run("goal", "set", "--per", "year", "--count", "200")
        let all = tally.run("goal").stdout
        #expect(all.contains("Monthly time: 5:00:00\n2026-11: 5:20:00 done, the goal is met (106 %), 10 days left"))
        #expect(all.contains("Yearly count: 200\n2026: 7 done, 193 to go (3 %), 41 days left"))
        #expect(tally.run("verify").status == 0)
    }

    @Test("refusals exit 64, 65 or 1 with a clear message and append nothing")
    func refusals() throws {
        let tally = Self.store()
        let before = tally.eventCount
        let cases: [([String], Int32, String)] = [
            (["goal", "set", "--per", "week"], 64, "Error: Give the target: --distance, --time or --count.\n"),
            (["goal", "set", "--per", "fortnight", "--count", "2"], 64, "Error: "),
            (["goal", "set", "--distance", "5km"], 64, "Error: "),
            (["goal", "set", "--per", "week", "--count", "2", "--time", "1h"], 64, "Error: Options '--time' and '--count' cannot be used together.\n"),
            (["goal", "set", "--per", "week", "--count", "0"], 65, "Error: --count must be a whole number from 1 to 10000, not '0'\n"),
            (["goal", "set", "--per", "week", "--distance", "10m"], 65, "Error: Nothing was changed: a value is outside tally's limits (a distance goal is from 100 m to 100,000 km).\n"),
            (["goal", "set", "--per", "week", "--distance", "ten"], 65, "Error: "),
            (["goal", "set", "--per", "week", "--count", "3", "--category", "Not valid"], 65, "Error: "),
            (["goal", "remove", "--per", "week", "--metric", "count"], 1, "Error: No goal is set for week count.\n"),
            (["goal", "show", "--periods", "-1"], 65, "Error: "),
        ]
        for (arguments, status, stderr) in cases {
            let result = tally.run(arguments)
            #expect(result.status == status, "\(arguments): \(result.stderr)")
            #expect(result.stderr.hasPrefix(stderr), "\(arguments): \(result.stderr)")
            #expect(result.stdout.isEmpty)
        }
        #expect(tally.eventCount == before)
        let same = tally.run("goal", "set", "--per", "week", "--count", "3")
        #expect(same.status == 0)
        #expect(tally.run("goal", "set", "--per", "week", "--count", "3").stdout == "The goal is already this.\n")
        #expect(tally.eventCount == before + 1)
    }

    @Test("remove, undo and redo; --as-of shows the goals as they were; export → import keeps them")
    func removeUndoAsOf() throws {
        let tally = Self.store()
        tally.run("goal", "set", "--per", "week", "--count", "2")
        let seq = tally.eventCount
        let removed = tally.run("goal", "rm", "--per", "week", "--metric", "count")
        #expect(removed.status == 0 && removed.stdout == "goal removed: week count\n")
        // Czech output names the period and the measure in Czech, in the history and in a refusal.
        let czech = ["LANG": "cs_CZ.UTF-8"]
        #expect(tally.run(["log", "--limit", "1"], environment: czech).stdout.contains("cíl odebrán: týden počet"))
        let missing = tally.run(["goal", "rm", "--per", "month", "--metric", "distance", "--category", "running"], environment: czech)
        #expect(missing.status == 1 && missing.stderr.contains("měsíc vzdálenost (running)"), "\(missing.stderr)")
        #expect(tally.run("goal").stdout == "No goals yet: set one with 'tally goal set --per week --distance 40km'.\n")
        #expect(tally.run("goal", "show", "--as-of", "@\(seq)").stdout.hasPrefix("Weekly count: 2\n"))
        // `goal` alone is `goal show`, options included.
        let short = tally.run("goal", "--as-of", "@\(seq)")
        #expect(short.status == 0 && short.stdout == tally.run("goal", "show", "--as-of", "@\(seq)").stdout, "\(short.stderr)")
        let undo = tally.run("undo")
        #expect(undo.stdout.contains("goal: - → Weekly count: 2"))
        #expect(tally.run("goal").stdout.hasPrefix("Weekly count: 2\n2026-W47: 3 done, the goal is met (150 %), 2 days left"))
        let path = tally.directory.path("export.jsonl")
        try tally.run("export").stdout.write(toFile: path, atomically: true, encoding: .utf8)
        let other = TallyRunner(now: Self.now)
        #expect(other.run("import", path).status == 0)
        #expect(other.run("goal").stdout == tally.run("goal").stdout)
        #expect(other.run("verify").status == 0)
    }

    /// Two runs in every week of 2026 from W02 to W13 (three in W08), then a weekly running count goal
    /// of 2 set on Wed of W06 from 2026-01-05, raised to 3 on Wed of W08, removed on Wed of W10 and
    /// set to 2 again on Wed of W12, each command at its own time.
    static func changedGoal(_ run: (String, [String]) -> Void) {
        var steps: [(String, [String])] = [
            ("2026-02-04T12:00:00Z", ["goal", "set", "--per", "week", "--count", "2", "--category", "running", "--from", "2026-01-05"]),
            ("2026-02-18T12:00:00Z", ["goal", "set", "--per", "week", "--count", "3", "--category", "running"]),
            ("2026-03-04T12:00:00Z", ["goal", "rm", "--per", "week", "--metric", "count", "--category", "running"]),
            ("2026-03-18T12:00:00Z", ["goal", "set", "--per", "week", "--count", "2", "--category", "running", "--from", "2026-01-05"]),
        ]
        var monday = LocalDate.parse("2026-01-05")!
        while monday <= LocalDate.parse("2026-03-23")! {
            for offset in monday.description == "2026-02-16" ? [0, 1, 2] : [0, 1] {
                let date = monday.adding(days: offset).description
                steps.append(("\(date)T19:00:00Z", ["record", "add", "Run", "--category", "running", "--duration", "30m", "--distance", "5km", "--date", date]))
            }
            monday = monday.adding(days: 7)
        }
        // In the order of time, as they would have been typed.
        for (now, arguments) in steps.sorted(by: { $0.0 < $1.0 }) { run(now, arguments) }
    }

    static let changedShown = """
        Weekly count (running): 2
        2026-W13: 2 done, the goal is met (100 %), 5 days left
        Period    Done  Target  Met
        2026-W12     2       2  yes
        2026-W11     2       -  -
        2026-W10     2       -  -
        2026-W09     2       3  no
        2026-W08     3       3  yes
        2026-W07     2       2  yes
        2026-W06     2       2  yes
        2026-W05     2       2  yes
        2026-W04     2       2  yes
        2026-W03     2       2  yes
        2026-W02     2       2  yes
        Met in 8 of the 11 periods shown (11 past periods in all).

        """

    @Test("past periods are judged by the target in force at their end; a removal leaves a gap; undo, --as-of, export → import keep it")
    func targetHistory() throws {
        let tally = TallyRunner(now: "2026-03-25T12:00:00Z")
        Self.changedGoal { now, arguments in
            let result = tally.run(arguments, environment: ["TALLY_NOW": now])
            #expect(result.status == 0, "\(arguments): \(result.stderr)")
        }
        let shown = tally.run("goal", "show", "--periods", "20")
        #expect(shown.status == 0 && shown.stderr.isEmpty)
        #expect(shown.stdout == Self.changedShown)
        let json = try #require(tally.run("--json", "goal", "show", "--periods", "20").json?.objectValue?["goals"]?.arrayValue?.first?.objectValue)
        let history = (json["history"]?.arrayValue ?? []).compactMap { $0.objectValue }
        #expect(history.count == 11)
        #expect(history.map { $0["target"] } == [.int(2), .null, .null, .int(3), .int(3), .int(2), .int(2), .int(2), .int(2), .int(2), .int(2)])
        #expect(history.map { $0["met"] } == [.bool(true), .null, .null, .bool(false), .bool(true)] + Array(repeating: .bool(true), count: 6))
        #expect(history[3]["left"] == .int(1) && history[1]["left"] == .null && history[1]["done"] == .int(2))

        // A change this week and its undo leave every period as it was.
        let before = tally.eventCount
        #expect(tally.run(["goal", "set", "--per", "week", "--count", "4", "--category", "running"], environment: ["TALLY_NOW": "2026-03-25T13:00:00Z"]).status == 0)
        #expect(tally.run(["goal"], environment: ["TALLY_NOW": "2026-03-25T13:01:00Z"]).stdout.hasPrefix("Weekly count (running): 4\n2026-W13: 2 done, 2 to go (50 %)"))
        #expect(tally.run(["undo"], environment: ["TALLY_NOW": "2026-03-25T13:05:00Z"]).status == 0)
        #expect(tally.eventCount == before + 3)
        #expect(tally.run("goal", "show", "--periods", "20").stdout == Self.changedShown)

        // Time travel to the last day of W08: the week is current, judged by the target of that day,
        // and the weeks before it read as they do today.
        let then = tally.run("goal", "show", "--periods", "3", "--as-of", "2026-02-22")
        #expect(then.stdout == """
            Weekly count (running): 3
            2026-W08: 3 done, the goal is met (100 %), 1 day left
            Period    Done  Target  Met
            2026-W07     2       2  yes
            2026-W06     2       2  yes
            2026-W05     2       2  yes
            Met in 3 of the 3 periods shown (6 past periods in all).

            """)
        #expect(tally.run("goal", "show", "--as-of", "2026-03-08").stdout.hasPrefix("No goals yet"))

        // Export → import keeps each change's time, so the history reads the same.
        let path = tally.directory.path("export.jsonl")
        try tally.run("export").stdout.write(toFile: path, atomically: true, encoding: .utf8)
        let other = TallyRunner(now: "2026-03-25T12:00:00Z")
        #expect(other.run("import", path).status == 0)
        #expect(other.run("goal", "show", "--periods", "20").stdout == Self.changedShown)
        #expect(other.run("verify").status == 0)
        #expect(tally.run("verify").status == 0)
    }

    @Test("sync carries the dated targets: a replica judges every past period as the device that changed them", arguments: SharedLogKind.available)
    func targetHistorySynced(kind: SharedLogKind) throws {
        guard !TallyRunner.onPostgres else { return }
        let fleet = Fleet(["laptop", "phone"], kind: kind)
        Self.changedGoal { now, arguments in
            #expect(fleet[0].run(arguments, environment: ["TALLY_NOW": now]).status == 0, "\(arguments)")
        }
        #expect(fleet.sync(0, at: "2026-03-25T10:00:00Z").status == 0)
        #expect(fleet.sync(1, at: "2026-03-25T10:01:00Z").status == 0)
        let shown = fleet[1].run(["goal", "show", "--periods", "20"], environment: ["TALLY_NOW": "2026-03-25T12:00:00Z"])
        #expect(shown.status == 0 && shown.stdout == Self.changedShown)
        #expect(fleet[1].run("verify").status == 0)
    }
}
