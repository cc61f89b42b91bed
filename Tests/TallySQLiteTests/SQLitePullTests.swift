import Foundation
import Testing
@testable import TallySQLite
import TallyDomain
import TallyTestSupport

/// A large pull appends with the uniqueness indexes dropped and builds them again before the
/// commit (migration 0009): duplicates are still refused, with the same errors, and no committed
/// file ever lacks the indexes.
@Suite("SQLite pulls with deferred indexes")
struct SQLitePullTests {
    let directory = TemporaryDirectory()

    /// `count` events over a few streams, chained.
    static func events(_ count: Int) -> [EventEnvelope] {
        var factory = EventFactory()
        return (0..<count).map { index in factory.make(.todoCreated(TodoFields(title: "t\(index)")), stream: "s\(index % 7)") }
    }

    static func indexes(_ log: SQLiteEventLog) throws -> [String] {
        let statement = try log.connection.statement("SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = 'events' ORDER BY name")
        defer { statement.reset() }
        var names: [String] = []
        while try statement.step() { names.append(statement.string(at: 0)) }
        return names
    }

    /// Appends `events` as a pull announcing them does, in batches.
    static func pull(_ log: SQLiteEventLog, _ events: [EventEnvelope], end: Bool = true) throws {
        try log.write {
            try log.beginPull(of: Int64(events.count))
            #expect(try indexes(log).isEmpty, "a large pull into an empty log drops the indexes")
            var start = 0
            while start < events.count {
                try log.append(Array(events[start..<min(start + 4096, events.count)]))
                start += 4096
            }
            if end { try log.endPull() }
        }
    }

    @Test("a large pull stores every event and leaves both indexes, even when the body never ends it")
    func indexesComeBack() throws {
        for end in [true, false] {
            let log = try SQLiteEventLog.openForWriting(path: directory.path("pull-\(end).db"), now: 1)
            let events = Self.events(Int(SQLiteEventLog.deferredPullMinimum) + 5)
            try Self.pull(log, events, end: end)
            #expect(try Self.indexes(log) == ["events_id", "events_stream_version"])
            #expect(try log.eventCount() == Int64(events.count))
            #expect(try log.event(id: events[17].id) == events[17])
            var copy = events[3]
            copy.seq = Int64(events.count + 1)
            copy.stream = "another"
            #expect(throws: EventLogError.duplicateEventID(copy.id)) { try log.write { try log.append([copy]) } }
        }
    }

    @Test("a small pull, or one into a larger log, keeps the indexes as it goes")
    func smallPullsKeepIndexes() throws {
        let log = try SQLiteEventLog.openForWriting(path: directory.path("small.db"), now: 1)
        let events = Self.events(Int(SQLiteEventLog.deferredPullMinimum) * 3)
        try log.write {
            try log.beginPull(of: SQLiteEventLog.deferredPullMinimum - 1)
            #expect(try Self.indexes(log).count == 2)
            try log.append(Array(events[0..<Int(SQLiteEventLog.deferredPullMinimum) * 2]))
        }
        try log.write {
            try log.beginPull(of: SQLiteEventLog.deferredPullMinimum)
            #expect(try Self.indexes(log).count == 2, "a pull smaller than the stored log")
        }
    }

    /// A batch with one event repeating an earlier id, or an earlier stream and version.
    enum Repeat: String, CaseIterable, CustomStringConvertible {
        case id, streamVersion, both, inStoredLog
        var description: String { rawValue }
    }

