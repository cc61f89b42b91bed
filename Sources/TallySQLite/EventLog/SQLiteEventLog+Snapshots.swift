import TallyDomain
import TallyEssentials

/// Snapshot rows in the `snapshots` table of the same file.
extension SQLiteEventLog: SnapshotStore {
    public func snapshots() throws(EventLogError) -> [SnapshotInfo] {
        guard try hasTable("snapshots") else { return [] }
        // A file not yet migrated to chunked bodies (a read-only one) lists its whole-body rows.
        let chunked = try hasTable("snapshot_chunks")
        do {
            let statement = try connection.statement(chunked ? """
                SELECT seq, format, reducer_version, created_at, checksum,
                       CASE WHEN chunk_size > 0 THEN size ELSE length(body) END, chunk_size
                FROM snapshots ORDER BY seq DESC, created_at DESC
                """ : """
                SELECT seq, format, reducer_version, created_at, checksum, length(body), 0
                FROM snapshots ORDER BY seq DESC, created_at DESC
                """)
            defer { statement.reset() }
            var result: [SnapshotInfo] = []
            while try statement.step() {
                result.append(SnapshotInfo(
                    seq: statement.int64(at: 0), format: statement.int(at: 1), reducerVersion: statement.int(at: 2),
                    createdAt: statement.int64(at: 3), checksum: statement.string(at: 4), size: statement.int(at: 5),
                    chunkSize: statement.int(at: 6)
                ))
            }
            return result
        } catch {
            throw StorageErrors.map(error)
        }
    }

    public func snapshotChunkSums(_ info: SnapshotInfo) throws -> [UInt8]? {
        guard info.chunkSize > 0 else { return nil }
        do {
            let statement = try connection.statement("SELECT chunk_sums FROM snapshots WHERE seq = ? AND format = ? AND reducer_version = ?")
            defer { statement.reset() }
            try statement.bind(info.seq, at: 1)
            try statement.bind(info.format, at: 2)
            try statement.bind(info.reducerVersion, at: 3)
            guard try statement.step() else { return nil }
            return statement.blob(at: 0)
        } catch {
            throw StorageErrors.map(error)
        }
    }

    /// One row read by its primary key: SQLite walks that chunk's own pages, never the rest of the body.
    public func readSnapshotChunk(_ info: SnapshotInfo, index: Int, into target: UnsafeMutableRawBufferPointer) throws -> Bool {
        do {
            let statement = try connection.statement("""
                SELECT data FROM snapshot_chunks WHERE seq = ? AND format = ? AND reducer_version = ? AND chunk = ?
                """)
            defer { statement.reset() }
            try statement.bind(info.seq, at: 1)
            try statement.bind(info.format, at: 2)
            try statement.bind(info.reducerVersion, at: 3)
            try statement.bind(index, at: 4)
            guard try statement.step() else { return false }
            return statement.withBytes(at: 0) { bytes in
                guard bytes.count == target.count else { return false }
                if let base = bytes.baseAddress, bytes.count > 0 { target.baseAddress!.copyMemory(from: base, byteCount: bytes.count) }
                return true
            }
        } catch {
            throw StorageErrors.map(error)
        }
    }

