#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import CLibPQ
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import TallyDomain

/// A failed libpq call: the SQLSTATE when the server sent one, and the message.
struct PGError: Error, CustomStringConvertible {
    var sqlState: String?
    var message: String
    /// True when the connection itself is gone (not only the statement).
    var connectionLost: Bool
    /// True when libpq itself could not be loaded, so no connection was tried.
    var clientMissing = false

    /// The server's or libpq's words, without libpq's severity prefix.
    var description: String {
        var text = Substring(message)
        for prefix in ["ERROR:", "FATAL:", "PANIC:"] where text.hasPrefix(prefix) { text = text.dropFirst(prefix.count) }
        let isSpace: (Character) -> Bool = { $0 == " " || $0 == "\n" || $0 == "\t" || $0 == "\r" }
        text = text.drop(while: isSpace)
        while let last = text.last, isSpace(last) { text = text.dropLast() }
        return String(text)
    }
}

/// One libpq connection; every statement goes through `execute`.
///
/// Parameters travel as text, except `[UInt8]` values, which travel as binary (bytea).
final class PGConnection {
    let pq: LibPQ
    let handle: OpaquePointer
    /// The server as messages name it, without a password.
    let server: String

    /// Connects with a URI or `key=value` string; libpq reads `PGPASSWORD`, `~/.pgpass`, service files.
    init(conninfo: String, server: String) throws(PGError) {
        self.server = server
        switch LibPQ.shared {
        case .success(let library): pq = library
        case .failure(let missing): throw PGError(sqlState: nil, message: missing.detail, connectionLost: true, clientMissing: true)
        }
        guard let handle = pq.connectStart(conninfo) else {
            throw PGError(sqlState: nil, message: "out of memory", connectionLost: true)
        }
        // Notices (such as "relation already exists, skipping") are not for the user's terminal; nor
        // is an error the server sends while the connection is idle (its shutdown's "FATAL:
        // terminating connection due to administrator command"), which libpq hands to the notice
        // processor. Set before the connection is made: an error that arrives with the startup's
        // last message is parsed while connecting, and `PQconnectdb` would print it to standard
        // error with libpq's default processor, ahead of tally's own message.
        _ = pq.setNoticeProcessor(handle, { _, _ in }, nil)
        if pq.status(handle) != CONNECTION_BAD { Self.complete(handle, pq) }
        if pq.status(handle) != CONNECTION_OK {
            let message = Self.trimmed(pq.errorMessage(handle))
            pq.finish(handle)
            throw PGError(sqlState: nil, message: message, connectionLost: true)
        }
        self.handle = handle
    }

    /// Drives a started connection to its end as `PQconnectdb` does: `PQconnectPoll`, waiting for the
    /// socket in between. With `connect_timeout` (at least 2 s, as libpq counts it), a wait that
    /// outlasts it hands over to `PQreset`, which connects again with libpq's own timeout rules (the
    /// next host of a list after one that does not answer) and keeps the notice processor.
    private static func complete(_ handle: OpaquePointer, _ pq: LibPQ) {
        let timeout = connectTimeout(handle, pq)
        let deadline = timeout.map { Date().addingTimeInterval(Double($0)) }
        var state = PGRES_POLLING_WRITING
        while state != PGRES_POLLING_OK, state != PGRES_POLLING_FAILED {
            let descriptor = pq.socket(handle)
            guard descriptor >= 0 else { return }
            var entry = pollfd(fd: descriptor, events: Int16(state == PGRES_POLLING_READING ? POLLIN : POLLOUT), revents: 0)
            var ready: Int32
            repeat {
                let wait = deadline.map { Int32(max(0, min(Double(Int32.max), $0.timeIntervalSinceNow * 1000)).rounded(.up)) } ?? -1
                ready = poll(&entry, 1, wait)
            } while ready < 0 && errno == EINTR
            if ready == 0 {
                pq.reset(handle)
                return
            }
            state = pq.connectPoll(handle)
        }
    }

