import TallyEssentials

/// Reads one blob line piece by piece: the base64 of its `data` field is decoded straight into one
/// byte buffer (hashed with SHA-256 as it goes), and only the small fields around it are kept as
/// text, so a line holding a 256 MB file costs the decoded bytes and a fixed buffer, not the line.
///
/// The `data` string holds base64 characters and `\/` (JSON's escaped slash) only; the other fields
/// are read as JSON once the line has ended.
public struct BlobLineDecoder {
    /// A blob line read whole: the blob, and the SHA-256 of its stored bytes.
    public struct Decoded: Sendable {
        public var blob: Blob
        /// Lowercase hex SHA-256 of `blob.bytes` (the name itself when the encoding is `identity`).
        public var storedSHA256: String
    }

    /// The longest the fields beside `data` may be together.
    static let maxFieldBytes = 64 << 10

    private enum Mode {
        /// Outside `data`'s value: the JSON text is kept.
        case fields
        /// Inside `data`'s string: base64 is decoded.
        case data
        /// Inside `data`'s string, just after a backslash.
        case dataEscape
    }

    /// The line with `data`'s value left empty (`"data":""`), parsed at the end.
    private var fields: [UInt8] = []
    private var mode = Mode.fields
    private var inString = false
    private var escaped = false
    private var depth = 0
    /// Where the last string at depth 1 began in `fields`, and whether it was `"data"` followed by a `:`.
    private var stringStart = 0
    private var afterDataKey = false
    private var expectingData = false
    private var sawData = false
    /// Base64 characters not yet decoded (fewer than four), and the padding seen.
    private var quad: UInt32 = 0
    private var quadCount = 0
    private var padding = 0
    private var bytes: [UInt8] = []
    private var hasher = SHA256()
    /// Where a run of base64 is decoded before it is hashed and appended (made once).
    private var scratch = [UInt8](repeating: 0, count: 48 << 10)

    /// `expectedBytes` is reserved for the decoded content up front (untouched memory costs nothing),
    /// so the buffer never moves while it grows.
    public init(expectedBytes: Int = 0) {
        if expectedBytes > 0 { bytes.reserveCapacity(expectedBytes) }
    }

    /// Takes the next piece of the line.
    /// - Complexity: O(piece).
    public mutating func append(_ piece: UnsafeBufferPointer<UInt8>) throws(EventLineError) {
        var index = 0
        let count = piece.count
        while index < count {
            switch mode {
            case .fields:
                let byte = piece[index]
                index += 1
                try field(byte)
            case .dataEscape:
                guard piece[index] == 0x2F else { throw EventLineError("field 'data' is not base64") }
                index += 1
                mode = .data
                try decodeRun([0x2F])
            case .data:
                // The run of plain base64 up to the next quote or backslash, decoded in one go.
                var end = index
                while end < count, piece[end] != 0x22, piece[end] != 0x5C { end += 1 }
                try decodeRun(UnsafeBufferPointer(rebasing: piece[index..<end]))
                index = end
                if index < count {
                    if piece[index] == 0x5C {
                        mode = .dataEscape
                    } else {
                        mode = .fields
                        inString = false
                        fields.append(0x22)
                    }
                    index += 1
                }
            }
        }
    }

    /// The blob the line holds, once every piece was given.
    public mutating func finish() throws(EventLineError) -> Decoded {
        guard mode == .fields, sawData else { throw EventLineError("field 'data' is not base64") }
        guard quadCount == 0 else { throw EventLineError("field 'data' is not base64") }
        guard case .object(let object)? = try? fields.withUnsafeBufferPointer({ buffer throws(JSONParseError) in try JSON.parse(utf8: buffer) }) else {
            throw EventLineError("the blob line is not a JSON object")
        }
        guard let sha = object["blob"]?.stringValue, sha.utf8.count == 64,
              sha.utf8.allSatisfy({ (0x30...0x39).contains($0) || (0x61...0x66).contains($0) }) else {
            throw EventLineError("field 'blob' is not 64 lowercase hex digits")
        }
        guard let raw = object["encoding"]?.stringValue, let encoding = BlobEncoding(rawValue: raw) else {
            throw EventLineError("field 'encoding' is not identity or gzip")
        }
        let stored = SHA256.hex(hasher.finalize())
        return Decoded(blob: Blob(sha256: sha, encoding: encoding, bytes: bytes), storedSHA256: stored)
    }

