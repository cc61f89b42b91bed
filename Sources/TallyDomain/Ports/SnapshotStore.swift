import TallyEssentials

/// A stored snapshot row without its body: enough to choose one.
public struct SnapshotInfo: Sendable, Equatable {
    /// The log position the snapshot was taken at.
    public var seq: Int64
    /// Layout version of the body.
    public var format: Int
    public var reducerVersion: Int
    /// When it was written, ms since the Unix epoch.
    public var createdAt: Int64
    /// What proves the body: `SnapshotChunks.proof` of the chunk checksums (an XXH64, 16 hex digits).
    public var checksum: String
    /// Size of the body in bytes.
    public var size: Int
    /// Bytes per stored chunk of the body; 0 for a body stored whole (formats before 7).
    public var chunkSize: Int

    public init(seq: Int64, format: Int, reducerVersion: Int, createdAt: Int64, checksum: String, size: Int, chunkSize: Int = 0) {
        self.seq = seq
        self.format = format
        self.reducerVersion = reducerVersion
        self.createdAt = createdAt
        self.checksum = checksum
        self.size = size
        self.chunkSize = chunkSize
    }
}

/// Where snapshots of the read models are kept, next to the event log.
///
/// The store only keeps bytes; checking checksums and versions is the application's job.
/// Not thread-safe: one instance per thread.
public protocol SnapshotStore: AnyObject {
    /// Every stored snapshot, newest (highest seq) first.
    func snapshots() throws(EventLogError) -> [SnapshotInfo]

    /// The checksums of the chunks of one snapshot's body, as `SnapshotChunks.encode` laid them
    /// out; nil when the snapshot is gone.
    func snapshotChunkSums(_ info: SnapshotInfo) throws -> [UInt8]?

    /// Reads chunk `index` (0-based, `info.chunkSize` bytes, the last one shorter) of a snapshot's
    /// body into `target`; false when the chunk is gone or its length is not `target.count`.
    /// Called on demand, long after the snapshot was listed, so it reads one row, not the body.
    func readSnapshotChunk(_ info: SnapshotInfo, index: Int, into target: UnsafeMutableRawBufferPointer) throws -> Bool

    /// Stores a snapshot whose body is cut into chunks of `info.chunkSize` bytes, with the chunk
    /// checksums `chunkSums`, replacing one with the same seq, format and reducer version; in the same
    /// transaction deletes every snapshot of another format or reducer version and all but the
    /// `keep` newest of this one. Runs in the current write transaction, or in its own.
    func saveSnapshot(_ info: SnapshotInfo, body: [UInt8], chunkSums: [UInt8], keep: Int) throws(EventLogError)

    /// Deletes every snapshot.
    func deleteAllSnapshots() throws(EventLogError)
}

extension SnapshotStore {
    /// The body of one snapshot in a buffer that reads each chunk from this store the first time it
    /// is touched, checked against `sums`; the store must stay open while the buffer is read.
    /// A chunk that fails is told apart from damage by whether the snapshot is still listed with
    /// the checksum it was opened with (`SnapshotBuffer.superseded`).
    public func snapshotBody(_ info: SnapshotInfo, sums: [UInt64]) -> SnapshotBuffer {
        SnapshotBuffer(count: info.size, chunkSize: info.chunkSize, sums: sums, read: { index, target in
            try self.readSnapshotChunk(info, index: index, into: target)
        }, gone: {
            guard let stored = try? self.snapshots() else { return false }
            return !stored.contains { $0 == info }
        })
    }

    /// The whole stored body, every chunk read (not checked); nil when any part is gone.
    public func snapshotBytes(_ info: SnapshotInfo) throws -> [UInt8]? {
        guard info.chunkSize > 0 else { return nil }
        var bytes = [UInt8](repeating: 0, count: info.size)
        var whole = true
        try bytes.withUnsafeMutableBytes { raw in
            for index in 0 ..< SnapshotChunks.count(size: info.size, chunkSize: info.chunkSize) where whole {
                let start = index * info.chunkSize
                let target = UnsafeMutableRawBufferPointer(rebasing: raw[start ..< min(raw.count, start + info.chunkSize)])
                whole = try readSnapshotChunk(info, index: index, into: target)
            }
        }
        return whole ? bytes : nil
    }
}
