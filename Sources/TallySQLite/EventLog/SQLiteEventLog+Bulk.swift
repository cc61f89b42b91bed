import TallyDomain

extension SQLiteEventLog {
    /// Pages SQLite may keep in memory during a bulk write, in KiB (negative `cache_size` is KiB).
    ///
    /// An import inserts random UUIDs into two indexes; with the default 2 MB cache the pages of
    /// those B-trees leave the cache and are written to the write-ahead log again and again before
    /// the commit. With room for them, each page is written once, at the commit (a 1M-event
    /// import: 7.6 s of system time with the default cache, 0.9 s with this one).
    static let bulkCacheKiB = 131_072

    /// `write` with a larger page cache for its duration.
    public func bulkWrite<T>(_ body: () throws -> T) throws -> T {
        let previous: Int64
        do {
            previous = try connection.scalarInt("PRAGMA cache_size") ?? -2_000
            try connection.execute("PRAGMA cache_size = -\(Self.bulkCacheKiB)")
        } catch {
            throw StorageErrors.map(error)
        }
        defer { try? connection.execute("PRAGMA cache_size = \(previous)") }
        return try write(body)
    }
}
