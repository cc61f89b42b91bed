import Foundation
import Testing
import TallyDomain
import TallyTestSupport
@testable import TallyEssentials

/// Re-importing a Taskwarrior 2.6 export after annotations, `start`/`stop`, a project and a series' rule
/// were changed in `task` itself. Skips when `task` is missing (`make deps` installs it).
@Suite("re-importing annotations, start and stop, and series rules changed in Taskwarrior", .tags(.postgresql))
struct ReimportChangesTests {
    typealias Taskwarrior = TaskwarriorComparisonTests.Taskwarrior

    /// A runner whose clock is an hour after the real one: Taskwarrior stamps what it does with the real time.
    static func runner() -> TallyRunner {
        TallyRunner(now: Timestamp.format(Int64(Date().timeIntervalSince1970 * 1000) + 3_600_000))
    }

    static func uuid(_ task: Taskwarrior, _ filter: [String]) -> String {
        task.run(filter + ["_unique", "uuid"]).out.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// The task with this uuid in an export.
    static func task(_ uuid: String, in file: String) throws -> JSONObject {
        let all = try JSON.parse(try String(contentsOfFile: file, encoding: .utf8)).arrayValue ?? []
        return all.compactMap(\.objectValue).first { $0["uuid"]?.stringValue == uuid } ?? [:]
    }

    /// An instant as Taskwarrior (`20261125T042155Z`) or tally (`2026-11-25T04:21:55Z`) writes it.
    static func instant(_ value: JSON?) -> Int64? {
        guard let text = value?.stringValue else { return nil }
        return Timestamp.parse(text.contains("-") ? text : TaskwarriorAnnotationTests.iso(text))
    }

    /// `show --json` of a todo: the todo's fields, and `series` for an instance.
    static func show(_ tally: TallyRunner, _ number: Int) -> JSONObject {
        let shown = tally.run("--json", "show", String(number)).json?.objectValue ?? [:]
        var todo = shown["todo"]?.objectValue ?? [:]
        todo["series"] = shown["series"] ?? .null
        return todo
    }

    @Test("annotations added and removed, a start, a stop, a project and a recur rule come over as one command; a third import changes nothing",
          .enabled(if: TaskwarriorComparisonTests.task != nil))
    func changesComeOver() throws {
        let task = try Taskwarrior(binary: TaskwarriorComparisonTests.task!)
        task.run(["add", "Buy milk", "project:Home"])
        task.run(["add", "Write report"])
        task.run(["add", "Call Bob"])
        task.run(["add", "Water plants", "due:2026-11-22", "recur:weekly"])
        let milk = Self.uuid(task, ["description:Buy milk"])
        let report = Self.uuid(task, ["description:Write report"])
        let bob = Self.uuid(task, ["description:Call Bob"])
        let template = Self.uuid(task, ["status:recurring"])
        task.run([milk, "annotate", "first note"])
        task.run([report, "start"])
        let first = task.directory.path("first.json")
        try task.run(["export"]).out.write(toFile: first, atomically: true, encoding: .utf8)

        let tally = Self.runner()
        let imported = tally.run("import", "--from", "taskwarrior", first)
        #expect(imported.status == 0 && imported.stdout.hasPrefix("Imported 4 todos"), "\(imported.stdout)\(imported.stderr)")
        #expect(tally.run("annotate", "1", "mine in tally").status == 0)

        // In Taskwarrior: a second annotation (a second later, as task keys annotations by their time),
        // the first one taken off, started and stopped, a project, a rule.
        Thread.sleep(forTimeInterval: 1.1)
        task.run([milk, "annotate", "second note"])
        task.run([milk, "denotate", "first note"])
        task.run([milk, "start"])
        task.run([report, "stop"])
        task.run([bob, "modify", "project:Work", "depends:" + report])
        task.run([template, "modify", "recur:daily", "until:2027-01-31"])
        let second = task.directory.path("second.json")
        try task.run(["export"]).out.write(toFile: second, atomically: true, encoding: .utf8)
        let before = tally.run("--json", "list", "--status", "all", "--deleted").stdout
        let seriesBefore = Self.show(tally, 4)["series"]
        let events = tally.eventCount

        let again = tally.run("import", "--from", "taskwarrior", second)
        #expect(again.status == 0 && again.stderr.isEmpty, "\(again.stderr)")
        let short = { (uuid: String) in "task " + uuid.prefix(8) }
        #expect(again.stdout.contains("""
            Updated 3 todos imported before, with what changed in the source since:
              \(short(milk)) → 1: started; 1 annotation added; 1 annotation removed
              \(short(report)) → 2: stopped
              \(short(bob)) → 3: changed project, waits for

            """), "\(again.stdout)")
        #expect(again.stdout.contains("""
            Changed the rule of 1 series imported before, as its template changed in the source:
              \(short(template)) → the series of 4: changed period, until

            """), "\(again.stdout)")

        // The read models hold what Taskwarrior's export says.
        let milkTask = try Self.task(milk, in: second)
        let milkTodo = Self.show(tally, 1)
        let annotations = milkTodo["annotations"]?.arrayValue?.compactMap(\.objectValue) ?? []
        // In date order: Taskwarrior's, then the one written in tally (whose clock is an hour ahead).
        #expect(annotations.map { $0["text"]?.stringValue ?? "" } == ["second note", "mine in tally"])
        let secondNote = milkTask["annotations"]?.arrayValue?.compactMap(\.objectValue).first { $0["description"] == "second note" }
        #expect(Self.instant(annotations.first?["at"]) == Self.instant(secondNote?["entry"]))
        let milkIntervals = milkTodo["intervals"]?.arrayValue?.compactMap(\.objectValue) ?? []
        #expect(milkIntervals.count == 1 && milkIntervals.first?["end"] == .null)
        #expect(Self.instant(milkIntervals.first?["start"]) == Self.instant(milkTask["start"]))
        // Stopped at the task's last change: the export keeps no stop time, and nothing changed it after.
        let reportTask = try Self.task(report, in: second)
        let reportIntervals = Self.show(tally, 2)["intervals"]?.arrayValue?.compactMap(\.objectValue) ?? []
        #expect(reportIntervals.count == 1 && Self.instant(reportIntervals.first?["end"]) == Self.instant(reportTask["modified"]))
        #expect(Self.show(tally, 3)["project"] == "work")
        #expect(Self.show(tally, 3)["after"]?.arrayValue?.count == 1 && Self.show(tally, 2)["id"] == Self.show(tally, 3)["after"]?.arrayValue?.first)
        let series = Self.show(tally, 4)["series"]?.objectValue
        #expect(series?["every"] == "1d" && series?["until"] == "2027-01-31", "\(String(describing: series))")
        let shown = tally.run("show", "1")
        #expect(shown.status == 0 && shown.stdout.contains("  2  ") && shown.stdout.contains("second note") && !shown.stdout.contains("first note\n  "), "\(shown.stdout)")
        #expect(shown.stdout.contains("– running"), "\(shown.stdout)")

        // A third import of the same file appends nothing and duplicates nothing.
        let afterSecond = tally.eventCount
        let third = tally.run("--json", "import", "--from", "taskwarrior", second)
        #expect(third.json?.objectValue?["updated"] == [] && third.json?.objectValue?["seriesUpdated"] == [], "\(third.stdout)")
        #expect(tally.eventCount == afterSecond)
        #expect(Self.show(tally, 1)["annotations"]?.arrayValue?.count == 2)

        // One command: one undo takes it all back, redo brings it again.
        let commands = Set(tally.run("--json", "log").json?.arrayValue?.prefix(Int(afterSecond - events)).compactMap { $0.objectValue?["command"]?.stringValue } ?? [])
        #expect(commands.count == 1)
        #expect(tally.run("undo").status == 0)
        #expect(tally.run("--json", "list", "--status", "all", "--deleted").stdout == before)
        #expect(Self.show(tally, 4)["series"] == seriesBefore)
        #expect(tally.run("redo").status == 0)
        #expect(Self.show(tally, 1)["annotations"]?.arrayValue?.count == 2)
        #expect(tally.run("verify").status == 0)

        // Undone, the re-import counts as never applied: importing again applies it again, once.
        #expect(tally.run("undo").status == 0)
        let redone = tally.run("--json", "import", "--from", "taskwarrior", second)
        #expect(redone.json?.objectValue?["updated"]?.arrayValue?.count == 3 && redone.json?.objectValue?["seriesUpdated"]?.arrayValue?.count == 1, "\(redone.stdout)")
        #expect(Self.show(tally, 1)["annotations"]?.arrayValue?.map { $0.objectValue?["text"]?.stringValue ?? "" } == ["second note", "mine in tally"])
        #expect(Self.show(tally, 4)["series"]?.objectValue?["every"] == "1d")
        let quiet = tally.eventCount
        #expect(tally.run("import", "--from", "taskwarrior", second).status == 0 && tally.eventCount == quiet)
        #expect(tally.run("verify").status == 0)
    }

    @Test("an annotation written in tally is never taken off; one the user took off stays off; a restart stops the old interval at the new start",
          .enabled(if: TaskwarriorComparisonTests.task != nil))
    func tallysOwnStay() throws {
        let task = try Taskwarrior(binary: TaskwarriorComparisonTests.task!)
        task.run(["add", "Paint fence"])
        let fence = Self.uuid(task, ["description:Paint fence"])
        task.run([fence, "annotate", "buy paint"])
        task.run([fence, "start"])
        let first = task.directory.path("first.json")
        try task.run(["export"]).out.write(toFile: first, atomically: true, encoding: .utf8)
        let tally = Self.runner()
        #expect(tally.run("import", "--from", "taskwarrior", first).status == 0)
        // The same text written in tally, and the imported one taken off in tally.
        #expect(tally.run("annotate", "1", "buy paint").status == 0)
        #expect(tally.run("denotate", "1", "1").status == 0)
        let startedFirst = Self.instant(try Self.task(fence, in: first)["start"])

        Thread.sleep(forTimeInterval: 1.1)
        task.run([fence, "stop"])
        Thread.sleep(forTimeInterval: 1.1)
        task.run([fence, "start"])
        task.run([fence, "denotate", "buy paint"])
        let second = task.directory.path("second.json")
        try task.run(["export"]).out.write(toFile: second, atomically: true, encoding: .utf8)
        let again = tally.run("import", "--from", "taskwarrior", second)
        #expect(again.stdout.contains("task \(fence.prefix(8)) → 1: stopped; started\n"), "\(again.stdout)")
        let todo = Self.show(tally, 1)
        // Tally's own annotation stays; the imported one was off already, so nothing is taken off twice.
        #expect(todo["annotations"]?.arrayValue?.map { $0.objectValue?["text"]?.stringValue ?? "" } == ["buy paint"])
        let intervals = todo["intervals"]?.arrayValue?.compactMap(\.objectValue) ?? []
        let startedAgain = Self.instant(try Self.task(fence, in: second)["start"])
        #expect(intervals.count == 2, "\(intervals)")
        #expect(Self.instant(intervals.first?["start"]) == startedFirst && Self.instant(intervals.first?["end"]) == startedAgain)
        #expect(Self.instant(intervals.last?["start"]) == startedAgain && intervals.last?["end"] == .null)
        #expect(tally.run("verify").status == 0)
    }

    @Test("a moved first due date or a period tally cannot repeat refuses that template, with its reason, and the rest is applied; in Czech too",
          .enabled(if: TaskwarriorComparisonTests.task != nil))
    func refusedRules() throws {
        let task = try Taskwarrior(binary: TaskwarriorComparisonTests.task!)
        task.run(["add", "Water plants", "due:2026-11-22", "recur:weekly"])
        task.run(["add", "Pay rent", "due:2026-12-01", "recur:monthly"])
        task.run(["add", "Read book"])
        let water = Self.uuid(task, ["status:recurring", "description:Water plants"])
        let rent = Self.uuid(task, ["status:recurring", "description:Pay rent"])
        let first = task.directory.path("first.json")
        try task.run(["export"]).out.write(toFile: first, atomically: true, encoding: .utf8)
        let tally = Self.runner()
        #expect(tally.run("import", "--from", "taskwarrior", first).status == 0)

        task.run([water, "modify", "due:2026-11-23", "recur:daily"])
        task.run(["description:Read book", "modify", "priority:H"])
        let second = task.directory.path("second.json")
        var export = task.run(["export"]).out
        // `task` refuses a period it cannot read; an export edited by hand (or another tool) can hold one.
        export = export.replacingOccurrences(of: "\"recur\":\"monthly\",\"rtype\":\"periodic\",\"status\":\"recurring\"", with: "\"recur\":\"every full moon\",\"rtype\":\"periodic\",\"status\":\"recurring\"")
        #expect(export.contains("every full moon"))
        try export.write(toFile: second, atomically: true, encoding: .utf8)
        let events = tally.eventCount
        let again = tally.run("import", "--from", "taskwarrior", second)
        #expect(again.status == 0 && again.stderr.isEmpty, "\(again.stderr)")
        #expect(again.stdout.contains("""
            2 series rules changed in the source were not applied (the rest of the file was):
              task \(water.prefix(8)): the first due date moved from 2026-11-22 to 2026-11-23; a series in tally counts from its first due date, which no change can move, so the series keeps its rule
              task \(rent.prefix(8)): the period is now 'every full moon', which tally cannot repeat; the series keeps its rule

            """), "\(again.stdout)")
        #expect(again.stdout.contains("→ 3: changed priority\n") || again.stdout.contains(": changed priority\n"), "\(again.stdout)")
        // Nothing of either series changed, and the template with the odd period did not become a todo.
        let list = tally.run("--json", "list", "--status", "all").json?.arrayValue ?? []
        #expect(list.count == 3, "\(list)")
        let rules = Set([1, 2, 3].compactMap { Self.show(tally, $0)["series"]?.objectValue?["every"]?.stringValue })
        #expect(rules == ["1w", "1m"], "\(rules)")
        #expect(tally.eventCount == events + 1)
        let czech = tally.run(["import", "--from", "taskwarrior", second], environment: ["LANG": "cs_CZ.UTF-8"])
        #expect(czech.stdout.contains("2 pravidla řad změněná ve zdroji nebyla použita (zbytek souboru ano):\n"), "\(czech.stdout)")
        #expect(czech.stdout.contains("první termín se posunul z 2026-11-22 na 2026-11-23"), "\(czech.stdout)")
        #expect(tally.eventCount == events + 1)
        let json = tally.run("--json", "import", "--from", "taskwarrior", second).json?.objectValue
        #expect(json?["seriesRefused"]?.arrayValue?.count == 2)
        #expect(tally.run("verify").status == 0)
    }
}
