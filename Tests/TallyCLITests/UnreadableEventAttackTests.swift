import Foundation
import Testing
@testable import TallySQLite
import TallyTestSupport
@testable import TallyEssentials

/// An event no client can read (written by a newer tally, or a bad row put in behind tally's back)
/// must not brick the log: every command applies nothing for it, warns once naming it, and keeps
/// reading and writing; `verify` still reports it.
@Suite("One unreadable event, end to end")
struct UnreadableEventAttackTests {
    struct Damage: Sendable, CustomTestStringConvertible {
        let name: String
        /// SQL run on the seeded store (the update trigger dropped first).
        let sql: String
        /// What the warning says the reason is.
        let reason: String
        var testDescription: String { name }
    }

    static let damages = [
        Damage(name: "a payload that is not JSON", sql: "UPDATE events SET data = '{\"title\":' WHERE seq = 2", reason: "payload is not valid JSON"),
        Damage(name: "an event type from a newer tally", sql: "UPDATE events SET type = 'todo.teleported' WHERE seq = 2", reason: "unknown event type"),
        Damage(name: "a payload missing its title", sql: "UPDATE events SET data = '{}' WHERE seq = 2", reason: "missing field 'title'"),
        Damage(name: "a completion of an unknown schema", sql: "UPDATE events SET schema = 99 WHERE seq = 4", reason: "schema"),
    ]

    /// todos one, two, three; `done 1`; a record.
    static func seeded() throws -> TallyRunner {
        let tally = TallyRunner()
        for title in ["one", "two", "three"] { tally.run("add", title) }
        tally.run("done", "1")
        tally.run("record", "add", "Run", "--category", "running", "--duration", "20m")
        return tally
    }

    static func sql(_ tally: TallyRunner, _ text: String) throws {
        let connection = try Connection(path: tally.databasePath, access: .readWrite)
        for statement in ["DROP TRIGGER events_reject_update", text] { try connection.statement(statement).step() }
    }

    static func head(_ tally: TallyRunner) throws -> Int64 {
        let log = try #require(try SQLiteEventLog.openForReading(path: tally.databasePath))
        defer { log.close() }
        return try log.head().seq
    }

    @Test("reads and writes go on with one warning naming the event; verify reports it", arguments: damages)
    func unreadable(_ damage: Damage) throws {
        guard !TallyRunner.onPostgres else { return }
        let tally = try Self.seeded()
        try Self.sql(tally, damage.sql)
        let seq = damage.sql.hasSuffix("seq = 4") ? 4 : 2
        let id = try #require(try SQLiteEventLog.openForReading(path: tally.databasePath).map { log in
            defer { log.close() }
            var id: String?
            try log.scan(after: Int64(seq - 1), through: Int64(seq)) { id = $0.id }
            return id
        } ?? nil)

        func expectOneWarning(_ result: RunResult, _ what: String) {
            let lines = result.stderr.split(separator: "\n")
            #expect(result.status == 0, "\(damage.name), \(what): exit \(result.status) \(result.stderr)")
            #expect(lines.count == 1 && lines[0].hasPrefix("Warning: Event \(seq) (id \(id), "), "\(damage.name), \(what): \(result.stderr)")
            #expect(result.stderr.contains(damage.reason) && result.stderr.contains("Nothing of it was applied; run 'tally verify' for a full report."))
        }

        let list = tally.run("list")
        expectOneWarning(list, "list")
        // Nothing of the event is applied: todo two is not there, or todo one is not completed.
        if seq == 2 {
            #expect(!list.stdout.contains("two") && list.stdout.contains("one") && list.stdout.contains("three"), "\(list.stdout)")
        } else {
            #expect(list.stdout.contains("1  [ ]   one"), "\(list.stdout)")
        }
        let json = tally.run("--json", "list")
        #expect(json.status == 0 && json.stderr.contains(#""code":"unreadable_event""#) && json.stderr.split(separator: "\n").count == 1)
        #expect(json.json?.arrayValue?.count == (seq == 2 ? 2 : 3))
        for arguments in [["show", "1"], ["log"], ["record", "list"], ["stats"], ["export"], ["info"]] {
            let result = tally.run(arguments)
            #expect(result.status == 0, "\(damage.name), \(arguments): \(result.stderr)")
            #expect(result.stderr.isEmpty || result.stderr.split(separator: "\n").count == 1, "\(arguments): \(result.stderr)")
        }
        #expect(try Self.head(tally) == 5, "reads appended nothing")

        // Writes go on: a new todo, completing one, editing, undoing; each appends what it says.
        let added = tally.run("add", "four")
        expectOneWarning(added, "add")
        #expect(try Self.head(tally) == 6)
        let done = tally.run("done", "1")
        expectOneWarning(done, "done")
        #expect(done.stdout.hasPrefix("Completed 1: one") == (seq == 4), "\(done.stdout)")
        let edit = tally.run("edit", "3", "--title", "third")
        expectOneWarning(edit, "edit")
        #expect(tally.run("list").stdout.contains("third"))
        let undo = tally.run("undo")
        #expect(undo.status == 0, "\(undo.stderr)")
        #expect(!tally.run("list").stdout.contains("third"))
        #expect(try Self.head(tally) == (seq == 4 ? 10 : 9), "add, done (when it changes anything), edit and undo appended one event each")

        let verify = tally.run("verify")
        #expect(verify.status == 1 && verify.stdout.contains("seq \(seq): "), "\(verify.stdout)")
        #expect(verify.stdout.contains("cannot be read"), "\(verify.stdout)")

        // Many commands later, with a snapshot past the event, the answers stay the same.
        let before = tally.run("list").stdout
        #expect(tally.run("rebuild").status == 0)
        let after = tally.run("list")
        #expect(after.status == 0 && after.stdout == before)
    }
}
