import Foundation
import Testing
import TallyDomain
import TallyTestSupport

@Suite("filter expressions in list and saved views, end to end", .tags(.postgresql))
struct FilterExpressionCommandTests {
    func seeded() -> TallyRunner {
        let tally = TallyRunner()
        tally.run("add", "Buy milk", "--tag", "shop", "--due", "2026-11-22", "--priority", "high")
        tally.run("add", "Fix fence", "--tag", "home", "--note", "garden fence")
        tally.run("add", "Pay rent", "--due", "today")
        tally.run("add", "Čaj", "--tag", "shop", "--wait", "2026-12-01")
        tally.run("add", "Old thing")
        tally.run("done", "2")
        tally.run("delete", "5")
        return tally
    }

    func numbers(_ tally: TallyRunner, _ arguments: String...) -> [Int64] {
        tally.listNumbers(arguments)
    }

    @Test("field terms, words, and, or, not and parentheses select todos")
    func selects() {
        let tally = seeded()
        #expect(numbers(tally, "tag:shop or tag:home") == [1, 2])
        #expect(numbers(tally, "--", "-tag:shop") == [2, 3])
        #expect(numbers(tally, "not", "tag:shop") == [2, 3])
        #expect(numbers(tally, "due:today") == [3])
        #expect(numbers(tally, "due.before:2026-11-23", "priority:H") == [1])
        #expect(numbers(tally, "status:pending (fence or milk)") == [1])
        #expect(numbers(tally, "garden") == [2])
        #expect(numbers(tally, "status:completed or due:any") == [1, 2, 3])
        // Waiting and deleted todos are considered when the expression names them.
        #expect(numbers(tally, "is:waiting") == [4])
        #expect(numbers(tally, "status:deleted") == [5])
        #expect(numbers(tally, "tag:shop", "--waiting") == [4])
        #expect(numbers(tally, "is:overdue") == [])
        #expect(numbers(tally, "is:ready", "--sort", "due") == [3, 1])
        #expect(numbers(tally, "\"buy milk\"") == [1])
        let table = tally.run("list", "tag:shop or is:waiting")
        #expect(table.stdout.hasSuffix("2 active, 0 completed, 1 waiting\n"))
    }

