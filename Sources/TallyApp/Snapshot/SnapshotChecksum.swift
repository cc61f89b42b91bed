import TallyDomain

/// The checksum stored next to a snapshot body: hex SHA-256.
enum SnapshotChecksum {
    static func hex(_ body: UnsafeRawBufferPointer) -> String {
        var hasher = SHA256()
        hasher.update(body)
        return SHA256.hex(hasher.finalize())
    }

    static func hex(_ body: [UInt8]) -> String {
        body.withUnsafeBytes { hex($0) }
    }
}
