/// A forward-only reader over ASCII bytes.
public struct ByteCursor {
    public let bytes: [UInt8]
    public var index = 0

    public init(_ bytes: [UInt8]) {
        self.bytes = bytes
    }

    public var atEnd: Bool { index >= bytes.count }

    public var peek: UInt8? { atEnd ? nil : bytes[index] }

    /// The unread text.
    public var rest: String { String(decoding: bytes[min(index, bytes.count)...], as: UTF8.self) }

    /// Consumes `byte` if it is next.
    public mutating func take(_ byte: UInt8) -> Bool {
        guard peek == byte else { return false }
        index += 1
        return true
    }

    /// Consumes the next byte if it is one of `choices`.
    public mutating func take(anyOf choices: [UInt8]) -> UInt8? {
        guard let byte = peek, choices.contains(byte) else { return nil }
        index += 1
        return byte
    }

    /// Consumes a run of ASCII digits (possibly empty).
    public mutating func digits() -> ArraySlice<UInt8> {
        let start = index
        while let byte = peek, ByteCursor.isDigit(byte) { index += 1 }
        return bytes[start..<index]
    }

    /// Consumes a run of ASCII letters (possibly empty), lowercased.
    public mutating func letters() -> String {
        let start = index
        while let byte = peek, ByteCursor.isLetter(byte) { index += 1 }
        return String(decoding: bytes[start..<index], as: UTF8.self).lowercased()
    }

    /// Consumes spaces and tabs; true if there were any.
    @discardableResult
    public mutating func skipSpaces() -> Bool {
        let start = index
        while let byte = peek, byte == 0x20 || byte == 0x09 { index += 1 }
        return index > start
    }

    public static func isDigit(_ byte: UInt8) -> Bool { (0x30...0x39).contains(byte) }

    public static func isLetter(_ byte: UInt8) -> Bool { (0x41...0x5A).contains(byte) || (0x61...0x7A).contains(byte) }

    /// The value of a digit run, or nil when it does not fit.
    public static func value(_ digits: ArraySlice<UInt8>) -> Int64? {
        var result: Int64 = 0
        for byte in digits {
            let (times10, overflow1) = result.multipliedReportingOverflow(by: 10)
            let (sum, overflow2) = times10.addingReportingOverflow(Int64(byte - 0x30))
            if overflow1 || overflow2 { return nil }
            result = sum
        }
        return result
    }
}
