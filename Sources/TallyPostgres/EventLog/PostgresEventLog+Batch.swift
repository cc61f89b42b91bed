import TallyDomain

/// Batch appends (migration 11): a batch of events is sent as eleven arrays, one per column, in
/// PostgreSQL's binary array format, to `tally_append_batch`, which takes the append lock once and
/// checks the whole batch with one query (seq order, envelope, versions, payload, hash chain; the
/// same functions and messages as the insert trigger) before one INSERT. A batch with any problem
/// appends nothing.
extension PostgresEventLog {
    static let batchCall = """
        SELECT tally_append_batch($1::bigint[], $2::text[], $3::text[], $4::integer[], $5::text[], $6::integer[], \
        $7::text[], $8::bigint[], $9::text[], $10::text[], $11::text[])
        """

    /// Sends `events` in one call of `tally_append_batch`. The caller runs it inside a savepoint.
    func appendBatch(_ events: ArraySlice<EventEnvelope>) throws(PGError) {
        let connection: PGConnection
        do {
            connection = try open()
        } catch {
            throw PGError(sqlState: nil, message: "no connection", connectionLost: true)
        }
        // The columns are INTEGER: a value past them is refused the way an INSERT refuses it.
        if let event = events.first(where: { Int32(exactly: $0.version) == nil || Int32(exactly: $0.schema) == nil }) {
            throw PGError(sqlState: "22003", message: "event \(event.seq): a version or schema out of range for type integer", connectionLost: false)
        }
        var seqs = BinaryArray(.int8, count: events.count)
        var ids = BinaryArray(.text, count: events.count)
        var streams = BinaryArray(.text, count: events.count)
        var versions = BinaryArray(.int4, count: events.count)
        var types = BinaryArray(.text, count: events.count)
        var schemas = BinaryArray(.int4, count: events.count)
        var data = BinaryArray(.text, count: events.count, reserve: events.reduce(0) { $0 + $1.data.utf8.count + 4 })
        var times = BinaryArray(.int8, count: events.count)
        var actors = BinaryArray(.text, count: events.count)
        var commands = BinaryArray(.text, count: events.count)
        var hashes = BinaryArray(.text, count: events.count)
        for event in events {
            seqs.append(event.seq)
            ids.append(event.id)
            streams.append(event.stream)
            versions.append(Int32(truncatingIfNeeded: event.version))
            types.append(event.type)
            schemas.append(Int32(truncatingIfNeeded: event.schema))
            data.append(event.data)
            times.append(event.recordedAt)
            actors.append(event.actor)
            commands.append(event.command)
            hashes.append(event.hash)
        }
        let parameters: [PGValue] = [seqs, ids, streams, versions, types, schemas, data, times, actors, commands, hashes].map { .bytes($0.bytes) }
        try connection.run(Self.batchCall, parameters)
    }
}

/// A one-dimensional array without NULLs in PostgreSQL's binary format (`array_send`): the number of
/// dimensions, a flags word, the element type, the length and lower bound, then each element as its
/// length and bytes, every integer big-endian.
struct BinaryArray {
    enum Element: UInt32 {
        case int8 = 20
        case int4 = 23
        case text = 25
    }

    private(set) var bytes: [UInt8] = []

    init(_ element: Element, count: Int, reserve: Int = 0) {
        bytes.reserveCapacity(20 + max(reserve, count * 12))
        put(UInt32(1))
        put(UInt32(0))
        put(element.rawValue)
        put(UInt32(truncatingIfNeeded: count))
        put(UInt32(1))
    }

    mutating func append(_ value: Int64) {
        put(UInt32(8))
        put(UInt64(bitPattern: value))
    }

    mutating func append(_ value: Int32) {
        put(UInt32(4))
        put(UInt32(bitPattern: value))
    }

    mutating func append(_ value: String) {
        var value = value
        value.withUTF8 { utf8 in
            put(UInt32(truncatingIfNeeded: utf8.count))
            bytes.append(contentsOf: utf8)
        }
    }

    private mutating func put(_ value: UInt32) {
        withUnsafeBytes(of: value.bigEndian) { bytes.append(contentsOf: $0) }
    }

    private mutating func put(_ value: UInt64) {
        withUnsafeBytes(of: value.bigEndian) { bytes.append(contentsOf: $0) }
    }
}
