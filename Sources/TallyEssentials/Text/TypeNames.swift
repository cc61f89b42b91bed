#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The event type names one scan has read, so each row's type becomes a `String` by comparing its
/// bytes with the few names seen so far rather than decoding and validating them again (a log has a
/// handful of types; decoding one per row measured about 200 instructions of a rebuild's event).
/// Used by the fold scans of SQLite and PostgreSQL.
public struct TypeNames {
    @usableFromInline var names: [(bytes: [UInt8], name: String)] = []
    /// More distinct names than this (a log of many unknown types) are decoded every time.
    @usableFromInline static let capacity = 32

    public init() {}

    @inlinable @inline(__always)
    public mutating func name(_ utf8: UnsafeBufferPointer<UInt8>) -> String {
        guard let start = utf8.baseAddress, !utf8.isEmpty else { return "" }
        for entry in names where entry.bytes.count == utf8.count {
            if entry.bytes.withUnsafeBufferPointer({ memcmp($0.baseAddress!, start, utf8.count) == 0 }) { return entry.name }
        }
        let name = String(decoding: utf8, as: UTF8.self)
        if names.count < Self.capacity { names.append((Array(utf8), name)) }
        return name
    }
}
