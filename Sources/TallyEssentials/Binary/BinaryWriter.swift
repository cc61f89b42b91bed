/// Appends values to a byte buffer in the snapshot encoding.
///
/// Unsigned integers are LEB128 varints, signed ones zigzag-encoded varints, strings a
/// varint byte count followed by UTF-8, optionals a presence byte followed by the value.
public struct BinaryWriter: Sendable {
    public private(set) var bytes: [UInt8] = []

    public init(capacity: Int = 256) {
        bytes.reserveCapacity(capacity)
    }

    /// One raw byte.
    public mutating func byte(_ value: UInt8) {
        bytes.append(value)
    }

    /// Raw bytes, without a length.
    public mutating func raw(_ values: some Sequence<UInt8>) {
        bytes.append(contentsOf: values)
    }

    /// A LEB128 varint: 7 bits per byte, low bits first.
    public mutating func uint(_ value: UInt64) {
        var rest = value
        while rest >= 0x80 {
            bytes.append(UInt8(truncatingIfNeeded: rest) | 0x80)
            rest >>= 7
        }
        bytes.append(UInt8(rest))
    }

    /// A non-negative count or number; negative values are a programming error.
    public mutating func count(_ value: Int) {
        precondition(value >= 0, "count must not be negative")
        uint(UInt64(value))
    }

    /// A zigzag varint, so small negative numbers stay short.
    public mutating func int(_ value: Int64) {
        uint(UInt64(bitPattern: (value << 1) ^ (value >> 63)))
    }

    /// A little-endian 64-bit integer: fixed width, so a row of them can be read in place.
    public mutating func fixed(_ value: Int64) {
        withUnsafeBytes(of: value.littleEndian) { bytes.append(contentsOf: $0) }
    }

    /// A little-endian 32-bit unsigned integer, for offset tables and counts read in place.
    public mutating func fixed32(_ value: Int) {
        precondition(value >= 0 && value <= Int(UInt32.max), "offset does not fit 32 bits")
        withUnsafeBytes(of: UInt32(value).littleEndian) { bytes.append(contentsOf: $0) }
    }

    /// Overwrites 4 bytes at `offset` with a little-endian 32-bit value (a count known only later).
    public mutating func patch32(_ value: Int, at offset: Int) {
        precondition(value >= 0 && value <= Int(UInt32.max), "offset does not fit 32 bits")
        withUnsafeBytes(of: UInt32(value).littleEndian) { raw in
            for index in 0..<4 { bytes[offset + index] = raw[index] }
        }
    }

    /// 1 for true, 0 for false.
    public mutating func bool(_ value: Bool) {
        bytes.append(value ? 1 : 0)
    }

    /// Byte count, then the UTF-8 bytes.
    public mutating func string(_ value: String) {
        var value = value
        value.withUTF8 { utf8 in
            count(utf8.count)
            bytes.append(contentsOf: utf8)
        }
    }

    /// A presence byte (0 or 1), then the value when present.
    public mutating func optional<T>(_ value: T?, _ write: (inout BinaryWriter, T) -> Void) {
        guard let value else {
            bytes.append(0)
            return
        }
        bytes.append(1)
        write(&self, value)
    }

    /// A count, then each element.
    public mutating func array<T>(_ values: [T], _ write: (inout BinaryWriter, T) -> Void) {
        count(values.count)
        for value in values { write(&self, value) }
    }

    /// A lowercase UUID as 16 raw bytes after a 1, anything else as a string after a 0.
    ///
    /// Stream ids are UUIDs, so this saves 20 bytes per item without restricting ids.
    public mutating func identifier(_ value: String) {
        if let uuid = UUIDBytes.pack(value) {
            bytes.append(1)
            withUnsafeBytes(of: uuid) { bytes.append(contentsOf: $0) }
        } else {
            bytes.append(0)
            string(value)
        }
    }
}
