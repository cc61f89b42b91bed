import Foundation
import Testing
import TallyDomain
import TallyPostgres
import TallyTestSupport
@testable import TallyEssentials

@Suite("tally todo commands, end to end", .tags(.postgresql))
struct TodoCommandTests {
    @Test("add prints a confirmation, or the todo object with --json")
    func add() throws {
        let tally = TallyRunner()
        let human = tally.run("add", "Buy", "oat", "milk", "--tag", "shop", "--due", "tomorrow", "--priority", "high")
        #expect(human.status == 0)
        #expect(human.stdout == "Added 1: Buy oat milk\n")
        #expect(human.stderr == "")
        let json = tally.run("add", "--json", "Call", "Bob", "--note", "about the bike")
        #expect(json.status == 0)
        guard case .object(let todo)? = json.json else { Issue.record("not JSON: \(json.stdout)"); return }
        #expect(todo.keys == ["id", "number", "title", "completed", "tags", "priority", "due", "note", "createdAt", "updatedAt", "completedAt", "deleted", "wait", "series", "origin", "project", "after", "annotations", "intervals"])
        #expect(todo["origin"] == .null)
        #expect(todo["number"] == 2 && todo["title"] == "Call Bob" && todo["note"] == "about the bike")
        #expect(todo["priority"] == .null && todo["due"] == .null && todo["completedAt"] == .null && todo["tags"] == [])
        #expect(todo["createdAt"] == "2026-11-21T12:00:00Z" && todo["completed"] == false && todo["deleted"] == false)
        #expect(todo["id"]?.stringValue?.count == 36)
        #expect(tally.eventCount == 2)
    }

