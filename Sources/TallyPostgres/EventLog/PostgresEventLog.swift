#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import TallyDomain
import TallyEssentials

/// The event log in a PostgreSQL database, shared by every client that connects to it.
///
/// Appends serialise on one transaction-level advisory lock (taken by `write`, and again by the
/// insert trigger for any other client), so `seq` is gap-free and increases in commit order, and
/// the hash chain is computed on the true head. The server records the appending role.
public final class PostgresEventLog: EventLog {
    /// The advisory lock every append holds until its transaction ends.
    public static let appendLockKey: Int64 = 7_283_945_501

    /// A server's log is the shared log itself, never a replica of one.
    public var replica: (any EventStore & ReplicaStore)? { nil }
    /// Rows fetched per round trip when scanning the log.
    static let pageSize = 20_000

    /// The URI or connection string libpq was given.
    private let conninfo: String
    public let displayLocation: String
    var connection: PGConnection?
    let migrator = PostgresMigrator()
    var schemaKnown: Bool
    /// The schema version read when the connection opened (nil once it may have changed).
    var knownSchemaVersion: Int?
    /// Inside `write` (the append lock held): the head when a scan or an append has shown it, so
    /// the dispatcher's `head()` after its catch-up costs no round trip. Nil when unknown.
    var lockedHead: LogHead?
    /// The head right after this connection's last commit; inside the next `write` it is the head
    /// again once a scan past it finds nothing (events are immutable and seq gap-free).
    var committedHead: LogHead?
    /// The head read together with the snapshot list, for the `head()` that follows it outside a
    /// write (one round trip fewer per command). Used once.
    var prefetchedHead: LogHead?
    /// The head last read outside a write; inside the next one it is the head again once a scan
    /// past it finds nothing.
    var lastSeenHead: LogHead?
    /// Inside `bulkWrite`: events appended but not yet sent (PostgresEventLog+Bulk).
    var pending: [EventEnvelope] = []
    /// The last version of each stream among `pending`.
    var pendingVersions: [String: Int] = [:]
    /// True inside `bulkWrite`, where appends are buffered and sent with COPY.
    var buffering = false
    /// False once the server refused this role the staging table (PostgresEventLog+Staged); tests
    /// turn it off to measure the lock-only path.
    public var mayStage = true
    /// Commands this connection staged that the log took (`sequenced`) or refused as decided on a
    /// stream that had moved on (`refused`, then decided again under the lock).
    public internal(set) var stagingCounts = (sequenced: 0, refused: 0)
    /// False once the server refused this role `tally_append_batch` (PostgresEventLog+Bulk); tests
    /// turn it off to measure COPY through the row trigger.
    public var mayBatch = true
    /// Events per COPY (`defaultCopyBatch`; tests make it small).
    var copyBatch = PostgresEventLog.defaultCopyBatch
    /// Set when the current transaction erased values: the tables are vacuumed once it commits.
    var vacuumPending = false

    static let selectColumns = "seq, id, stream, version, type, schema, data, recorded_at, actor, command, hash, role"

    private init(conninfo: String, connection: PGConnection, schemaKnown: Bool) {
        self.conninfo = conninfo
        self.displayLocation = connection.server
        self.connection = connection
        self.schemaKnown = schemaKnown
    }

    /// Connects, creating and migrating the schema when needed.
    ///
    /// `lockTimeout` (ms) bounds every lock wait, the append lock included: past it a command fails
    /// with `EventLogError.busy`.
    public static func openForWriting(conninfo: String, now: Int64, lockTimeout: Int32) throws(EventLogError) -> PostgresEventLog {
        let (connection, state) = try connect(conninfo, lockTimeout: lockTimeout)
        let log = PostgresEventLog(conninfo: conninfo, connection: connection, schemaKnown: false)
        try log.migrator.migrate(connection, now: now, known: state)
        log.schemaKnown = true
        // The migrator brought it to the latest version or threw.
        log.knownSchemaVersion = log.latestSchemaVersion
        return log
    }