    public func saveSnapshot(_ info: SnapshotInfo, body: [UInt8], chunkSums: [UInt8], keep: Int) throws(EventLogError) {
        precondition(info.chunkSize > 0, "snapshots are stored in chunks")
        let save = { () throws(SQLiteError) in
            for sql in ["DELETE FROM snapshot_chunks WHERE seq = ? AND format = ? AND reducer_version = ?",
                        "DELETE FROM snapshots WHERE seq = ? AND format = ? AND reducer_version = ?"] {
                let delete = try self.connection.statement(sql)
                defer { delete.reset() }
                try delete.bind(info.seq, at: 1)
                try delete.bind(info.format, at: 2)
                try delete.bind(info.reducerVersion, at: 3)
                try delete.step()
            }
            let insert = try self.connection.statement("""
                INSERT INTO snapshots(seq, format, reducer_version, created_at, checksum, body, size, chunk_size, chunk_sums)
                VALUES (?, ?, ?, ?, ?, x'', ?, ?, ?)
                """)
            defer { insert.reset() }
            try insert.bind(info.seq, at: 1)
            try insert.bind(info.format, at: 2)
            try insert.bind(info.reducerVersion, at: 3)
            try insert.bind(info.createdAt, at: 4)
            try insert.bind(info.checksum, at: 5)
            try insert.bind(body.count, at: 6)
            try insert.bind(info.chunkSize, at: 7)
            try insert.bind(chunkSums, at: 8)
            try insert.step()
            let chunk = try self.connection.statement("""
                INSERT INTO snapshot_chunks(seq, format, reducer_version, chunk, data) VALUES (?, ?, ?, ?, ?)
                """)
            defer { chunk.reset() }
            for (index, start) in stride(from: 0, to: body.count, by: info.chunkSize).enumerated() {
                chunk.reset()
                try chunk.bind(info.seq, at: 1)
                try chunk.bind(info.format, at: 2)
                try chunk.bind(info.reducerVersion, at: 3)
                try chunk.bind(index, at: 4)
                try chunk.bind(body[start ..< min(body.count, start + info.chunkSize)], at: 5)
                try chunk.step()
            }
            let prune = try self.connection.statement("""
                DELETE FROM snapshots WHERE format != ?1 OR reducer_version != ?2 OR seq NOT IN (
                  SELECT seq FROM snapshots WHERE format = ?1 AND reducer_version = ?2 ORDER BY seq DESC LIMIT ?3)
                """)
            defer { prune.reset() }
            try prune.bind(info.format, at: 1)
            try prune.bind(info.reducerVersion, at: 2)
            try prune.bind(keep, at: 3)
            try prune.step()
            try self.connection.execute("""
                DELETE FROM snapshot_chunks WHERE NOT EXISTS (SELECT 1 FROM snapshots s
                  WHERE s.seq = snapshot_chunks.seq AND s.format = snapshot_chunks.format AND s.reducer_version = snapshot_chunks.reducer_version)
                """)
        }
        try inWriteTransaction(save)
    }

    public func deleteAllSnapshots() throws(EventLogError) {
        guard try hasTable("snapshots") else { return }
        let chunked = try hasTable("snapshot_chunks")
        // SQLite builds with secure deletion on (Debian's do) overwrite every freed page with zeros: for
        // a 100k-todo store 12 MB through the write-ahead log and a checkpoint (0.24 s of a 1.3 s
        // rebuild). A snapshot holds nothing the log does not, so its pages are freed the fast way.
        let secureDelete = try? connection.scalarInt("PRAGMA secure_delete")
        if secureDelete == 1 { try? connection.execute("PRAGMA secure_delete = FAST") }
        defer { if secureDelete == 1 { try? connection.execute("PRAGMA secure_delete = 1") } }
        try inWriteTransaction { () throws(SQLiteError) in
            if chunked { try self.connection.execute("DELETE FROM snapshot_chunks") }
            try self.connection.execute("DELETE FROM snapshots")
        }
    }

    /// Runs `body` in the current write transaction, or in a new one (with the busy retries of `write`).
    func inWriteTransaction(_ body: () throws(SQLiteError) -> Void) throws(EventLogError) {
        do {
            if connection.isInTransaction {
                try body()
            } else {
                try write { try body() }
            }
        } catch let error as SQLiteError {
            throw StorageErrors.map(error)
        } catch let error as EventLogError {
            throw error
        } catch {
            throw .io(ErrorWords.text(error))
        }
    }

    func hasTable(_ name: String) throws(EventLogError) -> Bool {
        do {
            let statement = try connection.statement("SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name = ?")
            defer { statement.reset() }
            try statement.bind(name, at: 1)
            return try statement.step() && statement.int(at: 0) > 0
        } catch {
            throw StorageErrors.map(error)
        }
    }
}
