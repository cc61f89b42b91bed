import CSQLite
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import TallyDomain
import TallyEssentials
import TallyPlatform

/// The event log in one SQLite file: WAL, foreign keys on, a busy timeout, append-only events.
public final class SQLiteEventLog: EventLog {
    /// How long one lock wait may take before SQLite reports busy, by default.
    public static let defaultBusyTimeout: Int32 = 5_000
    /// How many times a busy write lock is retried after the timeout before giving up.
    public static let busyRetries = 2

    public let path: String
    let connection: Connection
    private let migrator = Migrator()

    private static let selectColumns = "seq, id, stream, version, type, schema, data, recorded_at, actor, command, hash"

    private let busyTimeout: Int32
    /// Set when the current transaction erased values: the file is scrubbed once it commits.
    var scrubPending = false
    /// What a pull in the current transaction deferred to its end (SQLiteEventLog+Pull).
    var pull = DeferredPull()

    private init(path: String, connection: Connection, busyTimeout: Int32) {
        self.path = path
        self.connection = connection
        self.busyTimeout = busyTimeout
    }

    /// Closes the connection, so the file is complete on its own once no other process has it open
    /// (SQLite folds the write-ahead log back into the file). The log must not be used afterwards.
    public func close() {
        connection.close()
    }

    /// Opens (creating when missing, unless `create` is false) a database for writing and migrates
    /// it to the current schema. Without `create`, a missing file is `.io` and nothing is created.
    public static func openForWriting(path: String, now: Int64, busyTimeout: Int32 = defaultBusyTimeout, create: Bool = true) throws(EventLogError) -> SQLiteEventLog {
        let directory = PathText.deletingLastComponent(path)
        if !create, FileProbe.isDirectory(path) == nil { throw .io("there is no file \(path)") }
        if create, !directory.isEmpty, !FileManager.default.fileExists(atPath: directory) {
            if let reason = createDirectories(directory) {
                throw .io("cannot create the directory \(directory): \(reason)")
            }
        }
        if let isDirectory = FileProbe.isDirectory(path) {
            if isDirectory { throw .io("\(path) is a directory, not a database file") }
            // Refused before SQLite opens it: a read-write open of a file it cannot write falls back
            // to read-only and creates a `-shm` with the file's read-only mode, which would stop
            // every later writer once the file is writable again.
            if access(path, W_OK) != 0 { throw .io("the database is read-only (\(path))") }
        }
        let log: SQLiteEventLog
        do {
            log = SQLiteEventLog(path: path, connection: try Connection(path: path, access: create ? .readWrite : .readWriteExisting), busyTimeout: busyTimeout)
            try log.configure(writable: true)
        } catch {
            throw StorageErrors.map(error)
        }
        try log.migrator.migrate(log.connection, now: now)
        return log
    }

    /// Opens an existing database without ever writing to it; nil when the file does not exist.
    ///
    /// A file whose schema is older than this binary is reported through `needsMigration`.
    public static func openForReading(path: String, busyTimeout: Int32 = defaultBusyTimeout) throws(EventLogError) -> SQLiteEventLog? {
        guard let isDirectory = FileProbe.isDirectory(path) else { return nil }
        if isDirectory { throw .io("\(path) is a directory, not a database file") }
        let log: SQLiteEventLog
        do {
            log = SQLiteEventLog(path: path, connection: try Connection(path: path, access: readAccess(path)), busyTimeout: busyTimeout)
            try log.configure(writable: false)
        } catch {
            throw StorageErrors.map(error)
        }
        let applied = try log.schemaVersion()
        if applied > log.migrator.latestVersion {
            throw .newerSchema(found: applied, known: log.migrator.latestVersion)
        }
        return log
    }

    /// Creates `directory` and any missing parents; the system's reason when one cannot be made.
    static func createDirectories(_ directory: String) -> String? {
        var prefix = directory.hasPrefix("/") ? "" : "."
        for part in directory.split(separator: "/") {
            prefix += "/" + part
            if mkdir(prefix, 0o777) != 0 && errno != EEXIST {
                return String(cString: strerror(errno))
            }
        }
        return nil
    }

    /// How a reader opens `path`. A file nobody may write (no write bit at all, as after
    /// `chmod 444`) is opened immutable when its write-ahead log is absent or empty: everything is in
    /// the file and nothing changes it meanwhile. An ordinary read would create a `-shm` with the
    /// file's read-only mode, which stops every later writer once the file is writable again.
    ///
    /// A rollback journal beside the file is left by a writer killed before the file reached WAL mode
    /// (while it was being created). Only a connection that may write can roll such a hot journal
    /// back, so a reader that is allowed to write opens read-write; it still only reads.
    static func readAccess(_ path: String) -> Connection.Access {
        var status = stat()
        if stat(path + "-journal", &status) == 0, status.st_size > 0, access(path, W_OK) == 0 {
            return .readWrite
        }
        guard stat(path, &status) == 0, status.st_mode & 0o222 == 0 else { return .readOnly }
        let walIsEmpty = stat(path + "-wal", &status) != 0 || status.st_size == 0
        return walIsEmpty ? .immutable : .readOnly
    }