    /// One byte outside `data`'s value: kept, and followed through JSON's strings and nesting to find
    /// where `data`'s string starts at the top level.
    private mutating func field(_ byte: UInt8) throws(EventLineError) {
        guard fields.count < Self.maxFieldBytes else { throw EventLineError("the fields beside 'data' are longer than 64 KB") }
        fields.append(byte)
        if inString {
            if escaped {
                escaped = false
            } else if byte == 0x5C {
                escaped = true
            } else if byte == 0x22 {
                inString = false
                afterDataKey = depth == 1 && fields.count - stringStart == 6 && fields[stringStart..<fields.count].elementsEqual(Array("\"data\"".utf8))
            }
            return
        }
        switch byte {
        case 0x20, 0x09, 0x0D, 0x0A:
            return
        case 0x3A where afterDataKey:
            afterDataKey = false
            expectingData = true
            return
        case 0x22:
            if expectingData {
                guard !sawData else { throw EventLineError("field 'data' appears twice") }
                expectingData = false
                sawData = true
                mode = .data
                return
            }
            inString = true
            stringStart = fields.count - 1
        case 0x7B, 0x5B:
            depth += 1
        case 0x7D, 0x5D:
            depth -= 1
        default:
            break
        }
        afterDataKey = false
        expectingData = false
    }

    /// Decodes base64 characters (padding only at the end), appending whole bytes as they complete.
    private mutating func decodeRun(_ run: UnsafeBufferPointer<UInt8>) throws(EventLineError) {
        guard !run.isEmpty else { return }
        // Decoded in slices through a fixed scratch buffer, hashed and appended a slice at a time.
        var scratch: [UInt8] = []
        swap(&scratch, &self.scratch)
        defer { swap(&scratch, &self.scratch) }
        let scratchSize = scratch.count
        var position = 0
        while position < run.count {
            let sliceEnd = min(run.count, position + scratchSize)
            var produced = 0
            try scratch.withUnsafeMutableBufferPointer { (out) throws(EventLineError) in
                for index in position..<sliceEnd {
                    let character = run[index]
                    let value: UInt32
                    switch character {
                    case 0x41...0x5A: value = UInt32(character - 0x41)
                    case 0x61...0x7A: value = UInt32(character - 0x61 + 26)
                    case 0x30...0x39: value = UInt32(character - 0x30 + 52)
                    case 0x2B: value = 62
                    case 0x2F: value = 63
                    case 0x3D:
                        // '=' only as the last one or two characters of a group of four.
                        guard quadCount >= 2 else { throw EventLineError("field 'data' is not base64") }
                        padding += 1
                        quad <<= 6
                        quadCount += 1
                        if quadCount == 4 {
                            out[produced] = UInt8(truncatingIfNeeded: quad >> 16)
                            produced += 1
                            if padding == 1 {
                                out[produced] = UInt8(truncatingIfNeeded: quad >> 8)
                                produced += 1
                            }
                            quad = 0
                            quadCount = 0
                        }
                        continue
                    default:
                        throw EventLineError("field 'data' is not base64")
                    }
                    guard padding == 0 else { throw EventLineError("field 'data' is not base64") }
                    quad = quad << 6 | value
                    quadCount += 1
                    if quadCount == 4 {
                        out[produced] = UInt8(truncatingIfNeeded: quad >> 16)
                        out[produced + 1] = UInt8(truncatingIfNeeded: quad >> 8)
                        out[produced + 2] = UInt8(truncatingIfNeeded: quad)
                        produced += 3
                        quad = 0
                        quadCount = 0
                    }
                }
            }
            scratch.withUnsafeBytes { hasher.update(UnsafeRawBufferPointer(rebasing: $0[0..<produced])) }
            bytes.append(contentsOf: scratch[0..<produced])
            position = sliceEnd
        }
    }

    private mutating func decodeRun(_ run: [UInt8]) throws(EventLineError) {
        try run.withUnsafeBufferPointer { (buffer) throws(EventLineError) in try decodeRun(buffer) }
    }
}
