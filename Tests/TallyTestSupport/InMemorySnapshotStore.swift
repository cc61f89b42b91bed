import TallyDomain
@testable import TallyEssentials

/// Snapshots kept in memory, with the same keep-newest rule as the SQLite store.
public final class InMemorySnapshotStore: SnapshotStore {
    public var rows: [(info: SnapshotInfo, body: [UInt8], sums: [UInt8])] = []
    /// Chunks read so far, by snapshot seq and chunk index (to check what a command touched).
    public private(set) var chunksRead: [(seq: Int64, chunk: Int)] = []

    public init() {}

    public func snapshots() throws(EventLogError) -> [SnapshotInfo] {
        rows.map(\.info).sorted { $0.seq > $1.seq }
    }

    private func row(_ info: SnapshotInfo) -> (info: SnapshotInfo, body: [UInt8], sums: [UInt8])? {
        rows.first { $0.info.seq == info.seq && $0.info.format == info.format && $0.info.reducerVersion == info.reducerVersion }
    }

    public func snapshotChunkSums(_ info: SnapshotInfo) throws -> [UInt8]? {
        row(info)?.sums
    }

    public func readSnapshotChunk(_ info: SnapshotInfo, index: Int, into target: UnsafeMutableRawBufferPointer) throws -> Bool {
        guard let row = row(info) else { return false }
        chunksRead.append((info.seq, index))
        let start = index * info.chunkSize
        guard start < row.body.count, min(row.body.count, start + info.chunkSize) - start == target.count else { return false }
        row.body.withUnsafeBytes { target.copyMemory(from: UnsafeRawBufferPointer(rebasing: $0[start ..< start + target.count])) }
        return true
    }

    public func saveSnapshot(_ info: SnapshotInfo, body: [UInt8], chunkSums: [UInt8], keep: Int) throws(EventLogError) {
        rows.removeAll { $0.info.seq == info.seq && $0.info.format == info.format && $0.info.reducerVersion == info.reducerVersion }
        rows.append((info, body, chunkSums))
        let kept = rows.filter { $0.info.format == info.format && $0.info.reducerVersion == info.reducerVersion }
            .sorted { $0.info.seq > $1.info.seq }.prefix(keep).map(\.info.seq)
        rows.removeAll { $0.info.format != info.format || $0.info.reducerVersion != info.reducerVersion || !kept.contains($0.info.seq) }
    }

    public func deleteAllSnapshots() throws(EventLogError) {
        rows.removeAll()
    }

    /// Changes one stored body in place, leaving its checksums as they were (for corruption tests).
    public func mutateBody(at index: Int, _ change: (inout [UInt8]) -> Void) {
        change(&rows[index].body)
    }

    /// A row for `body` cut into chunks of `chunkSize`, with the checksums that prove it.
    public static func row(seq: Int64, format: Int = SnapshotCodec.format, reducer: Int = Reducer.version, body: [UInt8],
                           chunkSize: Int = SnapshotChunks.standardSize) -> (info: SnapshotInfo, body: [UInt8], sums: [UInt8]) {
        let sums = SnapshotChunks.encode(SnapshotChunks.sums(body, chunkSize: chunkSize))
        let info = SnapshotInfo(seq: seq, format: format, reducerVersion: reducer, createdAt: 0,
                                checksum: SnapshotChunks.proof(sums: sums, size: body.count, chunkSize: chunkSize), size: body.count, chunkSize: chunkSize)
        return (info, body, sums)
    }

    /// Forgets which chunks were read.
    public func resetReads() {
        chunksRead.removeAll()
    }
}