    private func configure(writable: Bool) throws(SQLiteError) {
        try connection.execute("PRAGMA busy_timeout = \(busyTimeout)")
        try connection.execute("PRAGMA foreign_keys = ON")
        if writable {
            // journal_mode answers with a row; read it so a non-database file fails here, clearly.
            // Switching needs an exclusive lock that SQLite does not wait for, so it is only done
            // when the file is not in WAL mode yet (a new file), and retried while another
            // process holds the lock; a file already in WAL mode stays so whoever closed it last.
            let query = try connection.statement("PRAGMA journal_mode")
            try query.step()
            let mode = query.string(at: 0)
            query.reset()
            if mode != "wal" { try switchToWAL() }
            try connection.execute("PRAGMA synchronous = FULL")
        } else {
            _ = try connection.scalarInt("SELECT count(*) FROM sqlite_master")
        }
    }

    /// Puts the file in WAL mode, retrying for up to the busy timeout while another process holds the lock.
    private func switchToWAL() throws(SQLiteError) {
        let deadline = ContinuousClock.now + .milliseconds(Int(busyTimeout))
        while true {
            do {
                let statement = try connection.statement("PRAGMA journal_mode = WAL")
                try statement.step()
                statement.reset()
                return
            } catch where error.code == SQLITE_BUSY && ContinuousClock.now < deadline {
                usleep(2_000)
            }
        }
    }

    /// The schema version recorded in the file; 0 when it has none.
    public func schemaVersion() throws(EventLogError) -> Int {
        do {
            return try Migrator.appliedVersion(connection)
        } catch {
            throw StorageErrors.map(error)
        }
    }

    /// The newest schema version this binary knows.
    public var latestSchemaVersion: Int { migrator.latestVersion }

    /// True when the file is older than this binary (a write command migrates it).
    public var needsMigration: Bool {
        ((try? schemaVersion()) ?? 0) < migrator.latestVersion
    }

    /// Size of the database in bytes (pages in use times page size, WAL excluded).
    public func fileSize() throws(EventLogError) -> Int64 {
        do {
            let pages = try connection.scalarInt("PRAGMA page_count") ?? 0
            let size = try connection.scalarInt("PRAGMA page_size") ?? 0
            return pages * size
        } catch {
            throw StorageErrors.map(error)
        }
    }

    /// Number of events in the log.
    public func eventCount() throws(EventLogError) -> Int64 {
        guard try hasEventsTable() else { return 0 }
        do {
            return try connection.scalarInt("SELECT count(*) FROM events") ?? 0
        } catch {
            throw StorageErrors.map(error)
        }
    }

    private var eventsTableKnown = false

    private func hasEventsTable() throws(EventLogError) -> Bool {
        if eventsTableKnown { return true }
        do {
            let count = try connection.scalarInt("SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name = 'events'") ?? 0
            eventsTableKnown = count > 0
            return eventsTableKnown
        } catch {
            throw StorageErrors.map(error)
        }
    }

    // MARK: EventLog

    public func head() throws(EventLogError) -> LogHead {
        guard try hasEventsTable() else { return .empty }
        do {
            let statement = try connection.statement("SELECT seq, hash FROM events ORDER BY seq DESC LIMIT 1")
            defer { statement.reset() }
            guard try statement.step() else { return .empty }
            return LogHead(seq: statement.int64(at: 0), hash: statement.string(at: 1))
        } catch {
            throw StorageErrors.map(error)
        }
    }

    public func scan(after: Int64, through: Int64?, _ body: (EventEnvelope) throws -> Void) throws {
        try eachRow("SELECT \(Self.selectColumns) FROM events WHERE seq > ? AND seq <= ? ORDER BY seq", after: after, through: through) { statement in
            try body(Self.envelope(statement))
        }
    }

    /// Reads only the columns a fold needs and hands the payload over in SQLite's own buffer.
    public func scanForFold(after: Int64, through: Int64?, _ body: (FoldRow) throws -> Void) throws {
        let sql = "SELECT seq, stream, version, type, schema, data, recorded_at FROM events WHERE seq > ? AND seq <= ? ORDER BY seq"
        var types = TypeNames()
        try eachRow(sql, after: after, through: through) { statement in
            try statement.withBytes(at: 5) { data in
                try body(FoldRow(
                    seq: statement.int64(at: 0), stream: statement.text(at: 1), version: statement.int(at: 2),
                    type: types.name(statement.text(at: 3)), schema: statement.int(at: 4), recordedAt: statement.int64(at: 6),
                    data: data.bindMemory(to: UInt8.self)
                ))
            }
        }
    }

    /// Steps `sql` (with `after` and `through` bound as ?1 and ?2) and calls `row` on each row;
    /// SQLite failures become `EventLogError`, errors of `row` pass through. Inlined: the fold scan
    /// runs it once per event, and a closure call per row measured 10% of a rebuild.
    @inline(__always)
    private func eachRow(_ sql: String, after: Int64, through: Int64?, _ row: (Statement) throws -> Void) throws {
        guard try hasEventsTable() else { return }
        let statement: Statement
        do {
            statement = try connection.statement(sql)
            try statement.bind(after, at: 1)
            try statement.bind(through ?? Int64.max, at: 2)
        } catch {
            throw StorageErrors.map(error)
        }
        defer { statement.reset() }
        while true {
            let hasRow: Bool
            do {
                hasRow = try statement.step()
            } catch {
                throw StorageErrors.map(error)
            }
            guard hasRow else { break }
            try row(statement)
        }
    }

