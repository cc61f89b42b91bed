extension JSON {
    /// Deepest nesting of arrays and objects the parser accepts; a top-level array has depth 1.
    public static let maximumDepth = 256

    /// Parses one JSON text (RFC 8259, strict).
    ///
    /// See `parse(utf8:)` for the accepted grammar and the error offsets.
    public static func parse(_ text: String) throws(JSONParseError) -> JSON {
        var text = text
        let result = text.withUTF8 { bytes -> Result<JSON, JSONParseError> in
            do throws(JSONParseError) {
                return .success(try parse(utf8: bytes))
            } catch {
                return .failure(error)
            }
        }
        return try result.get()
    }

    /// Parses one JSON text from UTF-8 bytes (RFC 8259, strict).
    ///
    /// Whitespace is space, tab, CR and LF only. Rejected: anything after the
    /// value, leading zeros, `+`, bare `.5` / `1.`, NaN and Infinity, control
    /// characters inside strings, unknown escapes, unpaired UTF-16 surrogate
    /// escapes, ill-formed UTF-8, and nesting deeper than 256. A repeated object key
    /// keeps its first position and takes the last value. Integers without
    /// fraction or exponent that fit Int64 become `.int`; every other number
    /// becomes `.double`, and a number whose Double is not finite is rejected.
    ///
    /// Runs in O(n) over the bytes; strings without escapes are created directly
    /// from their byte range.
    public static func parse(utf8 bytes: UnsafeBufferPointer<UInt8>) throws(JSONParseError) -> JSON {
        guard let base = bytes.baseAddress, bytes.count > 0 else {
            throw JSONParseError(offset: 0, reason: "unexpected end of input")
        }
        var parser = JSONParser(bytes: base, count: bytes.count)
        return try parser.parseDocument()
    }

    /// `parse(utf8:)` of a value that sits `depth` levels deep in a larger document (the payload
    /// of an export line is at depth 1), so that the nesting limit counts as it would there.
    public static func parse(utf8 bytes: UnsafeBufferPointer<UInt8>, depth: Int) throws(JSONParseError) -> JSON {
        guard let base = bytes.baseAddress, bytes.count > 0 else {
            throw JSONParseError(offset: 0, reason: "unexpected end of input")
        }
        var parser = JSONParser(bytes: base, count: bytes.count)
        return try parser.parseDocument(depth: depth)
    }
}

private enum ASCII {
    public static let tab: UInt8 = 0x09
    public static let newline: UInt8 = 0x0A
    public static let carriageReturn: UInt8 = 0x0D
    public static let space: UInt8 = 0x20
    public static let quote: UInt8 = 0x22
    public static let plus: UInt8 = 0x2B
    public static let comma: UInt8 = 0x2C
    public static let minus: UInt8 = 0x2D
    public static let period: UInt8 = 0x2E
    public static let slash: UInt8 = 0x2F
    public static let zero: UInt8 = 0x30
    public static let nine: UInt8 = 0x39
    public static let colon: UInt8 = 0x3A
    public static let upperE: UInt8 = 0x45
    public static let leftBracket: UInt8 = 0x5B
    public static let backslash: UInt8 = 0x5C
    public static let rightBracket: UInt8 = 0x5D
    public static let lowerE: UInt8 = 0x65
    public static let leftBrace: UInt8 = 0x7B
    public static let rightBrace: UInt8 = 0x7D
}

/// Recursive-descent parser over a borrowed byte buffer.
///
/// Invariant: `position <= count`; recursion depth is bounded by `JSON.maximumDepth`.
private struct JSONParser {
    public let bytes: UnsafePointer<UInt8>
    public let count: Int
    public var position = 0
    /// Reused output buffer for strings that contain escapes.
    public var scratch: [UInt8] = []
    /// Whether the last string parsed went through `scratch` (otherwise its bytes are `lastStringStart..<lastStringEnd`).
    public var lastStringEscaped = false
    public var lastStringStart = 0
    public var lastStringEnd = 0

    public init(bytes: UnsafePointer<UInt8>, count: Int) {
        self.bytes = bytes
        self.count = count
    }

