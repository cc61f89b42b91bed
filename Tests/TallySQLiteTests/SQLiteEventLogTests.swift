import CSQLite
import Foundation
import Testing
@testable import TallySQLite
import TallyDomain
import TallyTestSupport

@Suite("SQLite event log")
struct SQLiteEventLogTests {
    let directory = TemporaryDirectory()

    func sqlite(_ path: String, _ sql: String) throws -> String {
        let connection = try Connection(path: path, access: .readWrite)
        var rows: [String] = []
        let statement = try connection.statement(sql)
        while try statement.step() {
            rows.append(statement.string(at: 0))
        }
        return rows.joined(separator: "\n")
    }

    @Test("migrating an empty file creates the schema and records the migration once")
    func migrateEmpty() throws {
        let path = directory.path("new.db")
        let log = try SQLiteEventLog.openForWriting(path: path, now: 1)
        #expect(try log.schemaVersion() == Migration.embedded.last!.version)
        #expect(try log.head() == .empty)
        _ = try SQLiteEventLog.openForWriting(path: path, now: 2)
        #expect(try sqlite(path, "SELECT count(*) FROM schema_migrations") == String(Migration.embedded.count))
        #expect(try sqlite(path, "PRAGMA journal_mode") == "wal")
        let tables = try sqlite(path, "SELECT name FROM sqlite_master WHERE type IN ('table','trigger') ORDER BY name")
        #expect(tables.contains("events") && tables.contains("snapshots") && tables.contains("events_reject_update") && tables.contains("events_reject_delete"))
    }

    @Test("a reader rolls back the hot journal of a writer killed before the file reached WAL mode")
    func hotJournalIsRolledBack() throws {
        let path = directory.path("hot.db")
        let log = try SQLiteEventLog.openForWriting(path: path, now: 1)
        var factory = EventFactory()
        let events = [factory.make(.todoCreated(TodoFields(title: "kept")), stream: "s1")]
        try log.write { try log.append(events) }
        log.close()
        // A process that dies mid-transaction in rollback-journal mode, with its cache spilled into the file.
        let script = """
            import os, sqlite3, sys
            c = sqlite3.connect(sys.argv[1], isolation_level=None)
            c.execute("PRAGMA journal_mode=DELETE")
            c.execute("PRAGMA cache_size=1")
            c.execute("BEGIN")
            for i in range(200):
                c.execute("INSERT INTO snapshots(seq, format, reducer_version, created_at, checksum, body) VALUES (?, 1, 1, 0, 'x', zeroblob(4000))", (i + 1000,))
            os._exit(0)
            """
        let python = Process()
        python.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        python.arguments = ["python3", "-c", script, path]
        try python.run()
        python.waitUntilExit()
        try #require(python.terminationStatus == 0, "python3 with its sqlite3 module is needed to leave a hot journal")
        try #require(FileManager.default.fileExists(atPath: path + "-journal"), "the killed writer left no journal")

        let reader = try #require(try SQLiteEventLog.openForReading(path: path))
        var read: [EventEnvelope] = []
        try reader.scan(after: 0, through: nil) { read.append($0) }
        #expect(read == events)
        #expect(try reader.snapshots().isEmpty)
        reader.close()
        #expect(!FileManager.default.fileExists(atPath: path + "-journal"))
    }

    @Test("the SQL compiled into the binary matches migrations/sqlite/*.sql exactly")
    func migrationsDoNotDrift() throws {
        let embedded = Migration.embedded.map { (version: $0.version, name: $0.name, sql: $0.sql) }
        #expect(try MigrationDrift.differences(folder: "migrations/sqlite", embedded: embedded) == [])
    }

    @Test("triggers reject UPDATE and DELETE of events")
    func appendOnly() throws {
        let path = directory.path("t.db")
        let log = try SQLiteEventLog.openForWriting(path: path, now: 1)
        var factory = EventFactory()
        try log.write { try log.append([factory.make(.todoCreated(TodoFields(title: "a")), stream: "s1")]) }
        let connection = try Connection(path: path, access: .readWrite)
        #expect { try connection.execute("UPDATE events SET data = '{}'") } throws: { ($0 as? SQLiteError)?.message.contains("append-only") == true }
        #expect { try connection.execute("DELETE FROM events") } throws: { ($0 as? SQLiteError)?.message.contains("append-only") == true }
        #expect(try log.eventCount() == 1)
    }

    @Test("a database from a newer tally is refused, for reading and writing")
    func newerSchema() throws {
        let path = directory.path("n.db")
        _ = try SQLiteEventLog.openForWriting(path: path, now: 1)
        _ = try sqlite(path, "INSERT INTO schema_migrations(version, name, applied_at) VALUES (999, '0999_future', 0)")
        #expect(throws: EventLogError.newerSchema(found: 999, known: Migration.embedded.last!.version)) {
            _ = try SQLiteEventLog.openForWriting(path: path, now: 1)
        }
        #expect(throws: EventLogError.newerSchema(found: 999, known: Migration.embedded.last!.version)) {
            _ = try SQLiteEventLog.openForReading(path: path)
        }
    }

    @Test("reading never creates a file; a directory or a non-database file fails clearly")
    func badPaths() throws {
        let missing = directory.path("missing.db")
        #expect(try SQLiteEventLog.openForReading(path: missing) == nil)
        #expect(!FileManager.default.fileExists(atPath: missing))
        #expect { _ = try SQLiteEventLog.openForWriting(path: directory.url.path, now: 1) } throws: {
            guard case .io(let reason)? = $0 as? EventLogError else { return false }
            return reason.contains("directory")
        }
        let text = directory.path("notes.txt")
        try String(repeating: "not a database\n", count: 100).write(toFile: text, atomically: true, encoding: .utf8)
        #expect { _ = try SQLiteEventLog.openForWriting(path: text, now: 1) } throws: {
            guard case .corrupt? = $0 as? EventLogError else { return false }
            return true
        }
        #expect { _ = try SQLiteEventLog.openForReading(path: text) } throws: {
            guard case .corrupt? = $0 as? EventLogError else { return false }
            return true
        }
    }

    @Test("errors carry the result code, SQLite's message and the SQL")
    func errorContext() throws {
        let connection = try Connection(path: directory.path("e.db"), access: .readWrite)
        #expect {
            try connection.execute("SELEC nonsense")
        } throws: { error in
            guard let error = error as? SQLiteError else { return false }
            return error.code == SQLITE_ERROR && error.message.contains("syntax error") && error.sql == "SELEC nonsense"
                && error.description.contains("while executing")
        }
    }

    @Test("a second connection waits for the write lock instead of failing")
    func twoWriters() async throws {
        let path = directory.path("w.db")
        _ = try SQLiteEventLog.openForWriting(path: path, now: 1)
        let started = DispatchSemaphore(value: 0)
        let thread = Thread {
            let holder = try! SQLiteEventLog.openForWriting(path: path, now: 1)
            try? holder.write {
                started.signal()
                Thread.sleep(forTimeInterval: 0.3)
                var factory = EventFactory()
                try holder.append([factory.make(.todoCreated(TodoFields(title: "first")), stream: "s1")])
            }
        }
        thread.start()
        started.wait()
        let begin = Date()
        let waiter = try SQLiteEventLog.openForWriting(path: path, now: 1)
        let seq = try waiter.write { try waiter.head().seq }
        #expect(seq == 1, "the second writer must see the first writer's committed event")
        #expect(Date().timeIntervalSince(begin) > 0.1)
    }
}
