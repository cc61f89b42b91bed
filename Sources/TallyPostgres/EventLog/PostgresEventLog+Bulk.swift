import TallyDomain

/// Bulk appends: batches of events instead of one INSERT round trip per event, each batch checked
/// once by `tally_append_batch` (migration 11, PostgresEventLog+Batch), or sent with
/// `COPY events FROM STDIN` by a role not granted that function.
///
/// The insert trigger (migrations 0005 and 0006) runs for every copied row as for an INSERT: the
/// envelope, the payload and the hash link of each row are checked on the server, so COPY gives no
/// role a way around them; the batch function makes the same checks for the whole batch at once. A batch is sent inside a savepoint: when the server refuses it, the
/// batch is rolled back to the savepoint and sent again one INSERT at a time, so the error names
/// the event it is about, exactly as a single append's would.
extension PostgresEventLog {
    /// Events per COPY (and per savepoint). Large enough that a 1M-event import takes 20 savepoints
    /// (a transaction keeps at most 64 subtransaction ids in shared memory before other sessions'
    /// snapshots slow down), small enough to bound the client's buffer.
    static let defaultCopyBatch = 50_000

    public var defersBulkAppends: Bool { true }

    /// Like `write`, with the appends buffered and sent with COPY in batches of `copyBatch`. Any read
    /// of the log inside it sends what is buffered first, so the body reads what it appended.
    ///
    /// An error of a buffered event surfaces at the append or read that sent its batch (or at the
    /// end of the body) as `DeferredAppendError`, naming the event's position.
    public func bulkWrite<T>(_ body: () throws -> T) throws -> T {
        try write {
            if buffering { return try body() }
            buffering = true
            defer {
                buffering = false
                pending = []
                pendingVersions = [:]
            }
            let result = try body()
            try flushPending()
            return result
        }
    }

    /// Sends the buffered events; an error is a `DeferredAppendError` naming the event refused.
    func flushPending() throws(EventLogError) {
        guard !pending.isEmpty else { return }
        let batch = pending
        pending.removeAll(keepingCapacity: true)
        pendingVersions.removeAll(keepingCapacity: true)
        try copy(batch[...])
    }

    /// One batch of `events` inside a savepoint: checked once and inserted by `tally_append_batch`
    /// (PostgresEventLog+Batch), or, for a role not granted that function, one COPY through the
    /// insert trigger. On a refusal, the same events one INSERT at a time (the error then names the
    /// event, as a single append's would).
    func copy(_ events: ArraySlice<EventEnvelope>) throws(EventLogError) {
        let connection = try open()
        do {
            try connection.execute("SAVEPOINT tally_copy")
        } catch {
            throw fail(error)
        }
        do {
            if mayBatch {
                do {
                    try appendBatch(events)
                } catch where error.sqlState == "42501" && error.message.contains("tally_append_batch") {
                    // A writer granted before migration 11 (no EXECUTE on the function): COPY instead.
                    try connection.execute("ROLLBACK TO SAVEPOINT tally_copy")
                    mayBatch = false
                }
            }
            if !mayBatch {
                var rows: [UInt8] = []
                rows.reserveCapacity(events.reduce(0) { $0 + $1.data.utf8.count + 256 })
                for event in events {
                    Self.copyLine(event, into: &rows)
                }
                try connection.copyIn("COPY events(seq, id, stream, version, type, schema, data, recorded_at, actor, command, hash) FROM STDIN", rows: rows)
            }
        } catch {
            lockedHead = nil
            if error.connectionLost { throw fail(error) }
            do {
                try connection.execute("ROLLBACK TO SAVEPOINT tally_copy")
            } catch {
                throw fail(error)
            }
            for index in events.indices {
                do {
                    try insertEach(events[index ... index])
                } catch {
                    // The two refusals an importer names by line; the others name the event themselves.
                    switch error {
                    case .conflict, .duplicateEventID: throw buffering ? .deferred(error, seq: events[index].seq) : error
                    default: throw error
                    }
                }
            }
        }
        do {
            try connection.execute("RELEASE SAVEPOINT tally_copy")
        } catch {
            throw fail(error)
        }
    }

    /// One line of COPY's text format: tab-separated columns, with backslash, tab, newline and
    /// carriage return escaped.
    static func copyLine(_ event: EventEnvelope, into rows: inout [UInt8]) {
        func number(_ value: Int64) {
            var digits = String(value)
            digits.withUTF8 { rows.append(contentsOf: $0) }
        }
        func text(_ value: String) {
            var value = value
            value.withUTF8 { bytes in
                for byte in bytes {
                    switch byte {
                    case 0x5C: rows.append(0x5C); rows.append(0x5C)
                    case 0x09: rows.append(0x5C); rows.append(UInt8(ascii: "t"))
                    case 0x0A: rows.append(0x5C); rows.append(UInt8(ascii: "n"))
                    case 0x0D: rows.append(0x5C); rows.append(UInt8(ascii: "r"))
                    default: rows.append(byte)
                    }
                }
            }
        }
        let tab: UInt8 = 0x09
        number(event.seq); rows.append(tab)
        text(event.id); rows.append(tab)
        text(event.stream); rows.append(tab)
        number(Int64(event.version)); rows.append(tab)
        text(event.type); rows.append(tab)
        number(Int64(event.schema)); rows.append(tab)
        text(event.data); rows.append(tab)
        number(event.recordedAt); rows.append(tab)
        text(event.actor); rows.append(tab)
        text(event.command); rows.append(tab)
        text(event.hash); rows.append(0x0A)
    }
}
