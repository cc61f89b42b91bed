import Foundation
import Testing
import TallyDomain
import TallyTestSupport
import TallyEssentials

@Suite("annotations and time on a todo: annotate, denotate, start, stop, time, end to end", .tags(.postgresql))
struct TimeCommandTests {
    static func at(_ time: String) -> [String: String] { ["TALLY_NOW": "2026-11-\(time)Z"] }

    /// Three todos in two projects: 1 home.garden +shop, 2 work, 3 no project.
    func seeded() -> TallyRunner {
        let tally = TallyRunner()
        tally.run("add", "Buy paint", "--project", "home.garden", "--tag", "shop")
        tally.run("add", "Write report", "--project", "work")
        tally.run("add", "Read")
        return tally
    }

    func todo(_ tally: TallyRunner, _ ref: String, _ arguments: [String] = []) -> JSONObject? {
        tally.run(["--json", "show", ref] + arguments).json?.objectValue?["todo"]?.objectValue
    }

    func annotations(_ tally: TallyRunner, _ ref: String, _ arguments: [String] = []) -> [String] {
        todo(tally, ref, arguments)?["annotations"]?.arrayValue?.compactMap { $0.objectValue?["text"]?.stringValue } ?? []
    }

    func intervals(_ tally: TallyRunner, _ ref: String, _ arguments: [String] = []) -> [String] {
        (todo(tally, ref, arguments)?["intervals"]?.arrayValue ?? []).map { interval in
            let object = interval.objectValue
            return "\(object?["start"]?.stringValue ?? "?")/\(object?["end"]?.stringValue ?? "running")"
        }
    }