    public mutating func parseDocument(depth: Int = 0) throws(JSONParseError) -> JSON {
        skipWhitespace()
        let value = try parseValue(depth: depth)
        skipWhitespace()
        if position < count { throw JSONParseError(offset: position, reason: "trailing characters") }
        return value
    }

    @inline(__always)
    public mutating func skipWhitespace() {
        while position < count {
            let byte = bytes[position]
            guard byte == ASCII.space || byte == ASCII.newline || byte == ASCII.carriageReturn || byte == ASCII.tab
            else { return }
            position &+= 1
        }
    }

    public mutating func parseValue(depth: Int) throws(JSONParseError) -> JSON {
        guard position < count else { throw endOfInput() }
        switch bytes[position] {
        case ASCII.quote:
            return .string(try parseString())
        case ASCII.leftBrace:
            return try parseObject(depth: depth &+ 1)
        case ASCII.leftBracket:
            return try parseArray(depth: depth &+ 1)
        case ASCII.minus, ASCII.zero...ASCII.nine:
            return try parseNumber()
        case UInt8(ascii: "t"):
            try expectLiteral("true")
            return .bool(true)
        case UInt8(ascii: "f"):
            try expectLiteral("false")
            return .bool(false)
        case UInt8(ascii: "n"):
            try expectLiteral("null")
            return .null
        default:
            throw unexpectedCharacter(at: position)
        }
    }

    public mutating func parseArray(depth: Int) throws(JSONParseError) -> JSON {
        if depth > JSON.maximumDepth { throw JSONParseError(offset: position, reason: "nesting too deep") }
        position &+= 1
        skipWhitespace()
        if position < count, bytes[position] == ASCII.rightBracket {
            position &+= 1
            return .array([])
        }
        let first = try parseValue(depth: depth)
        skipWhitespace()
        if position < count, bytes[position] == ASCII.rightBracket {
            position &+= 1
            return .array([first])
        }
        var elements = [first]
        while true {
            guard position < count else { throw endOfInput() }
            let byte = bytes[position]
            position &+= 1
            if byte == ASCII.comma {
                skipWhitespace()
            } else if byte == ASCII.rightBracket {
                return .array(elements)
            } else {
                throw unexpectedCharacter(at: position &- 1)
            }
            elements.append(try parseValue(depth: depth))
            skipWhitespace()
        }
    }

    public mutating func parseObject(depth: Int) throws(JSONParseError) -> JSON {
        if depth > JSON.maximumDepth { throw JSONParseError(offset: position, reason: "nesting too deep") }
        position &+= 1
        skipWhitespace()
        if position < count, bytes[position] == ASCII.rightBrace {
            position &+= 1
            return .object(JSONObject())
        }
        return try withUnsafeTemporaryAllocation(of: UInt64.self, capacity: JSONObject.indexThreshold) {
            keyHashes throws(JSONParseError) in
            try parseMembers(depth: depth, keyHashes: keyHashes)
        }
    }

    /// Parses members after `{`. While the object is small, duplicate keys are found
    /// by comparing fingerprints (kept in `keyHashes`, on the stack) and comparing
    /// strings only when fingerprints match; larger objects use the object's own index.
    public mutating func parseMembers(depth: Int, keyHashes: UnsafeMutableBufferPointer<UInt64>) throws(JSONParseError) -> JSON {
        var object = JSONObject()
        object.reserveCapacity(8)
        while true {
            guard position < count else { throw endOfInput() }
            guard bytes[position] == ASCII.quote else { throw unexpectedCharacter(at: position) }
            let key = try parseString()
            let hash = lastStringFingerprint()
            skipWhitespace()
            guard position < count else { throw endOfInput() }
            guard bytes[position] == ASCII.colon else { throw unexpectedCharacter(at: position) }
            position &+= 1
            skipWhitespace()
            let value = try parseValue(depth: depth)
            let size = object.count
            if size < keyHashes.count {
                var existing = -1
                for member in 0..<size where keyHashes[member] == hash {
                    if utf8Equal(object.members[member].key, key) {
                        existing = member
                        break
                    }
                }
                if existing >= 0 {
                    object.replaceValue(at: existing, with: value)
                } else {
                    object.appendNew(key, value)
                    keyHashes[size] = hash
                }
            } else {
                object.set(key, value)
            }
            skipWhitespace()
            guard position < count else { throw endOfInput() }
            let byte = bytes[position]
            position &+= 1
            if byte == ASCII.comma {
                skipWhitespace()
            } else if byte == ASCII.rightBrace {
                return .object(object)
            } else {
                throw unexpectedCharacter(at: position &- 1)
            }
        }
    }

