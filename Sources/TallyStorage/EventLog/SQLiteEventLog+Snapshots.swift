import TallyDomain

/// Snapshot rows in the `snapshots` table of the same file.
extension SQLiteEventLog: SnapshotStore {
    public func snapshots() throws(EventLogError) -> [SnapshotInfo] {
        guard try hasTable("snapshots") else { return [] }
        do {
            let statement = try connection.statement("""
                SELECT seq, format, reducer_version, created_at, checksum, length(body)
                FROM snapshots ORDER BY seq DESC, created_at DESC
                """)
            defer { statement.reset() }
            var result: [SnapshotInfo] = []
            while try statement.step() {
                result.append(SnapshotInfo(
                    seq: statement.int64(at: 0), format: statement.int(at: 1), reducerVersion: statement.int(at: 2),
                    createdAt: statement.int64(at: 3), checksum: statement.string(at: 4), size: statement.int(at: 5)
                ))
            }
            return result
        } catch {
            throw StorageErrors.map(error)
        }
    }

    public func withSnapshotBody(_ info: SnapshotInfo, _ body: (UnsafeRawBufferPointer) throws -> Void) throws -> Bool {
        let statement: Statement
        let found: Bool
        do {
            statement = try connection.statement("SELECT body FROM snapshots WHERE seq = ? AND format = ? AND reducer_version = ?")
            try statement.bind(info.seq, at: 1)
            try statement.bind(info.format, at: 2)
            try statement.bind(info.reducerVersion, at: 3)
            found = try statement.step()
        } catch {
            throw StorageErrors.map(error)
        }
        defer { statement.reset() }
        guard found else { return false }
        try statement.withBytes(at: 0, body)
        return true
    }

    /// How much of the file SQLite may map while it reads a snapshot body (no more than the file's size is mapped).
    static let snapshotMapSize = 1 << 30

    /// Reads the body with SQLite's incremental blob I/O, straight from the pages into the buffer:
    /// no intermediate copy of the whole blob, which at 100k todos cost as much as the rest of start-up.
    public func snapshotBody(_ info: SnapshotInfo) throws -> SnapshotBuffer? {
        do {
            let statement = try connection.statement("SELECT rowid, length(body) FROM snapshots WHERE seq = ? AND format = ? AND reducer_version = ?")
            defer { statement.reset() }
            try statement.bind(info.seq, at: 1)
            try statement.bind(info.format, at: 2)
            try statement.bind(info.reducerVersion, at: 3)
            guard try statement.step() else { return nil }
            let rowid = statement.int64(at: 0)
            let length = statement.int(at: 1)
            // The body's pages are read through a memory map, not one pread(2) per page (a snapshot of
            // 100k todos is 2,900 pages: 5 ms of system time). Only here: mapping the events table
            // for a replay would count the whole file as resident memory.
            try connection.execute("PRAGMA mmap_size = \(Self.snapshotMapSize)")
            defer { try? connection.execute("PRAGMA mmap_size = 0") }
            return try connection.readBlob(table: "snapshots", column: "body", rowid: rowid, length: length)
        } catch {
            throw StorageErrors.map(error)
        }
    }

    public func saveSnapshot(_ info: SnapshotInfo, body: [UInt8], keep: Int) throws(EventLogError) {
        let save = { () throws(SQLiteError) in
            let insert = try self.connection.statement("""
                INSERT OR REPLACE INTO snapshots(seq, format, reducer_version, created_at, checksum, body)
                VALUES (?, ?, ?, ?, ?, ?)
                """)
            defer { insert.reset() }
            try insert.bind(info.seq, at: 1)
            try insert.bind(info.format, at: 2)
            try insert.bind(info.reducerVersion, at: 3)
            try insert.bind(info.createdAt, at: 4)
            try insert.bind(info.checksum, at: 5)
            try insert.bind(body, at: 6)
            try insert.step()
            let prune = try self.connection.statement("""
                DELETE FROM snapshots WHERE format != ?1 OR reducer_version != ?2 OR seq NOT IN (
                  SELECT seq FROM snapshots WHERE format = ?1 AND reducer_version = ?2 ORDER BY seq DESC LIMIT ?3)
                """)
            defer { prune.reset() }
            try prune.bind(info.format, at: 1)
            try prune.bind(info.reducerVersion, at: 2)
            try prune.bind(keep, at: 3)
            try prune.step()
        }
        try inWriteTransaction(save)
    }

    public func deleteAllSnapshots() throws(EventLogError) {
        guard try hasTable("snapshots") else { return }
        try inWriteTransaction { () throws(SQLiteError) in try self.connection.execute("DELETE FROM snapshots") }
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
            throw .io("\(error)")
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
