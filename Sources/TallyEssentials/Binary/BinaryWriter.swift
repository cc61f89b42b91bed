/// Appends values to a byte buffer in the snapshot encoding.
///
/// Unsigned integers are LEB128 varints, signed ones zigzag-encoded varints, strings a
/// varint byte count followed by UTF-8, optionals a presence byte followed by the value.
public struct BinaryWriter: Sendable {
    /// What has been written so far.
    @inlinable public var bytes: [UInt8] { storage }
    /// How many bytes have been written (without handing out the buffer).
    @inlinable public var count: Int { storage.count }
    /// The bytes, internal so that the inlinable writers below (called per value by other
    /// modules' encoders) can append to them.
    @usableFromInline var storage: [UInt8] = []

    public init(capacity: Int = 256) {
        storage.reserveCapacity(capacity)
    }

    /// One raw byte.
    public mutating func byte(_ value: UInt8) {
        storage.append(value)
    }

    /// Raw bytes, without a length.
    @inlinable
    public mutating func raw(_ values: some Sequence<UInt8>) {
        storage.append(contentsOf: values)
    }

    /// A LEB128 varint: 7 bits per byte, low bits first.
    @inlinable
    public mutating func uint(_ value: UInt64) {
        var rest = value
        while rest >= 0x80 {
            storage.append(UInt8(truncatingIfNeeded: rest) | 0x80)
            rest >>= 7
        }
        storage.append(UInt8(rest))
    }

    /// A non-negative count or number; negative values are a programming error.
    @inlinable
    public mutating func count(_ value: Int) {
        precondition(value >= 0, "count must not be negative")
        uint(UInt64(value))
    }

    /// A zigzag varint, so small negative numbers stay short.
    @inlinable
    public mutating func int(_ value: Int64) {
        uint(UInt64(bitPattern: (value << 1) ^ (value >> 63)))
    }

    /// A little-endian 64-bit integer: fixed width, so a row of them can be read in place.
    @inlinable
    public mutating func fixed(_ value: Int64) {
        withUnsafeBytes(of: value.littleEndian) { storage.append(contentsOf: $0) }
    }

    /// A little-endian 32-bit unsigned integer, for offset tables and counts read in place.
    @inlinable
    public mutating func fixed32(_ value: Int) {
        precondition(value >= 0 && value <= Int(UInt32.max), "offset does not fit 32 bits")
        withUnsafeBytes(of: UInt32(value).littleEndian) { storage.append(contentsOf: $0) }
    }

    /// Overwrites 4 bytes at `offset` with a little-endian 32-bit value (a count known only later).
    @inlinable
    public mutating func patch32(_ value: Int, at offset: Int) {
        precondition(value >= 0 && value <= Int(UInt32.max), "offset does not fit 32 bits")
        withUnsafeBytes(of: UInt32(value).littleEndian) { raw in
            for index in 0..<4 { storage[offset + index] = raw[index] }
        }
    }

    /// 1 for true, 0 for false.
    @inlinable
    public mutating func bool(_ value: Bool) {
        storage.append(value ? 1 : 0)
    }

    /// Byte count, then the UTF-8 bytes.
    @inlinable
    public mutating func string(_ value: String) {
        var value = value
        value.withUTF8 { utf8 in
            count(utf8.count)
            storage.append(contentsOf: utf8)
        }
    }

    /// A presence byte (0 or 1), then the value when present. Inlinable, so a caller in another
    /// module gets it specialised for its type instead of looking up generic metadata per value.
    @inlinable
    public mutating func optional<T>(_ value: T?, _ write: (inout BinaryWriter, T) -> Void) {
        guard let value else {
            byte(0)
            return
        }
        byte(1)
        write(&self, value)
    }

    /// A count, then each element.
    @inlinable
    public mutating func array<T>(_ values: [T], _ write: (inout BinaryWriter, T) -> Void) {
        count(values.count)
        for value in values { write(&self, value) }
    }

    /// A lowercase UUID as 16 raw bytes after a 1, anything else as a string after a 0.
    ///
    /// Stream ids are UUIDs, so this saves 20 bytes per item without restricting ids.
    @inlinable
    public mutating func identifier(_ value: String) {
        if let uuid = UUIDBytes.pack(value) {
            storage.append(1)
            withUnsafeBytes(of: uuid) { storage.append(contentsOf: $0) }
        } else {
            storage.append(0)
            string(value)
        }
    }
}
