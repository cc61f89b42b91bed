import Foundation
import Testing
import TallyEngine
import TallyDomain
import TallySQLite
import TallyTestSupport
@testable import TallyEssentials

@Suite("tally errors and exit codes, end to end")
struct ErrorTests {
    /// A store with two todos, so REFs have something to miss.
    func seeded() -> TallyRunner {
        let tally = TallyRunner()
        tally.run("add", "first")
        tally.run("add", "second")
        return tally
    }

    @Test("usage errors exit 64 with the message, the usage line and the help hint; nothing is appended", arguments: [
        (["lsit"], "Error: Unknown command 'lsit'. Did you mean 'list'?"),
        (["list", "--stauts", "active"], "Error: Unknown option '--stauts'. Did you mean '--status'?"),
        (["add"], "Error: Missing expected argument 'TITLE'."),
        (["add", "x", "--tag"], "Error: Missing value for option '--tag'."),
        (["edit", "1"], "Error: Nothing to change"),
        (["show", "1", "2"], "Error: Unexpected argument '2'."),
        (["list", "--limit", "1", "--limit", "2"], "Error: Option '--limit' given more than once."),
        (["list", "--sort", "size"], "Error: Invalid value 'size' for '--sort'"),
        (["toggle"], "Error: Missing expected argument 'REF'."),
        (["toggle", "1", "--all"], "Error: Options '--all' and 'REF' cannot be used together."),
        (["delete", "1", "--completed"], "Error: Options '--completed' and 'REF' cannot be used together."),
        (["filter", "set"], "Error: Give at least one list option"),
        (["filter", "sett"], "Error: Unknown command 'sett'."),
    ])
    func usage(arguments: [String], message: String) {
        let tally = seeded()
        let result = tally.run(arguments)
        #expect(result.status == 64, "\(arguments): \(result.stderr)")
        #expect(result.stdout == "")
        #expect(result.stderr.hasPrefix(message), "\(arguments): \(result.stderr)")
        #expect(result.stderr.contains("Usage: tally"))
        #expect(result.stderr.contains("--help' for more information."))
        #expect(tally.eventCount == 2)
    }

    @Test("invalid data exits 65 with a clear message; nothing is appended", arguments: [
        (["add", "   "], "Error: The title is empty."),
        (["add", "x", "--due", "2026-02-30"], "Error: Invalid date or time '2026-02-30'"),
        (["add", "x", "--due", "2026-11-21T25:00"], "Error: Invalid date or time '2026-11-21T25:00'"),
        (["add", "x", "--priority", "urgent"], "Error: Invalid priority 'urgent'"),
        (["add", "x", "--tag", "Two Words"], "Error: Invalid tag 'Two Words'"),
        (["add", "bell\u{7}"], "Error: The title contains control characters."),
        (["edit", "1", "--due", "someday"], "Error: Invalid date or time 'someday'"),
        (["list", "--limit", "0"], "Error: Invalid number '0'"),
        (["list", "--limit", "many"], "Error: Invalid number 'many'"),
        (["list", "--due-before", "2026-13-01"], "Error: Invalid date or time '2026-13-01'"),
        (["list", "--as-of", "@x"], "Error: Invalid date or time '@x'"),
        (["filter", "set", "--due-after", "nope"], "Error: Invalid date or time 'nope'"),
    ])
    func invalidData(arguments: [String], message: String) {
        let tally = seeded()
        let result = tally.run(arguments)
        #expect(result.status == 65, "\(arguments): \(result.stderr)")
        #expect(result.stderr.hasPrefix(message), "\(arguments): \(result.stderr)")
        #expect(tally.eventCount == 2)
    }

    @Test("a title over 500 characters is refused; exactly 500 is accepted")
    func titleLength() {
        let tally = TallyRunner()
        #expect(tally.run("add", String(repeating: "x", count: 501)).status == 65)
        #expect(tally.run("add", String(repeating: "x", count: 500)).status == 0)
    }

    @Test("unknown REFs and deleted todos exit 1; nothing is appended", arguments: [
        (["done", "9"], "Error: No todo matches '9'."),
        (["toggle", "1", "ffff"], "Error: No todo matches 'ffff'."),
        (["show", "xyz"], "Error: No todo matches 'xyz'."),
        (["edit", "0", "--title", "x"], "Error: No todo matches '0'."),
    ])
    func unknownReference(arguments: [String], message: String) {
        let tally = seeded()
        let result = tally.run(arguments)
        #expect(result.status == 1, "\(arguments): \(result.stderr)")
        #expect(result.stderr.hasPrefix(message))
        #expect(!result.stderr.contains("Usage:"))
        #expect(tally.eventCount == 2)
    }

    @Test("a deleted todo cannot be toggled")
    func deletedTodo() {
        let tally = seeded()
        tally.run("rm", "1")
        let result = tally.run("toggle", "1", "2")
        #expect(result.status == 1 && result.stderr.hasPrefix("Error: Todo 1 is deleted"))
        #expect(tally.eventCount == 3)
    }