    /// `connect_timeout` of a started connection (the URI's, else `PGCONNECT_TIMEOUT`) in seconds as
    /// libpq applies it (at least 2), or nil for none.
    private static func connectTimeout(_ handle: OpaquePointer, _ pq: LibPQ) -> Int? {
        guard let options = pq.conninfo(handle) else { return nil }
        defer { pq.conninfoFree(options) }
        var option = options
        while let keyword = option.pointee.keyword {
            if String(cString: keyword) == "connect_timeout" {
                guard let value = option.pointee.val, let seconds = Int(String(cString: value).filter { $0 != " " }), seconds > 0 else { return nil }
                return max(2, seconds)
            }
            option += 1
        }
        return nil
    }

    deinit {
        pq.finish(handle)
    }

    /// The role the server logged this connection in as.
    var sessionUser: String { pq.user(handle).map { String(cString: $0) } ?? "" }

    var isOK: Bool { pq.status(handle) == CONNECTION_OK }

    /// True inside a transaction block (or a failed one waiting for ROLLBACK).
    var isInTransaction: Bool {
        let status = pq.transactionStatus(handle)
        return status == PQTRANS_INTRANS || status == PQTRANS_INERROR || status == PQTRANS_ACTIVE
    }

    /// Waits up to `timeoutMs` for a notification on a channel this connection LISTENs on; true
    /// when at least one came (all that came are consumed). A signal ends the wait early (false).
    func waitForNotification(timeoutMs: Int32) throws(PGError) -> Bool {
        var received = drainNotifications()
        if received { return true }
        let descriptor = pq.socket(handle)
        guard descriptor >= 0 else { throw PGError(sqlState: nil, message: Self.trimmed(pq.errorMessage(handle)), connectionLost: true) }
        var entry = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
        let ready = poll(&entry, 1, timeoutMs)
        guard ready > 0 else { return false }
        if pq.consumeInput(handle) == 0 || !isOK {
            throw PGError(sqlState: nil, message: Self.trimmed(pq.errorMessage(handle)), connectionLost: true)
        }
        received = drainNotifications()
        return received
    }

    /// Frees every notification libpq has read; true when there was one.
    private func drainNotifications() -> Bool {
        var any = false
        while let notification = pq.notifies(handle) {
            any = true
            pq.freemem(notification)
        }
        return any
    }

    /// Runs statements without parameters (several, separated by `;`, are allowed).
    func execute(_ sql: String) throws(PGError) {
        let result = pq.exec(handle, sql)
        defer { pq.clear(result) }
        try check(result)
    }

    /// Runs statements without parameters in one round trip (several, separated by `;`) and hands
    /// the last one's result to `body`. They run as one implicit transaction: an error undoes all.
    func queryText<T>(_ sql: String, _ body: (PGResult) throws -> T) throws -> T {
        let result = try checked(pq.exec(handle, sql))
        defer { pq.clear(result) }
        return try body(PGResult(result, pq))
    }

    /// Runs one statement with parameters and hands the result to `body`.
    func query<T>(_ sql: String, _ parameters: [PGValue] = [], binaryResult: Bool = false, _ body: (PGResult) throws -> T) throws -> T {
        let result = try run(sql: sql, parameters, binaryResult: binaryResult)
        defer { pq.clear(result) }
        return try body(PGResult(result, pq))
    }

    /// Runs one statement with parameters, ignoring any rows.
    func run(_ sql: String, _ parameters: [PGValue] = []) throws(PGError) {
        let result = try run(sql: sql, parameters, binaryResult: false)
        pq.clear(result)
    }

