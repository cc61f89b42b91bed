import Foundation
import Testing
import TallyDomain
import TallyTestSupport

@Suite("calendar, summary and burndown, end to end", .tags(.postgresql))
struct TodoReportCommandTests {
    /// Todos added, completed and deleted on days of November 2026; "now" is Wednesday 25 November.
    func seeded() -> TallyRunner {
        let tally = TallyRunner(now: "2026-11-25T12:00:00Z")
        func at(_ day: Int, _ arguments: String...) {
            let result = tally.run(arguments, environment: ["TALLY_NOW": "2026-11-\(day < 10 ? "0" : "")\(day)T10:00:00Z"])
            #expect(result.status == 0, "\(arguments): \(result.stderr)")
        }
        at(2, "add", "Plan", "--project", "work", "--due", "2026-11-04")
        at(2, "add", "Draft", "--project", "work", "--due", "2026-11-10")
        at(3, "add", "Beds", "--project", "home.garden", "--due", "2026-11-25")
        at(4, "done", "1")
        at(9, "add", "Review", "--project", "work", "--due", "2026-11-25T15:00")
        at(16, "done", "2")
        at(17, "add", "Stray", "--due", "2026-11-18")
        at(18, "delete", "5")
        at(23, "add", "Call", "--tag", "phone", "--due", "2026-12-01")
        return tally
    }

