import TallyDomain
import TallyPostgres
import TallyStorage

/// Opens the store a location names; the only place that knows which backends exist.
public enum StoreFactory {
    /// How long one wait for the write lock may take, in milliseconds, unless the user says otherwise.
    public static let defaultLockTimeout: Int32 = SQLiteEventLog.defaultBusyTimeout

    /// Opens for writing, creating and migrating the store when needed.
    public static func openForWriting(_ location: StoreLocation, now: Int64, lockTimeout: Int32 = defaultLockTimeout) throws(EventLogError) -> any EventStore {
        switch location {
        case .file(let path):
            return try SQLiteEventLog.openForWriting(path: path, now: now, busyTimeout: lockTimeout)
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
}
