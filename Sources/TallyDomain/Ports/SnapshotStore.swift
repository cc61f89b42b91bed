/// A stored snapshot row without its body: enough to choose one.
public struct SnapshotInfo: Sendable, Equatable {
    /// The log position the snapshot was taken at.
    public var seq: Int64
    /// Layout version of the body.
    public var format: Int
    public var reducerVersion: Int
    /// When it was written, ms since the Unix epoch.
    public var createdAt: Int64
    /// Hex SHA-256 of the body.
    public var checksum: String
    /// Size of the body in bytes.
    public var size: Int

    public init(seq: Int64, format: Int, reducerVersion: Int, createdAt: Int64, checksum: String, size: Int) {
        self.seq = seq
        self.format = format
        self.reducerVersion = reducerVersion
        self.createdAt = createdAt
        self.checksum = checksum
        self.size = size
    }
}

/// Where snapshots of the read models are kept, next to the event log.
///
/// The store only keeps bytes; checking checksums and versions is the application's job.
/// Not thread-safe: one instance per thread.
public protocol SnapshotStore: AnyObject {
    /// Every stored snapshot, newest (highest seq) first.
    func snapshots() throws(EventLogError) -> [SnapshotInfo]

    /// Calls `body` with the stored body of one snapshot; false when it is gone.
    ///
    /// The buffer is valid only during the call, so large bodies are decoded without a copy.
    func withSnapshotBody(_ info: SnapshotInfo, _ body: (UnsafeRawBufferPointer) throws -> Void) throws -> Bool

    /// The stored body of one snapshot in a buffer of its own, to be used in place; nil when it is gone.
    ///
    /// A backend that can read a body straight into the buffer (SQLite's incremental blob I/O)
    /// does so; the default copies what `withSnapshotBody` hands out.
    func snapshotBody(_ info: SnapshotInfo) throws -> SnapshotBuffer?

    /// Stores a snapshot, replacing one with the same seq, format and reducer version; in the same
    /// transaction deletes every snapshot of another format or reducer version and all but the
    /// `keep` newest of this one. Runs in the current write transaction, or in its own.
    func saveSnapshot(_ info: SnapshotInfo, body: [UInt8], keep: Int) throws(EventLogError)

    /// Deletes every snapshot.
    func deleteAllSnapshots() throws(EventLogError)
}

extension SnapshotStore {
    public func snapshotBody(_ info: SnapshotInfo) throws -> SnapshotBuffer? {
        var buffer: SnapshotBuffer?
        guard try withSnapshotBody(info, { buffer = SnapshotBuffer(copying: $0) }) else { return nil }
        return buffer
    }
}
