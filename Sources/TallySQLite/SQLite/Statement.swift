import CSQLite

/// `SQLITE_TRANSIENT`: SQLite copies bound text before the call returns.
let transient = unsafeBitCast(-1, to: sqlite3_destructor_type.self)

/// A prepared statement, owned by its connection's cache. Not `Sendable`.
final class Statement {
    let handle: OpaquePointer
    let sql: String
    private unowned let connection: Connection

    init(connection: Connection, sql: String) throws(SQLiteError) {
        var handle: OpaquePointer?
        let code = sqlite3_prepare_v3(connection.handle, sql, -1, UInt32(SQLITE_PREPARE_PERSISTENT), &handle, nil)
        guard code == SQLITE_OK, let handle else {
            throw SQLiteError(connection: connection.handle, code: code, sql: sql)
        }
        self.handle = handle
        self.sql = sql
        self.connection = connection
    }

    deinit {
        sqlite3_finalize(handle)
    }

    /// Clears bindings and rewinds, ready for the next execution.
    func reset() {
        sqlite3_reset(handle)
        sqlite3_clear_bindings(handle)
    }

    func bind(_ value: Int64, at index: Int32) throws(SQLiteError) {
        try check(sqlite3_bind_int64(handle, index, value))
    }

    func bind(_ value: Int, at index: Int32) throws(SQLiteError) {
        try check(sqlite3_bind_int64(handle, index, Int64(value)))
    }

    func bind(_ value: String, at index: Int32) throws(SQLiteError) {
        try check(sqlite3_bind_text(handle, index, value, -1, transient))
    }

    func bind(_ value: [UInt8], at index: Int32) throws(SQLiteError) {
        let code = value.withUnsafeBytes { sqlite3_bind_blob(handle, index, $0.baseAddress, Int32($0.count), transient) }
        try check(code)
    }

    func bind(_ value: ArraySlice<UInt8>, at index: Int32) throws(SQLiteError) {
        let code = value.withUnsafeBytes { sqlite3_bind_blob(handle, index, $0.baseAddress, Int32($0.count), transient) }
        try check(code)
    }

    /// Binds `value` without a copy and steps once while it is in reach: for a large blob, where
    /// SQLite's own copy (`SQLITE_TRANSIENT`) would hold it twice.
    func stepBinding(_ value: [UInt8], at index: Int32) throws(SQLiteError) {
        defer { sqlite3_clear_bindings(handle) }
        let result: Result<Void, SQLiteError> = value.withUnsafeBytes { raw in
            Result { () throws(SQLiteError) in
                try check(sqlite3_bind_blob(handle, index, raw.baseAddress, Int32(raw.count), nil))
                try step()
            }
        }
        try result.get()
    }

    func bindNull(at index: Int32) throws(SQLiteError) {
        try check(sqlite3_bind_null(handle, index))
    }

    /// Binds the text, or NULL when there is none.
    func bind(_ value: String?, at index: Int32) throws(SQLiteError) {
        if let value { try bind(value, at: index) } else { try bindNull(at: index) }
    }

    /// Binds the number, or NULL when there is none.
    func bind(_ value: Int64?, at index: Int32) throws(SQLiteError) {
        if let value { try bind(value, at: index) } else { try bindNull(at: index) }
    }

    /// Advances one row: true when a row is available, false when done.
    @discardableResult
    func step() throws(SQLiteError) -> Bool {
        let code = sqlite3_step(handle)
        switch code {
        case SQLITE_ROW: return true
        case SQLITE_DONE: return false
        default:
            let error = SQLiteError(connection: connection.handle, code: code, sql: sql)
            sqlite3_reset(handle)
            throw error
        }
    }

    func int64(at column: Int32) -> Int64 {
        sqlite3_column_int64(handle, column)
    }

    func int(at column: Int32) -> Int {
        Int(sqlite3_column_int64(handle, column))
    }

    func string(at column: Int32) -> String {
        guard let text = sqlite3_column_text(handle, column) else { return "" }
        let count = Int(sqlite3_column_bytes(handle, column))
        return String(decoding: UnsafeBufferPointer(start: text, count: count), as: UTF8.self)
    }

    /// The column's UTF-8 text in SQLite's own buffer, valid until the statement steps, resets or
    /// converts this column again.
    @inline(__always)
    func text(at column: Int32) -> UnsafeBufferPointer<UInt8> {
        guard let text = sqlite3_column_text(handle, column) else { return UnsafeBufferPointer(start: nil, count: 0) }
        return UnsafeBufferPointer(start: text, count: Int(sqlite3_column_bytes(handle, column)))
    }

    func blob(at column: Int32) -> [UInt8] {
        let count = Int(sqlite3_column_bytes(handle, column))
        guard count > 0, let bytes = sqlite3_column_blob(handle, column) else { return [] }
        return Array(UnsafeRawBufferPointer(start: bytes, count: count))
    }

    /// Calls `body` with a column's bytes in place; valid only until the next step or reset.
    func withBytes<T>(at column: Int32, _ body: (UnsafeRawBufferPointer) throws -> T) rethrows -> T {
        let count = Int(sqlite3_column_bytes(handle, column))
        guard count > 0, let bytes = sqlite3_column_blob(handle, column) else {
            return try body(UnsafeRawBufferPointer(start: nil, count: 0))
        }
        return try body(UnsafeRawBufferPointer(start: bytes, count: count))
    }

    func isNull(at column: Int32) -> Bool {
        sqlite3_column_type(handle, column) == SQLITE_NULL
    }

    private func check(_ code: Int32) throws(SQLiteError) {
        guard code == SQLITE_OK else { throw SQLiteError(connection: connection.handle, code: code, sql: sql) }
    }
}
