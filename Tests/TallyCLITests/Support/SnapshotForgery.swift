import Foundation
@testable import TallyEngine
@testable import TallyDomain
@testable import TallySQLite
@testable import TallyEssentials

/// Forged snapshots with valid checksums, made from the real newest snapshot of a SQLite store:
/// the body is decoded (or its bytes patched), one value is made hostile, and the body is stored
/// again with the checksums that prove it, so only a check of the values can tell.
enum SnapshotForgery {
    /// The newest snapshot's row and body.
    static func newest(_ path: String) throws -> (info: SnapshotInfo, body: [UInt8]) {
        let log = try SQLiteEventLog.openForWriting(path: path, now: 1)
        defer { log.close() }
        guard let info = try log.snapshots().first, let body = try log.snapshotBytes(info) else { throw Missing() }
        return (info, body)
    }

    struct Missing: Error {}

    /// Stores `body` in place of the newest snapshot's, sealed with its chunk checksums and proof.
    static func store(_ path: String, body: [UInt8]) throws {
        let (info, _) = try newest(path)
        let log = try SQLiteEventLog.openForWriting(path: path, now: 1)
        defer { log.close() }
        var sealed = info
        let (sums, checksum) = SnapshotChecksum.seal(body, chunkSize: info.chunkSize)
        sealed.size = body.count
        sealed.checksum = checksum
        try log.saveSnapshot(sealed, body: body, chunkSums: sums, keep: 2)
    }

    /// Decodes the newest snapshot, changes its models, and stores them re-encoded (header kept).
    static func model(_ path: String, _ change: (inout ReadModel) -> Void) throws {
        let (_, body) = try newest(path)
        var (header, model) = try SnapshotCodec.decode(body)
        change(&model)
        try store(path, body: SnapshotCodec.encode(model, latestRecordedAt: header.latestRecordedAt, logHash: header.logHash))
    }

    /// Where the todo table's parts start in a body.
    struct Layout {
        var table: Int
        var count: Int
        var counts: Int { table + 4 }
        var waiting: Int
        /// Todos that wait for others (their positions follow the waiting ones).
        var linked: Int
        var offsets: Int { counts + 21 + 4 * waiting + 4 + 4 * linked }
        var summaries: Int { offsets + 4 * (count + 1) }
    }

    static func layout(_ body: [UInt8]) throws -> Layout {
        try body.withUnsafeBytes { bytes in
            var reader = BinaryReader(bytes)
            _ = try reader.raw(4)
            _ = try reader.natural()
            _ = try reader.natural()
            _ = try reader.int()
            _ = try reader.int()
            _ = try reader.string()
            _ = try reader.int()
            let table = reader.offset
            let count = try reader.fixed32()
            _ = try reader.raw(17)
            let waiting = try reader.fixed32()
            _ = try reader.raw(4 * waiting)
            return Layout(table: table, count: count, waiting: waiting, linked: try reader.fixed32())
        }
    }

    /// Patches the newest snapshot's bytes and stores them sealed.
    static func bytes(_ path: String, _ change: (inout [UInt8], Layout) throws -> Void) throws {
        var (_, body) = try newest(path)
        try change(&body, try layout(body))
        try store(path, body: body)
    }

    /// The position of `marker`'s UTF-8 bytes in `body`.
    static func find(_ marker: String, in body: [UInt8]) -> Int? {
        let needle = Array(marker.utf8)
        guard body.count >= needle.count else { return nil }
        return (0 ... body.count - needle.count).first { body[$0 ..< $0 + needle.count].elementsEqual(needle) }
    }

    /// Makes the newest snapshot's row claim a body of `size` bytes in chunks of `chunkSize`,
    /// with chunk checksums and a proof that agree with the claim (no chunk is added).
    static func claim(_ path: String, size: Int, chunkSize: Int) throws {
        let (info, body) = try newest(path)
        let chunks = (size - 1) / chunkSize + 1
        var sums = SnapshotChunks.sums(body, chunkSize: info.chunkSize)
        sums += Array(repeating: 0, count: max(0, chunks - sums.count))
        let encoded = SnapshotChunks.encode(Array(sums.prefix(chunks)))
        let proof = SnapshotChunks.proof(sums: encoded, size: size, chunkSize: chunkSize)
        let connection = try Connection(path: path, access: .readWrite)
        let statement = try connection.statement("UPDATE snapshots SET chunk_sums = ?1, checksum = '\(proof)', size = \(size), chunk_size = \(chunkSize) WHERE seq = \(info.seq)")
        try statement.bind(encoded, at: 1)
        try statement.step()
    }
}