    @Test("annotate adds dated, attributed notes that accumulate; show, --json and filter words find them")
    func annotate() {
        let tally = seeded()
        let first = tally.run(["annotate", "1", "Called", "the", "shop,", "open at 9"], environment: Self.at("21T12:05:00"))
        #expect(first.status == 0)
        #expect(first.stdout == "Annotated 1: Buy paint: annotated 'Called the shop, open at 9'\n")
        tally.run(["annotate", "1", "  Čeština   ✓ "], environment: Self.at("21T13:00:00").merging(["TALLY_ACTOR": "bob@phone"]) { $1 })
        #expect(annotations(tally, "1") == ["Called the shop, open at 9", "Čeština   ✓"])
        let shown = tally.run("show", "1").stdout
        #expect(shown.contains("""
            Annotations
              1  2026-11-21 12:05  \(tally.who("tester@e2e"))  Called the shop, open at 9
              2  2026-11-21 13:00  \(tally.who("bob@phone"))   Čeština   ✓
            """), "\(shown)")
        #expect(shown.contains("\(tally.who("tester@e2e"))  annotated 'Called the shop, open at 9'"))
        let json = todo(tally, "1")?["annotations"]?.arrayValue?.first?.objectValue
        #expect(json?["at"]?.stringValue == "2026-11-21T12:05:00Z")
        #expect(json?["id"]?.stringValue?.count == 36)
        // Filter words and --search look in annotations too.
        #expect(tally.listNumbers(["\"open at 9\""]) == [1])
        #expect(tally.listNumbers(["čeština"]) == [1])
        #expect(tally.listNumbers(["--search", "SHOP,"]) == [1])
        #expect(tally.listNumbers(["not", "open"]) == [2, 3])
        #expect(tally.run("verify").status == 0)
    }

    @Test("bad annotations are refused with exit 65 and nothing appended; deleted and unknown todos too")
    func annotateRefusals() {
        let tally = seeded()
        tally.run("rm", "3")
        let count = tally.eventCount
        let empty = tally.run("annotate", "1", "   ")
        #expect(empty.status == 65 && empty.stderr == "Error: An annotation needs some text.\n")
        let missing = tally.run("annotate", "1")
        #expect(missing.status == 64)
        #expect(tally.run("annotate", "1", "tab\there").status == 65)
        #expect(tally.run("annotate", "1", String(repeating: "x", count: 1001)).status == 65)
        #expect(tally.run("annotate", "1", String(repeating: "é", count: 1000)).status == 0)
        #expect(tally.run("annotate", "3", "gone").stderr.contains("Todo 3 is deleted"))
        #expect(tally.run("annotate", "99", "nobody").status == 1)
        let noSuch = tally.run("denotate", "2", "1")
        #expect(noSuch.status == 65)
        #expect(noSuch.stderr == "Error: Todo 2 has no annotation 1 (it has 0; 'tally show 2' numbers them).\n")
        #expect(tally.run("denotate", "1", "x").status == 65)
        #expect(tally.run("denotate", "1", "2").status == 65)
        #expect(tally.eventCount == count + 1)
    }

    @Test("denotate takes one off as an event; undo, redo, --as-of and revert bring the right ones back")
    func denotateAndHistory() {
        let tally = seeded()
        tally.run(["annotate", "1", "first"], environment: Self.at("21T12:01:00"))
        tally.run(["annotate", "1", "second"], environment: Self.at("21T12:02:00"))
        let seq = tally.eventCount
        #expect(tally.run(["denotate", "1", "1"], environment: Self.at("21T12:03:00")).stdout == "Annotation removed from 1: Buy paint\n")
        #expect(annotations(tally, "1") == ["second"])
        #expect(tally.listNumbers(["first"]) == [])
        #expect(annotations(tally, "1", ["--as-of", "@\(seq)"]) == ["first", "second"])
        #expect(annotations(tally, "1", ["--as-of", "2026-11-21T12:01:30"]) == ["first"])
        let undo = tally.run("undo")
        #expect(undo.stdout.contains("annotations: 1 → 2"), "\(undo.stdout)")
        // Back in its place, with its own date.
        #expect(annotations(tally, "1") == ["first", "second"])
        #expect(todo(tally, "1")?["annotations"]?.arrayValue?.first?.objectValue?["at"]?.stringValue == "2026-11-21T12:01:00Z")
        tally.run("redo")
        #expect(annotations(tally, "1") == ["second"])
        tally.run("undo")
        tally.run("undo")
        #expect(annotations(tally, "1") == ["first"])
        #expect(tally.run("revert", "--to", "@\(seq - 2)").status == 0)
        #expect(annotations(tally, "1") == [])
        #expect(tally.run("verify").status == 0)
    }

    @Test("start and stop keep intervals; one runs at a time unless --also; done and delete stop; notices for no-ops")
    func startStop() {
        let tally = seeded()
        #expect(tally.run(["start", "1"], environment: Self.at("21T09:00:00")).stdout == "Started 1: Buy paint\n")
        let second = tally.run(["start", "2"], environment: Self.at("21T09:40:00"))
        #expect(second.stdout == "Stopped 1: Buy paint (40m)\nStarted 2: Write report\n", "\(second.stdout)")
        #expect(tally.run(["start", "3", "--also"], environment: Self.at("21T10:00:00")).stdout == "Started 3: Read\n")
        let again = tally.run(["start", "3"], environment: Self.at("21T10:05:00"))
        #expect(again.stdout == "Stopped 2: Write report (25m)\nTodo 3 is running already (since 2026-11-21 10:00); nothing changed.\n", "\(again.stdout)")
        #expect(tally.run(["done", "3"], environment: Self.at("21T11:30:00")).stdout == "Completed 3: Read\nStopped 3: Read (1h 30m)\n")
        #expect(tally.run(["stop"], environment: Self.at("21T11:31:00")).stdout == "Nothing is running; nothing changed.\n")
        #expect(tally.run(["stop", "2"], environment: Self.at("21T11:31:00")).stdout == "Todo 2 is not running; nothing changed.\n")
        #expect(intervals(tally, "1") == ["2026-11-21T09:00:00Z/2026-11-21T09:40:00Z"])
        #expect(intervals(tally, "3") == ["2026-11-21T10:00:00Z/2026-11-21T11:30:00Z"])
        let started = tally.run(["start", "3"], environment: Self.at("21T11:32:00"))
        #expect(started.status == 65 && started.stderr == "Error: Todo 3 is completed; 'tally reopen 3' first.\n")
        let shown = tally.run(["show", "3"], environment: Self.at("21T12:00:00")).stdout
        #expect(shown.contains("Time\n  1h 30m in 1 interval\n  2026-11-21 10:00 – 2026-11-21 11:30  1h 30m\n"), "\(shown)")
        #expect(tally.run("verify").status == 0)
    }

    @Test("--at: a start or stop in the past; later than now, before its start or inside earlier time is refused")
    func at() {
        let tally = seeded()
        #expect(tally.run(["start", "1", "--at", "2026-11-21T08:15"], environment: Self.at("21T09:00:00")).status == 0)
        let count = tally.eventCount
        let future = tally.run(["stop", "1", "--at", "2026-11-21T09:30"], environment: Self.at("21T09:00:00"))
        #expect(future.status == 65 && future.stderr.hasPrefix("Error: '2026-11-21T09:30' cannot be used"), "\(future.stderr)")
        #expect(tally.run(["stop", "1", "--at", "2026-11-21T08:00"], environment: Self.at("21T09:00:00")).status == 65)
        #expect(tally.run(["stop", "--at", "yesterday-ish"], environment: Self.at("21T09:00:00")).status == 65)
        #expect(tally.eventCount == count)
        #expect(tally.run(["stop", "--at", "2026-11-21T08:45"], environment: Self.at("21T09:00:00")).stdout == "Stopped 1: Buy paint (30m)\n")
        #expect(tally.run(["start", "1", "--at", "2026-11-21T08:30"], environment: Self.at("21T09:00:00")).status == 65)
        #expect(intervals(tally, "1") == ["2026-11-21T08:15:00Z/2026-11-21T08:45:00Z"])
    }

    @Test("undo and redo of start, stop and done put the clock back; --as-of shows what ran then")
    func undoRedo() {
        let tally = seeded()
        tally.run(["start", "1"], environment: Self.at("21T13:00:00"))
        #expect(tally.run(["stop"], environment: Self.at("21T13:30:00")).status == 0)
        tally.run(["undo"], environment: Self.at("21T13:31:00"))
        #expect(intervals(tally, "1") == ["2026-11-21T13:00:00Z/running"])
        tally.run(["redo"], environment: Self.at("21T13:32:00"))
        #expect(intervals(tally, "1") == ["2026-11-21T13:00:00Z/2026-11-21T13:30:00Z"])
        tally.run(["undo"], environment: Self.at("21T13:33:00"))
        tally.run(["undo"], environment: Self.at("21T13:34:00"))
        #expect(intervals(tally, "1") == [])
        tally.run(["redo"], environment: Self.at("21T13:35:00"))
        #expect(intervals(tally, "1") == ["2026-11-21T13:00:00Z/running"])
        #expect(intervals(tally, "1", ["--as-of", "2026-11-21T13:20"]) == ["2026-11-21T13:00:00Z/running"])
        #expect(intervals(tally, "1", ["--as-of", "2026-11-21T13:30:30"]) == ["2026-11-21T13:00:00Z/2026-11-21T13:30:00Z"])
        #expect(intervals(tally, "1", ["--as-of", "2026-11-21T12:59"]) == [])
        // done stops it in the same command: one undo reopens and runs it again.
        tally.run(["done", "1"], environment: Self.at("21T14:00:00"))
        tally.run(["undo"], environment: Self.at("21T14:01:00"))
        #expect(intervals(tally, "1") == ["2026-11-21T13:00:00Z/running"])
        #expect(tally.run("verify").status == 0)
    }

    @Test("time sums by project (sub-projects in their parents) and tag, this week or month, filtered; running counts to now")
    func timeSummary() {
        let tally = seeded()
        // 2026-11-21 is a Saturday: the week began on Monday 16 November.
        tally.run(["start", "1", "--at", "2026-11-14T09:00"], environment: Self.at("21T08:00:00"))
        tally.run(["stop", "--at", "2026-11-14T10:00"], environment: Self.at("21T08:00:00"))
        tally.run(["start", "1", "--at", "2026-11-20T09:00"], environment: Self.at("21T08:00:00"))
        tally.run(["stop", "--at", "2026-11-20T09:45"], environment: Self.at("21T08:00:00"))
        tally.run(["start", "2"], environment: Self.at("21T11:00:00"))
        let week = tally.run(["time", "--week"], environment: Self.at("21T12:30:00"))
        #expect(week.stdout == """
            Time on todos from 2026-11-16 to 2026-11-22:

            Project     Time
            home         45m
              garden     45m
            work      1h 30m

            Tag         Time
            shop         45m
            (no tag)  1h 30m

            Total  2h 15m
            Running: 2: Write report running since 2026-11-21 11:00 (1h 30m)

            """, "\(week.stdout)")
        let json = tally.run(["--json", "time", "--month", "project:home"], environment: Self.at("21T12:30:00")).json?.objectValue
        #expect(json?["totalSeconds"]?.intValue == 6300)
        #expect(json?["from"]?.stringValue == "2026-11-01T00:00:00Z" && json?["to"]?.stringValue == "2026-12-01T00:00:00Z")
        #expect(json?["projects"]?.arrayValue?.count == 2)
        let all = tally.run(["--json", "time"], environment: Self.at("21T12:30:00")).json?.objectValue
        #expect(all?["totalSeconds"] == .int(11_700))
        #expect(tally.run(["time", "--week", "--month"]).status == 64)
        #expect(tally.run(["time", "--week", "tag:"]).status == 65)
        #expect(tally.run(["time", "project:nothing"]).stdout == "No time on todos so far.\n")
    }

    @Test("--as-of: what ran then counts up to then, and this week is that week; show's lengths too")
    func timeAsOf() {
        let tally = TallyRunner(now: "2026-11-20T08:00:00Z")
        tally.run("add", "Buy paint", "--project", "home.garden")
        // Started on Friday 20 November at 09:00, still running on Saturday 21 at 12:30.
        tally.run(["start", "1"], environment: Self.at("20T09:00:00"))
        tally.run(["add", "Later"], environment: Self.at("20T10:00:00"))
        let then = tally.run(["--json", "time", "--as-of", "2026-11-20T10:30"], environment: Self.at("21T12:30:00")).json?.objectValue
        #expect(then?["totalSeconds"] == .int(5400), "\(String(describing: then))")
        #expect(tally.run(["--json", "time"], environment: Self.at("21T12:30:00")).json?.objectValue?["totalSeconds"] == .int(99_000))
        // @3 is the add recorded at 10:00: an hour had run.
        let position = tally.run(["time", "--as-of", "@3"], environment: Self.at("21T12:30:00")).stdout
        #expect(position.hasSuffix("Running: 1: Buy paint running since 2026-11-20 09:00 (1h 00m)\n"), "\(position)")
        // The week of the --as-of instant: Monday 9 to Sunday 15 November, before anything ran.
        let earlier = tally.run(["--json", "time", "--week", "--as-of", "2026-11-14T12:00"], environment: Self.at("21T12:30:00")).json?.objectValue
        #expect(earlier?["from"] == "2026-11-09T00:00:00Z" && earlier?["totalSeconds"] == .int(0))
        let show = tally.run(["show", "1", "--as-of", "2026-11-20T10:30"], environment: Self.at("21T12:30:00")).stdout
        #expect(show.contains("1h 30m in 1 interval\n  2026-11-20 09:00 – running  1h 30m\n"), "\(show)")
    }

    @Test("annotations and intervals survive export, import, a snapshot and rebuild")
    func roundTrip() {
        let tally = seeded()
        tally.run(["annotate", "2", "draft sent"], environment: Self.at("21T09:00:00"))
        tally.run(["start", "2"], environment: Self.at("21T09:05:00"))
        tally.run(["stop"], environment: Self.at("21T09:50:00"))
        tally.run(["start", "1"], environment: Self.at("21T10:00:00"))
        #expect(tally.run("snapshot").status == 0)
        let exported = tally.run("export")
        let target = TallyRunner()
        #expect(target.run(["import", "-"], input: exported.stdout).status == 0)
        #expect(target.run("export").stdout == exported.stdout)
        for ref in ["1", "2"] {
            #expect(todo(target, ref) == todo(tally, ref))
        }
        #expect(tally.run("rebuild").status == 0)
        #expect(intervals(tally, "2") == ["2026-11-21T09:05:00Z/2026-11-21T09:50:00Z"])
        #expect(intervals(tally, "1") == ["2026-11-21T10:00:00Z/running"])
        // A hostile export: a stop before its start, an annotation with a line break, an id that is not one.
        for (from, to, reason) in [
            ("\"text\":\"draft sent\"", "\"text\":\"draft\\nsent\"", "field 'text' of an annotation"),
            ("\"at\":\"2026-11-21T10:00:00Z\"}", "\"at\":\"2026-11-21T10:00:00Z\",\"end\":\"2026-11-21T09:00:00Z\"}", "field 'end' is before 'at'"),
        ] {
            let bad = exported.stdout.replacingOccurrences(of: from, with: to)
            #expect(bad != exported.stdout, "\(from)")
            let refused = TallyRunner().run(["import", "-"], input: bad)
            #expect(refused.status == 65 && refused.stderr.contains(reason), "\(refused.stderr)")
        }
        #expect(target.run("verify").status == 0)
    }

    @Test("two devices: a start on both is one interval (the first synced stands), a stop on either closes it, annotations from both accumulate")
    func sync() {
        guard !TallyRunner.onPostgres else { return }
        let fleet = Fleet(["laptop", "desktop"])
        fleet[0].run("add", "A")
        fleet.sync(0, at: "2026-11-21T12:01:00Z")
        fleet.sync(1, at: "2026-11-21T12:02:00Z")
        #expect(fleet.run(0, at: "2026-11-21T12:03:00Z", "start", "1").status == 0)
        #expect(fleet.run(1, at: "2026-11-21T12:04:00Z", "start", "1").status == 0)
        #expect(fleet.run(0, at: "2026-11-21T12:05:00Z", "annotate", "1", "from the laptop").status == 0)
        #expect(fleet.run(1, at: "2026-11-21T12:06:00Z", "annotate", "1", "from the desktop").status == 0)
        #expect(fleet.sync(0, at: "2026-11-21T12:07:00Z").status == 0)
        let later = fleet.sync(1, at: "2026-11-21T12:08:00Z")
        #expect(later.status == 0)
        #expect(later.stdout.contains("todo 1 'A': your started"), "\(later.stdout)")
        fleet.sync(0, at: "2026-11-21T12:09:00Z")
        for device in 0..<2 {
            #expect(intervals(fleet[device], "1") == ["2026-11-21T12:03:00Z/running"])
            #expect(annotations(fleet[device], "1") == ["from the laptop", "from the desktop"])
        }
        // Left running on the laptop (a crash, or a forgotten stop): the desktop sees it running with its age, and stops it.
        let shown = fleet.run(1, at: "2026-11-21T14:03:00Z", "show", "1").stdout
        #expect(shown.contains("2026-11-21 12:03 – running  2h 00m"), "\(shown)")
        #expect(fleet.run(1, at: "2026-11-21T14:04:00Z", "stop").stdout == "Stopped 1: A (2h 01m)\n")
        #expect(fleet.run(0, at: "2026-11-21T14:05:00Z", "stop").status == 0)
        fleet.sync(1, at: "2026-11-21T14:06:00Z")
        let second = fleet.sync(0, at: "2026-11-21T14:07:00Z")
        #expect(second.stdout.contains("your stopped"), "\(second.stdout)")
        fleet.sync(1, at: "2026-11-21T14:08:00Z")
        for device in 0..<2 {
            #expect(intervals(fleet[device], "1") == ["2026-11-21T12:03:00Z/2026-11-21T14:04:00Z"])
            #expect(fleet[device].run("verify").status == 0)
        }
    }

    @Test("Taskwarrior annotations and start arrive as annotations (with their dates) and a running interval")
    func taskwarriorImport() throws {
        let tally = TallyRunner()
        let file = tally.directory.path("tasks.json")
        try """
            [{"uuid":"11111111-1111-4111-8111-111111111111","description":"Paint fence","status":"pending","entry":"20261101T100000Z","start":"20261120T080000Z","annotations":[{"entry":"20261102T093000Z","description":"bought paint"},{"entry":"20261103T120000Z","description":"first coat done"}]},
            {"uuid":"22222222-2222-4222-8222-222222222222","description":"Old","status":"completed","entry":"20261001T100000Z","end":"20261005T100000Z","start":"20261004T100000Z","annotations":[{"entry":"20261002T100000Z","description":"line one\\nline two"},{"description":"no date"}]}]
            """.write(toFile: file, atomically: true, encoding: .utf8)
        let result = tally.run("import", "--from", "taskwarrior", file)
        #expect(result.status == 0)
        #expect(result.stdout.contains("task 22222222: an annotation that cannot be one (several lines, over 1000 characters) kept in the note"), "\(result.stdout)")
        let first = todo(tally, "1")
        #expect(first?["note"] == .null)
        #expect(first?["annotations"]?.arrayValue?.compactMap { $0.objectValue?["at"]?.stringValue } == ["2026-11-02T09:30:00Z", "2026-11-03T12:00:00Z"])
        #expect(intervals(tally, "1") == ["2026-11-20T08:00:00Z/running"])
        #expect(intervals(tally, "2") == ["2026-10-04T10:00:00Z/2026-10-05T10:00:00Z"])
        #expect(annotations(tally, "2") == ["no date"])
        #expect(todo(tally, "2")?["annotations"]?.arrayValue?.first?.objectValue?["at"]?.stringValue == "2026-10-01T10:00:00Z")
        #expect(todo(tally, "2")?["note"]?.stringValue == "2026-10-02 line one\nline two")
        // Imported twice: nothing new; undo of the import takes it all back.
        let count = tally.eventCount
        #expect(tally.run("import", "--from", "taskwarrior", file).status == 0)
        #expect(tally.eventCount == count)
        #expect(tally.run("verify").status == 0)
    }
}
