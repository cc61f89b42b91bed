import TallyDomain
import TallyEssentials

/// The checksums stored with a snapshot body: the XXH64 of each chunk (see `XXHash64` for why not
/// SHA-256), and in the row the XXH64 over those, which proves the whole body.
enum SnapshotChecksum {
    /// The chunk checksums of `body` as stored, and the row's checksum over them.
    static func seal(_ body: [UInt8], chunkSize: Int) -> (sums: [UInt8], checksum: String) {
        let sums = SnapshotChunks.encode(SnapshotChunks.sums(body, chunkSize: chunkSize))
        return (sums, SnapshotChunks.proof(sums: sums, size: body.count, chunkSize: chunkSize))
    }
}
