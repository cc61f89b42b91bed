import TallyDomain
import TallyEssentials

/// The fold's scan from the first event outside a transaction (`rebuild`): one binary
/// `COPY ... TO STDOUT` instead of pages of text rows. The server sends the integers as they are
/// stored (no text to format and parse again), the rows stream as they are read from one snapshot
/// of the table, and tally folds each row from libpq's buffer without a `String` for its stream.
extension PostgresEventLog {
    /// The columns, in the order `CopyRows` reads them.
    static let foldCopyColumns = "seq, stream, version, type, schema, data, recorded_at"

    /// `body` must not use the connection: a query sent while the COPY runs ends it.
    func scanForFoldByCopy(after: Int64, through: Int64?, _ body: (FoldRow) throws -> Void) throws {
        guard schemaKnown else { return }
        let sql = "COPY (SELECT \(Self.foldCopyColumns) FROM events WHERE seq > \(after) AND seq <= \(through ?? Int64.max) ORDER BY seq) TO STDOUT (FORMAT binary)"
        var types = TypeNames()
        try copyRows(sql, fields: 7) { rows in
            guard let seq = rows.int64Field(), let stream = rows.bytesField(), let version = rows.int32Field(),
                  let type = rows.bytesField(), let schema = rows.int32Field(), let data = rows.bytesField(),
                  let recordedAt = rows.int64Field() else { return false }
            try body(FoldRow(
                seq: seq, stream: stream, version: Int(version), type: types.name(type), schema: Int(schema),
                recordedAt: recordedAt, data: data
            ))
            return true
        }
    }

    /// Runs a binary `COPY ... TO STDOUT` and hands each row of `fields` fields to `row`, which reads
    /// them from the buffer and returns false when they do not have the shape it asks for. A header,
    /// field count or row that is not as expected is a damaged log (`corrupt`), never a trap.
    /// `row` must not use the connection: a query sent while the COPY runs ends it.
    func copyRows(_ sql: String, fields expected: Int16, _ row: (inout CopyRows) throws -> Bool) throws {
        let connection = try open()
        var started = false
        let damaged = EventLogError.corrupt("\(displayLocation) sent rows tally cannot read (binary COPY of the events)")
        do {
            try connection.copyOut(sql) { message in
                var rows = CopyRows(message)
                if !started {
                    guard rows.skipHeader() else { throw damaged }
                    started = true
                }
                while !rows.atEnd {
                    guard let fields = rows.int16() else { throw damaged }
                    if fields == -1 { break } // the trailer
                    guard fields == expected, try row(&rows) else { throw damaged }
                }
            }
        } catch let error as PGError {
            throw fail(error)
        }
    }
}

/// A reader of PostgreSQL's binary COPY format (big-endian integers; each field a 32-bit length,
/// -1 for NULL, then its bytes). Every read is bounds-checked: nil when the bytes run out or do
/// not have the shape asked for.
struct CopyRows {
    private let bytes: UnsafeBufferPointer<UInt8>
    private var offset = 0

    init(_ bytes: UnsafeBufferPointer<UInt8>) {
        self.bytes = bytes
    }

    var atEnd: Bool { offset >= bytes.count }

    /// The file header: the signature, the flags and the header extension; false when it is not one.
    mutating func skipHeader() -> Bool {
        let signature: [UInt8] = [0x50, 0x47, 0x43, 0x4F, 0x50, 0x59, 0x0A, 0xFF, 0x0D, 0x0A, 0x00]
        guard bytes.count - offset >= signature.count + 8 else { return false }
        for (index, byte) in signature.enumerated() where bytes[offset + index] != byte { return false }
        offset += signature.count
        guard unsigned(4) != nil, let extensionLength = unsigned(4), extensionLength <= UInt64(bytes.count - offset) else { return false }
        offset += Int(extensionLength)
        return true
    }

    mutating func int16() -> Int16? {
        unsigned(2).map { Int16(truncatingIfNeeded: $0) }
    }

    /// A field of `width` bytes (an integer column); nil for NULL or another width.
    private mutating func fixedField(_ width: Int) -> UInt64? {
        guard let length = unsigned(4), length == UInt64(width) else { return nil }
        return unsigned(width)
    }

    mutating func int64Field() -> Int64? {
        fixedField(8).map { Int64(bitPattern: $0) }
    }

    mutating func int32Field() -> Int32? {
        fixedField(4).map { Int32(truncatingIfNeeded: $0) }
    }

    /// A text field's bytes, in the message's buffer; nil for NULL or when they run past its end.
    mutating func bytesField() -> UnsafeBufferPointer<UInt8>? {
        guard let raw = unsigned(4) else { return nil }
        let length = Int32(truncatingIfNeeded: raw)
        guard length >= 0, Int(length) <= bytes.count - offset else { return nil }
        defer { offset += Int(length) }
        return UnsafeBufferPointer(rebasing: bytes[offset ..< offset + Int(length)])
    }

    /// The next `width` (2, 4 or 8) bytes as a big-endian unsigned number: one unaligned load each
    /// (a loop over the bytes cost a rebuild of 1M events 280M instructions, 5 %).
    @inline(__always)
    private mutating func unsigned(_ width: Int) -> UInt64? {
        guard width <= bytes.count - offset, let base = bytes.baseAddress else { return nil }
        let raw = UnsafeRawPointer(base + offset)
        offset += width
        switch width {
        case 8: return UInt64(bigEndian: raw.loadUnaligned(as: UInt64.self))
        case 4: return UInt64(UInt32(bigEndian: raw.loadUnaligned(as: UInt32.self)))
        default: return UInt64(UInt16(bigEndian: raw.loadUnaligned(as: UInt16.self)))
        }
    }
}
