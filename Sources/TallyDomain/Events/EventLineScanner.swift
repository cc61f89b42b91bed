
/// Reads export lines of the plain shape `tally export` writes straight from their bytes: the
/// bulk import hot path.
///
/// A line qualifies when every member is one of the export's keys, at most once, with `type` and
/// `schema` before `data`; strings without escapes; whole numbers as plain digits; and a payload
/// the `PayloadScanner` reads that is already canonical JSON (so it is stored as written). For
/// anything else it answers nil and `EventLines.decode` decides with the JSON tree, which stays
/// the one definition of a valid line and of every error message: the scanner accepts a subset
/// of what that decoder accepts, and for it builds the same `ImportedEvent`.
enum EventLineScanner {
    /// The members of an export line, one bit each in `seen`.
    enum Key: Int {
        case seq, id, stream, version, type, schema, recordedAt, actor, command, data, hash

        var bit: Int { 1 << rawValue }

        /// Every key but the optional `seq` and `hash`.
        static let required = (1 << 11) - 1 - Key.seq.bit - Key.hash.bit

        static let names: [(name: StaticString, key: Key)] = [
            ("seq", .seq), ("id", .id), ("stream", .stream), ("version", .version), ("type", .type), ("schema", .schema),
            ("recordedAt", .recordedAt), ("actor", .actor), ("command", .command), ("data", .data), ("hash", .hash),
        ]

        /// The key whose name the bytes spell.
        static func named(_ bytes: UnsafeBufferPointer<UInt8>) -> Key? {
            for entry in names where entry.name.utf8CodeUnitCount == bytes.count {
                let name = UnsafeBufferPointer(start: entry.name.utf8Start, count: bytes.count)
                if name.elementsEqual(bytes) { return entry.key }
            }
            return nil
        }
    }

    /// The event of the line, or nil when the tree decoder must decide.
    /// - Complexity: O(line length).
    static func decode(_ line: UnsafeBufferPointer<UInt8>) -> ImportedEvent? {
        guard let base = line.baseAddress, !line.isEmpty else { return nil }
        var cursor = PayloadScanner.Cursor(bytes: base, count: line.count)
        var seen = 0
        var id = "", stream = "", type = "", recordedAt = "", actor = "", command = "", data = ""
        var version = 0, schema = 0
        var event: DomainEvent?
        guard cursor.take(0x7B) else { return nil }
        repeat {
            guard let (start, end, _) = cursor.rawString(),
                  let key = Key.named(UnsafeBufferPointer(start: base + start, count: end - start)),
                  seen & key.bit == 0, cursor.take(0x3A) else { return nil }
            seen |= key.bit
            cursor.skipWhitespace()
            switch key {
            case .seq:
                guard cursor.null() || cursor.wholeNumber() != nil else { return nil }
            case .hash:
                guard cursor.null() || cursor.string() != nil else { return nil }
            case .version, .schema:
                guard let number = cursor.wholeNumber(), number >= 1, number <= Int64(Int32.max) else { return nil }
                if key == .version { version = Int(number) } else { schema = Int(number) }
            case .data:
                guard seen & Key.type.bit != 0, seen & Key.schema.bit != 0 else { return nil }
                let start = cursor.position
                cursor.canonical = true
                guard let payload = PayloadScanner.decodeObject(type: type, schema: schema, at: &cursor), cursor.canonical else { return nil }
                event = payload
                data = String(decoding: UnsafeBufferPointer(start: base + start, count: cursor.position - start), as: UTF8.self)
            case .id, .stream, .type, .recordedAt, .actor, .command:
                guard let text = cursor.string(), !text.isEmpty else { return nil }
                switch key {
                case .id: id = text
                case .stream: stream = text
                case .type: type = text
                case .recordedAt: recordedAt = text
                case .actor: actor = text
                default: command = text
                }
            }
        } while cursor.take(0x2C)
        guard cursor.take(0x7D), cursor.atEnd(), seen & Key.required == Key.required, let event,
              let recorded = Timestamp.parse(recordedAt),
              (try? EventRules.check(event, id: id, stream: stream, command: command, actor: actor)) != nil else { return nil }
        return ImportedEvent(
            id: id, stream: stream, version: version, type: type, schema: schema, data: data,
            recordedAt: recorded, actor: actor, command: command
        )
    }
}

extension PayloadScanner.Cursor {
    /// Consumes `null` when it is next.
    mutating func null() -> Bool {
        guard position &+ 4 <= count, bytes[position] == 0x6E, bytes[position &+ 1] == 0x75,
              bytes[position &+ 2] == 0x6C, bytes[position &+ 3] == 0x6C else { return false }
        position &+= 4
        return true
    }

    /// A number written as plain digits without a leading zero that fits Int64; nil for anything
    /// else (a sign, a fraction, an exponent), which the tree decoder then judges.
    mutating func wholeNumber() -> Int64? {
        let start = position
        var value: Int64 = 0
        while position < count, bytes[position] >= 0x30, bytes[position] <= 0x39 {
            let (times, overflow) = value.multipliedReportingOverflow(by: 10)
            let (sum, carry) = times.addingReportingOverflow(Int64(bytes[position] &- 0x30))
            guard !overflow, !carry else { return nil }
            value = sum
            position &+= 1
        }
        let digits = position &- start
        guard digits > 0, digits == 1 || bytes[start] != 0x30 else { return nil }
        if position < count, bytes[position] == 0x2E || bytes[position] == 0x65 || bytes[position] == 0x45 { return nil }
        return value
    }
}
