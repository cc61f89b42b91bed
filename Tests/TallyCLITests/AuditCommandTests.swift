import Foundation
import Testing
import TallyDomain
import TallyTestSupport
@testable import TallyEssentials

/// Runs SQL against a database with the sqlite3 shell, as someone tampering with the file would;
/// on PostgreSQL, with psql as the database's owner (`DROP TRIGGER t` becomes `DROP TRIGGER t ON events`).
func sqlite(_ path: String, _ sql: String) throws {
    if TallyRunner.onPostgres {
        let statement = sql.replacingOccurrences(of: #"DROP TRIGGER (\w+)"#, with: "DROP TRIGGER $1 ON events", options: .regularExpression)
        try PostgresTestServer.shared().psql(statement, database: PostgresTestServer.databaseName(path))
        return
    }
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/sqlite3")
    process.arguments = [path, sql]
    try process.run()
    process.waitUntilExit()
    #expect(process.terminationStatus == 0, "sqlite3 failed: \(sql)")
}

extension RunResult {
    /// The `number` fields of a JSON array of todos.
    var numbers: [Int64] { json?.arrayValue?.compactMap { $0.objectValue?["number"]?.intValue } ?? [-1] }
    /// The `title` fields of a JSON array of todos.
    var titles: [String] { json?.arrayValue?.compactMap { $0.objectValue?["title"]?.stringValue } ?? ["?"] }
}

@Suite("tally log and time travel, end to end", .tags(.postgresql))
struct LogCommandTests {
    /// One command an hour from 09:00: add a, add b, done 1, edit 2, rm 1, undo (the rm).
    func scripted() -> TallyRunner {
        let tally = TallyRunner()
        let steps: [[String]] = [
            ["add", "Buy milk", "--tag", "shop"], ["add", "Bread"], ["done", "1"],
            ["edit", "2", "--title", "Rye bread", "--priority", "high"], ["rm", "1"], ["undo"],
        ]
        for (hour, arguments) in zip(9..., steps) {
            let result = tally.run(arguments, environment: ["TALLY_NOW": "2026-11-21T\(hour < 10 ? "0" : "")\(hour):00:00Z"])
            #expect(result.status == 0, "\(arguments): \(result.stderr)")
        }
        return tally
    }

    @Test("log lists events newest first with seq, time, actor, type, item and a readable summary")
    func human() {
        let tally = scripted()
        let result = tally.run("log")
        #expect(result.status == 0 && result.stderr == "")
        let lines = result.stdout.split(separator: "\n").map(String.init)
        let who = tally.who("tester@e2e")
        #expect(lines.first == "Seq  Time              " + "Actor".padding(toLength: who.count, withPad: " ", startingAt: 0) + "  Type            Item          Summary")
        #expect(lines[1].hasPrefix("  7  2026-11-21 14:00  \(who)  history.undone                undid command "))
        #expect(lines[2] == "  6  2026-11-21 14:00  \(who)  todo.restored   1: Buy milk   restored")
        #expect(lines[4] == "  4  2026-11-21 12:00  \(who)  todo.edited     2: Rye bread  title: 'Bread' → 'Rye bread', priority: none → high")
        #expect(lines[7] == "  1  2026-11-21 09:00  \(who)  todo.created    1: Buy milk   created 'Buy milk'")
        #expect(lines.count == 8)
    }

    @Test("log filters by item, type and time, limits, reverses, and prints event objects with --json")
    func filters() {
        let tally = scripted()
        func seqs(_ arguments: String...) -> [Int64] {
            let result = tally.run(["log", "--json"] + arguments)
            #expect(result.status == 0, "\(arguments): \(result.stderr)")
            return result.json?.arrayValue?.compactMap { $0.objectValue?["seq"]?.intValue } ?? [-1]
        }
        #expect(seqs() == [7, 6, 5, 4, 3, 2, 1])
        #expect(seqs("1") == [6, 5, 3, 1])
        #expect(seqs("2", "--reverse") == [2, 4])
        #expect(seqs("--type", "todo.created", "--type", "todo.deleted") == [5, 2, 1])
        #expect(seqs("--since", "2026-11-21T11:00", "--until", "2026-11-21T12:00") == [4, 3])
        #expect(seqs("--since", "today", "--limit", "2") == [7, 6])
        #expect(seqs("--limit", "2", "--reverse") == [6, 7])
        #expect(seqs("--until", "2026-11-20") == [])
        let event = tally.run("log", "--json", "--limit", "1").json?.arrayValue?.first?.objectValue
        #expect(event?.keys == ["seq", "id", "stream", "version", "type", "schema", "recordedAt", "actor", "command", "data", "hash"] + tally.extraEventKeys)
        #expect(tally.run("log", "--type", "todo.created", "--since", "tomorrow").stdout == "No events.\n")
    }

    @Test("an unknown --type is a usage error listing the known types; an unknown REF exits 1")
    func errors() {
        let tally = scripted()
        let unknown = tally.run("log", "--type", "todo.finished")
        #expect(unknown.status == 64)
        #expect(unknown.stderr.hasPrefix("Error: Invalid value 'todo.finished' for '--type': expected one of "))
        #expect(EventCatalog.types.allSatisfy(unknown.stderr.contains))
        #expect(tally.run("log", "9").status == 1)
        #expect(tally.run("log", "--limit", "0").status == 65)
    }

    @Test("list and show --as-of give the view at several points of the history")
    func timeTravel() {
        let tally = scripted()
        func view(_ asOf: String) -> [String] {
            let result = tally.run("list", "--json", "--deleted", "--as-of", asOf)
            #expect(result.status == 0, "\(asOf): \(result.stderr)")
            return result.json?.arrayValue?.compactMap { todo in
                guard let object = todo.objectValue, let title = object["title"]?.stringValue else { return nil }
                let state = object["deleted"] == true ? "deleted" : (object["completed"] == true ? "done" : "open")
                return "\(title) \(state)"
            } ?? ["?"]
        }
        #expect(view("2026-11-20") == [])
        #expect(view("2026-11-21T09:30") == ["Buy milk open"])
        #expect(view("@2") == ["Buy milk open", "Bread open"])
        #expect(view("2026-11-21T11:00") == ["Buy milk done", "Bread open"])
        #expect(view("@4") == ["Buy milk done", "Rye bread open"])
        #expect(view("2026-11-21T13:59") == ["Buy milk deleted", "Rye bread open"])
        #expect(view("now") == ["Buy milk done", "Rye bread open"])
        #expect(view("today") == view("@7"))
        let show = tally.run("show", "2", "--json", "--as-of", "@3").json?.objectValue
        #expect(show?["todo"]?.objectValue?["title"] == "Bread")
        #expect(show?["history"]?.arrayValue?.count == 1)
        #expect(tally.run("list", "--as-of", "@3").stdout.contains("1 active, 1 completed"))
        // On Monday 2026-11-23 a weekday looks back: `sat` is the Saturday the history happened on, `fri`
        // the day before it; `log --since sat` lists that Saturday's events.
        let monday = ["TALLY_NOW": "2026-11-23T08:00:00Z"]
        let saturday = tally.run(["list", "--json", "--deleted", "--as-of", "sat"], environment: monday)
        #expect(saturday.status == 0 && saturday.titles == ["Buy milk", "Rye bread"], "\(saturday.stdout)\(saturday.stderr)")
        #expect(tally.run(["list", "--json", "--as-of", "fri"], environment: monday).titles == [])
        #expect(tally.run(["log", "--json", "--since", "sat"], environment: monday).json?.arrayValue?.count == Int(tally.eventCount))
        #expect(tally.run(["log", "--json", "--since", "sun"], environment: monday).json?.arrayValue?.count == 0)
    }
}

@Suite("tally undo and redo, end to end", .tags(.postgresql))
struct UndoCommandTests {
    @Test("records: undo reverts a record edit and a log, log shows before → after, redo brings them back")
    func records() {
        let tally = TallyRunner()
        #expect(tally.run("record", "add", "Morning run", "--category", "run", "--duration", "30m", "--distance", "5km").status == 0)
        #expect(tally.run("record", "edit", "1", "--name", "Long run", "--duration", "1h").status == 0)
        let log = tally.run("log", "--limit", "1")
        #expect(log.stdout.contains("record.edited  1: Long run  name: 'Morning run' → 'Long run', duration: 30:00 → 1:00:00"), "\(log.stdout)")
        let undo = tally.run("undo")
        #expect(undo.status == 0, "\(undo.stderr)")
        #expect(undo.stdout.contains("  1: Morning run: name: 'Long run' → 'Morning run', duration: 1:00:00 → 30:00"), "\(undo.stdout)")
        let shown = tally.run("record", "show", "1", "--json").json?.objectValue?["record"]?.objectValue
        #expect(shown?["name"]?.stringValue == "Morning run")
        #expect(shown?["durationSeconds"]?.intValue == 1800)
        let second = tally.run("undo", "--json")
        #expect(second.status == 0)
        #expect(second.json?.arrayValue?.first?.objectValue?["deleted"]?.boolValue == true)
        #expect(tally.run("record", "list", "--json").json?.arrayValue?.count == 0)
        #expect(tally.run("redo", "--steps", "2").status == 0)
        #expect(tally.run("record", "show", "1", "--json").json?.objectValue?["record"]?.objectValue?["name"]?.stringValue == "Long run")
    }

    @Test("undo prints before → after and appends; redo re-applies; --json prints the affected todos")
    func undoRedo() throws {
        let tally = TallyRunner()
        tally.run("add", "Buy milk")
        tally.run("add", "Bread")
        tally.run("toggle", "1", "2")
        let undo = tally.run("undo")
        #expect(undo.status == 0, "\(undo.stderr)")
        let lines = undo.stdout.split(separator: "\n")
        #expect(lines.count == 3)
        #expect(lines[0].hasPrefix("Undid command ") && lines[0].hasSuffix(" by tester@e2e at 2026-11-21 12:00:"))
        #expect(lines[1] == "  1: Buy milk: completed → active")
        #expect(lines[2] == "  2: Bread: completed → active")
        #expect(tally.eventCount == 7)
        let redo = tally.run("redo", "--json")
        #expect(redo.status == 0)
        #expect(redo.numbers == [1, 2])
        #expect(redo.json?.arrayValue?.allSatisfy { $0.objectValue?["completed"] == true } == true)
        tally.run("edit", "2", "--title", "Rye bread", "--note", "sliced")
        #expect(tally.run("undo").stdout.hasSuffix("\n  2: Bread: title: 'Rye bread' → 'Bread', note: 'sliced' → none\n"))
        let two = tally.run("undo", "--steps", "2", "--json")
        #expect(two.numbers == [1, 2])
        #expect(tally.run("list", "--json").titles == ["Buy milk"])
    }

    @Test("undoing delete --completed restores every todo it deleted, as one command")
    func deleteCompleted() {
        let tally = TallyRunner()
        for title in ["a", "b", "c"] { tally.run("add", title) }
        tally.run("done", "1", "3")
        tally.run("rm", "--completed")
        #expect(tally.run("list", "--json").titles == ["b"])
        let undo = tally.run("undo")
        #expect(undo.stdout.contains("  1: a: deleted → completed\n  3: c: deleted → completed\n"))
        #expect(tally.run("list", "--json").titles == ["a", "b", "c"])
        let events = tally.run("log", "--json", "--limit", "3").json?.arrayValue ?? []
        #expect(Set(events.compactMap { $0.objectValue?["command"]?.stringValue }).count == 1)
    }

    @Test("undo and redo of the saved view describe the views")
    func filters() {
        let tally = TallyRunner()
        tally.run("filter", "set", "--status", "active")
        tally.run("filter", "set", "--sort", "due")
        #expect(tally.run("undo").stdout.hasSuffix("\n  todos view: --sort due → --status active\n"))
        #expect(tally.run("undo").stdout.hasSuffix("\n  todos view: --status active → default\n"))
        let redo = tally.run("redo", "--steps", "2").stdout
        #expect(redo.contains("\n  todos view: default → --status active\nRedid command "))
        #expect(redo.hasSuffix("\n  todos view: --status active → --sort due\n"))
    }

    @Test("nothing to undo or redo exits 1 and appends nothing; a bad --steps exits 65")
    func nothing() {
        let tally = TallyRunner()
        let empty = tally.run("undo")
        #expect(empty.status == 1 && empty.stderr == "Error: Nothing to undo.\n")
        #expect(!FileManager.default.fileExists(atPath: tally.databasePath) || tally.eventCount == 0)
        tally.run("add", "a")
        tally.run("undo")
        tally.run("add", "b")
        let redo = tally.run("redo")
        #expect(redo.status == 1 && redo.stderr.hasPrefix("Error: Nothing to redo: "))
        #expect(tally.run("--json", "redo").stderr.contains(#""code":"nothing_to_redo""#))
        #expect(tally.run("undo", "--steps", "0").status == 65)
        #expect(tally.eventCount == 4)
    }
}

@Suite("tally verify, end to end", .tags(.postgresql))
struct VerifyCommandTests {
    func seeded() -> TallyRunner {
        let tally = TallyRunner()
        tally.run("add", "a")
        tally.run("add", "b")
        tally.run("done", "1")
        tally.run("edit", "2", "--title", "B")
        return tally
    }

    @Test("an intact log: OK with the count, exit 0; --json gives ok, events and problems")
    func intact() throws {
        let tally = seeded()
        #expect(tally.run("verify").stdout == "OK: 4 events, chain intact\n")
        let json = try #require(tally.run("verify", "--json").json)
        #expect(json == .object(["ok": true, "events": 4, "problems": []]))
        #expect(TallyRunner().run("verify").stdout == "OK: 0 events, chain intact\n")
    }

    @Test("tampering is detected and the first bad event named", arguments: [
        ("DROP TRIGGER events_reject_update; UPDATE events SET data = '{\"title\":\"evil\"}' WHERE seq = 4", [4], "hash"),
        ("DROP TRIGGER events_reject_delete; DELETE FROM events WHERE seq = 2", [3, 4], "sequence"),
        ("DROP TRIGGER events_reject_update; CREATE TEMP TABLE saved AS SELECT seq, data FROM events WHERE seq IN (2, 4);"
            + " UPDATE events SET data = (SELECT data FROM saved WHERE saved.seq = 6 - events.seq) WHERE seq IN (2, 4)", [2, 4], "hash"),
        ("DROP TRIGGER events_reject_update; UPDATE events SET version = 3 WHERE seq = 3", [3], "hash"),
    ])
    func tampering(sql: String, seqs: [Int64], firstKind: String) throws {
        let tally = seeded()
        try sqlite(tally.databasePath, sql)
        let result = tally.run("verify")
        #expect(result.status == 1)
        #expect(result.stdout.hasPrefix("  seq \(seqs[0]): "), "\(result.stdout)")
        #expect(result.stderr.contains("the first bad event is seq \(seqs[0])."), "\(result.stderr)")
        let json = try #require(tally.run("verify", "--json").json?.objectValue)
        #expect(json["ok"] == false)
        let problems = json["problems"]?.arrayValue?.compactMap(\.objectValue) ?? []
        #expect(problems.first?["kind"]?.stringValue == firstKind)
        #expect(Set(problems.compactMap { $0["seq"]?.intValue }) == Set(seqs))
        #expect(problems.allSatisfy { $0["message"]?.stringValue?.isEmpty == false })
    }
}

@Suite("tally export and import, end to end", .tags(.postgresql))
struct ExportImportCommandTests {
    func seeded() -> TallyRunner {
        let tally = TallyRunner()
        tally.run("add", "Buy milk", "--tag", "shop", "--note", "2 \"litres\"")
        tally.run("add", "Bread", "--due", "2026-11-24T09:30")
        tally.run("toggle", "1", "2")
        tally.run("undo")
        tally.run("filter", "set", "--status", "active")
        return tally
    }

    @Test("export writes one event object per line; import into an empty database reproduces the log and the views")
    func roundTrip() throws {
        let source = seeded()
        let exported = source.run("export")
        #expect(exported.status == 0)
        let lines = exported.stdout.split(separator: "\n")
        #expect(lines.count == 8)
        #expect(lines.allSatisfy { (try? JSON.parse(String($0)))?.objectValue?["hash"] != nil })
        #expect(source.run("export", "--since", "5").stdout.split(separator: "\n").count == 3)
        let file = source.directory.path("backup.jsonl")
        #expect(source.run("export", "--output", file).stdout == "Exported 8 events to \(file).\n")
        #expect(try String(contentsOfFile: file, encoding: .utf8) == exported.stdout)

        let target = TallyRunner()
        let imported = target.run("import", file)
        #expect(imported.status == 0 && imported.stdout == "Imported 8 of 8 events (0 already present).\n")
        #expect(target.run("export").stdout == exported.stdout)
        #expect(target.run("list", "--json").stdout == source.run("list", "--json").stdout)
        #expect(target.run("verify").status == 0)
        let again = target.run("import", "--json", file)
        #expect(again.json == .object(["read": 8, "appended": 0, "skipped": 8, "blobs": 0]))
        let piped = TallyRunner()
        #expect(piped.run(["import", "-"], input: exported.stdout).status == 0)
        #expect(piped.run("export").stdout == exported.stdout)
    }

    @Test("malformed lines exit 65 naming the line, and nothing is appended", arguments: [
        ("{\"id\":", 3, "not valid JSON"),
        ("{\"id\":\"x\",\"stream\":\"s\",\"version\":1,\"type\":\"todo.zapped\",\"schema\":1,\"recordedAt\":\"2026-11-21T12:00:00Z\",\"actor\":\"a\",\"command\":\"c\",\"data\":{}}", 3, "unknown event type"),
        ("{\"id\":\"x\",\"stream\":\"s\",\"version\":1,\"type\":\"todo.completed\",\"schema\":1,\"recordedAt\":\"2026-11-21T12:00:00Z\",\"actor\":\"a\",\"command\":\"c\"}", 3, "missing field 'data'"),
        ("{\"id\":\"x\",\"stream\":\"s\",\"version\":\"one\",\"type\":\"todo.completed\",\"schema\":1,\"recordedAt\":\"2026-11-21T12:00:00Z\",\"actor\":\"a\",\"command\":\"c\",\"data\":{}}", 3, "field 'version'"),
    ])
    func malformed(line: String, number: Int, reason: String) {
        let source = seeded()
        let lines = source.run("export").stdout.split(separator: "\n").map(String.init)
        let target = TallyRunner()
        target.run("add", "local")
        let result = target.run(["import", "-"], input: ([lines[0], lines[1], line] + lines[2...]).joined(separator: "\n") + "\n")
        #expect(result.status == 65, "\(result.stderr)")
        #expect(result.stderr.hasPrefix("Error: Line \(number): ") && result.stderr.contains(reason), "\(result.stderr)")
        #expect(result.stderr.contains("Nothing was imported."))
        #expect(target.eventCount == 1)
    }

    @Test("a truncated last line exits 65; a missing file exits 66; a clash exits 1; nothing is appended")
    func failures() throws {
        let source = seeded()
        let text = source.run("export").stdout
        let target = TallyRunner()
        let truncated = target.run(["import", "-"], input: String(text.dropLast(20)))
        #expect(truncated.status == 65 && truncated.stderr.hasPrefix("Error: Line 8: "))
        let missing = target.run("import", target.directory.path("nope.jsonl"))
        #expect(missing.status == 66 && missing.stderr.contains("nope.jsonl"))
        #expect(target.run("import", target.directory.url.path).status == 66)
        target.run("filter", "set", "--sort", "due")
        let clash = target.run(["import", "-"], input: text)
        #expect(clash.status == 1 && clash.stderr.hasPrefix("Error: Line 8: version 1 of stream filter:todos is already taken"), "\(clash.stderr)")
        #expect(target.eventCount == 1)
        let changed = text.replacingOccurrences(of: "Buy milk", with: "Buy beer")
        source.run("add", "x")
        let different = source.run(["import", "-"], input: changed)
        #expect(different.status == 1 && different.stderr.contains("already in the log with different content"))
        #expect(source.eventCount == 9)
    }

    @Test("a log written with schema 1 payloads reads, folds, verifies and exports unchanged")
    func schemaOneFixture() throws {
        let fixture = PackageFiles.url("Tests/Fixtures/schema1-todos.jsonl").path
        let text = try String(contentsOfFile: fixture, encoding: .utf8)
        #expect(text.contains(#""type":"todo.created","schema":1"#) && text.contains("Cafe\u{301}"))
        let tally = TallyRunner()
        #expect(tally.run("import", fixture).status == 0)
        #expect(tally.run("verify").stdout == "OK: 5 events, chain intact\n")
        #expect(tally.run("export").stdout == text)
        let todos = tally.run("list", "--json", "--status", "all").json?.arrayValue?.compactMap(\.objectValue) ?? []
        #expect(todos.map { Array(($0["title"]?.stringValue ?? "").unicodeScalars) } == [
            Array("Caf\u{E9} au lait (large)".unicodeScalars), Array("Cr\u{E8}me br\u{FB}l\u{E9}e".unicodeScalars),
        ])
        #expect(todos.first?["note"] == .string("Ol\u{E9} brand"))
        #expect(todos.last?["due"] == "2026-11-24T08:30:00Z" && todos.last?["completed"] == true)
        #expect(tally.run("list", "--json").numbers == [1])
        tally.run("edit", "1", "--title", "Cafe\u{301}")
        let edit = tally.run("log", "--json", "--limit", "1").json?.arrayValue?.first?.objectValue
        #expect(edit?["schema"] == 3 && edit?["data"] == .object(["title": .string("Caf\u{E9}")]), "log --json leaves the salts out")
        #expect(tally.run("verify").status == 0)
    }
}
