import CLibPQ
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// libpq's functions, loaded the first time a command opens a PostgreSQL log.
///
/// The binary does not link libpq: libpq brings about twenty libraries of its own (TLS,
/// Kerberos, LDAP), and loading them cost every command, SQLite ones included, about 2 ms of
/// start-up. The header still gives the types and constants; only the functions are looked up.
struct LibPQ {
    typealias Connection = OpaquePointer
    typealias Result = OpaquePointer
    typealias Text = UnsafePointer<CChar>
    typealias Texts = UnsafePointer<UnsafePointer<CChar>?>
    typealias Lengths = UnsafePointer<Int32>

    let connectStart: @convention(c) (Text?) -> Connection?
    let connectPoll: @convention(c) (Connection?) -> PostgresPollingStatusType
    let reset: @convention(c) (Connection?) -> Void
    let conninfo: @convention(c) (Connection?) -> UnsafeMutablePointer<PQconninfoOption>?
    let conninfoFree: @convention(c) (UnsafeMutablePointer<PQconninfoOption>?) -> Void
    let status: @convention(c) (Connection?) -> ConnStatusType
    let errorMessage: @convention(c) (Connection?) -> UnsafeMutablePointer<CChar>?
    let finish: @convention(c) (Connection?) -> Void
    let setNoticeProcessor: @convention(c) (Connection?, PQnoticeProcessor?, UnsafeMutableRawPointer?) -> PQnoticeProcessor?
    let user: @convention(c) (Connection?) -> UnsafeMutablePointer<CChar>?
    let transactionStatus: @convention(c) (Connection?) -> PGTransactionStatusType
    let exec: @convention(c) (Connection?, Text?) -> Result?
    let prepare: @convention(c) (Connection?, Text?, Text?, Int32, UnsafePointer<Oid>?) -> Result?
    let execPrepared: @convention(c) (Connection?, Text?, Int32, Texts?, Lengths?, Lengths?, Int32) -> Result?
    let execParams: @convention(c) (Connection?, Text?, Int32, UnsafePointer<Oid>?, Texts?, Lengths?, Lengths?, Int32) -> Result?
    let sendQueryParams: @convention(c) (Connection?, Text?, Int32, UnsafePointer<Oid>?, Texts?, Lengths?, Lengths?, Int32) -> Int32
    let getResult: @convention(c) (Connection?) -> Result?
    let clear: @convention(c) (Result?) -> Void
    let resultStatus: @convention(c) (Result?) -> ExecStatusType
    let resultErrorField: @convention(c) (Result?, Int32) -> UnsafeMutablePointer<CChar>?
    let putCopyData: @convention(c) (Connection?, Text?, Int32) -> Int32
    let putCopyEnd: @convention(c) (Connection?, Text?) -> Int32
    let ntuples: @convention(c) (Result?) -> Int32
    let getisnull: @convention(c) (Result?, Int32, Int32) -> Int32
    let getlength: @convention(c) (Result?, Int32, Int32) -> Int32
    let getvalue: @convention(c) (Result?, Int32, Int32) -> UnsafeMutablePointer<CChar>?
    let consumeInput: @convention(c) (Connection?) -> Int32
    let notifies: @convention(c) (Connection?) -> UnsafeMutablePointer<PGnotify>?
    let socket: @convention(c) (Connection?) -> Int32
    let freemem: @convention(c) (UnsafeMutableRawPointer?) -> Void
    let getCopyData: @convention(c) (Connection?, UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?, Int32) -> Int32

    /// Where libpq is looked for, in order: `TALLY_LIBPQ` when set, then the names the system's
    /// loader resolves (Linux, then macOS), then Homebrew's keg-only installs.
    static var candidates: [String] {
        if let path = getenv("TALLY_LIBPQ") { return [String(cString: path)] }
        return [
            "libpq.so.5", "libpq.so",
            "libpq.5.dylib", "/opt/homebrew/opt/libpq/lib/libpq.5.dylib", "/usr/local/opt/libpq/lib/libpq.5.dylib",
        ]
    }

    /// The library as loaded by the first caller, or why it could not be.
    static let shared: Swift.Result<LibPQ, LibPQMissing> = load(candidates)

    static func load(_ candidates: [String]) -> Swift.Result<LibPQ, LibPQMissing> {
        var reasons: [String] = []
        for name in candidates {
            guard let library = dlopen(name, RTLD_NOW | RTLD_LOCAL) else {
                reasons.append(dlerror().map { String(cString: $0) } ?? name)
                continue
            }
            do {
                return .success(try LibPQ(library))
            } catch {
                reasons.append(error.detail)
                dlclose(library)
            }
        }
        return .failure(LibPQMissing(detail: reasons.first ?? "no library to try"))
    }

    private init(_ library: UnsafeMutableRawPointer) throws(LibPQMissing) {
        func symbol<F>(_ name: String) throws(LibPQMissing) -> F {
            guard let address = dlsym(library, name) else {
                throw LibPQMissing(detail: "\(name) is missing from the library")
            }
            return unsafeBitCast(address, to: F.self)
        }
        connectStart = try symbol("PQconnectStart")
        connectPoll = try symbol("PQconnectPoll")
        reset = try symbol("PQreset")
        conninfo = try symbol("PQconninfo")
        conninfoFree = try symbol("PQconninfoFree")
        status = try symbol("PQstatus")
        errorMessage = try symbol("PQerrorMessage")
        finish = try symbol("PQfinish")
        setNoticeProcessor = try symbol("PQsetNoticeProcessor")
        user = try symbol("PQuser")
        transactionStatus = try symbol("PQtransactionStatus")
        exec = try symbol("PQexec")
        prepare = try symbol("PQprepare")
        execPrepared = try symbol("PQexecPrepared")
        execParams = try symbol("PQexecParams")
        sendQueryParams = try symbol("PQsendQueryParams")
        getResult = try symbol("PQgetResult")
        clear = try symbol("PQclear")
        resultStatus = try symbol("PQresultStatus")
        resultErrorField = try symbol("PQresultErrorField")
        putCopyData = try symbol("PQputCopyData")
        putCopyEnd = try symbol("PQputCopyEnd")
        ntuples = try symbol("PQntuples")
        getisnull = try symbol("PQgetisnull")
        getlength = try symbol("PQgetlength")
        getvalue = try symbol("PQgetvalue")
        consumeInput = try symbol("PQconsumeInput")
        notifies = try symbol("PQnotifies")
        socket = try symbol("PQsocket")
        freemem = try symbol("PQfreemem")
        getCopyData = try symbol("PQgetCopyData")
    }
}

/// libpq could not be loaded: not installed, or not a usable version.
struct LibPQMissing: Error {
    /// The system loader's own words for the first place tried.
    var detail: String
}
