
/// The end of the log: the last position and its chain link.
public struct LogHead: Sendable, Equatable {
    public var seq: Int64
    public var hash: String

    public init(seq: Int64, hash: String) {
        self.seq = seq
        self.hash = hash
    }

    public static let empty = LogHead(seq: 0, hash: EventHash.genesis)
}

/// Why the event log could not do what was asked.
public enum EventLogError: Error, Sendable, Hashable {
    /// Another event already holds this (stream, version): a concurrent writer got there first.
    case conflict(stream: String, version: Int)
    /// An event with this id is already in the log.
    case duplicateEventID(String)
    /// The database stayed locked past the retry budget.
    case busy
    /// The file was written by a newer tally.
    case newerSchema(found: Int, known: Int)
    /// The file is not a tally database, or is damaged.
    case corrupt(String)
    /// The disk (or the database's size limit) left no room for the write; it was rolled back.
    case full
    /// The disk or the file system refused (full, read-only, permissions, ...).
    case io(String)
    /// A database server could not be reached, refused the login, or went away mid-command.
    case unavailable(ServerFailure)
    /// The database refused an operation to this role (a missing GRANT); nothing was written.
    case permissionDenied(String)
    /// The database has tables of tally's names that tally did not create.
    case foreignSchema(String)
    /// A `history.redacted` event among those appended cannot be read (`reason`), so the values it
    /// erases could not be erased: the append is refused whole rather than leave a redaction in the
    /// log that did not erase (`Redaction.plan`; docs/design/redaction.md, "Every store, every door").
    case unreadableRedaction(seq: Int64, reason: String)
    /// Inside a `bulkWrite` of a store that sends appends in batches, the event at `seq`, appended
    /// earlier, was refused when its batch was sent (the error as its own `append` would have thrown).
    indirect case deferred(EventLogError, seq: Int64)
}

extension EventLogError {
    /// True when the server could not be reached or the connection broke: nothing more can be read.
    public var isServerGone: Bool {
        if case .unavailable = self { return true }
        return false
    }
}

/// Why a database server could not serve a command.
public struct ServerFailure: Sendable, Hashable {
    public enum Kind: Sendable, Hashable {
        /// Nothing listens there, or the host cannot be reached.
        case refused
        /// The server rejected the login (a wrong password, no such role, not allowed by its rules).
        case authentication
        /// The server has no database of that name.
        case unknownDatabase
        /// The connection broke during the command; its transaction was rolled back.
        case lost
        /// The PostgreSQL client library (libpq) is not installed, so no connection was tried.
        case clientMissing
        /// The address cannot be read as written (a raw `/`, `?` or `@` in its password), so no connection was tried.
        case invalidAddress
    }

    public var kind: Kind
    /// The server and database, never with a password.
    public var server: String
    /// The server's or the client library's own words.
    public var detail: String

    public init(kind: Kind, server: String, detail: String) {
        self.kind = kind
        self.server = server
        self.detail = detail
    }
}

/// The append-only event log the application talks to; SQLite is one implementation.
///
/// Not thread-safe: one instance per thread.
public protocol EventLog: AnyObject {
    /// The last event's position and hash.
    func head() throws(EventLogError) -> LogHead

    /// Calls `body` for every event with `after < seq <= through` in log order.
    func scan(after: Int64, through: Int64?, _ body: (EventEnvelope) throws -> Void) throws

    /// Like `scan`, for folding: only what a fold needs, with the payload left in the store's buffer
    /// (no copy into a `String` per event on the replay hot path).
    func scanForFold(after: Int64, through: Int64?, _ body: (FoldRow) throws -> Void) throws

    /// Events of one stream in version order.
    func events(inStream stream: String) throws(EventLogError) -> [EventEnvelope]

    /// Calls `body` for every event with `seq < before` (all when nil), newest first, until it returns false.
    func scanBackward(before: Int64?, _ body: (EventEnvelope) throws -> Bool) throws

    /// The event with this id, if the log has it.
    func event(id: String) throws(EventLogError) -> EventEnvelope?

    /// The highest version of a stream; 0 when it has no events.
    func lastVersion(ofStream stream: String) throws(EventLogError) -> Int

    /// Runs `body` holding the write lock; everything appended inside is committed together or not at all.
    func write<T>(_ body: () throws -> T) throws -> T

    /// Appends fully formed events (seq and hash already assigned). Only valid inside `write`.
    func append(_ events: [EventEnvelope]) throws(EventLogError)

    /// `scan`, for a long read whose `body` does not use this log meanwhile (a clone): the store
    /// may stream the rows with one statement instead of a query per page.
    func scanStreamed(after: Int64, through: Int64?, _ body: (EventEnvelope) throws -> Void) throws

    /// Like `write`, for a body that appends very many events (an import): the store may trade
    /// memory for speed meanwhile. The same guarantees: all or nothing, one transaction.
    func bulkWrite<T>(_ body: () throws -> T) throws -> T

    /// True when `append` inside `bulkWrite` may keep events to send later, so that an event's
    /// refusal comes from a later call as `EventLogError.deferred` naming its position.
    var defersBulkAppends: Bool { get }

    /// The log's way of letting many writers append at once (`StagedAppends`); nil when every
    /// append takes the write lock.
    var stagedAppends: (any StagedAppends)? { get }

    /// The head and the events of a few short ranges of positions, in one read where the store
    /// can (one query on a server); see EventLog+Ranges.
    func headAndRanges(_ ranges: [ClosedRange<Int64>]) throws -> (head: LogHead, events: [EventEnvelope])
}

extension EventLog {
    /// By default an ordinary `scan`.
    public func scanStreamed(after: Int64, through: Int64?, _ body: (EventEnvelope) throws -> Void) throws {
        try scan(after: after, through: through, body)
    }

    /// By default an ordinary `write`.
    public func bulkWrite<T>(_ body: () throws -> T) throws -> T {
        try write(body)
    }

    public var defersBulkAppends: Bool { false }

    public var stagedAppends: (any StagedAppends)? { nil }
}

/// One event as a fold reads it.
public struct FoldRow {
    public var seq: Int64
    /// The stream id's UTF-8 text; valid only during the callback that receives the row.
    public var stream: UnsafeBufferPointer<UInt8>
    public var version: Int
    public var type: String
    public var schema: Int
    public var recordedAt: Int64
    /// The payload's UTF-8 JSON text; valid only during the callback that receives the row.
    public var data: UnsafeBufferPointer<UInt8>

    public init(seq: Int64, stream: UnsafeBufferPointer<UInt8>, version: Int, type: String, schema: Int, recordedAt: Int64, data: UnsafeBufferPointer<UInt8>) {
        self.seq = seq
        self.stream = stream
        self.version = version
        self.type = type
        self.schema = schema
        self.recordedAt = recordedAt
        self.data = data
    }
}

extension EventLog {
    /// By default a full `scan`.
    public func scanForFold(after: Int64, through: Int64?, _ body: (FoldRow) throws -> Void) throws {
        try scan(after: after, through: through) { envelope in
            var data = envelope.data
            var stream = envelope.stream
            try data.withUTF8 { bytes in
                try stream.withUTF8 { streamBytes in
                    try body(FoldRow(
                        seq: envelope.seq, stream: streamBytes, version: envelope.version, type: envelope.type,
                        schema: envelope.schema, recordedAt: envelope.recordedAt, data: bytes
                    ))
                }
            }
        }
    }
}