    @Test("calendar draws the month with due and completed counts and today marked, in 77 columns")
    func calendar() {
        let tally = seeded()
        let result = tally.run("calendar")
        #expect(result.status == 0)
        #expect(result.stdout == """
            November 2026
            Mo         Tu         We         Th         Fr         Sa         Su
                                                                                1

              2          3          4          5          6          7          8
                                   !1 ✓1
              9         10         11         12         13         14         15
                        !1
             16         17         18         19         20         21         22
             ✓1
             23         24        [25]        26         27         28         29
                                   !2
             30


            4 due, 2 completed in 2026-11.
            !N due that day, ✓N completed that day, [D] today.

            """)
        #expect(result.stdout.split(separator: "\n").allSatisfy { $0.count <= 80 })
        let december = tally.run("--json", "calendar", "2026-12").json?.objectValue
        #expect(december?["month"] == "2026-12")
        #expect(december?["days"]?.arrayValue?.first == .object(["date": "2026-12-01", "due": 1, "completed": 0]))
        #expect(december?["days"]?.arrayValue?.count == 31)
        #expect(tally.run("calendar", "12").stdout.hasPrefix("December 2026\n"))
        #expect(tally.run("calendar", "+30d").stdout.hasPrefix("December 2026\n"))
        #expect(tally.run("calendar", "2027-02").stdout.contains(" 28\n"))
        // The days of a filter's todos only, and the state as it was.
        tally.run("context", "define", "home", "project:home")
        tally.run("context", "home")
        #expect(tally.run("calendar").stdout.contains("4 due") == false)
        #expect(tally.run("calendar").stdout.contains("1 due, 0 completed in 2026-11."))
        tally.run("context", "none")
        #expect(tally.run("calendar", "--as-of", "2026-11-03").stdout.contains("3 due, 0 completed in 2026-11."))
        let czech = tally.run(["calendar"], environment: ["LANG": "cs_CZ.UTF-8"]).stdout
        #expect(czech.hasPrefix("listopad 2026\nPo         Út         St         Čt         Pá         So         Ne\n"), "\(czech)")
        #expect(czech.contains("V měsíci 2026-11: 4 s termínem, 2 hotovo."))
        let ascii = tally.run(["calendar"], environment: ["LANG": "C"]).stdout
        #expect(ascii.contains("!1 +1") && !ascii.contains("✓"))
    }

    @Test("calendar refuses what is not a month with exit 65")
    func calendarRefusals() {
        let tally = seeded()
        for month in ["13", "0", "2026-13", "2026-1", "someday", "@3", "99999-01"] {
            let result = tally.run("calendar", month)
            #expect(result.status == 65, "\(month)")
            #expect(result.stderr == "Error: Invalid value '\(month)' for MONTH: expected YYYY-MM, a month number 1-12, or a date in the month.\n", "\(month)")
            #expect(result.stdout.isEmpty)
        }
        #expect(tally.run("calendar", "1", "2").status == 64)
    }

    @Test("summary lists projects with a bar and a total; a filter narrows it")
    func summary() {
        let tally = seeded()
        #expect(tally.run("summary").stdout == """
            Project       Open  Done  Done %  Progress
            home             1     0      0%
              garden         1     0      0%
            work             1     2     67%  █████████████▍
            (no project)     1     0      0%
            Total            3     2     40%  ████████

            """)
        let json = tally.run("--json", "summary", "project:work").json?.objectValue
        #expect(json?["total"] == .object(["open": 1, "done": 2, "shareDone": 0.667]))
        #expect(json?["projects"]?.arrayValue?.count == 1)
        #expect(tally.run("summary", "tag:nothing").stdout == "No todos to summarise.\n")
        #expect(tally.run("--json", "summary", "--as-of", "2026-11-03").json?.objectValue?["total"] == .object(["open": 3, "done": 0, "shareDone": 0]))
        #expect(tally.run(["summary"], environment: ["LANG": "C"]).stdout.contains("work             1     2     67%  #############\n"))
    }

    @Test("burndown counts open todos per week or day from the history, up to --as-of")
    func burndown() {
        let tally = seeded()
        let weekly = tally.run("--json", "burndown").json?.objectValue
        #expect(weekly?["step"] == "weekly")
        #expect(weekly?["points"] == .array([
            .object(["end": "2026-11-08", "open": 2, "added": 3, "closed": 1]),
            .object(["end": "2026-11-15", "open": 3, "added": 1, "closed": 0]),
            .object(["end": "2026-11-22", "open": 2, "added": 1, "closed": 1]),
            .object(["end": "2026-11-25", "open": 3, "added": 1, "closed": 0]),
        ]))
        let daily = tally.run("--json", "burndown", "--daily").json?.objectValue?["points"]?.arrayValue ?? []
        #expect(daily.count == 24)
        #expect(daily.first == .object(["end": "2026-11-02", "open": 2, "added": 2, "closed": 0]))
        #expect(daily.first { $0.objectValue?["end"] == "2026-11-17" }?.objectValue?["open"] == 3)
        #expect(daily.first { $0.objectValue?["end"] == "2026-11-18" }?.objectValue?["open"] == 2)
        let past = tally.run("--json", "burndown", "--daily", "--as-of", "2026-11-04").json?.objectValue?["points"]?.arrayValue
        #expect(past?.last == .object(["end": "2026-11-04", "open": 2, "added": 0, "closed": 1]))
        #expect(past?.count == 3)
        let work = tally.run("--json", "burndown", "project:work").json?.objectValue?["points"]?.arrayValue
        #expect(work?.last?.objectValue?["open"] == 1)
        let chart = tally.run("burndown")
        #expect(chart.status == 0)
        #expect(chart.stdout == """
            Open todos, by week to 2026-11-25
            3 │  █   █
              │  █   █
              │▃ █ ▃ █
              │█ █ █ █
              │█ █ █ █
              │█ █ █ █
              │█ █ █ █
            0 │█ █ █ █
              └────────
               2026-11-08 2026-11-25
            3 open now; 6 added and 2 closed in the periods shown.

            """)
        #expect(tally.run(["burndown"], environment: ["LANG": "C"]).stdout.contains("3 |  #   #\n"))
        let both = tally.run("burndown", "--daily", "--weekly")
        #expect(both.status == 64 && both.stdout.isEmpty)
        #expect(TallyRunner().run("burndown").stdout == "No todos in the history yet.\n")
    }
}