    /// The first column of the first row as an integer; nil for no row or NULL.
    func scalarInt(_ sql: String, _ parameters: [PGValue] = []) throws(PGError) -> Int64? {
        let result = try run(sql: sql, parameters, binaryResult: false)
        defer { pq.clear(result) }
        let rows = PGResult(result, pq)
        guard rows.count > 0, !rows.isNull(0, 0) else { return nil }
        return rows.int64(0, 0)
    }

    private func run(sql: String, _ parameters: [PGValue], binaryResult: Bool) throws(PGError) -> OpaquePointer? {
        let result = withParameters(parameters) { count, pointers, lengths, formats in
            pq.execParams(handle, sql, count, nil, pointers, lengths, formats, binaryResult ? 1 : 0)
        }
        return try checked(result)
    }

    /// The result when it succeeded; otherwise it is freed and its error thrown.
    private func checked(_ result: OpaquePointer?) throws(PGError) -> OpaquePointer? {
        do {
            try check(result)
        } catch {
            pq.clear(result)
            throw error
        }
        return result
    }

    /// Sends a query without waiting for its rows; `receive` collects them. Lets the server work
    /// on the next page while the caller processes this one.
    func send(_ sql: String, _ parameters: [PGValue]) throws(PGError) {
        let sent = withParameters(parameters) { count, pointers, lengths, formats in
            pq.sendQueryParams(handle, sql, count, nil, pointers, lengths, formats, 0)
        }
        guard sent == 1 else {
            throw PGError(sqlState: nil, message: Self.trimmed(pq.errorMessage(handle)), connectionLost: pq.status(handle) != CONNECTION_OK)
        }
    }

    /// The rows of the query `send` sent; the caller clears the result. The connection is free again afterwards.
    func receive() throws(PGError) -> PGResult {
        let result = pq.getResult(handle)
        discardPending()
        return PGResult(try checked(result), pq)
    }

    /// Reads and drops whatever results of a sent query are still due.
    func discardPending() {
        while let extra = pq.getResult(handle) { pq.clear(extra) }
    }

    /// Calls `body` with the parameters as libpq takes them: text, except bytes (binary).
    private func withParameters<T>(
        _ parameters: [PGValue],
        _ body: (Int32, [UnsafePointer<CChar>?], [Int32], [Int32]) -> T
    ) -> T {
        // Each value is copied into its own buffer, which libpq reads during the call.
        let count = parameters.count
        var lengths = [Int32](repeating: 0, count: count)
        var formats = [Int32](repeating: 0, count: count)
        var pointers = [UnsafePointer<CChar>?](repeating: nil, count: count)
        var owned: [UnsafeMutableRawPointer] = []
        defer { owned.forEach { $0.deallocate() } }
        for (index, value) in parameters.enumerated() {
            let bytes: [UInt8]
            switch value {
            case .null: continue
            case .text(let text): bytes = Array(text.utf8)
            case .int(let number): bytes = Array(String(number).utf8)
            case .bytes(let raw): bytes = raw; formats[index] = 1
            }
            let buffer = UnsafeMutableRawPointer.allocate(byteCount: bytes.count + 1, alignment: 1)
            owned.append(buffer)
            bytes.withUnsafeBytes { buffer.copyMemory(from: $0.baseAddress ?? UnsafeRawPointer(buffer), byteCount: bytes.count) }
            buffer.storeBytes(of: 0, toByteOffset: bytes.count, as: UInt8.self)
            lengths[index] = Int32(bytes.count)
            pointers[index] = UnsafePointer(buffer.assumingMemoryBound(to: CChar.self))
        }
        return body(Int32(count), pointers, lengths, formats)
    }

    func check(_ result: OpaquePointer?) throws(PGError) {
        let status = result.map { pq.resultStatus($0) } ?? PGRES_FATAL_ERROR
        switch status {
        case PGRES_COMMAND_OK, PGRES_TUPLES_OK, PGRES_EMPTY_QUERY, PGRES_COPY_IN:
            return
        default:
            let state = result.flatMap { pq.resultErrorField($0, Int32(UInt8(ascii: "C"))) }.map { String(cString: $0) }
            var message = result.flatMap { pq.resultErrorField($0, Int32(UInt8(ascii: "M"))) }.map { String(cString: $0) }
            if message == nil || message!.isEmpty { message = Self.trimmed(pq.errorMessage(handle)) }
            throw PGError(sqlState: state, message: message ?? "unknown error", connectionLost: pq.status(handle) != CONNECTION_OK)
        }
    }

