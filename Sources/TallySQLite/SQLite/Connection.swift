import CSQLite

/// One SQLite connection with a cache of prepared statements. Not `Sendable`: one per thread.
final class Connection {
    enum Access {
        case readOnly
        /// Read-only on a file nobody can change meanwhile: no locks, no `-shm` or `-wal` created.
        case immutable
        case readWrite
        /// Read and write a file that must exist: never created.
        case readWriteExisting
    }

    enum TransactionKind: String {
        case deferred = "DEFERRED"
        case immediate = "IMMEDIATE"
    }

    let handle: OpaquePointer
    let path: String
    private var statements: [String: Statement] = [:]
    private(set) var isInTransaction = false
    private var isClosed = false

    init(path: String, access: Access) throws(SQLiteError) {
        var handle: OpaquePointer?
        let flags = switch access {
        case .readOnly: SQLITE_OPEN_READONLY | SQLITE_OPEN_NOMUTEX
        case .immutable: SQLITE_OPEN_READONLY | SQLITE_OPEN_NOMUTEX | SQLITE_OPEN_URI
        case .readWrite: SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX
        case .readWriteExisting: SQLITE_OPEN_READWRITE | SQLITE_OPEN_NOMUTEX
        }
        let name = access == .immutable ? Self.immutableURI(path) : path
        let code = sqlite3_open_v2(name, &handle, flags, nil)
        guard code == SQLITE_OK, let handle else {
            let error = SQLiteError(connection: handle, code: code, sql: nil)
            sqlite3_close_v2(handle)
            throw error
        }
        self.handle = handle
        self.path = path
        sqlite3_extended_result_codes(handle, 1)
    }

    deinit {
        close()
    }

    /// `file:PATH?immutable=1`, with the characters a URI gives meaning to escaped.
    static func immutableURI(_ path: String) -> String {
        var escaped = ""
        for character in path {
            switch character {
            case "%": escaped += "%25"
            case "?": escaped += "%3F"
            case "#": escaped += "%23"
            default: escaped.append(character)
            }
        }
        return "file:\(escaped)?immutable=1"
    }

    /// Finalizes the cached statements and closes the connection; the last connection to a WAL
    /// database checkpoints it and removes the `-wal` file. Nothing may use the connection afterwards.
    func close() {
        guard !isClosed else { return }
        isClosed = true
        statements.removeAll()
        sqlite3_close_v2(handle)
    }

    /// Runs one or more statements that return no rows.
    func execute(_ sql: String) throws(SQLiteError) {
        let code = sqlite3_exec(handle, sql, nil, nil, nil)
        guard code == SQLITE_OK else { throw SQLiteError(connection: handle, code: code, sql: sql) }
    }

    /// A cached prepared statement for `sql`, reset and ready to bind.
    func statement(_ sql: String) throws(SQLiteError) -> Statement {
        if let cached = statements[sql] {
            cached.reset()
            return cached
        }
        let statement = try Statement(connection: self, sql: sql)
        statements[sql] = statement
        return statement
    }

    /// The first column of the first row as an integer, or nil when there is no row.
    func scalarInt(_ sql: String) throws(SQLiteError) -> Int64? {
        let statement = try statement(sql)
        defer { statement.reset() }
        guard try statement.step(), !statement.isNull(at: 0) else { return nil }
        return statement.int64(at: 0)
    }

    /// Runs `body` inside a transaction: committed when it returns, rolled back when it throws.
    ///
    /// The first error wins: a failing rollback does not hide the error that caused it.
    func transaction<T>(_ kind: TransactionKind, _ body: () throws -> T) throws -> T {
        precondition(!isInTransaction, "nested transactions are not supported")
        try execute("BEGIN \(kind.rawValue)")
        isInTransaction = true
        defer { isInTransaction = false }
        let result: T
        do {
            result = try body()
        } catch {
            try? execute("ROLLBACK")
            throw error
        }
        do {
            try execute("COMMIT")
        } catch {
            try? execute("ROLLBACK")
            throw error
        }
        return result
    }

    var changes: Int { Int(sqlite3_changes(handle)) }
}