    public func events(inStream stream: String) throws(EventLogError) -> [EventEnvelope] {
        guard try hasEventsTable() else { return [] }
        do {
            let statement = try connection.statement("SELECT \(Self.selectColumns) FROM events WHERE stream = ? ORDER BY version")
            defer { statement.reset() }
            try statement.bind(stream, at: 1)
            var result: [EventEnvelope] = []
            while try statement.step() {
                result.append(Self.envelope(statement))
            }
            return result
        } catch {
            throw StorageErrors.map(error)
        }
    }

    public func scanBackward(before: Int64?, _ body: (EventEnvelope) throws -> Bool) throws {
        guard try hasEventsTable() else { return }
        let statement: Statement
        do {
            statement = try connection.statement("SELECT \(Self.selectColumns) FROM events WHERE seq < ? ORDER BY seq DESC")
            try statement.bind(before ?? Int64.max, at: 1)
        } catch {
            throw StorageErrors.map(error)
        }
        defer { statement.reset() }
        while true {
            let hasRow: Bool
            do {
                hasRow = try statement.step()
            } catch {
                throw StorageErrors.map(error)
            }
            guard hasRow, try body(Self.envelope(statement)) else { break }
        }
    }

    public func event(id: String) throws(EventLogError) -> EventEnvelope? {
        guard try hasEventsTable() else { return nil }
        do {
            let statement = try connection.statement("SELECT \(Self.selectColumns) FROM events WHERE id = ?")
            defer { statement.reset() }
            try statement.bind(id, at: 1)
            return try statement.step() ? Self.envelope(statement) : nil
        } catch {
            throw StorageErrors.map(error)
        }
    }

    public func lastVersion(ofStream stream: String) throws(EventLogError) -> Int {
        guard try hasEventsTable() else { return 0 }
        do {
            let statement = try connection.statement("SELECT max(version) FROM events WHERE stream = ?")
            defer { statement.reset() }
            try statement.bind(stream, at: 1)
            guard try statement.step(), !statement.isNull(at: 0) else { return 0 }
            return statement.int(at: 0)
        } catch {
            throw StorageErrors.map(error)
        }
    }

    public func write<T>(_ body: () throws -> T) throws -> T {
        var attempt = 0
        // A pull's indexes are built again before its transaction commits, even if it never said it ended.
        defer { pull = DeferredPull() }
        while true {
            pull = DeferredPull()
            do {
                let result = try connection.transaction(.immediate) {
                    let result = try body()
                    try endPull()
                    return result
                }
                scrubAfterCommit()
                return result
            } catch let error as SQLiteError {
                scrubPending = false
                let mapped = StorageErrors.map(error)
                if mapped == .busy, attempt < Self.busyRetries, !connection.isInTransaction {
                    attempt += 1
                    continue
                }
                throw mapped
            }
        }
    }

    public func append(_ events: [EventEnvelope]) throws(EventLogError) {
        precondition(connection.isInTransaction, "append must run inside write")
        let insert: Statement
        do {
            insert = try connection.statement("""
                INSERT INTO events(seq, id, stream, version, type, schema, data, recorded_at, actor, command, hash)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                """)
        } catch {
            throw StorageErrors.map(error)
        }
        for event in events {
            do {
                insert.reset()
                try insert.bind(event.seq, at: 1)
                try insert.bind(event.id, at: 2)
                try insert.bind(event.stream, at: 3)
                try insert.bind(event.version, at: 4)
                try insert.bind(event.type, at: 5)
                try insert.bind(event.schema, at: 6)
                try insert.bind(event.data, at: 7)
                try insert.bind(event.recordedAt, at: 8)
                try insert.bind(event.actor, at: 9)
                try insert.bind(event.command, at: 10)
                try insert.bind(event.hash, at: 11)
                try insert.step()
            } catch {
                switch StorageErrors.map(error) {
                case .conflict: throw .conflict(stream: event.stream, version: event.version)
                case .duplicateEventID: throw .duplicateEventID(event.id)
                case let other: throw other
                }
            }
        }
        if pull.indexesDropped {
            pull.redactions += events.filter { $0.type == "history.redacted" }
        } else {
            try applyRedactions(events)
        }
    }

    private static func envelope(_ row: Statement) -> EventEnvelope {
        EventEnvelope(
            seq: row.int64(at: 0), id: row.string(at: 1), stream: row.string(at: 2), version: row.int(at: 3),
            type: row.string(at: 4), schema: row.int(at: 5), data: row.string(at: 6), recordedAt: row.int64(at: 7),
            actor: row.string(at: 8), command: row.string(at: 9), hash: row.string(at: 10)
        )
    }
}