    /// Consumes `literal`; the common case compares its first four bytes in one load.
    public mutating func expectLiteral(_ literal: StaticString) throws(JSONParseError) {
        let expected = literal.utf8Start
        let length = literal.utf8CodeUnitCount
        if position &+ length <= count,
            UnsafeRawPointer(bytes + position).loadUnaligned(as: UInt32.self)
                == UnsafeRawPointer(expected).loadUnaligned(as: UInt32.self),
            length == 4 || bytes[position &+ 4] == expected[4]
        {
            position &+= length
            return
        }
        for offset in 0..<literal.utf8CodeUnitCount {
            let at = position &+ offset
            guard at < count else { throw endOfInput() }
            guard bytes[at] == expected[offset] else { throw unexpectedCharacter(at: at) }
        }
        position &+= literal.utf8CodeUnitCount
    }

    // MARK: Strings

    /// A fingerprint of the decoded bytes of the last string parsed; equal strings
    /// have equal fingerprints, and keys shorter than eight bytes are identified exactly.
    public func lastStringFingerprint() -> UInt64 {
        if lastStringEscaped {
            return scratch.withUnsafeBufferPointer { fingerprint($0.baseAddress!, length: $0.count, readable: $0.count) }
        }
        return fingerprint(bytes + lastStringStart, length: lastStringEnd &- lastStringStart, readable: count &- lastStringStart)
    }

    /// Length in the top byte plus the bytes themselves when shorter than eight;
    /// otherwise the length mixed with the first and last eight bytes.
    @inline(__always)
    public func fingerprint(_ start: UnsafePointer<UInt8>, length: Int, readable: Int) -> UInt64 {
        let raw = UnsafeRawPointer(start)
        let size = UInt64(truncatingIfNeeded: length)
        if length >= 8 {
            let first = raw.loadUnaligned(as: UInt64.self)
            let last = raw.loadUnaligned(fromByteOffset: length &- 8, as: UInt64.self)
            return (first &* 0x9E37_79B9_7F4A_7C15) ^ last ^ (size &<< 56)
        }
        var word: UInt64 = 0
        if readable >= 8 {
            word = UInt64(littleEndian: raw.loadUnaligned(as: UInt64.self)) & ((1 &<< (size &* 8)) &- 1)
        } else {
            for offset in 0..<length { word |= UInt64(start[offset]) &<< (UInt64(offset) &* 8) }
        }
        return word | (size &<< 56)
    }

    /// Bit 7 of each byte of the result is set where `word` (eight input bytes,
    /// little-endian) has `"`, `\`, a control character, or, when `stopAtNonASCII`,
    /// a byte >= 0x80. Exact for the lowest flagged byte, which is all the scanner uses:
    /// a spurious flag can only appear above a genuine one, through a borrow.
    @inline(__always)
    public func specialBytes(_ word: UInt64, stopAtNonASCII: Bool) -> UInt64 {
        let ones: UInt64 = 0x0101_0101_0101_0101
        let highs: UInt64 = 0x8080_8080_8080_8080
        let quote = word ^ (ones &* UInt64(ASCII.quote))
        let backslash = word ^ (ones &* UInt64(ASCII.backslash))
        var flags = (quote &- ones) & ~quote
        flags |= (backslash &- ones) & ~backslash
        flags |= (word &- ones &* 0x20) & ~word
        if stopAtNonASCII { flags |= word }
        return flags & highs
    }

