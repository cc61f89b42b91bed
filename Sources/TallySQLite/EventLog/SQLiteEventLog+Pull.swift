import CSQLite
import TallyDomain

/// A clone or a long pull without a random B-tree insert per event (migration 0009).
///
/// The two uniqueness rules of `events` are the indexes `events_id` and `events_stream_version`.
/// Maintained row by row, every pulled event is a random insert into both (their keys are random
/// UUIDs), which bounded a clone to about 140,000 events/s of SQLite's work alone. A large pull
/// drops them inside its one transaction, appends in seq order (the table's own B-tree only grows
/// at its right edge), and builds them again from sorted keys before the commit: a duplicate is
/// refused then, with the error `append` would have given for the first event that repeats an
/// earlier one, and the whole transaction is rolled back, so the indexes are never missing from a
/// committed file. The redactions among the pulled events are applied after the indexes are back
/// (each one erases values of earlier events only, so applying them last changes nothing).
extension SQLiteEventLog {
    /// The uniqueness indexes of `events`, in the order migration 0009 creates them.
    static let uniqueIndexes: [(name: String, sql: String)] = [
        ("events_id", "CREATE UNIQUE INDEX events_id ON events(id)"),
        ("events_stream_version", "CREATE UNIQUE INDEX events_stream_version ON events(stream, version)"),
    ]

    /// Pulls shorter than this keep the indexes: rebuilding them costs a sort of the whole table.
    static let deferredPullMinimum: Int64 = 2_000

    public func beginPull(of count: Int64) throws(EventLogError) {
        precondition(connection.isInTransaction, "beginPull must run inside write")
        guard !pull.indexesDropped, count >= Self.deferredPullMinimum else { return }
        // Rebuilding sorts every row, the stored ones too: worth it when the pull at least doubles the log.
        guard count >= (try head().seq) else { return }
        do {
            for index in Self.uniqueIndexes {
                guard try connection.scalarInt("SELECT count(*) FROM sqlite_master WHERE type = 'index' AND name = '\(index.name)'") == 1 else { return }
            }
            for index in Self.uniqueIndexes { try connection.execute("DROP INDEX \(index.name)") }
        } catch {
            throw StorageErrors.map(error)
        }
        pull.indexesDropped = true
    }

    public func endPull() throws(EventLogError) {
        precondition(connection.isInTransaction, "endPull must run inside write")
        guard pull.indexesDropped else { return }
        do {
            // SQLite sorts the keys on both cores while it builds each index.
            try connection.execute("PRAGMA threads = 2")
            defer { try? connection.execute("PRAGMA threads = 0") }
            for index in Self.uniqueIndexes { try connection.execute(index.sql) }
        } catch where error.code == SQLITE_CONSTRAINT {
            throw (try? firstDuplicate()) ?? StorageErrors.map(error)
        } catch {
            throw StorageErrors.map(error)
        }
        pull.indexesDropped = false
        let redactions = pull.redactions
        pull.redactions = []
        try applyRedactions(redactions)
    }

    /// What `append` would have refused first, in seq order, when a uniqueness index cannot be
    /// built: the first event whose id, or whose stream and version, an earlier event has.
    /// For an event that repeats both, the stream and version (the index SQLite checks first).
    private func firstDuplicate() throws(SQLiteError) -> EventLogError? {
        let id = try connection.statement("""
            SELECT e.seq, e.id FROM events e
            JOIN (SELECT id, min(seq) AS first FROM events GROUP BY id HAVING count(*) > 1) d ON d.id = e.id
            WHERE e.seq > d.first ORDER BY e.seq LIMIT 1
            """)
        defer { id.reset() }
        let version = try connection.statement("""
            SELECT e.seq, e.stream, e.version FROM events e
            JOIN (SELECT stream, version, min(seq) AS first FROM events GROUP BY stream, version HAVING count(*) > 1) d
              ON d.stream = e.stream AND d.version = e.version
            WHERE e.seq > d.first ORDER BY e.seq LIMIT 1
            """)
        defer { version.reset() }
        let byID = try id.step() ? (seq: id.int64(at: 0), id: id.string(at: 1)) : nil
        let byVersion = try version.step() ? (seq: version.int64(at: 0), stream: version.string(at: 1), version: version.int(at: 2)) : nil
        if let byVersion, byVersion.seq <= byID?.seq ?? Int64.max {
            return .conflict(stream: byVersion.stream, version: byVersion.version)
        }
        return byID.map { .duplicateEventID($0.id) }
    }
}

/// What a pull inside the current transaction has deferred (see `beginPull`).
struct DeferredPull {
    var indexesDropped = false
    /// The `history.redacted` events appended meanwhile, in order.
    var redactions: [EventEnvelope] = []
}