    /// Connects without writing; nil when the database has no tally schema yet (it reads as empty).
    public static func openForReading(conninfo: String, lockTimeout: Int32) throws(EventLogError) -> PostgresEventLog? {
        let (connection, state) = try connect(conninfo, lockTimeout: lockTimeout)
        switch state {
        case .empty:
            return nil
        case .tally(let version):
            let log = PostgresEventLog(conninfo: conninfo, connection: connection, schemaKnown: version > 0)
            if version > log.latestSchemaVersion { throw .newerSchema(found: version, known: log.latestSchemaVersion) }
            log.knownSchemaVersion = version
            return log
        }
    }

    /// Connects, sets the session up and reads the schema state: one round trip after the login
    /// when the database has a tally schema.
    private static func connect(_ conninfo: String, lockTimeout: Int32) throws(EventLogError) -> (PGConnection, SchemaState) {
        let server = PostgresURI.matches(conninfo) ? PostgresURI.redacted(conninfo) : "PostgreSQL"
        if let problem = PostgresURI.problem(conninfo) {
            throw .unavailable(ServerFailure(kind: .invalidAddress, server: server, detail: problem))
        }
        let connection: PGConnection
        do {
            connection = try PGConnection(conninfo: conninfo, server: server)
        } catch {
            throw PostgresErrors.mapConnect(error, server: server, conninfo: conninfo)
        }
        // lock_timeout 0 would mean "wait forever".
        let state = try PostgresMigrator.state(connection, settings: "SET lock_timeout = \(max(1, lockTimeout)); SET application_name = 'tally'")
        return (connection, state)
    }

    /// The open connection, or a clear error once `close` ran.
    func open() throws(EventLogError) -> PGConnection {
        guard let connection else { throw .io("the connection to \(displayLocation) is closed") }
        return connection
    }

    func fail(_ error: Error) -> EventLogError {
        switch error {
        case let error as PGError: return PostgresErrors.map(error, server: displayLocation)
        case let error as EventLogError: return error
        default: return .io(ErrorWords.text(error))
        }
    }

    // MARK: EventLog

    public func head() throws(EventLogError) -> LogHead {
        guard schemaKnown else { return .empty }
        if let lockedHead { return lockedHead }
        let connection = try open()
        if let prefetched = prefetchedHead, !connection.isInTransaction {
            prefetchedHead = nil
            lastSeenHead = prefetched
            return prefetched
        }
        try flushPending()
        do {
            let head = try connection.query("SELECT seq, hash FROM events ORDER BY seq DESC LIMIT 1") { rows in
                rows.count == 0 ? LogHead.empty : LogHead(seq: rows.int64(0, 0), hash: rows.string(0, 1))
            }
            if !connection.isInTransaction { lastSeenHead = head }
            return head
        } catch {
            throw fail(error)
        }
    }

    public func scan(after: Int64, through: Int64?, _ body: (EventEnvelope) throws -> Void) throws {
        try pages("SELECT \(Self.selectColumns) FROM events WHERE seq > $1 AND seq <= $2 ORDER BY seq LIMIT $3", after: after, through: through, hashColumn: 10) { rows, row in
            try body(Self.envelope(rows, row))
        }
    }

    public func scanForFold(after: Int64, through: Int64?, _ body: (FoldRow) throws -> Void) throws {
        // A fold from the first event outside a transaction (`rebuild`, a store without a usable
        // snapshot) reads with one streamed binary COPY. A fold that starts from a snapshot reads
        // the snapshot's chunks as the reducers touch them, and a query sent during a COPY would end
        // it, so those (short) catch-ups, and any inside a transaction (where the pages also learn
        // the head for the append that follows), read by pages.
        if after == 0, let connection, !connection.isInTransaction {
            return try scanForFoldByCopy(after: after, through: through, body)
        }
        let sql = "SELECT seq, stream, version, type, schema, data, recorded_at, hash FROM events WHERE seq > $1 AND seq <= $2 ORDER BY seq LIMIT $3"
        try pages(sql, after: after, through: through, hashColumn: 7) { rows, row in
            var stream = rows.string(row, 1)
            try rows.withBytes(row, 5) { data in
                try stream.withUTF8 { streamBytes in
                    try body(FoldRow(
                        seq: rows.int64(row, 0), stream: streamBytes, version: rows.int(row, 2), type: rows.string(row, 3),
                        schema: rows.int(row, 4), recordedAt: rows.int64(row, 6), data: data
                    ))
                }
            }
        }
    }

