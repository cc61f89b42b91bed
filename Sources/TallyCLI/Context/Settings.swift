#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import TallyStores
import TallyDomain
import TallyEssentials
import TallyPlatform

/// Everything the process environment decides: where the database is, how to print, who acts and when.
struct Settings: Sendable {
    /// `--db` / `TALLY_DB` as given: a file path or a PostgreSQL URI (see `storeLocation`).
    var databasePath: String
    var json: Bool
    var color: Bool
    var unicode: Bool
    var width: Int?
    var actor: String
    var fixedNow: Int64?
    var zone: Zone
    /// Milliseconds one wait for the database lock may take (`TALLY_BUSY_TIMEOUT`).
    var busyTimeout: Int32

    /// Where the log is: a SQLite file or a PostgreSQL database.
    var storeLocation: StoreLocation { StoreLocation(databasePath) }

    /// The database path from `--db`, `TALLY_DB`, `XDG_DATA_HOME` or the home directory, in that order.
    static func databasePath(option: String?, environment: [String: String]) -> String {
        if let option, !option.isEmpty { return option }
        if let path = environment["TALLY_DB"], !path.isEmpty { return path }
        if let data = environment["XDG_DATA_HOME"], !data.isEmpty { return data + "/tally/tally.db" }
        let home = environment["HOME"].flatMap { $0.isEmpty ? nil : $0 } ?? FileManager.default.homeDirectoryForCurrentUser.path
        return home + "/.local/share/tally/tally.db"
    }

    /// Color only on a terminal, without `NO_COLOR`, with a `TERM` that is not `dumb`, and no `--no-color`.
    static func useColor(noColorFlag: Bool, stdoutIsTerminal: Bool, environment: [String: String]) -> Bool {
        guard !noColorFlag, stdoutIsTerminal else { return false }
        if let value = environment["NO_COLOR"], !value.isEmpty { return false }
        return environment["TERM"] != "dumb"
    }

    /// UTF-8 output unless the locale says otherwise.
    static func useUnicode(environment: [String: String]) -> Bool {
        let locale = environment["LC_ALL"].flatMap { $0.isEmpty ? nil : $0 }
            ?? environment["LC_CTYPE"].flatMap { $0.isEmpty ? nil : $0 }
            ?? environment["LANG"] ?? ""
        if locale.isEmpty { return true }
        let upper = locale.uppercased()
        return upper.contains("UTF-8") || upper.contains("UTF8")
    }

    /// `TALLY_ACTOR`, else `user@host`.
    static func actor(environment: [String: String]) -> String {
        if let actor = environment["TALLY_ACTOR"], !actor.isEmpty { return actor }
        let user = environment["USER"] ?? environment["LOGNAME"] ?? "user"
        return "\(user.isEmpty ? "user" : user)@\(ProcessInfo.processInfo.hostName)"
    }

    /// `TALLY_BUSY_TIMEOUT` in milliseconds, else the storage default.
    static func busyTimeout(environment: [String: String]) -> Int32 {
        environment["TALLY_BUSY_TIMEOUT"].flatMap { Int32($0) }.flatMap { $0 >= 0 ? $0 : nil } ?? StoreFactory.defaultLockTimeout
    }

    /// The zone `TZ` names (a zone database name or path, optionally after a colon, or a POSIX TZ string), else
    /// the system's: see `ZoneDatabase`.
    static func zone(environment: [String: String]) -> Zone {
        ZoneDatabase.zone(environment: environment)
    }
}