    /// Parses a string starting at its opening quote and leaves `position` after the closing quote.
    ///
    /// Scans eight bytes per step for the closing quote; the first non-ASCII byte
    /// turns on UTF-8 validation of the whole string at the end.
    public mutating func parseString() throws(JSONParseError) -> String {
        let opening = position
        let start = position &+ 1
        var index = start
        var nonASCII = false
        while true {
            if index &+ 8 <= count {
                let word = UInt64(littleEndian: UnsafeRawPointer(bytes + index).loadUnaligned(as: UInt64.self))
                let flags = specialBytes(word, stopAtNonASCII: !nonASCII)
                if flags == 0 {
                    index &+= 8
                    continue
                }
                index &+= flags.trailingZeroBitCount &>> 3
            } else if index >= count {
                throw JSONParseError(offset: opening, reason: "unterminated string")
            }
            let byte = bytes[index]
            if byte == ASCII.quote {
                position = index &+ 1
                lastStringEscaped = false
                lastStringStart = start
                lastStringEnd = index
                if nonASCII { try validateUTF8(from: start, to: index) }
                return makeString(bytes + start, count: index &- start)
            }
            if byte == ASCII.backslash {
                return try parseEscapedString(opening: opening, escapeAt: index, nonASCII: nonASCII)
            }
            if byte < 0x20 { throw JSONParseError(offset: index, reason: "control character in string") }
            if byte >= 0x80 { nonASCII = true }
            index &+= 1
        }
    }

    /// Creates a String from bytes already known to be well-formed UTF-8.
    ///
    /// `String(unsafeUninitializedCapacity:)` builds small strings inline and costs
    /// markedly less than `String(decoding:)` for the short keys and values typical here.
    @inline(__always)
    public func makeString(_ start: UnsafePointer<UInt8>, count: Int) -> String {
        if count == 0 { return "" }
        return String(unsafeUninitializedCapacity: count) { out in
            out.baseAddress!.initialize(from: start, count: count)
            return count
        }
    }

    /// Slow path for a string with escapes: decodes into `scratch`. Escapes are ASCII and
    /// decode to well-formed UTF-8, so only raw non-ASCII input bytes need validating.
    public mutating func parseEscapedString(opening: Int, escapeAt firstEscape: Int, nonASCII: Bool) throws(JSONParseError) -> String {
        var nonASCII = nonASCII
        let start = opening &+ 1
        scratch.removeAll(keepingCapacity: true)
        scratch.append(contentsOf: UnsafeBufferPointer(start: bytes + start, count: firstEscape &- start))
        var index = firstEscape
        while index < count {
            let byte = bytes[index]
            if byte == ASCII.quote {
                position = index &+ 1
                lastStringEscaped = true
                if nonASCII { try validateUTF8(from: start, to: index) }
                return scratch.withUnsafeBufferPointer { makeString($0.baseAddress!, count: $0.count) }
            }
            if byte < 0x20 { throw JSONParseError(offset: index, reason: "control character in string") }
            if byte != ASCII.backslash {
                if byte >= 0x80 { nonASCII = true }
                scratch.append(byte)
                index &+= 1
                continue
            }
            guard index &+ 1 < count else { break }
            switch bytes[index &+ 1] {
            case ASCII.quote: scratch.append(ASCII.quote)
            case ASCII.backslash: scratch.append(ASCII.backslash)
            case ASCII.slash: scratch.append(ASCII.slash)
            case UInt8(ascii: "b"): scratch.append(0x08)
            case UInt8(ascii: "f"): scratch.append(0x0C)
            case UInt8(ascii: "n"): scratch.append(ASCII.newline)
            case UInt8(ascii: "r"): scratch.append(ASCII.carriageReturn)
            case UInt8(ascii: "t"): scratch.append(ASCII.tab)
            case UInt8(ascii: "u"):
                index = try decodeUnicodeEscape(at: index)
                continue
            default:
                throw JSONParseError(offset: index, reason: "invalid escape")
            }
            index &+= 2
        }
        throw JSONParseError(offset: opening, reason: "unterminated string")
    }