    /// Runs `sql` page by page (keyset on seq, `$1` after, `$2` through, `$3` page size), calling `row` for each row.
    /// The query's column 0 is seq and column `hashColumn` the hash.
    private func pages(_ sql: String, after: Int64, through: Int64?, hashColumn: Int, _ row: (PGResult, Int) throws -> Void) throws {
        guard schemaKnown else { return }
        try flushPending()
        let connection = try open()
        let parameters = { (cursor: Int64) -> [PGValue] in [.int(cursor), .int(through ?? Int64.max), .int(Self.pageSize)] }
        var lastRow: LogHead?
        do {
            try connection.send(sql, parameters(after))
            while true {
                let rows = try connection.receive()
                defer { rows.clear() }
                let count = rows.count
                if count > 0 { lastRow = LogHead(seq: rows.int64(count - 1, 0), hash: rows.string(count - 1, hashColumn)) }
                // A full page: ask for the next one before handling this one, so the server reads
                // while tally folds.
                let more = count == Self.pageSize
                if more, let lastRow { try connection.send(sql, parameters(lastRow.seq)) }
                do {
                    for index in 0 ..< count {
                        try row(rows, index)
                    }
                } catch {
                    if more { connection.discardPending() }
                    throw error
                }
                if !more { break }
            }
        } catch let error as PGError {
            throw fail(error)
        }
        // Under the append lock nobody else appends: a scan to the end has seen the head.
        if through == nil, connection.isInTransaction, lockHeld {
            if let lastRow {
                lockedHead = lastRow
            } else if let committedHead, committedHead.seq == after {
                lockedHead = committedHead
            } else if let lastSeenHead, lastSeenHead.seq == after {
                lockedHead = lastSeenHead
            }
        }
    }

    public func events(inStream stream: String) throws(EventLogError) -> [EventEnvelope] {
        try rows("SELECT \(Self.selectColumns) FROM events WHERE stream = $1 ORDER BY version", [.text(stream)])
    }

    public func scanBackward(before: Int64?, _ body: (EventEnvelope) throws -> Bool) throws {
        guard schemaKnown else { return }
        try flushPending()
        let connection = try open()
        var cursor = before ?? Int64.max
        let page = 500
        while true {
            var events: [EventEnvelope] = []
            do {
                events = try connection.query("SELECT \(Self.selectColumns) FROM events WHERE seq < $1 ORDER BY seq DESC LIMIT $2", [.int(cursor), .int(page)]) { rows in
                    (0 ..< rows.count).map { Self.envelope(rows, $0) }
                }
            } catch let error as PGError {
                throw fail(error)
            }
            for event in events {
                guard try body(event) else { return }
            }
            guard events.count == page, let last = events.last else { return }
            cursor = last.seq
        }
    }

    public func event(id: String) throws(EventLogError) -> EventEnvelope? {
        try rows("SELECT \(Self.selectColumns) FROM events WHERE id = $1", [.text(id)]).first
    }

    public func lastVersion(ofStream stream: String) throws(EventLogError) -> Int {
        guard schemaKnown else { return 0 }
        // A buffered event of the stream is newer than any it has on the server.
        if buffering, let version = pendingVersions[stream] { return version }
        do {
            return Int(try open().scalarInt("SELECT max(version) FROM events WHERE stream = $1", [.text(stream)]) ?? 0)
        } catch {
            throw fail(error)
        }
    }

    private func rows(_ sql: String, _ parameters: [PGValue]) throws(EventLogError) -> [EventEnvelope] {
        guard schemaKnown else { return [] }
        try flushPending()
        let connection = try open()
        do {
            return try connection.query(sql, parameters) { rows in (0 ..< rows.count).map { Self.envelope(rows, $0) } }
        } catch {
            throw fail(error)
        }
    }

    /// One transaction holding the append lock; everything inside commits together or not at all.
    /// Inside a `write` already, `body` simply joins it.
    public func write<T>(_ body: () throws -> T) throws -> T {
        if try open().isInTransaction { return try body() }
        return try transaction(waitForLock: true) { _ in try body() }
    }

