import CLibPQ

extension PGConnection {
    /// Runs `COPY (query) TO STDOUT` and hands every CopyData message to `body` as it arrives: one
    /// row each (in binary format the first also carries the file header, the last the trailer).
    /// One statement and one snapshot of the table, streamed: no result of every row held at once
    /// and no round trip per page.
    ///
    /// When `body` throws, the rows still due are read and dropped, so the connection is usable
    /// afterwards, and the error is rethrown.
    func copyOut(_ sql: String, _ body: (UnsafeBufferPointer<UInt8>) throws -> Void) throws {
        let start = pq.exec(handle, sql)
        guard let start, pq.resultStatus(start) == PGRES_COPY_OUT else {
            defer { pq.clear(start) }
            try check(start)
            throw PGError(sqlState: nil, message: "the server did not start copying out", connectionLost: false)
        }
        pq.clear(start)
        var failure: Error?
        var length: Int32 = 0
        while true {
            var buffer: UnsafeMutablePointer<CChar>?
            length = pq.getCopyData(handle, &buffer, 0)
            guard length > 0, let buffer else { break }
            if failure == nil {
                do {
                    try buffer.withMemoryRebound(to: UInt8.self, capacity: Int(length)) {
                        try body(UnsafeBufferPointer(start: $0, count: Int(length)))
                    }
                } catch {
                    failure = error
                }
            }
            pq.freemem(buffer)
        }
        // -1: the copy is done and its result follows; -2: the connection failed.
        var serverFailure: PGError?
        if length == -2 {
            serverFailure = PGError(sqlState: nil, message: Self.trimmed(pq.errorMessage(handle)), connectionLost: pq.status(handle) != CONNECTION_OK)
        }
        while let result = pq.getResult(handle) {
            do { try check(result) } catch { if serverFailure == nil { serverFailure = error } }
            pq.clear(result)
        }
        if let failure { throw failure }
        if let serverFailure { throw serverFailure }
    }
}
