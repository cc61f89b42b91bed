import TallyDomain
import TallyEssentials

/// Original activity files in the `blobs` table of the same file (migration 0003).
extension SQLiteEventLog: BlobStore {
    public func containsBlob(_ sha256: String) throws(EventLogError) -> Bool {
        guard try hasBlobsTable() else { return false }
        do {
            let statement = try connection.statement("SELECT 1 FROM blobs WHERE sha256 = ?")
            defer { statement.reset() }
            try statement.bind(sha256, at: 1)
            return try statement.step()
        } catch {
            throw StorageErrors.map(error)
        }
    }

    /// A blob larger than this is written through a small page cache (see `putBlob`).
    static let largeBlobBytes = 8 << 20

    /// Stores the blob, bound without a copy. SQLite still builds the row in memory (one copy of the
    /// bytes); a large blob is written through the default 2 MB page cache, so its pages go to the
    /// write-ahead log as they fill instead of staying in a bulk write's large cache: storing a
    /// 256 MB file costs about twice its size, not three times.
    public func putBlob(_ blob: Blob) throws(EventLogError) {
        var previousCache: Int64?
        if blob.bytes.count > Self.largeBlobBytes {
            do {
                previousCache = try connection.scalarInt("PRAGMA cache_size")
                try connection.execute("PRAGMA cache_size = -2000")
            } catch {
                throw StorageErrors.map(error)
            }
        }
        defer { if let previousCache { try? connection.execute("PRAGMA cache_size = \(previousCache)") } }
        let insert = { () throws(SQLiteError) in
            let statement = try self.connection.statement("INSERT OR IGNORE INTO blobs(sha256, encoding, body) VALUES (?, ?, ?)")
            defer { statement.reset() }
            try statement.bind(blob.sha256, at: 1)
            try statement.bind(blob.encoding.rawValue, at: 2)
            try statement.stepBinding(blob.bytes, at: 3)
        }
        try inWriteTransaction(insert)
    }

    public func blob(_ sha256: String) throws(EventLogError) -> Blob? {
        guard try hasBlobsTable() else { return nil }
        do {
            let statement = try connection.statement("SELECT encoding, body FROM blobs WHERE sha256 = ?")
            defer { statement.reset() }
            try statement.bind(sha256, at: 1)
            guard try statement.step() else { return nil }
            guard let encoding = BlobEncoding(rawValue: statement.string(at: 0)) else { throw EventLogError.corrupt("blob \(sha256) has an unknown encoding") }
            return Blob(sha256: sha256, encoding: encoding, bytes: statement.blob(at: 1))
        } catch let error as EventLogError {
            throw error
        } catch let error as SQLiteError {
            throw StorageErrors.map(error)
        } catch {
            throw .io(ErrorWords.text(error))
        }
    }

    public func blobNames() throws(EventLogError) -> [String] {
        guard try hasBlobsTable() else { return [] }
        do {
            let statement = try connection.statement("SELECT sha256 FROM blobs ORDER BY sha256")
            defer { statement.reset() }
            var names: [String] = []
            while try statement.step() { names.append(statement.string(at: 0)) }
            return names
        } catch {
            throw StorageErrors.map(error)
        }
    }

    /// An older file opened for reading has no `blobs` table yet.
    private func hasBlobsTable() throws(EventLogError) -> Bool {
        try hasTable("blobs")
    }
}
