import Foundation
import Testing
import TallyDomain
import TallyTestSupport

/// A small history by two actors, one command an hour from 09:00 on 2026-11-21:
/// ada adds "Buy milk" due 12-01 (seq 1), bob adds "Bread" (2), bob moves milk's due (3),
/// ada gives bread a note (4), ada completes milk (5), bob renames bread (6).
func twoActorHistory() -> TallyRunner {
    let tally = TallyRunner()
    let steps: [(String, [String])] = [
        ("ada", ["add", "Buy milk", "--due", "2026-12-01"]), ("bob", ["add", "Bread"]), ("bob", ["edit", "1", "--due", "2026-12-03"]),
        ("ada", ["edit", "2", "--note", "rye"]), ("ada", ["done", "1"]), ("bob", ["edit", "2", "--title", "Rye bread"]),
    ]
    for (hour, (actor, arguments)) in zip(9..., steps) {
        let result = tally.run(arguments, environment: ["TALLY_ACTOR": actor, "TALLY_NOW": "2026-11-21T\(hour < 10 ? "0" : "")\(hour):00:00Z"])
        #expect(result.status == 0, "\(arguments): \(result.stderr)")
    }
    return tally
}

extension RunResult {
    /// The `seq` of each event in a `--json` event array.
    var seqs: [Int64] { json?.arrayValue?.compactMap { $0.objectValue?["seq"]?.intValue } ?? [-1] }
}

@Suite("tally log queries: --actor, --field, with REF and times, end to end", .tags(.postgresql))
struct LogQueryCommandTests {
    @Test("--actor keeps one actor's events; repeated, several; on PostgreSQL the role matches too")
    func actor() throws {
        let tally = twoActorHistory()
        #expect(tally.run("--json", "log", "--actor", "bob").seqs == [6, 3, 2])
        #expect(tally.run("--json", "log", "--actor", "ada").seqs == [5, 4, 1])
        #expect(tally.run("--json", "log", "--actor", "ada", "--actor", "bob").seqs == [6, 5, 4, 3, 2, 1])
        #expect(tally.run("--json", "log", "--actor", "Bob").seqs == [], "names match exactly")
        let none = tally.run("log", "--actor", "carol")
        #expect(none.status == 0 && none.stdout == "No events.\n")
        if TallyRunner.onPostgres {
            #expect(tally.run("--json", "log", "--actor", PostgresTestServer.superuser).seqs == [6, 5, 4, 3, 2, 1])
        }
    }

    @Test("--field keeps the events that changed that field: a creation only when it gave a value")
    func field() throws {
        let tally = twoActorHistory()
        #expect(tally.run("--json", "log", "--field", "due").seqs == [3, 1])
        #expect(tally.run("--json", "log", "--field", "note").seqs == [4])
        #expect(tally.run("--json", "log", "--field", "title").seqs == [6, 2, 1])
        #expect(tally.run("--json", "log", "--field", "completed").seqs == [5])
        #expect(tally.run("--json", "log", "--field", "note", "--field", "completed").seqs == [5, 4])
        let human = tally.run("log", "1", "--field", "due")
        #expect(human.status == 0)
        let lines = human.stdout.split(separator: "\n").map(String.init)
        #expect(lines.count == 3)
        #expect(lines[1].hasSuffix("todo.edited   1: Buy milk  due: 2026-12-01 → 2026-12-03"), "\(lines)")
    }

    @Test("filters combine: REF, --actor, --field, --type, --since and --until")
    func combined() throws {
        let tally = twoActorHistory()
        #expect(tally.run("--json", "log", "2", "--actor", "bob").seqs == [6, 2])
        #expect(tally.run("--json", "log", "2", "--field", "title", "--actor", "ada").seqs == [])
        #expect(tally.run("--json", "log", "--actor", "ada", "--since", "2026-11-21T11:00", "--until", "2026-11-21T13:00").seqs == [5, 4])
        #expect(tally.run("--json", "log", "--field", "title", "--type", "todo.edited").seqs == [6])
        #expect(tally.run("--json", "log", "--actor", "bob", "--limit", "1", "--reverse").seqs == [6])
    }

    @Test("an unknown field is a usage error that lists the fields; nothing is read or written")
    func unknownField() {
        let tally = twoActorHistory()
        let result = tally.run("log", "--field", "password")
        #expect(result.status == 64 && result.stdout == "")
        #expect(result.stderr.hasPrefix("Error: Invalid value 'password' for '--field': expected one of title, tags, project, priority, due, wait, note, annotations, after, series, completed, deleted, name"))
        #expect(tally.eventCount == 6)
    }
}

@Suite("History commands: hostile WHEN values and names")
struct HistoryQueryAttackTests {
    @Test("hostile WHEN values are invalid data (exit 65), shown escaped; hostile names match nothing", arguments: [
        "@99999999999999999999", "99999-01-01", "2026-13-45", "\u{1b}]0;pwned\u{7}", "-99999999999d", "1e308", "",
        String(repeating: "9", count: 10_000), "2026-11-21T25:00", "now\u{1}",
    ])
    func when(value: String) {
        let tally = twoActorHistory()
        for option in ["--since", "--until"] {
            let result = tally.run(["log", option, value])
            #expect(result.status == 65 || result.status == 64, "\(option) \(value): \(result.status) \(result.stderr)")
            #expect(result.stdout == "")
            #expect(!result.stderr.contains("\u{1b}") && !result.stderr.contains("\u{7}"))
        }
        let actor = tally.run(["--json", "log", "--actor", value])
        #expect(actor.status == 0 && actor.seqs == [])
        for arguments in [["diff", value], ["diff", "@1", value], ["revert", "--to", value], ["revert", "--to", value, "--dry-run"]] {
            let result = tally.run(arguments)
            #expect(result.status == 65 || result.status == 64, "\(arguments): \(result.status) \(result.stderr)")
            #expect(result.stdout == "" && !result.stderr.contains("\u{1b}"))
        }
        #expect(tally.eventCount == 6, "nothing appended")
    }
}
