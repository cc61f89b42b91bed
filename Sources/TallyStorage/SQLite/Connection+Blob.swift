import CSQLite
import TallyDomain

extension Connection {
    /// Reads `length` bytes of one blob with incremental blob I/O, straight into a new buffer.
    func readBlob(table: String, column: String, rowid: Int64, length: Int) throws(SQLiteError) -> SnapshotBuffer {
        var blob: OpaquePointer?
        let code = sqlite3_blob_open(handle, "main", table, column, rowid, 0, &blob)
        guard code == SQLITE_OK, let blob else {
            sqlite3_blob_close(blob)
            throw SQLiteError(connection: handle, code: code, sql: "blob \(table).\(column) of row \(rowid)")
        }
        defer { sqlite3_blob_close(blob) }
        guard Int(sqlite3_blob_bytes(blob)) == length, length <= Int(Int32.max) else {
            throw SQLiteError(connection: handle, code: SQLITE_CORRUPT, sql: "blob \(table).\(column) of row \(rowid)")
        }
        do {
            return try SnapshotBuffer(count: length) { target in
                guard length > 0 else { return }
                let read = sqlite3_blob_read(blob, target.baseAddress, Int32(length), 0)
                guard read == SQLITE_OK else { throw SQLiteError(connection: handle, code: read, sql: "blob \(table).\(column) of row \(rowid)") }
            }
        } catch let error as SQLiteError {
            throw error
        } catch {
            throw SQLiteError(connection: handle, code: SQLITE_ERROR, sql: "\(error)")
        }
    }
}
