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
public final class PostgresEventLog: EventStore {
    /// The advisory lock every append holds until its transaction ends.
    public static let appendLockKey: Int64 = 7_283_945_501

    /// A server's log is the shared log itself, never a replica of one.
    public var replica: (any EventStore & ReplicaStore)? { nil }
    /// Rows fetched per round trip when scanning the log.
    static let pageSize = 20_000

    /// The URI or connection string libpq was given.
    private let conninfo: String
    public let displayLocation: String
    private var connection: PGConnection?
    private let migrator = PostgresMigrator()
    private var schemaKnown: Bool
    /// Inside `write` (the append lock held): the head when a scan or an append has shown it, so
    /// the dispatcher's `head()` after its catch-up costs no round trip. Nil when unknown.
    private var lockedHead: LogHead?
    /// The head right after this connection's last commit; inside the next `write` it is the head
    /// again once a scan past it finds nothing (events are immutable and seq gap-free).
    private var committedHead: LogHead?

    private static let selectColumns = "seq, id, stream, version, type, schema, data, recorded_at, actor, command, hash, role"

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
        let connection = try connect(conninfo, lockTimeout: lockTimeout)
        let log = PostgresEventLog(conninfo: conninfo, connection: connection, schemaKnown: false)
        try log.migrator.migrate(connection, now: now)
        log.schemaKnown = true
        return log
    }

    /// Connects without writing; nil when the database has no tally schema yet (it reads as empty).
    public static func openForReading(conninfo: String, lockTimeout: Int32) throws(EventLogError) -> PostgresEventLog? {
        let connection = try connect(conninfo, lockTimeout: lockTimeout)
        switch try PostgresMigrator.state(connection) {
        case .empty:
            return nil
        case .tally(let version):
            let log = PostgresEventLog(conninfo: conninfo, connection: connection, schemaKnown: version > 0)
            if version > log.latestSchemaVersion { throw .newerSchema(found: version, known: log.latestSchemaVersion) }
            return log
        }
    }

    private static func connect(_ conninfo: String, lockTimeout: Int32) throws(EventLogError) -> PGConnection {
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
        do {
            // lock_timeout 0 would mean "wait forever".
            try connection.execute("SET lock_timeout = \(max(1, lockTimeout)); SET application_name = 'tally'")
        } catch {
            throw PostgresErrors.map(error, server: server)
        }
        return connection
    }

    /// The open connection, or a clear error once `close` ran.
    private func open() throws(EventLogError) -> PGConnection {
        guard let connection else { throw .io("the connection to \(displayLocation) is closed") }
        return connection
    }

    private func fail(_ error: Error) -> EventLogError {
        switch error {
        case let error as PGError: return PostgresErrors.map(error, server: displayLocation)
        case let error as EventLogError: return error
        default: return .io(ErrorWords.text(error))
        }
    }

    public func close() {
        connection = nil
    }

    /// The role this connection appends as (the server records it on every event).
    public var appendingRole: String? { connection?.sessionUser }

    // MARK: EventStore

    public func schemaVersion() throws(EventLogError) -> Int {
        if case .tally(let version) = try PostgresMigrator.state(try open()) { return version }
        return 0
    }

    public var latestSchemaVersion: Int { migrator.latestVersion }

    public var needsMigration: Bool { ((try? schemaVersion()) ?? 0) < latestSchemaVersion }

    public func storageSize() throws(EventLogError) -> Int64 {
        let connection = try open()
        do {
            return try connection.scalarInt("""
                SELECT COALESCE(sum(pg_total_relation_size(t)), 0)::bigint
                FROM unnest(ARRAY[to_regclass('events'), to_regclass('snapshots'), to_regclass('schema_migrations')]) AS t
                """) ?? 0
        } catch {
            throw fail(error)
        }
    }

    // MARK: EventLog

    public func head() throws(EventLogError) -> LogHead {
        guard schemaKnown else { return .empty }
        if let lockedHead { return lockedHead }
        let connection = try open()
        do {
            return try connection.query("SELECT seq, hash FROM events ORDER BY seq DESC LIMIT 1") { rows in
                rows.count == 0 ? .empty : LogHead(seq: rows.int64(0, 0), hash: rows.string(0, 1))
            }
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
            }
        }
    }

    public func events(inStream stream: String) throws(EventLogError) -> [EventEnvelope] {
        try rows("SELECT \(Self.selectColumns) FROM events WHERE stream = $1 ORDER BY version", [.text(stream)])
    }

    public func scanBackward(before: Int64?, _ body: (EventEnvelope) throws -> Bool) throws {
        guard schemaKnown else { return }
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
        do {
            return Int(try open().scalarInt("SELECT max(version) FROM events WHERE stream = $1", [.text(stream)]) ?? 0)
        } catch {
            throw fail(error)
        }
    }

    private func rows(_ sql: String, _ parameters: [PGValue]) throws(EventLogError) -> [EventEnvelope] {
        guard schemaKnown else { return [] }
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
        let connection = try open()
        if connection.isInTransaction { return try body() }
        lockedHead = nil
        defer {
            lockHeld = false
            lockedHead = nil
        }
        do {
            // One round trip: the transaction and the lock.
            try connection.execute("BEGIN; SELECT pg_advisory_xact_lock(\(Self.appendLockKey))")
            lockHeld = true
        } catch {
            try? connection.execute("ROLLBACK")
            committedHead = nil
            throw fail(error)
        }
        let result: T
        do {
            result = try body()
        } catch {
            try? connection.execute("ROLLBACK")
            committedHead = nil
            throw error
        }
        do {
            try connection.execute("COMMIT")
        } catch {
            try? connection.execute("ROLLBACK")
            committedHead = nil
            throw fail(error)
        }
        committedHead = lockedHead
        return result
    }

    /// True between taking the append lock and the end of its transaction.
    private var lockHeld = false

    /// Appends fully formed events (ids, command ids, actors, times, seq and hash from the client);
    /// the server enforces unique ids and (stream, version), the order of seq, and records the role.
    public func append(_ events: [EventEnvelope]) throws(EventLogError) {
        let connection = try open()
        precondition(connection.isInTransaction, "append must run inside write")
        for event in events {
            do {
                try connection.runPrepared("tally_append", """
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
        if let last = events.last, lockHeld { lockedHead = LogHead(seq: last.seq, hash: last.hash) }
    }

    private static func envelope(_ rows: PGResult, _ row: Int) -> EventEnvelope {
        EventEnvelope(
            seq: rows.int64(row, 0), id: rows.string(row, 1), stream: rows.string(row, 2), version: rows.int(row, 3),
            type: rows.string(row, 4), schema: rows.int(row, 5), data: rows.string(row, 6), recordedAt: rows.int64(row, 7),
            actor: rows.string(row, 8), command: rows.string(row, 9), hash: rows.string(row, 10), role: rows.optionalString(row, 11)
        )
    }
}

// MARK: SnapshotStore

extension PostgresEventLog {
    public func snapshots() throws(EventLogError) -> [SnapshotInfo] {
        guard schemaKnown else { return [] }
        let connection = try open()
        do {
            // Only the snapshots stored by this role or by the log's owner (migration 0006): a snapshot
            // another writer stored may say anything. At one key this role's own comes first, the
            // choice `tally_snapshot_chunk` makes too.
            return try connection.query("""
                SELECT seq, format, reducer_version, created_at, checksum, size, chunk_size FROM (
                  SELECT DISTINCT ON (seq, format, reducer_version) seq, format, reducer_version, created_at, checksum,
                         CASE WHEN chunk_size > 0 THEN size ELSE octet_length(body) END AS size, chunk_size
                  FROM snapshots WHERE \(Self.trustedSnapshot)
                  ORDER BY seq, format, reducer_version, stored_by = session_user DESC
                ) AS trusted ORDER BY seq DESC, created_at DESC
                """) { rows in
                (0 ..< rows.count).map { row in
                    SnapshotInfo(seq: rows.int64(row, 0), format: rows.int(row, 1), reducerVersion: rows.int(row, 2),
                                 createdAt: rows.int64(row, 3), checksum: rows.string(row, 4), size: rows.int(row, 5),
                                 chunkSize: rows.int(row, 6))
                }
            }
        } catch {
            throw fail(error)
        }
    }

    /// The condition on a `snapshots` row that this session may use: stored by its own role or by the owner of `events`.
    static let trustedSnapshot = """
        stored_by IN (session_user, (SELECT pg_get_userbyid(relowner)::text FROM pg_class WHERE oid = 'events'::regclass))
        """

    public func snapshotChunkSums(_ info: SnapshotInfo) throws -> [UInt8]? {
        guard schemaKnown, info.chunkSize > 0 else { return nil }
        do {
            return try open().query("""
                SELECT chunk_sums FROM snapshots WHERE seq = $1 AND format = $2 AND reducer_version = $3 AND \(Self.trustedSnapshot)
                ORDER BY stored_by = session_user DESC LIMIT 1
                """, [.int(info.seq), .int(info.format), .int(info.reducerVersion)], binaryResult: true) { rows in
                rows.count > 0 ? rows.withBytes(0, 0) { Array(UnsafeRawBufferPointer($0)) } : nil
            }
        } catch let error as PGError {
            throw fail(error)
        }
    }

    /// One round trip for one chunk (through `tally_snapshot_chunk`, so no grant on the chunk table is needed).
    public func readSnapshotChunk(_ info: SnapshotInfo, index: Int, into target: UnsafeMutableRawBufferPointer) throws -> Bool {
        guard schemaKnown else { return false }
        do {
            return try open().query("SELECT tally_snapshot_chunk($1, $2, $3, $4)",
                                    [.int(info.seq), .int(info.format), .int(info.reducerVersion), .int(index)], binaryResult: true) { rows in
                guard rows.count > 0, !rows.isNull(0, 0) else { return false }
                return rows.withBytes(0, 0) { bytes in
                    let source = UnsafeRawBufferPointer(bytes)
                    guard source.count == target.count else { return false }
                    if let base = source.baseAddress, source.count > 0 { target.baseAddress!.copyMemory(from: base, byteCount: source.count) }
                    return true
                }
            }
        } catch let error as PGError {
            throw fail(error)
        }
    }

    public func saveSnapshot(_ info: SnapshotInfo, body: [UInt8], chunkSums: [UInt8], keep: Int) throws(EventLogError) {
        do {
            try open().run("SELECT tally_save_snapshot_chunks($1, $2, $3, $4, $5, $6, $7, $8, $9)", [
                .int(info.seq), .int(info.format), .int(info.reducerVersion), .int(info.createdAt),
                .text(info.checksum), .bytes(body), .int(info.chunkSize), .bytes(chunkSums), .int(keep),
            ])
        } catch {
            throw fail(error)
        }
    }

    public func deleteAllSnapshots() throws(EventLogError) {
        guard schemaKnown else { return }
        do {
            try open().run("SELECT tally_delete_snapshots()")
        } catch {
            throw fail(error)
        }
    }
}

// MARK: BlobStore

/// Original activity files in the `blobs` table (migration 0003), in the same transaction as the events.
extension PostgresEventLog: BlobStore {
    public func containsBlob(_ sha256: String) throws(EventLogError) -> Bool {
        guard schemaKnown else { return false }
        do {
            return try open().query("SELECT 1 FROM blobs WHERE sha256 = $1", [.text(sha256)]) { $0.count > 0 }
        } catch let error as PGError {
            throw fail(error)
        } catch {
            throw .io(ErrorWords.text(error))
        }
    }

    public func putBlob(_ blob: Blob) throws(EventLogError) {
        do {
            try open().run("INSERT INTO blobs(sha256, encoding, body) VALUES ($1, $2, $3) ON CONFLICT (sha256) DO NOTHING", [
                .text(blob.sha256), .text(blob.encoding.rawValue), .bytes(blob.bytes),
            ])
        } catch {
            throw fail(error)
        }
    }

    public func blob(_ sha256: String) throws(EventLogError) -> Blob? {
        guard schemaKnown else { return nil }
        do {
            let connection = try open()
            let encoding = try connection.query("SELECT encoding FROM blobs WHERE sha256 = $1", [.text(sha256)]) { rows in
                rows.count > 0 ? BlobEncoding(rawValue: rows.string(0, 0)) : nil
            }
            guard let encoding else { return nil }
            let bytes = try connection.query("SELECT body FROM blobs WHERE sha256 = $1", [.text(sha256)], binaryResult: true) { rows in
                rows.withBytes(0, 0) { Array($0) }
            }
            return Blob(sha256: sha256, encoding: encoding, bytes: bytes)
        } catch let error as PGError {
            throw fail(error)
        } catch {
            throw .io(ErrorWords.text(error))
        }
    }

    public func blobNames() throws(EventLogError) -> [String] {
        guard schemaKnown else { return [] }
        do {
            return try open().query("SELECT sha256 FROM blobs ORDER BY sha256") { rows in (0 ..< rows.count).map { rows.string($0, 0) } }
        } catch let error as PGError {
            throw fail(error)
        } catch {
            throw .io(ErrorWords.text(error))
        }
    }
}
