import Foundation
import Testing
import TallyDomain
import TallyTestSupport

/// Recurring and waiting todos and the dates people type, through the built binary.
@Suite("Recurrence, waiting and natural dates, end to end")
struct RecurrenceCommandTests {
    /// The due dates of the todos `list --status all --json` shows, by title.
    func dues(_ tally: TallyRunner, _ title: String, open: Bool = false) -> [String] {
        guard case .array(let todos)? = tally.run("list", "--status", open ? "active" : "all", "--json").json else { return [] }
        return todos.compactMap(\.objectValue).filter { $0["title"]?.stringValue == title }.compactMap { $0["due"]?.stringValue }
    }

    func at(_ tally: TallyRunner, _ day: String, _ arguments: String...) -> RunResult {
        tally.run(arguments, environment: ["TALLY_NOW": day + "T18:00:00Z"])
    }

    @Test("a simulated year: a weekly chore, a monthly bill on the 31st and plants watered 3 days after the last time")
    func simulatedYear() throws {
        let tally = TallyRunner(now: "2026-01-01T09:00:00Z", zone: "Europe/Prague")
        #expect(tally.run("add", "Vacuum", "--due", "mon", "--recur", "weekly").stdout.contains("Added 1: Vacuum"))
        #expect(tally.run("add", "Pay rent", "--due", "2026-01-31", "--recur", "monthly", "--until", "2026-12-31").status == 0)
        #expect(tally.run("add", "Water plants", "--due", "today", "--recur", "3d", "--recur-from", "completion").status == 0)

        // The bill, paid on each due day: the last day of every shorter month, the 31st otherwise, and nothing after --until.
        var paid: [String] = []
        for _ in 0..<12 {
            let due = dues(tally, "Pay rent", open: true)[0]
            paid.append(due)
            let result = at(tally, due, "done", String(tally.run("list", "--status", "active", "--search", "rent", "--json").json!.arrayValue![0].objectValue!["number"]!.intValue!))
            #expect(result.status == 0)
        }
        #expect(paid == ["2026-01-31", "2026-02-28", "2026-03-31", "2026-04-30", "2026-05-31", "2026-06-30",
                         "2026-07-31", "2026-08-31", "2026-09-30", "2026-10-31", "2026-11-30", "2026-12-31"])
        #expect(dues(tally, "Pay rent", open: true).isEmpty)

        // The chore: done on time for three weeks, then forgotten until 18 February (a Wednesday).
        for day in ["2026-01-05", "2026-01-12", "2026-01-19", "2026-02-18"] {
            let number = tally.run("list", "--status", "active", "--search", "vacuum", "--json").json!.arrayValue![0].objectValue!["number"]!.intValue!
            #expect(at(tally, day, "done", String(number)).stdout.contains("Next"))
        }
        #expect(dues(tally, "Vacuum") == ["2026-01-05", "2026-01-12", "2026-01-19", "2026-01-26", "2026-02-23"])

        // The plants: 3 days after each watering, however late.
        for day in ["2026-01-01", "2026-01-06", "2026-01-07"] {
            let number = tally.run("list", "--status", "active", "--search", "plants", "--json").json!.arrayValue![0].objectValue!["number"]!.intValue!
            #expect(at(tally, day, "done", String(number)).status == 0)
        }
        #expect(dues(tally, "Water plants") == ["2026-01-01", "2026-01-04", "2026-01-09", "2026-01-10"])

        // One open instance per series, marked in the list.
        let list = at(tally, "2026-02-19", "list", "--status", "active")
        #expect(list.stdout.contains("[ ]↻  Vacuum") && list.stdout.contains("[ ]↻  Water plants"))
        #expect(list.stdout.hasSuffix("2 active, 0 completed\n"))
        #expect(tally.run("verify").status == 0)
    }

    @Test("completing an instance and its next one are one undo step; show tells the series")
    func undoAndShow() throws {
        let tally = TallyRunner(now: "2026-01-10T09:00:00Z")
        tally.run("add", "Pay rent", "--due", "2026-01-31", "--recur", "monthly")
        let done = tally.run("done", "1")
        #expect(done.stdout == "Completed 1: Pay rent\nNext 2: Pay rent, due 2026-02-28\n")
        let show = tally.run("show", "2")
        #expect(show.stdout.contains("Repeats    every month from the due date\n"))
        #expect(show.stdout.contains("Next       2026-03-31, 2026-04-30, 2026-05-31\n"))
        #expect(show.stdout.contains("Instances  1 [x]↻ 2026-01-31, 2 [ ]↻ 2026-02-28\n"))
        #expect(show.stdout.contains("repeats every month from the due date, first due 2026-01-31"))
        guard case .object(let shown)? = tally.run("show", "2", "--json").json, case .object(let series)? = shown["series"] else {
            Issue.record("no series in show --json"); return
        }
        #expect(series["every"] == "1m" && series["from"] == "due" && series["next"] == ["2026-03-31", "2026-04-30", "2026-05-31"])

        let undo = tally.run("undo")
        #expect(undo.status == 0)
        #expect(undo.stdout.contains("1: Pay rent: completed → active") && undo.stdout.contains("2: Pay rent: active → deleted"))
        #expect(dues(tally, "Pay rent", open: true) == ["2026-01-31"])
        #expect(tally.run("redo").status == 0)
        #expect(dues(tally, "Pay rent", open: true) == ["2026-02-28"])

        // edit --series changes the rule for what comes; delete --series ends it.
        #expect(tally.run("edit", "2", "--series", "--title", "Rent", "--recur", "2m").status == 0)
        #expect(tally.run("done", "2").stdout.contains("Next 3: Rent"))
        #expect(dues(tally, "Rent", open: true) == ["2026-03-31"])
        let end = tally.run("delete", "--series", "3")
        #expect(end.status == 0 && end.stdout.contains("series ended"))
        #expect(tally.run("list", "--status", "active").stdout.contains("No todos") || dues(tally, "Rent", open: true).isEmpty)
        #expect(tally.run("log", "--type", "series.ended").stdout.contains("series ended"))
    }

    @Test("waiting todos are hidden from list until their day, shown by --waiting and --status all, and counted in the footer")
    func waiting() throws {
        let tally = TallyRunner(now: "2026-11-18T09:00:00Z")
        tally.run("add", "Now")
        tally.run("add", "Later", "--wait", "fri")
        let list = tally.run("list")
        #expect(list.stdout == """
            #  Done  Title  Tags  Priority  Due
            1  [ ]   Now

            1 active, 0 completed, 1 waiting

            """)
        #expect(tally.run("list", "--waiting").stdout.contains("2  [ ]   Later"))
        #expect(tally.run("list", "--status", "all").stdout.contains("Later"))
        let friday = tally.run(["list"], environment: ["TALLY_NOW": "2026-11-20T00:00:00Z"])
        #expect(friday.stdout.contains("Later") && friday.stdout.hasSuffix("2 active, 0 completed\n"))
        #expect(tally.run("edit", "2", "--wait", "none").stdout.contains("Updated 2: Later"))
        #expect(tally.run("list").stdout.contains("Later"))
        let czech = tally.run(["list"], environment: ["LANG": "cs_CZ.UTF-8"])
        #expect(czech.status == 0)
        tally.run("edit", "2", "--wait", "za 2 týdny")
        #expect(tally.run(["list"], environment: ["LANG": "cs_CZ.UTF-8"]).stdout.hasSuffix("1 aktivní, 0 hotových, 1 čekající\n"))
    }

    @Test("dates people type store a day; hours and minutes an instant; ambiguity is refused with a suggestion")
    func naturalDates() throws {
        let tally = TallyRunner(now: "2026-11-18T14:30:00Z", zone: "Europe/Prague")
        let forms: [(String, String)] = [
            ("+3d", "2026-11-21"), ("tomorrow", "2026-11-19"), ("zítra", "2026-11-19"), ("fri", "2026-11-20"),
            ("pátek", "2026-11-20"), ("eow", "2026-11-22"), ("eom", "2026-11-30"), ("eoy", "2026-12-31"),
            ("in 3 days", "2026-11-21"), ("za 3 dny", "2026-11-21"), ("in 2 weeks", "2026-12-02"), ("konec měsíce", "2026-11-30"),
            ("+5h", "2026-11-18T19:30:00Z"), ("-30m", "2026-11-18T14:00:00Z"), ("za 2 hodiny", "2026-11-18T16:30:00Z"),
        ]
        for (index, (text, stored)) in forms.enumerated() {
            let result = tally.run("add", "T\(index)", "--due", text, "--json")
            #expect(result.json?.objectValue?["due"]?.stringValue == stored, "\(text)")
        }
        let refused = tally.run("add", "x", "--due", "next fri")
        #expect(refused.status == 65)
        #expect(refused.stderr.contains("write 'fri' for the next such day, or a date like 2026-11-20"))
        let czech = tally.run(["add", "x", "--due", "3/4/2026"], environment: ["LANG": "cs_CZ.UTF-8"])
        #expect(czech.status == 65 && czech.stderr.contains("Neplatné datum nebo čas '3/4/2026'") && czech.stderr.contains("pořadí dne a měsíce se v různých zemích liší; napište 2026-04-03 nebo 2026-03-04"))
        #expect(tally.eventCount == Int64(forms.count))
    }
}