    @Test("a duplicate inside one bulk batch is refused as append refuses it; nothing is stored and the indexes stay", arguments: Repeat.allCases)
    func duplicates(_ kind: Repeat) throws {
        let log = try SQLiteEventLog.openForWriting(path: directory.path("dup-\(kind).db"), now: 1)
        var events = Self.events(Int(SQLiteEventLog.deferredPullMinimum) + 100)
        var stored: [EventEnvelope] = []
        if kind == .inStoredLog {
            // A replica with a few events of its own: the pull repeats one of those ids.
            stored = Array(events[0..<3])
            try log.write { try log.append(stored) }
            events.removeFirst(3)
        }
        let (early, late) = (stored.isEmpty ? 40 : 0, 1_500)
        let expected: EventLogError
        switch kind {
        case .id:
            events[late].id = events[early].id
            expected = .duplicateEventID(events[early].id)
        case .streamVersion:
            events[late].stream = events[early].stream
            events[late].version = events[early].version
            expected = .conflict(stream: events[early].stream, version: events[early].version)
        case .both:
            events[late].id = events[early].id
            events[late].stream = events[early].stream
            events[late].version = events[early].version
            expected = .conflict(stream: events[early].stream, version: events[early].version)
        case .inStoredLog:
            events[late].id = stored[1].id
            expected = .duplicateEventID(stored[1].id)
        }
        // A later duplicate too: the first in seq order is named.
        events[late + 200].id = events[late + 100].id
        let pulled = events
        #expect(throws: expected) {
            try log.write {
                try log.beginPull(of: Int64(pulled.count))
                try log.append(pulled)
                try log.endPull()
            }
        }
        #expect(try log.eventCount() == Int64(stored.count))
        #expect(try Self.indexes(log) == ["events_id", "events_stream_version"])
        // The row-by-row path names the same event.
        let plain = try SQLiteEventLog.openForWriting(path: directory.path("dup-\(kind)-plain.db"), now: 1)
        if !stored.isEmpty { try plain.write { try plain.append(stored) } }
        #expect(throws: expected) { try plain.write { try plain.append(pulled) } }
    }

    @Test("migration 0009 keeps every row, the append-only triggers and AUTOINCREMENT's mark of a file at version 8")
    func migrationKeepsTheLog() throws {
        let path = directory.path("v8.db")
        let events = Self.events(3_000)
        // The same rows, written by the current schema into another file and copied over.
        let source = try SQLiteEventLog.openForWriting(path: directory.path("rows.db"), now: 1)
        try source.write { try source.append(events) }
        source.close()
        do {
            let connection = try Connection(path: path, access: .readWrite)
            try Migrator(migrations: Migration.embedded.filter { $0.version <= 8 }).migrate(connection, now: 1)
            try connection.execute("ATTACH '\(directory.path("rows.db"))' AS source")
            try connection.execute("INSERT INTO events SELECT * FROM source.events ORDER BY seq")
            // A sync once discarded unpushed events past the last one kept: the mark stays above the rows.
            try connection.execute("UPDATE sqlite_sequence SET seq = 3100 WHERE name = 'events'")
            try connection.execute("DETACH source")
            connection.close()
        }
        let log = try SQLiteEventLog.openForWriting(path: path, now: 2)
        #expect(try log.schemaVersion() == 9)
        var stored: [EventEnvelope] = []
        try log.scan(after: 0, through: nil) { stored.append($0) }
        #expect(stored == events)
        #expect(try Self.indexes(log) == ["events_id", "events_stream_version"])
        #expect(try log.connection.scalarInt("SELECT seq FROM sqlite_sequence WHERE name = 'events'") == 3100)
        #expect(try log.connection.scalarInt("SELECT count(*) FROM sqlite_sequence") == 1)
        #expect(try log.connection.scalarInt("SELECT count(*) FROM sqlite_master WHERE type = 'trigger' AND tbl_name = 'events'") == 2)
        #expect(throws: SQLiteError.self) { try log.connection.execute("UPDATE events SET data = '{}' WHERE seq = 5") }
        #expect(throws: SQLiteError.self) { try log.connection.execute("DELETE FROM events WHERE seq = 5") }
        #expect(try log.connection.scalarInt("SELECT count(*) FROM pragma_integrity_check WHERE integrity_check = 'ok'") == 1)
        var copy = events[9]
        copy.seq = 3_001
        #expect(throws: EventLogError.conflict(stream: copy.stream, version: copy.version)) { try log.write { try log.append([copy]) } }
        let stream = copy.stream
        copy.stream = "another"
        #expect(throws: EventLogError.duplicateEventID(copy.id)) { try log.write { try log.append([copy]) } }
        copy.stream = stream
        copy.id = "f0000000-0000-4000-8000-000000000001"
        #expect(throws: EventLogError.conflict(stream: copy.stream, version: copy.version)) { try log.write { try log.append([copy]) } }
        #expect(try log.eventCount() == 3_000)
    }
}
