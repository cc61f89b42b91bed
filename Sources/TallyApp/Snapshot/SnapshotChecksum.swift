import TallyDomain

/// The checksum stored next to a snapshot body: XXH64 in 16 hex digits (see `XXHash64` for why not SHA-256).
enum SnapshotChecksum {
    static func hex(_ body: UnsafeRawBufferPointer) -> String {
        XXHash64.hex(body)
    }

    static func hex(_ body: [UInt8]) -> String {
        body.withUnsafeBytes { hex($0) }
    }
}