    /// Sends rows with `COPY ... FROM STDIN` (text format); `rows` are complete lines ending in "\n".
    func copyIn(_ sql: String, rows: [UInt8]) throws(PGError) {
        let start = pq.exec(handle, sql)
        defer { pq.clear(start) }
        try check(start)
        let sent = rows.withUnsafeBufferPointer { buffer in
            buffer.baseAddress.map { base in
                base.withMemoryRebound(to: CChar.self, capacity: buffer.count) { pq.putCopyData(handle, $0, Int32(buffer.count)) }
            } ?? 1
        }
        let ended = pq.putCopyEnd(handle, sent == 1 ? nil : "client failed to send the rows")
        guard ended == 1 else {
            throw PGError(sqlState: nil, message: Self.trimmed(pq.errorMessage(handle)), connectionLost: pq.status(handle) != CONNECTION_OK)
        }
        var failure: PGError?
        while let result = pq.getResult(handle) {
            do { try check(result) } catch { if failure == nil { failure = error } }
            pq.clear(result)
        }
        if let failure { throw failure }
    }

    static func trimmed(_ message: UnsafePointer<CChar>?) -> String {
        guard let message else { return "" }
        return String(cString: message).trimming(.whitespacesAndNewlines)
    }
}

/// One statement parameter.
enum PGValue {
    case null
    case text(String)
    case int(Int64)
    case bytes([UInt8])

    static func int(_ value: Int) -> PGValue { .int(Int64(value)) }
}

/// Rows of one result; valid only inside the `query` callback that receives it.
struct PGResult {
    private let handle: OpaquePointer?
    let pq: LibPQ

    init(_ handle: OpaquePointer?, _ pq: LibPQ) {
        self.handle = handle
        self.pq = pq
    }

    var count: Int { Int(pq.ntuples(handle)) }

    /// Frees a result that `receive` returned (`query` frees its own).
    func clear() {
        pq.clear(handle)
    }

    func isNull(_ row: Int, _ column: Int) -> Bool {
        pq.getisnull(handle, Int32(row), Int32(column)) == 1
    }

    func string(_ row: Int, _ column: Int) -> String {
        withBytes(row, column) { String(decoding: $0, as: UTF8.self) }
    }

    func optionalString(_ row: Int, _ column: Int) -> String? {
        isNull(row, column) ? nil : string(row, column)
    }

    func int64(_ row: Int, _ column: Int) -> Int64 {
        withBytes(row, column) { bytes in
            var value: Int64 = 0
            var negative = false
            for byte in bytes {
                if byte == UInt8(ascii: "-") { negative = true; continue }
                value = value &* 10 &+ Int64(byte &- 48)
            }
            return negative ? -value : value
        }
    }

    func int(_ row: Int, _ column: Int) -> Int { Int(int64(row, column)) }

    /// The value's bytes (text, or binary for a binary result), without a copy.
    func withBytes<T>(_ row: Int, _ column: Int, _ body: (UnsafeBufferPointer<UInt8>) throws -> T) rethrows -> T {
        let length = Int(pq.getlength(handle, Int32(row), Int32(column)))
        guard let value = pq.getvalue(handle, Int32(row), Int32(column)) else {
            return try body(UnsafeBufferPointer(start: nil, count: 0))
        }
        return try value.withMemoryRebound(to: UInt8.self, capacity: length) { pointer in
            try body(UnsafeBufferPointer(start: pointer, count: length))
        }
    }
}
