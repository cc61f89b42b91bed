import CSQLite
import TallyDomain

/// The baseline: the same rows inserted into a plain `events` table (the columns of tally's, no triggers) with default
/// settings (rollback journal, default synchronous), one transaction, one prepared statement.
enum RawBaseline {
    static let schema = """
        CREATE TABLE events(
          seq INTEGER PRIMARY KEY AUTOINCREMENT, id TEXT NOT NULL UNIQUE, stream TEXT NOT NULL,
          version INTEGER NOT NULL, type TEXT NOT NULL, schema INTEGER NOT NULL, data TEXT NOT NULL,
          recorded_at INTEGER NOT NULL, actor TEXT NOT NULL, command TEXT NOT NULL, hash TEXT NOT NULL,
          UNIQUE(stream, version))
        """

    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    /// Inserts `events` (hashes included) into a fresh plain file at `path`.
    static func run(_ events: [EventEnvelope], path: String) throws {
        var handle: OpaquePointer?
        guard sqlite3_open(path, &handle) == SQLITE_OK, let db = handle else { throw Failure(description: "cannot open \(path)") }
        defer { sqlite3_close(db) }
        func exec(_ sql: String) throws {
            guard sqlite3_exec(db, sql, nil, nil, nil) == SQLITE_OK else { throw Failure(description: String(cString: sqlite3_errmsg(db))) }
        }
        try exec(schema)
        try exec("BEGIN")
        var statement: OpaquePointer?
        guard sqlite3_prepare_v2(db, "INSERT INTO events(seq, id, stream, version, type, schema, data, recorded_at, actor, command, hash) VALUES (?,?,?,?,?,?,?,?,?,?,?)", -1, &statement, nil) == SQLITE_OK else {
            throw Failure(description: String(cString: sqlite3_errmsg(db)))
        }
        defer { sqlite3_finalize(statement) }
        let transient = unsafeBitCast(-1, to: sqlite3_destructor_type.self)
        for event in events {
            sqlite3_bind_int64(statement, 1, event.seq)
            sqlite3_bind_text(statement, 2, event.id, -1, transient)
            sqlite3_bind_text(statement, 3, event.stream, -1, transient)
            sqlite3_bind_int64(statement, 4, Int64(event.version))
            sqlite3_bind_text(statement, 5, event.type, -1, transient)
            sqlite3_bind_int64(statement, 6, Int64(event.schema))
            sqlite3_bind_text(statement, 7, event.data, -1, transient)
            sqlite3_bind_int64(statement, 8, event.recordedAt)
            sqlite3_bind_text(statement, 9, event.actor, -1, transient)
            sqlite3_bind_text(statement, 10, event.command, -1, transient)
            sqlite3_bind_text(statement, 11, event.hash, -1, transient)
            guard sqlite3_step(statement) == SQLITE_DONE else { throw Failure(description: String(cString: sqlite3_errmsg(db))) }
            sqlite3_reset(statement)
        }
        try exec("COMMIT")
    }
}