    @Test("a wrong expression exits 65 pointing at the character, and nothing is appended")
    func errors() {
        let tally = seeded()
        let count = tally.eventCount
        let result = tally.run("list", "tag:shop or (fence")
        #expect(result.status == 65)
        #expect(result.stdout == "")
        #expect(result.stderr == """
            Error: In the filter at character 13: this '(' is never closed
              tag:shop or (fence
                          ^

            """)
        let wide = tally.run("filter", "set", "日本 prio:H")
        #expect(wide.status == 65)
        #expect(wide.stderr == """
            Error: In the filter at character 4: unknown field 'prio' (fields: tag, project, due, due.before, due.after, priority, status, is; put a word in double quotes to search for it)
              日本 prio:H
                   ^

            """)
        let date = tally.run("list", "due.before:\"in 2 weks\"")
        #expect(date.status == 65)
        #expect(date.stderr.hasPrefix("Error: In the filter at character 12: 'in 2 weks' is not a date: unknown unit 'weks'"))
        let czech = tally.run(["list", "štítek:shop nebo ("], environment: ["LANG": "cs_CZ.UTF-8"])
        #expect(czech.status == 65)
        #expect(czech.stderr.hasPrefix("Chyba: Ve filtru na znaku 18: za '(' chybí podmínka") || czech.stderr.hasPrefix("Chyba: Ve filtru na znaku 18: tato '(' není nikde uzavřena"))
        let json = tally.run("list", "--json", "a or")
        #expect(json.status == 65)
        #expect(json.json == nil && json.stderr.contains("\"code\":\"invalid_filter\""))
        #expect(tally.eventCount == count)
        #expect(tally.run("verify").status == 0)
    }

    @Test("Czech keywords and field names work where the CLI speaks Czech")
    func czech() {
        let tally = seeded()
        let result = tally.run(["list", "--json", "štítek:shop nebo stav:hotové"], environment: ["LANG": "cs_CZ.UTF-8"])
        #expect(result.json?.arrayValue?.compactMap { $0.objectValue?["number"]?.intValue } == [1, 2])
        // In English, Czech field names are unknown and 'nebo' is a word to search for.
        #expect(tally.run("list", "štítek:shop").status == 65)
        #expect(numbers(tally, "tag:shop nebo").isEmpty)
        // A wrong priority names the words the Czech filter takes, Czech ones first.
        let wrong = tally.run(["list", "priorita:X"], environment: ["LANG": "cs_CZ.UTF-8"])
        #expect(wrong.status == 65 && wrong.stdout.isEmpty)
        #expect(wrong.stderr.hasPrefix(
            "Chyba: Ve filtru na znaku 10: 'X' není priorita (vysoká nebo V, střední nebo S, nízká nebo N, žádná; anglicky také H, M, L, none)\n"
        ), "\(wrong.stderr)")
        let czechWords = ["vysoká", "V", "střední", "s", "nízká", "n", "žádná", "žádný", "H", "none"]
        for word in czechWords {
            #expect(tally.run(["list", "priorita:" + word], environment: ["LANG": "cs_CZ.UTF-8"]).status == 0, "\(word)")
        }
    }

    @Test("a saved view keeps its expression through undo, redo, time travel, export and import")
    func savedView() throws {
        let tally = seeded()
        let saved = tally.run("filter", "set", "--sort", "due", "TAG:shop OR (status:pending AND -due:none)")
        #expect(saved.status == 0)
        #expect(saved.stdout == "Saved the default view: --sort due 'tag:shop or status:pending -due:none'\n")
        let seq = tally.eventCount
        #expect(numbers(tally) == [3, 1])
        #expect(tally.run("filter", "show").stdout == "Saved view: --sort due 'tag:shop or status:pending -due:none'\n")
        #expect(tally.run("--json", "filter", "show").json?.objectValue?["filter"]?.objectValue?["expression"] == "tag:shop or status:pending -due:none")

        #expect(tally.run("undo").status == 0)
        #expect(numbers(tally) == [1, 2, 3])
        #expect(tally.run("redo").status == 0)
        #expect(numbers(tally) == [3, 1])
        tally.run("filter", "reset")
        #expect(numbers(tally, "--as-of", "@\(seq)") == [3, 1])
        #expect(numbers(tally, "--as-of", "@\(seq - 1)") == [1, 2, 3])
        tally.run("undo")

        let exported = tally.run("export")
        let target = TallyRunner()
        #expect(target.run(["import", "-"], input: exported.stdout).status == 0)
        #expect(numbers(target) == [3, 1])
        #expect(target.run("export").stdout == exported.stdout)
        #expect(target.run("verify").status == 0)
    }

    @Test("an imported view whose expression does not parse is refused, naming the line")
    func hostileImport() {
        let tally = seeded()
        let count = tally.eventCount
        let source = TallyRunner()
        source.run("add", "x")
        var lines = source.run("export").stdout.split(separator: "\n").map(String.init)
        source.run("filter", "set", "tag:shop")
        let full = source.run("export").stdout.split(separator: "\n").map(String.init)
        guard let view = full.last, view.contains("\"expression\":\"tag:shop\"") else {
            Issue.record("no view event: \(full)")
            return
        }
        lines.append(view.replacingOccurrences(of: "\"expression\":\"tag:shop\"", with: "\"expression\":\"tag:shop or (((\""))
        let imported = tally.run(["import", "-"], input: lines.joined(separator: "\n") + "\n")
        #expect(imported.status == 65)
        #expect(imported.stderr.contains("field 'expression' of a view does not parse"), "\(imported.stderr)")
        #expect(tally.eventCount == count)
    }

    @Test("a view saved on one device reaches the other by sync")
    func sync() {
        // The devices share a log file; the PostgreSQL stage runs the sync suites of its own.
        guard !TallyRunner.onPostgres else { return }
        let fleet = Fleet(["laptop", "desktop"])
        fleet[0].run("add", "Buy milk", "--tag", "shop")
        fleet[0].run("add", "Walk")
        fleet[0].run("filter", "set", "tag:shop or walk")
        fleet.sync(0, at: "2026-11-21T12:01:00Z")
        fleet.sync(1, at: "2026-11-21T12:02:00Z")
        #expect(fleet[1].run("filter", "show").stdout == "Saved view: 'tag:shop or walk'\n")
        #expect(fleet[1].run("list", "--json").json == fleet[0].run("list", "--json").json)
    }
}