    /// Decodes `\uXXXX` (or a surrogate pair `\uXXXX\uXXXX`) at `index`, appends its
    /// UTF-8 to `scratch` and returns the index after the escape.
    public mutating func decodeUnicodeEscape(at index: Int) throws(JSONParseError) -> Int {
        guard let unit = hexQuad(at: index &+ 2) else {
            throw JSONParseError(offset: index, reason: "invalid escape")
        }
        var scalar = UInt32(unit)
        var next = index &+ 6
        if unit >= 0xDC00 && unit <= 0xDFFF {
            throw JSONParseError(offset: index, reason: "unpaired surrogate")
        }
        if unit >= 0xD800 && unit <= 0xDBFF {
            guard next &+ 1 < count, bytes[next] == ASCII.backslash, bytes[next &+ 1] == UInt8(ascii: "u"),
                let low = hexQuad(at: next &+ 2), low >= 0xDC00 && low <= 0xDFFF
            else {
                throw JSONParseError(offset: index, reason: "unpaired surrogate")
            }
            scalar = 0x10000 &+ ((scalar &- 0xD800) &<< 10) &+ (UInt32(low) &- 0xDC00)
            next &+= 6
        }
        appendUTF8(scalar)
        return next
    }

    public func hexQuad(at index: Int) -> UInt16? {
        guard index &+ 4 <= count else { return nil }
        var value: UInt16 = 0
        for offset in 0..<4 {
            let byte = bytes[index &+ offset]
            let digit: UInt8
            switch byte {
            case ASCII.zero...ASCII.nine: digit = byte &- ASCII.zero
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte &- UInt8(ascii: "a") &+ 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = byte &- UInt8(ascii: "A") &+ 10
            default: return nil
            }
            value = value &<< 4 | UInt16(digit)
        }
        return value
    }

    public mutating func appendUTF8(_ scalar: UInt32) {
        switch scalar {
        case ..<0x80:
            scratch.append(UInt8(scalar))
        case ..<0x800:
            scratch.append(UInt8(0xC0 | scalar &>> 6))
            scratch.append(UInt8(0x80 | scalar & 0x3F))
        case ..<0x10000:
            scratch.append(UInt8(0xE0 | scalar &>> 12))
            scratch.append(UInt8(0x80 | scalar &>> 6 & 0x3F))
            scratch.append(UInt8(0x80 | scalar & 0x3F))
        default:
            scratch.append(UInt8(0xF0 | scalar &>> 18))
            scratch.append(UInt8(0x80 | scalar &>> 12 & 0x3F))
            scratch.append(UInt8(0x80 | scalar &>> 6 & 0x3F))
            scratch.append(UInt8(0x80 | scalar & 0x3F))
        }
    }

    // MARK: Numbers

    /// Parses `-? (0 | [1-9][0-9]*) (. [0-9]+)? ([eE] [+-]? [0-9]+)?`.
    ///
    /// Integers of up to 18 digits cannot overflow Int64 and skip overflow checks.
    public mutating func parseNumber() throws(JSONParseError) -> JSON {
        let start = position
        var index = position
        let negative = bytes[index] == ASCII.minus
        if negative { index &+= 1 }
        let digitsStart = index
        guard index < count else { throw JSONParseError(offset: index, reason: "invalid number") }
        let first = bytes[index]
        if first == ASCII.zero {
            index &+= 1
            if index < count, isDigit(bytes[index]) {
                throw JSONParseError(offset: index, reason: "leading zero")
            }
        } else if isDigit(first) {
            index = skipDigits(from: index &+ 1)
        } else {
            throw JSONParseError(offset: index, reason: "invalid number")
        }
        let digitsEnd = index
        var integral = true
        if index < count, bytes[index] == ASCII.period {
            integral = false
            index &+= 1
            guard index < count, isDigit(bytes[index]) else {
                throw JSONParseError(offset: index, reason: "invalid number")
            }
            index = skipDigits(from: index &+ 1)
        }
        if index < count, bytes[index] == ASCII.lowerE || bytes[index] == ASCII.upperE {
            integral = false
            index &+= 1
            if index < count, bytes[index] == ASCII.plus || bytes[index] == ASCII.minus { index &+= 1 }
            guard index < count, isDigit(bytes[index]) else {
                throw JSONParseError(offset: index, reason: "invalid number")
            }
            index = skipDigits(from: index &+ 1)
        }
        position = index

        if integral, let value = integerValue(from: digitsStart, to: digitsEnd, negative: negative) {
            return .int(value)
        }
        let text = String(decoding: UnsafeBufferPointer(start: bytes + start, count: index &- start), as: UTF8.self)
        guard let value = Double(text), value.isFinite else {
            throw JSONParseError(offset: start, reason: "number out of range")
        }
        return .double(value)
    }