    @Test("an ambiguous id prefix exits 1 and lists the candidates")
    func ambiguous() throws {
        let tally = TallyRunner()
        // Ids are drawn in this order per add: the todo, the command, the event.
        let ids = ["abcd1111-0000-4000-8000-000000000001", "c1", "e1", "abcd2222-0000-4000-8000-000000000002", "c2", "e2"]
        let counter = SequentialIDs()
        let environment = AppEnvironment(now: { Fixtures.epoch }, makeID: { ids[Int(counter.make().suffix(12))! - 1] }, actor: "seed", zone: Fixtures.utc)
        let dispatcher = Dispatcher(log: try SQLiteEventLog.openForWriting(path: tally.databasePath, now: 0), environment: environment)
        _ = try dispatcher.execute(.addTodo(TodoInput(title: "Alpha")))
        _ = try dispatcher.execute(.addTodo(TodoInput(title: "Beta")))
        let result = tally.run("done", "abcd")
        #expect(result.status == 1)
        #expect(result.stderr.hasPrefix("Error: 'abcd' matches 2 todos"))
        #expect(result.stderr.contains("1  abcd1111-0000-4000-8000-000000000001  Alpha"))
        #expect(result.stderr.contains("2  abcd2222-0000-4000-8000-000000000002  Beta"))
        #expect(tally.run("done", "abcd2").status == 0)
        let json = tally.run("done", "abcd", "--json")
        #expect(json.stderr.contains(#""code":"ambiguous""#))
    }

    @Test("--json errors are one JSON object on stderr and nothing on stdout")
    func jsonErrors() throws {
        let tally = seeded()
        let result = tally.run("done", "42", "--json")
        #expect(result.status == 1 && result.stdout == "")
        let error = try JSON.parse(result.stderr.trimmingCharacters(in: .whitespacesAndNewlines))
        #expect(error == .object(["error": .object(["code": "not_found", "message": "No todo matches '42'."])]))
        let usage = tally.run("--json", "frobnicate")
        #expect(usage.status == 64)
        #expect((try? JSON.parse(usage.stderr))?.objectValue?["error"]?.objectValue?["code"] == "usage")
    }

    @Test("database problems exit 74: a directory, a file that is not SQLite, a newer schema")
    func databaseErrors() throws {
        let tally = TallyRunner()
        let directoryResult = tally.run(["add", "x"], environment: ["TALLY_DB": tally.directory.url.path])
        #expect(directoryResult.status == 74 && directoryResult.stderr.contains("is a directory"))
        #expect(tally.run(["list"], environment: ["TALLY_DB": tally.directory.url.path]).status == 74)
        let text = tally.directory.path("notes.txt")
        try String(repeating: "hello, not a database\n", count: 200).write(toFile: text, atomically: true, encoding: .utf8)
        let notSQLite = tally.run(["list"], environment: ["TALLY_DB": text])
        #expect(notSQLite.status == 74 && notSQLite.stderr.contains("not a tally database"))
        #expect(tally.run(["add", "x"], environment: ["TALLY_DB": text]).status == 74)
        #expect(try String(contentsOfFile: text, encoding: .utf8).hasPrefix("hello"))
        tally.run("add", "x")
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/sqlite3")
        process.arguments = [tally.databasePath, "INSERT INTO schema_migrations VALUES (99, '0099_future', 0)"]
        try process.run()
        process.waitUntilExit()
        let newer = tally.run("list")
        #expect(newer.status == 74 && newer.stderr.contains("schema version 99"))
        #expect(tally.run("add", "y").status == 74)
    }

    @Test("a busy database exits 75 after the retry budget, appending nothing")
    func busy() throws {
        let tally = seeded()
        let blocker = try SQLiteEventLog.openForWriting(path: tally.databasePath, now: 0)
        try blocker.write {
            let result = tally.run(["add", "blocked"], environment: ["TALLY_BUSY_TIMEOUT": "100"])
            #expect(result.status == 75)
            #expect(result.stderr.contains("busy"))
        }
        #expect(tally.eventCount == 2)
    }

    @Test("an invalid TALLY_NOW is reported as invalid data")
    func invalidNow() {
        let tally = TallyRunner()
        let result = tally.run(["list"], environment: ["TALLY_NOW": "yesterday-ish"])
        #expect(result.status == 65 && result.stderr.contains("TALLY_NOW"))
    }
}

@Suite("tally with several processes")
struct ConcurrencyTests {
    @Test("two processes adding at the same time lose nothing")
    func twoWriters() async throws {
        let tally = TallyRunner()
        let perProcess = 15
        await withTaskGroup(of: Void.self) { group in
            for writer in 0..<2 {
                group.addTask {
                    for index in 0..<perProcess {
                        let result = tally.run("add", "writer \(writer) item \(index)")
                        #expect(result.status == 0, "\(result.stderr)")
                    }
                }
            }
        }
        let todos = tally.run("list", "--json").json?.arrayValue ?? []
        #expect(todos.count == 2 * perProcess)
        #expect(Set(todos.compactMap { $0.objectValue?["title"]?.stringValue }).count == 2 * perProcess)
        #expect(todos.compactMap { $0.objectValue?["number"]?.intValue } == (1...Int64(2 * perProcess)).map { $0 })
    }
}
