import Foundation
import Testing
import TallyDomain
import TallyTestSupport

@Suite("dependencies: --after, blocked and ready, cycles, notices, end to end", .tags(.postgresql))
struct DependencyCommandTests {
    /// 1 and 2 block 3, 3 blocks 4; 5 stands alone.
    func seeded() -> TallyRunner {
        let tally = TallyRunner()
        tally.run("add", "Buy paint")
        tally.run("add", "Buy brushes")
        tally.run("add", "Paint fence", "--after", "1,2")
        tally.run("add", "Admire fence", "--after", "3")
        tally.run("add", "Read")
        return tally
    }

    @Test("list marks what waits and what blocks; --ready, --blocked and is: terms select them")
    func list() {
        let tally = seeded()
        #expect(tally.run("list").stdout == """
            #  Done  Title         Tags  Priority  Due  Deps
            1  [ ]   Buy paint                          blocks 3
            2  [ ]   Buy brushes                        blocks 3
            3  [ ]   Paint fence                        after 1, 2; blocks 4
            4  [ ]   Admire fence                       after 3
            5  [ ]   Read

            5 active, 0 completed

            """)
        #expect(tally.listNumbers(["--ready"]) == [1, 2, 5])
        #expect(tally.listNumbers(["--blocked"]) == [3, 4])
        #expect(tally.listNumbers(["is:blocked or read"]) == [3, 4, 5])
        #expect(tally.listNumbers(["--ready", "paint"]) == [1])
        let json = tally.run("show", "--json", "3").json?.objectValue?["todo"]?.objectValue?["after"]?.arrayValue
        #expect(json?.count == 2)
        let shown = tally.run("show", "3").stdout
        #expect(shown.contains("Waits for  1 Buy paint, 2 Buy brushes\n") && shown.contains("Blocks     4 Admire fence\n"), "\(shown)")
    }

    @Test("completing the last blocker says what became ready; deleting a blocker says what it no longer blocks; undo puts it back")
    func notices() {
        let tally = seeded()
        #expect(tally.run("done", "1").stdout == "Completed 1: Buy paint\n")
        #expect(tally.run("done", "2").stdout == "Completed 2: Buy brushes\nReady 3: Paint fence (nothing it waits for is left)\n")
        #expect(tally.listNumbers(["--ready"]) == [3, 5])
        #expect(tally.run("delete", "3").stdout == "Deleted 3: Paint fence\n3 no longer blocks 4.\nReady 4: Admire fence (nothing it waits for is left)\n")
        #expect(tally.listNumbers(["--blocked"]) == [])
        tally.run("undo")
        tally.run("undo")
        #expect(tally.listNumbers(["--blocked"]) == [3, 4])
        tally.run("redo")
        #expect(tally.listNumbers(["--blocked"]) == [4])
        // Completing two at once: the one that waits for both is ready once.
        let other = seeded()
        #expect(other.run("done", "1", "2").stdout == "Completed 1: Buy paint\nCompleted 2: Buy brushes\nReady 3: Paint fence (nothing it waits for is left)\n")
        #expect(tally.run("verify").status == 0)
    }

    @Test("a cycle is refused and named; waiting for itself, unknown and deleted refs are refused; nothing is appended")
    func refusals() {
        let tally = seeded()
        tally.run("rm", "5")
        let count = tally.eventCount
        let cycle = tally.run("edit", "1", "--after", "4")
        #expect(cycle.status == 65)
        #expect(cycle.stderr == "Error: That would make todos wait for each other in a circle: 1 → 4 → 3 → 1. Nothing changed.\n")
        #expect(tally.run("edit", "3", "--after", "3").stderr == "Error: Todo 3 cannot wait for itself.\n")
        #expect(tally.run("add", "X", "--after", "99").status == 1)
        #expect(tally.run("add", "X", "--after", "5").stderr.contains("Todo 5 is deleted"))
        #expect(tally.run("edit", "4", "--no-after", "1").stdout == "Todo 4 has no changes; nothing to do.\n" || tally.run("edit", "4", "--no-after", "1").status == 0)
        #expect(tally.eventCount == count)
        let usage = tally.run("edit", "4")
        #expect(usage.status == 64)
        #expect(usage.stderr.hasPrefix("Error: Nothing to change: give at least one of --title, --tag, --priority, --due, --note, --project, --after, --no-after, --wait, --recur, --recur-from, --until.\n"))
    }

    @Test("edit --after and --no-after change the edges; they survive export, import, a snapshot and time travel")
    func travel() {
        let tally = seeded()
        #expect(tally.run("edit", "5", "--after", "4").status == 0)
        let seq = tally.eventCount
        #expect(tally.run("edit", "3", "--no-after", "1,2").status == 0)
        #expect(tally.listNumbers(["--blocked"]) == [4, 5])
        #expect(tally.listNumbers(["--blocked", "--as-of", "@\(seq)"]) == [3, 4, 5])
        let exported = tally.run("export")
        let target = TallyRunner()
        #expect(target.run(["import", "-"], input: exported.stdout).status == 0)
        #expect(target.run("snapshot").status == 0)
        #expect(target.run("list").stdout == tally.run("list").stdout)
        #expect(target.run("export").stdout == exported.stdout)
        #expect(target.run("verify").status == 0)
        let bad = exported.stdout.replacingOccurrences(of: "\"after\":[", with: "\"after\":[\"x\",")
        #expect(bad != exported.stdout)
        let refused = TallyRunner().run(["import", "-"], input: bad)
        #expect(refused.status == 65 && refused.stderr.contains("field 'after' holds something that is not a lowercase UUID"), "\(refused.stderr)")
    }

    @Test("two devices that each add an edge closing a cycle together: the one synced later is a named conflict")
    func syncCycle() {
        // The devices share a log file; the PostgreSQL stage runs the sync suites of its own.
        guard !TallyRunner.onPostgres else { return }
        let fleet = Fleet(["laptop", "desktop"])
        fleet[0].run("add", "A")
        fleet[0].run("add", "B")
        fleet.sync(0, at: "2026-11-21T12:01:00Z")
        fleet.sync(1, at: "2026-11-21T12:02:00Z")
        #expect(fleet[0].run(["edit", "2", "--after", "1"], environment: ["TALLY_NOW": "2026-11-21T12:03:00Z"]).status == 0)
        #expect(fleet[1].run(["edit", "1", "--after", "2"], environment: ["TALLY_NOW": "2026-11-21T12:04:00Z"]).status == 0)
        #expect(fleet.sync(0, at: "2026-11-21T12:05:00Z").status == 0)
        let later = fleet.sync(1, at: "2026-11-21T12:06:00Z")
        #expect(later.status == 0)
        #expect(later.stdout.contains("1 conflict:\n  todo 1 'A': your waits for 2 was dropped: "), "\(later.stdout)")
        #expect(later.stdout.contains("todos would wait for each other in a circle (1 → 2 → 1)"), "\(later.stdout)")
        fleet.sync(0, at: "2026-11-21T12:07:00Z")
        for device in 0..<2 {
            #expect(fleet[device].listNumbers(["--blocked"]) == [2])
            #expect(fleet[device].run("verify").status == 0)
        }
        // Edges added on two devices to one todo merge as a set.
        fleet[0].run("add", "C")
        fleet.sync(0, at: "2026-11-21T12:08:00Z")
        fleet.sync(1, at: "2026-11-21T12:09:00Z")
        fleet[0].run(["edit", "3", "--after", "1"], environment: ["TALLY_NOW": "2026-11-21T12:10:00Z"])
        fleet[1].run(["edit", "3", "--after", "2"], environment: ["TALLY_NOW": "2026-11-21T12:11:00Z"])
        fleet.sync(0, at: "2026-11-21T12:12:00Z")
        fleet.sync(1, at: "2026-11-21T12:13:00Z")
        fleet.sync(0, at: "2026-11-21T12:14:00Z")
        for device in 0..<2 {
            #expect(fleet[device].run("--json", "show", "3").json?.objectValue?["todo"]?.objectValue?["after"]?.arrayValue?.count == 2)
        }
    }

    @Test("the todos one waits for are named by their numbers in confirmations, show, log, blame, diff, revert and undo; --json keeps ids")
    func numbersWhereIDsWere() throws {
        let tally = seeded()
        let ids = (tally.run("--json", "list").json?.arrayValue ?? []).compactMap { $0.objectValue?["id"]?.stringValue }
        #expect(ids.count == 5)
        let (paint, read) = (ids[0], ids[4])
        let edited = tally.run("edit", "4", "--after", "5", "--no-after", "3")
        #expect(edited.stdout == "Updated 4: Admire fence (edited after → 5)\n", "\(edited.stdout)")
        // A deleted todo keeps its number: still named by it.
        tally.run("delete", "5")
        #expect(tally.run("show", "4").stdout.contains("  edited after → 5\n"))
        let log = tally.run("log", "--field", "after").stdout
        #expect(log.contains("4: Admire fence  after: 3 → 5\n") && !log.contains(read.prefix(8)), "\(log)")
        #expect(tally.run("blame", "3").stdout.contains("\nafter        1, 2 "))
        #expect(tally.run("blame", "4").stdout.contains("\nafter        5 "))
        let diff = tally.run("diff", "@5").stdout
        #expect(diff.contains("4: Admire fence  after    3       5 "), "\(diff)")
        let revert = tally.run("revert", "--to", "@5", "--dry-run").stdout
        #expect(revert.contains("4: Admire fence  after    5    3\n"), "\(revert)")
        // Scripts keep the ids.
        let blame = tally.run("--json", "blame", "3").json?.arrayValue?.compactMap(\.objectValue).first { $0["field"]?.stringValue == "after" }
        #expect(blame?["value"]?.arrayValue?.count == 2 && blame?["value"]?.arrayValue?.first?.stringValue == paint)
        let changes = tally.run("--json", "diff", "@5").json?.arrayValue?.compactMap(\.objectValue) ?? []
        #expect(changes.first { $0["field"]?.stringValue == "after" }?["after"]?.arrayValue?.first?.stringValue == read)
        tally.run("undo")
        #expect(tally.run("undo").stdout.contains("  4: Admire fence: after: 5 → 3\n"))
    }
}