    /// The Int64 spelled by the digits, or nil when it overflows.
    ///
    /// Accumulates negatively so that Int64.min is representable.
    public func integerValue(from start: Int, to end: Int, negative: Bool) -> Int64? {
        var value: Int64 = 0
        if end &- start <= 18 {
            for index in start..<end { value = value &* 10 &- Int64(bytes[index] &- ASCII.zero) }
        } else {
            for index in start..<end {
                let (scaled, overflow1) = value.multipliedReportingOverflow(by: 10)
                let (next, overflow2) = scaled.subtractingReportingOverflow(Int64(bytes[index] &- ASCII.zero))
                if overflow1 || overflow2 { return nil }
                value = next
            }
        }
        if negative { return value }
        return value == .min ? nil : -value
    }

    @inline(__always)
    public func isDigit(_ byte: UInt8) -> Bool { byte &- ASCII.zero < 10 }

    @inline(__always)
    public func skipDigits(from start: Int) -> Int {
        var index = start
        while index < count, isDigit(bytes[index]) { index &+= 1 }
        return index
    }

    // MARK: Errors

    public func endOfInput() -> JSONParseError {
        JSONParseError(offset: count, reason: "unexpected end of input")
    }

    /// Names the character at `index`, decoding a multi-byte scalar when it is well-formed.
    public func unexpectedCharacter(at index: Int) -> JSONParseError {
        let byte = bytes[index]
        if byte < 0x80 {
            if byte > 0x20 && byte < 0x7F {
                return JSONParseError(offset: index, reason: "unexpected character '\(Character(Unicode.Scalar(byte)))'")
            }
            return JSONParseError(offset: index, reason: "unexpected character U+\(hex4(UInt32(byte)))")
        }
        let length = wellFormedSequenceLength(at: index, limit: count)
        guard length > 0 else { return JSONParseError(offset: index, reason: "invalid UTF-8") }
        let scalar = String(decoding: UnsafeBufferPointer(start: bytes + index, count: length), as: UTF8.self)
        return JSONParseError(offset: index, reason: "unexpected character '\(scalar)'")
    }

    public func hex4(_ value: UInt32) -> String {
        let digits = String(value, radix: 16, uppercase: true)
        return String(repeating: "0", count: max(0, 4 - digits.count)) + digits
    }

    /// Throws at the first ill-formed UTF-8 sequence in `start..<end`.
    public func validateUTF8(from start: Int, to end: Int) throws(JSONParseError) {
        var index = start
        while index < end {
            if bytes[index] < 0x80 {
                index &+= 1
                continue
            }
            let length = wellFormedSequenceLength(at: index, limit: end)
            if length == 0 { throw JSONParseError(offset: index, reason: "invalid UTF-8") }
            index &+= length
        }
    }

    /// Length of the well-formed UTF-8 sequence at `index` (Unicode Table 3-7), or 0 if ill-formed.
    public func wellFormedSequenceLength(at index: Int, limit: Int) -> Int {
        let lead = bytes[index]
        let length: Int
        var low: UInt8 = 0x80
        var high: UInt8 = 0xBF
        switch lead {
        case 0x00...0x7F: return 1
        case 0xC2...0xDF: length = 2
        case 0xE0: length = 3; low = 0xA0
        case 0xE1...0xEC, 0xEE...0xEF: length = 3
        case 0xED: length = 3; high = 0x9F
        case 0xF0: length = 4; low = 0x90
        case 0xF1...0xF3: length = 4
        case 0xF4: length = 4; high = 0x8F
        default: return 0
        }
        guard index &+ length <= limit else { return 0 }
        let second = bytes[index &+ 1]
        guard second >= low && second <= high else { return 0 }
        for offset in 2..<max(2, length) {
            let byte = bytes[index &+ offset]
            guard byte >= 0x80 && byte <= 0xBF else { return 0 }
        }
        return length
    }
}
