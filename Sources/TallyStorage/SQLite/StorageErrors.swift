import CSQLite
import TallyDomain

/// Maps SQLite failures to the event log's typed errors, at the storage boundary.
enum StorageErrors {
    static func map(_ error: SQLiteError) -> EventLogError {
        switch error.code {
        case SQLITE_BUSY, SQLITE_LOCKED:
            return .busy
        case SQLITE_NOTADB:
            return .corrupt("the file is not a tally database (\(error.message))")
        case SQLITE_CORRUPT:
            return .corrupt("the database file is damaged (\(error.message))")
        case SQLITE_FULL:
            return .io("the disk or the database is full (\(error.message))")
        case SQLITE_READONLY:
            return .io("the database is read-only (\(error.message))")
        case SQLITE_CANTOPEN:
            return .io("cannot open the database file (\(error.message))")
        case SQLITE_CONSTRAINT where error.message.contains("events.stream, events.version"):
            return .conflict(stream: "", version: 0)
        case SQLITE_CONSTRAINT where error.message.contains("events.id"):
            return .duplicateEventID("")
        default:
            return .io(error.description)
        }
    }
}