    @Test("list shows an aligned table with a color-free marker and a footer; --json gives the array")
    func list() throws {
        let tally = TallyRunner()
        tally.run("add", "Buy milk", "--tag", "shop", "--due", "2026-11-25")
        tally.run("add", "Dentist", "--priority", "high")
        tally.run("add", "Read book")
        tally.run("done", "2")
        let table = tally.run("list")
        #expect(table.status == 0)
        #expect(table.stdout == """
            #  Done  Title      Tags  Priority  Due
            1  [ ]   Buy milk   shop            2026-11-25
            2  [x]   Dentist          high
            3  [ ]   Read book

            2 active, 1 completed

            """)
        #expect(!table.stdout.contains("\u{1B}["))
        let json = tally.run("ls", "--json", "--status", "active")
        guard case .array(let todos)? = json.json else { Issue.record("not JSON"); return }
        #expect(todos.compactMap { $0.objectValue?["number"]?.intValue } == [1, 3])
    }

    @Test("every list option filters or orders the view")
    func listOptions() throws {
        let tally = TallyRunner()
        tally.run("add", "banana", "--tag", "food", "--priority", "low", "--due", "2026-11-30")
        tally.run("add", "Apple", "--tag", "food", "--tag", "fruit", "--priority", "high", "--due", "2026-11-22")
        tally.run("add", "cherry", "--note", "from the market")
        tally.run("add", "date")
        tally.run("done", "4")
        tally.run("rm", "3")
        func numbers(_ arguments: String...) -> [Int64] {
            let result = tally.run(["list", "--json"] + arguments)
            #expect(result.status == 0, "\(arguments): \(result.stderr)")
            return result.json?.arrayValue?.compactMap { $0.objectValue?["number"]?.intValue } ?? [-1]
        }
        #expect(numbers() == [1, 2, 4])
        #expect(numbers("--status", "completed") == [4])
        #expect(numbers("--tag", "food", "--tag", "fruit") == [2])
        #expect(numbers("--priority", "low") == [1])
        #expect(numbers("--due-before", "2026-11-23") == [2])
        #expect(numbers("--due-after", "2026-11-22") == [1])
        #expect(numbers("--search", "MARKET", "--deleted") == [3])
        #expect(numbers("--sort", "title") == [2, 1, 4])
        #expect(numbers("--sort", "due") == [2, 1, 4])
        #expect(numbers("--sort", "priority", "--reverse") == [1, 2, 4])
        #expect(numbers("--sort", "updated") == [1, 2, 4])
        #expect(numbers("--limit", "2") == [1, 2])
        #expect(numbers("--deleted") == [1, 2, 3, 4])
        let limited = tally.run("list", "--limit", "1")
        #expect(limited.stdout.hasSuffix("2 active, 1 completed (showing 1 of 3)\n"))
    }

    @Test("toggle, done, reopen and toggle --all change completion as one command each")
    func completion() throws {
        let tally = TallyRunner()
        for title in ["a", "b", "c"] { tally.run("add", title) }
        #expect(tally.run("toggle", "1", "3").stdout == "Completed 1: a\nCompleted 3: c\n")
        let again = tally.run("done", "1")
        #expect(again.status == 0 && again.stdout == "Todo 1 is already completed; nothing changed.\n")
        #expect(tally.eventCount == 5)
        #expect(tally.run("reopen", "3").stdout == "Reopened 3: c\n")
        let all = tally.run("toggle", "--all", "--json")
        #expect(all.json?.arrayValue?.count == 2)
        #expect(tally.run("toggle", "--all").stdout == "Reopened 1: a\nReopened 2: b\nReopened 3: c\n")
        let log = tally.run("show", "2", "--json")
        #expect(log.json?.objectValue?["history"]?.arrayValue?.count == 3)
    }

    @Test("edit changes only the named fields; 'none' clears; no change is a notice")
    func edit() throws {
        let tally = TallyRunner()
        tally.run("add", "Buy milk", "--tag", "shop", "--priority", "low", "--note", "two")
        let result = tally.run("edit", "1", "--title", "Buy oat milk", "--tag", "+home", "--tag", "-shop", "--priority", "none", "--due", "2026-12-01")
        #expect(result.status == 0)
        #expect(result.stdout == "Updated 1: Buy oat milk (edited title → 'Buy oat milk', tags → home, priority cleared, due → 2026-12-01)\n")
        let shown = tally.run("show", "1", "--json").json?.objectValue?["todo"]?.objectValue
        #expect(shown?["title"] == "Buy oat milk" && shown?["tags"] == ["home"] && shown?["priority"] == .null)
        #expect(shown?["due"] == "2026-12-01" && shown?["note"] == "two")
        let noop = tally.run("edit", "1", "--title", "Buy oat milk")
        #expect(noop.status == 0 && noop.stdout.contains("nothing changed"))
        #expect(tally.eventCount == 2)
    }

    @Test("delete, rm and delete --completed; deleted todos keep their number")
    func delete() throws {
        let tally = TallyRunner()
        for title in ["a", "b", "c", "d"] { tally.run("add", title) }
        tally.run("done", "2", "3")
        #expect(tally.run("delete", "1").stdout == "Deleted 1: a\n")
        let cleared = tally.run("rm", "--completed", "--json")
        #expect(cleared.json?.arrayValue?.compactMap { $0.objectValue?["number"]?.intValue } == [2, 3])
        #expect(tally.run("list", "--json").json?.arrayValue?.count == 1)
        tally.run("add", "e")
        #expect(tally.run("show", "5", "--json").json?.objectValue?["todo"]?.objectValue?["title"] == "e")
        #expect(tally.run("delete", "--completed").stdout == "There are no completed todos; nothing changed.\n")
    }

    @Test("show prints every field and the todo's history; --json gives todo and history")
    func show() throws {
        let tally = TallyRunner()
        tally.run("add", "Buy milk", "--tag", "shop", "--note", "oat")
        tally.run(["done", "1"], environment: ["TALLY_NOW": "2026-11-21T13:00:00Z", "TALLY_ACTOR": "bob@phone"])
        let human = tally.run("show", "1")
        #expect(human.status == 0)
        for expected in ["Title      Buy milk", "Status     completed", "Tags       shop", "Note       oat", "Completed  2026-11-21 13:00",
                         "History", "2026-11-21 12:00  \(tally.who("tester@e2e"))  created 'Buy milk'", "2026-11-21 13:00  \(tally.who("bob@phone"))  completed"] {
            #expect(human.stdout.contains(expected), "missing \(expected) in\n\(human.stdout)")
        }
        guard case .object(let shown)? = tally.run("show", "1", "--json").json else { Issue.record("not JSON"); return }
        let history = shown["history"]?.arrayValue ?? []
        #expect(history.count == 2)
        #expect(history.first?.objectValue?.keys == ["seq", "id", "stream", "version", "type", "schema", "recordedAt", "actor", "command", "data", "hash"] + tally.extraEventKeys)
        #expect(history.last?.objectValue?["actor"] == "bob@phone" && history.last?.objectValue?["recordedAt"] == "2026-11-21T13:00:00Z")
        #expect(shown["todo"]?.objectValue?["completedAt"] == "2026-11-21T13:00:00Z")
    }

    @Test("filter set changes what a bare list shows; show and reset")
    func savedFilter() throws {
        let tally = TallyRunner()
        tally.run("add", "a", "--priority", "low")
        tally.run("add", "b", "--priority", "high")
        tally.run("done", "1")
        #expect(tally.run("filter", "show").stdout.contains("No saved view"))
        let saved = tally.run("filter", "set", "--status", "active", "--sort", "priority")
        #expect(saved.status == 0 && saved.stdout == "Saved the default view: --status active --sort priority\n")
        #expect(tally.run("list", "--json").json?.arrayValue?.count == 1)
        #expect(tally.run("list", "--json", "--status", "all").json?.arrayValue?.count == 2)
        #expect(tally.run("filter", "show", "--json").json == .object(["scope": "todos", "filter": ["status": "active", "sort": "priority"]]))
        #expect(tally.run("filter", "set", "--status", "active", "--sort", "priority").stdout.contains("already saved"))
        #expect(tally.run("filter", "reset").status == 0)
        #expect(tally.run("list", "--json").json?.arrayValue?.count == 2)
        #expect(tally.eventCount == 5)
    }

    @Test("info reports path, schema, counts and size; read commands on a missing database create nothing")
    func infoAndMissingDatabase() throws {
        let tally = TallyRunner()
        #expect(tally.run("list").stdout == "No todos.\n")
        #expect(tally.run("list", "--json").stdout == "[]\n")
        #expect(tally.run("filter", "show").status == 0)
        #expect(tally.run("info").stdout.contains(tally.notCreatedText))
        #expect(!FileManager.default.fileExists(atPath: tally.databasePath))
        tally.run("add", "a")
        tally.run("add", "b")
        tally.run("done", "2")
        guard case .object(let info)? = tally.run("info", "--json").json else { Issue.record("not JSON"); return }
        #expect(info["path"]?.stringValue == tally.displayedLocation && info["events"] == 3 && info["schemaVersion"] == .int(TallyRunner.onPostgres ? Int64(PostgresMigration.all.last!.version) : 9))
        #expect(info["todos"] == .object(["total": 2, "active": 1, "completed": 1, "deleted": 0]))
        #expect((info["fileSizeBytes"]?.intValue ?? 0) > 0)
    }

    @Test("time travel with --as-of a position or an instant")
    func asOf() throws {
        let tally = TallyRunner()
        tally.run(["add", "a"], environment: ["TALLY_NOW": "2026-11-17T09:00:00Z"])
        tally.run(["done", "1"], environment: ["TALLY_NOW": "2026-11-19T09:00:00Z"])
        tally.run(["edit", "1", "--title", "b"], environment: ["TALLY_NOW": "2026-11-20T09:00:00Z"])
        #expect(tally.run("list", "--as-of", "@1", "--json").json?.arrayValue?.first?.objectValue?["completed"] == false)
        #expect(tally.run("list", "--as-of", "2026-11-18", "--json").json?.arrayValue?.first?.objectValue?["completed"] == false)
        #expect(tally.run("list", "--as-of", "2026-11-19", "--json").json?.arrayValue?.first?.objectValue?["title"] == "a")
        #expect(tally.run("list", "--as-of", "2026-11-16", "--json").stdout == "[]\n")
        #expect(tally.run("show", "1", "--as-of", "@2", "--json").json?.objectValue?["history"]?.arrayValue?.count == 2)
    }

    @Test("global options before or after the command; TZ decides local dates")
    func globalsAndZone() throws {
        let tally = TallyRunner(now: "2026-11-21T23:30:00Z", zone: "Asia/Tokyo")
        tally.run("--json", "add", "late", "--due", "today")
        let todo = tally.run("list", "--json").json?.arrayValue?.first?.objectValue
        #expect(todo?["due"] == "2026-11-22")
        let path = tally.directory.path("other.db")
        #expect(tally.run("add", "x", "--db", path).status == 0)
        #expect(tally.run("--db", path, "list", "--json").json?.arrayValue?.count == 1)
        #expect(tally.run("add", "at", "--due", "2026-11-22T09:00", "--json").json?.objectValue?["due"] == "2026-11-22T00:00:00Z")
    }

    @Test("help and version go to stdout with exit 0, and the help forms agree")
    func helpAndVersion() throws {
        let tally = TallyRunner()
        let version = tally.run("--version")
        #expect(version.status == 0 && version.stdout.hasPrefix("tally "))
        let help = tally.run("help", "add")
        #expect(help.status == 0 && help.stdout.contains("tally add"))
        #expect(tally.run("add", "--help").stdout == help.stdout)
        #expect(tally.run("add", "-h").stdout == help.stdout)
        let overview = tally.run([])
        #expect(overview.status == 0 && overview.stdout.contains("list"))
        #expect(tally.run("--help").status == 0)
        #expect(tally.run("filter").stdout.contains("set"))
    }
}
