import CSQLite

/// A failed SQLite call: result code, SQLite's own message, and the SQL it was running.
public struct SQLiteError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The primary result code (`SQLITE_BUSY`, `SQLITE_CONSTRAINT`, ...).
    public var code: Int32
    /// The extended result code, when SQLite gave one.
    public var extendedCode: Int32
    public var message: String
    public var sql: String?
    /// The operating system's `errno` behind an I/O error (`ENOSPC`, ...), 0 when there was none.
    public var systemErrno: Int32

    public init(code: Int32, extendedCode: Int32? = nil, message: String, sql: String? = nil, systemErrno: Int32 = 0) {
        self.code = code
        self.extendedCode = extendedCode ?? code
        self.message = message
        self.sql = sql
        self.systemErrno = systemErrno
    }

    init(connection: OpaquePointer?, code: Int32, sql: String?) {
        let message = connection.flatMap { sqlite3_errmsg($0) }.map { String(cString: $0) } ?? String(cString: sqlite3_errstr(code))
        let extended = connection.map { sqlite3_extended_errcode($0) } ?? code
        let systemErrno = connection.map { sqlite3_system_errno($0) } ?? 0
        self.init(code: code & 0xFF, extendedCode: extended, message: message, sql: sql, systemErrno: systemErrno)
    }

    public var description: String {
        var text = "SQLite error \(code): \(message)"
        if let sql { text += " - while executing `\(sql)`" }
        return text
    }
}
