import CSQLite
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
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
            return .full
        case SQLITE_IOERR where error.systemErrno == ENOSPC || error.systemErrno == EDQUOT:
            // SQLite says SQLITE_FULL only for its own writes; growing the -shm index (which reads
            // need too) or syncing on a full disk surface as I/O errors with ENOSPC behind them.
            return .full
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
