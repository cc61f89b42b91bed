/// Why a snapshot body could not be read back.
public struct SnapshotDecodingError: Error, Sendable, Equatable, CustomStringConvertible {
    public var offset: Int
    public var reason: String

    public var description: String { "at byte \(offset): \(reason)" }

    public init(offset: Int, reason: String) {
        self.offset = offset
        self.reason = reason
    }
}

/// Reads values written by `BinaryWriter` from a byte buffer, checking every bound.
///
/// The buffer must outlive the reader; nothing is copied except into the values returned.
public struct BinaryReader {
    @usableFromInline let base: UnsafeRawBufferPointer
    public var offset: Int { position }
    @usableFromInline var position = 0
    /// The buffer `base` belongs to when its chunks are read on demand; every read touches it first.
    @usableFromInline let source: SnapshotBuffer?

    public init(_ bytes: UnsafeRawBufferPointer, at offset: Int = 0) {
        base = bytes
        self.position = offset
        source = nil
    }

    /// A reader over a whole snapshot buffer that reads each chunk before it reads bytes from it.
    public init(_ buffer: SnapshotBuffer, at offset: Int = 0) {
        base = buffer.bytes
        self.position = offset
        source = buffer
    }

    @inlinable @inline(__always)
    func touch(_ count: Int) {
        if let source { source.touch(offset, count) }
    }

    /// True when every byte has been read.
    public var isAtEnd: Bool { offset == base.count }

    /// An error at the current offset.
    @inlinable
    public func failure(_ reason: String) -> SnapshotDecodingError {
        SnapshotDecodingError(offset: offset, reason: reason)
    }

    /// One raw byte.
    @inlinable
    public mutating func byte() throws(SnapshotDecodingError) -> UInt8 {
        guard offset < base.count else { throw failure("unexpected end of data") }
        touch(1)
        let value = base[offset]
        position += 1
        return value
    }

    /// `count` raw bytes.
    @inlinable
    public mutating func raw(_ count: Int) throws(SnapshotDecodingError) -> UnsafeRawBufferPointer {
        guard count >= 0, count <= base.count - offset else { throw failure("unexpected end of data") }
        touch(count)
        let slice = UnsafeRawBufferPointer(rebasing: base[offset..<offset + count])
        position += count
        return slice
    }

    /// A little-endian 32-bit unsigned integer written by `BinaryWriter.fixed32`.
    @inlinable
    public mutating func fixed32() throws(SnapshotDecodingError) -> Int {
        let bytes = try raw(4)
        return Int(UInt32(littleEndian: bytes.loadUnaligned(as: UInt32.self)))
    }

    /// Moves past `count` bytes, checking that they are there (without reading them); returns where they start.
    @inlinable
    public mutating func skip(_ count: Int) throws(SnapshotDecodingError) -> Int {
        guard count >= 0, count <= base.count - offset else { throw failure("unexpected end of data") }
        let start = offset
        position += count
        return start
    }

    /// A varint; one-byte values (most counts, flags and lengths) take the inlined fast path
    /// (inlinable: the snapshot codec of TallyDomain reads several per item).
    @inlinable @inline(__always)
    public mutating func uint() throws(SnapshotDecodingError) -> UInt64 {
        if offset < base.count {
            touch(1)
            let first = base[offset]
            if first < 0x80 {
                position += 1
                return UInt64(first)
            }
        }
        return try longUInt()
    }

    /// The general varint loop, for values of two bytes or more.
    @usableFromInline
    mutating func longUInt() throws(SnapshotDecodingError) -> UInt64 {
        var result: UInt64 = 0
        var shift: UInt64 = 0
        while true {
            let next = try byte()
            guard shift < 64, shift < 63 || next <= 1 else { throw failure("varint overflows 64 bits") }
            result |= UInt64(next & 0x7f) << shift
            if next < 0x80 { return result }
            shift += 7
        }
    }

    /// A count that must fit in what is left of the buffer (each element takes at least one byte).
    @inlinable
    public mutating func count() throws(SnapshotDecodingError) -> Int {
        let value = try uint()
        guard value <= UInt64(base.count - offset) else { throw failure("count \(value) exceeds the data") }
        return Int(value)
    }

    /// A non-negative integer that fits `Int`.
    @inlinable
    public mutating func natural() throws(SnapshotDecodingError) -> Int {
        let value = try uint()
        guard value <= UInt64(Int.max) else { throw failure("number out of range") }
        return Int(value)
    }

    /// A zigzag varint.
    @inlinable
    public mutating func int() throws(SnapshotDecodingError) -> Int64 {
        let raw = try uint()
        return Int64(bitPattern: (raw >> 1) ^ (0 &- (raw & 1)))
    }

    /// A 0 or 1 byte; anything else is an error.
    @inlinable
    public mutating func bool() throws(SnapshotDecodingError) -> Bool {
        switch try byte() {
        case 0: return false
        case 1: return true
        default: throw failure("not a boolean")
        }
    }

    /// A byte count and that many UTF-8 bytes (ill-formed sequences are repaired, never trusted).
    @inlinable
    public mutating func string() throws(SnapshotDecodingError) -> String {
        let length = try count()
        return String(decoding: try raw(length), as: UTF8.self)
    }

    /// A presence byte, then the value when present (inlinable: specialised in the caller's module).
    @inlinable
    public mutating func optional<T>(_ read: (inout BinaryReader) throws(SnapshotDecodingError) -> T) throws(SnapshotDecodingError) -> T? {
        switch try byte() {
        case 0: return nil
        case 1: return try read(&self)
        default: throw failure("not a presence marker")
        }
    }

    /// A count, then each element.
    @inlinable
    public mutating func array<T>(_ read: (inout BinaryReader) throws(SnapshotDecodingError) -> T) throws(SnapshotDecodingError) -> [T] {
        let length = try count()
        var values: [T] = []
        values.reserveCapacity(length)
        for _ in 0..<length { values.append(try read(&self)) }
        return values
    }

    /// An id written by `BinaryWriter.identifier`.
    @inlinable
    public mutating func identifier() throws(SnapshotDecodingError) -> String {
        switch try byte() {
        case 0: return try string()
        case 1: return UUIDBytes.unpack(try raw(16))
        default: throw failure("not an identifier marker")
        }
    }
}