    /// One transaction that takes the append lock, waiting for it (`waitForLock`) or only when it
    /// is free; `body` learns whether it holds it. Commits when `body` returns, rolls back when it throws.
    func transaction<T>(waitForLock: Bool, _ body: (_ locked: Bool) throws -> T) throws -> T {
        let connection = try open()
        lockedHead = nil
        prefetchedHead = nil
        defer {
            lockHeld = false
            lockedHead = nil
        }
        do {
            // One round trip: the transaction and the lock.
            let begin = waitForLock
                ? "BEGIN; SELECT pg_advisory_xact_lock(\(Self.appendLockKey))::text"
                : "BEGIN; SELECT pg_try_advisory_xact_lock(\(Self.appendLockKey))::text"
            lockHeld = try connection.queryText(begin) { rows in waitForLock || (rows.count == 1 && rows.string(0, 0) == "true") }
        } catch {
            try? connection.execute("ROLLBACK")
            committedHead = nil
            throw fail(error)
        }
        let result: T
        do {
            result = try body(lockHeld)
        } catch {
            try? connection.execute("ROLLBACK")
            committedHead = nil
            vacuumPending = false
            throw error
        }
        do {
            try connection.execute("COMMIT")
        } catch {
            try? connection.execute("ROLLBACK")
            committedHead = nil
            throw fail(error)
        }
        committedHead = lockHeld ? lockedHead : nil
        vacuumAfterCommit()
        return result
    }

    /// True between taking the append lock and the end of its transaction.
    var lockHeld = false

    /// Appends fully formed events (ids, command ids, actors, times, seq and hash from the client);
    /// the server enforces unique ids and (stream, version), the order of seq, and records the role.
    /// One event is one INSERT; several are sent with one COPY per batch (the insert
    /// trigger still checks every row); inside `bulkWrite` they wait to be sent in batches.
    public func append(_ events: [EventEnvelope]) throws(EventLogError) {
        let connection = try open()
        precondition(connection.isInTransaction, "append must run inside write")
        let redacts = events.contains { $0.type == "history.redacted" }
        if buffering {
            pending.append(contentsOf: events)
            for event in events { pendingVersions[event.stream] = event.version }
            if pending.count >= copyBatch || redacts { try flushPending() }
        } else if events.count > 1 {
            for start in stride(from: 0, to: events.count, by: copyBatch) {
                try copy(events[start ..< min(events.count, start + copyBatch)])
            }
        } else {
            try insertEach(events[...])
        }
        if redacts { try applyRedactions(events) }
        if let last = events.last, lockHeld { lockedHead = LogHead(seq: last.seq, hash: last.hash) }
    }

    /// One INSERT per event; an error names the event it is about.
    func insertEach(_ events: ArraySlice<EventEnvelope>) throws(EventLogError) {
        let connection = try open()
        for event in events {
            do {
                try connection.run("""
                    INSERT INTO events(seq, id, stream, version, type, schema, data, recorded_at, actor, command, hash)
                    VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)
                    """, [
                        .int(event.seq), .text(event.id), .text(event.stream), .int(event.version), .text(event.type),
                        .int(event.schema), .text(event.data), .int(event.recordedAt), .text(event.actor),
                        .text(event.command), .text(event.hash),
                    ])
            } catch {
                lockedHead = nil
                switch fail(error) {
                case .conflict: throw .conflict(stream: event.stream, version: event.version)
                case .duplicateEventID: throw .duplicateEventID(event.id)
                case let other: throw other
                }
            }
        }
    }

    /// The event in `row`, its columns from `offset` on in the order of `selectColumns`.
    static func envelope(_ rows: PGResult, _ row: Int, offset c: Int = 0) -> EventEnvelope {
        EventEnvelope(
            seq: rows.int64(row, c), id: rows.string(row, c + 1), stream: rows.string(row, c + 2), version: rows.int(row, c + 3),
            type: rows.string(row, c + 4), schema: rows.int(row, c + 5), data: rows.string(row, c + 6), recordedAt: rows.int64(row, c + 7),
            actor: rows.string(row, c + 8), command: rows.string(row, c + 9), hash: rows.string(row, c + 10), role: rows.optionalString(row, c + 11)
        )
    }
}
