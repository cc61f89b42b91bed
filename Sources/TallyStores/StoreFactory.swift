#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import TallyDomain
import TallyPostgres
import TallySQLite

/// Opens the store a location names; the only place that knows which backends exist.
public enum StoreFactory {
    /// How long one wait for the write lock may take, in milliseconds, unless the user says otherwise.
    public static let defaultLockTimeout: Int32 = SQLiteEventLog.defaultBusyTimeout

    /// Opens for writing, creating and migrating the store when needed. With `create` false a
    /// missing file is not created (`.io`): a shared log that should be there is never replaced
    /// by a new empty one.
    public static func openForWriting(
        _ location: StoreLocation, now: Int64, lockTimeout: Int32 = defaultLockTimeout, create: Bool = true
    ) throws(EventLogError) -> any EventStore {
        switch location {
        case .file(let path):
            return try SQLiteEventLog.openForWriting(path: path, now: now, busyTimeout: lockTimeout, create: create)
        case .postgres(let uri):
            return try PostgresEventLog.openForWriting(conninfo: uri, now: now, lockTimeout: lockTimeout)
        }
    }

    /// Opens without ever writing; nil when there is no store yet (no file, or a database without the schema).
    public static func openForReading(_ location: StoreLocation, lockTimeout: Int32 = defaultLockTimeout) throws(EventLogError) -> (any EventStore)? {
        switch location {
        case .file(let path):
            return try SQLiteEventLog.openForReading(path: path, busyTimeout: lockTimeout)
        case .postgres(let uri):
            return try PostgresEventLog.openForReading(conninfo: uri, lockTimeout: lockTimeout)
        }
    }

    /// True when the store is there before tally writes to it: the file exists; a server database
    /// always counts as there (tally creates its schema, never the database).
    public static func exists(_ location: StoreLocation) -> Bool {
        switch location {
        case .file(let path): return FileManager.default.fileExists(atPath: path)
        case .postgres: return true
        }
    }

    /// Removes a store that `openForWriting` created and that stayed empty (its file and side
    /// files); a server database is never removed. The store must be closed.
    public static func removeCreated(_ location: StoreLocation) {
        guard case .file(let path) = location else { return }
        for suffix in ["", "-wal", "-shm", "-journal"] {
            try? FileManager.default.removeItem(atPath: path + suffix)
        }
    }
}
