import Foundation
import Testing
import TallyDomain
import TallyTestSupport

@Suite("tally diff, end to end", .tags(.postgresql))
struct DiffCommandTests {
    /// `diff --json` as "number field before after seq actor" lines.
    func lines(_ result: RunResult) -> [String] {
        (result.json?.arrayValue ?? []).compactMap(\.objectValue).map { diff in
            let before = diff["before"].map { $0.serialized(.compact) } ?? "?"
            let after = diff["after"].map { $0.serialized(.compact) } ?? "?"
            return "\(diff["number"]?.intValue ?? 0) \(diff["field"]?.stringValue ?? "") \(before) \(after) \(diff["seq"]?.intValue ?? 0) \(diff["actor"]?.stringValue ?? "-")"
        }
    }

    @Test("between two positions: per item and field, before and after, and the last event in between that changed it")
    func positions() {
        let tally = twoActorHistory()
        #expect(lines(tally.run("--json", "diff", "@2", "@5")) == [
            #"1 due "2026-12-01" "2026-12-03" 3 bob"#, #"1 completed false true 5 ada"#, #"2 note null "rye" 4 ada"#,
        ])
        let human = tally.run("diff", "@2", "@5")
        #expect(human.status == 0 && human.stderr == "")
        let rows = human.stdout.split(separator: "\n").map(String.init)
        #expect(rows.count == 4)
        #expect(rows[1].hasPrefix("1: Buy milk  due        2026-12-01  2026-12-03    3  \(tally.who("bob"))"), "\(rows)")
        #expect(rows[2].hasPrefix("             completed  no          yes           5"))
    }

    @Test("between two instants read as list --as-of reads them, TO defaulting to now; new items show (new)")
    func instants() {
        let tally = twoActorHistory()
        #expect(lines(tally.run("--json", "diff", "2026-11-21T11:30", "2026-11-21T13:30")) == [
            #"1 completed false true 5 ada"#, #"2 note null "rye" 4 ada"#,
        ])
        #expect(lines(tally.run("--json", "diff", "2026-11-21T09:30")) == [
            #"1 due "2026-12-01" "2026-12-03" 3 bob"#, #"1 completed false true 5 ada"#,
            #"2 title null "Rye bread" 6 bob"#, #"2 note null "rye" 4 ada"#,
        ])
        let created = tally.run("--json", "diff", "2026-11-21T09:30").json?.arrayValue?[2].objectValue
        #expect(created?["new"] == true)
        #expect(tally.run("diff", "2026-11-21T09:30").stdout.contains("2: Rye bread  title      (new)"))
    }

    @Test("filters narrow it: --field, --actor, --todos, --records")
    func filters() {
        let tally = twoActorHistory()
        tally.run(["record", "add", "Run", "--category", "running", "--duration", "30m"], environment: ["TALLY_NOW": "2026-11-21T16:00:00Z"])
        #expect(lines(tally.run("--json", "diff", "@1", "--field", "note")) == [#"2 note null "rye" 4 ada"#])
        #expect(lines(tally.run("--json", "diff", "@2", "--actor", "bob")) == [#"1 due "2026-12-01" "2026-12-03" 3 bob"#, #"2 title "Bread" "Rye bread" 6 bob"#])
        #expect(lines(tally.run("--json", "diff", "@6", "--todos")) == [])
        #expect(lines(tally.run("--json", "diff", "@6", "--records")).count == 4)
        #expect(tally.run("diff", "@6", "--todos").stdout == "No changes.\n")
        #expect(tally.run("diff", "@1", "--todos", "--records").status == 64)
    }

    @Test("bad points are refused: past the log's end, not a WHEN, missing, too many")
    func refused() {
        let tally = twoActorHistory()
        let past = tally.run("diff", "@99")
        #expect(past.status == 65 && past.stderr == "Error: Invalid date or time '@99': the log ends at @6.\n")
        #expect(tally.run("diff", "@1", "@99").status == 65)
        #expect(tally.run("diff", "sometime").status == 65)
        #expect(tally.run("diff").status == 64)
        #expect(tally.run("diff", "@1", "@2", "@3").status == 64)
        #expect(tally.eventCount == 6)
    }

    @Test("a todo's project and the todos it waits for are fields of diff, blame, log --field and revert")
    func projectAndDependencies() {
        let tally = TallyRunner()
        tally.run("add", "Paint", "--project", "home")
        tally.run("add", "Buy brushes")
        let ids = (tally.run("--json", "list").json?.arrayValue ?? []).compactMap { $0.objectValue?["id"]?.stringValue }
        #expect(ids.count == 2)
        tally.run(["edit", "1", "--project", "home.garden", "--after", "2"], environment: ["TALLY_NOW": "2026-11-21T13:00:00Z"])
        #expect(lines(tally.run("--json", "diff", "@2")) == [
            #"1 project "home" "home.garden" 3 tester@e2e"#, "1 after [] [\"\(ids.last ?? "")\"] 3 tester@e2e",
        ])
        #expect(tally.run("diff", "@2").stdout.contains("1: Paint  project  home"))
        let blame = tally.run("blame", "1").stdout
        #expect(blame.contains("\nproject      home.garden"), "\(blame)")
        // The todo it waits for by its number; --json above keeps the id.
        #expect(blame.contains("\nafter        2 "), "\(blame)")
        #expect(tally.run("--json", "log", "--field", "project").json?.arrayValue?.count == 2)
        #expect(tally.run("--json", "log", "--field", "after").json?.arrayValue?.count == 1)
        let revert = tally.run("revert", "--to", "@2", "--dry-run")
        #expect(revert.status == 0)
        #expect(revert.stdout.contains("1: Paint  project  home.garden "), "\(revert.stdout)")
        #expect(revert.stdout.contains("          after    2            none"), "\(revert.stdout)")
    }

    @Test("a todo's annotations are a field of diff, blame, log --field and revert, by their texts; --json gives them as show does")
    func annotations() {
        let tally = TallyRunner()
        tally.run("add", "Call the plumber")
        tally.run(["annotate", "1", "Left a message"], environment: ["TALLY_NOW": "2026-11-21T13:00:00Z"])
        tally.run(["annotate", "1", "Called back"], environment: ["TALLY_NOW": "2026-11-21T14:00:00Z"])
        let diff = tally.run("diff", "@1").stdout
        #expect(diff.contains("1: Call the plumber  annotations  none    Left a message; Called back    3 "), "\(diff)")
        let json = tally.run("--json", "diff", "@1").json?.arrayValue?.compactMap(\.objectValue) ?? []
        #expect(json.count == 1 && json.first?["field"] == "annotations" && json.first?["before"] == .array([]))
        let texts = json.first?["after"]?.arrayValue?.compactMap { $0.objectValue?["text"]?.stringValue }
        #expect(texts == ["Left a message", "Called back"])
        #expect(json.first?["after"] == tally.run("--json", "show", "1").json?.objectValue?["todo"]?.objectValue?["annotations"])
        let blame = tally.run("blame", "1").stdout
        #expect(blame.contains("\nannotations  Left a message; Called back    3  2026-11-21 14:00  "), "\(blame)")
        #expect(tally.run("--json", "log", "--field", "annotations").json?.arrayValue?.count == 2)
        tally.run(["denotate", "1", "1"], environment: ["TALLY_NOW": "2026-11-21T15:00:00Z"])
        #expect(tally.run("--json", "log", "--field", "annotations").json?.arrayValue?.count == 3)
        let revert = tally.run("revert", "--to", "@2", "--dry-run")
        #expect(revert.stdout.contains("1: Call the plumber  annotations  Called back  Left a message\n"), "\(revert.stdout)")
        #expect(tally.run("revert", "--to", "@2").status == 0)
        let now = tally.run("--json", "show", "1").json?.objectValue?["todo"]?.objectValue?["annotations"]?.arrayValue
        #expect(now?.compactMap { $0.objectValue?["text"]?.stringValue } == ["Left a message"])
        #expect(tally.run("diff", "@2").stdout == "No changes.\n")
    }
}
