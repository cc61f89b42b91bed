import TallyDomain

/// Snapshots in the `snapshots` and `snapshot_chunks` tables (migrations 0004 and 0006), each
/// trusted only when stored by this role or by the log's owner.
extension PostgresEventLog: SnapshotStore {
    public func snapshots() throws(EventLogError) -> [SnapshotInfo] {
        guard schemaKnown else { return [] }
        let connection = try open()
        do {
            // Only the snapshots stored by this role or by the log's owner (migration 0006): a snapshot
            // another writer stored may say anything. At one key this role's own comes first, the
            // choice `tally_snapshot_chunk` makes too.
            // The head comes along (one round trip fewer: a command reads it next). One row at
            // least, with NULL snapshot columns when there is none.
            var head = LogHead.empty
            let list = try connection.query("""
                SELECT t.seq, t.format, t.reducer_version, t.created_at, t.checksum, t.size, t.chunk_size, h.seq, h.hash
                FROM (SELECT 1) AS one
                LEFT JOIN (SELECT seq, hash FROM events ORDER BY seq DESC LIMIT 1) AS h ON true
                LEFT JOIN (
                  SELECT DISTINCT ON (seq, format, reducer_version) seq, format, reducer_version, created_at, checksum,
                         CASE WHEN chunk_size > 0 THEN size ELSE octet_length(body) END AS size, chunk_size
                  FROM snapshots WHERE \(Self.trustedSnapshot)
                  ORDER BY seq, format, reducer_version, stored_by = session_user DESC
                ) AS t ON true
                ORDER BY t.seq DESC, t.created_at DESC
                """) { rows in
                if rows.count > 0, !rows.isNull(0, 7) { head = LogHead(seq: rows.int64(0, 7), hash: rows.string(0, 8)) }
                return (0 ..< rows.count).filter { !rows.isNull($0, 0) }.map { row in
                    SnapshotInfo(seq: rows.int64(row, 0), format: rows.int(row, 1), reducerVersion: rows.int(row, 2),
                                 createdAt: rows.int64(row, 3), checksum: rows.string(row, 4), size: rows.int(row, 5),
                                 chunkSize: rows.int(row, 6))
                }
            }
            if !connection.isInTransaction, lockedHead == nil { prefetchedHead = head }
            return list
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
