import TallyDomain

/// Snapshots kept in memory, with the same keep-newest rule as the SQLite store.
public final class InMemorySnapshotStore: SnapshotStore {
    public var rows: [(info: SnapshotInfo, body: [UInt8])] = []

    public init() {}

    public func snapshots() throws(EventLogError) -> [SnapshotInfo] {
        rows.map(\.info).sorted { $0.seq > $1.seq }
    }

    public func withSnapshotBody(_ info: SnapshotInfo, _ body: (UnsafeRawBufferPointer) throws -> Void) throws -> Bool {
        guard let row = rows.first(where: { $0.info.seq == info.seq && $0.info.format == info.format && $0.info.reducerVersion == info.reducerVersion }) else { return false }
        try row.body.withUnsafeBytes(body)
        return true
    }

    public func saveSnapshot(_ info: SnapshotInfo, body: [UInt8], keep: Int) throws(EventLogError) {
        rows.removeAll { $0.info.seq == info.seq && $0.info.format == info.format && $0.info.reducerVersion == info.reducerVersion }
        rows.append((info, body))
        let kept = rows.filter { $0.info.format == info.format && $0.info.reducerVersion == info.reducerVersion }
            .sorted { $0.info.seq > $1.info.seq }.prefix(keep).map(\.info.seq)
        rows.removeAll { $0.info.format != info.format || $0.info.reducerVersion != info.reducerVersion || !kept.contains($0.info.seq) }
    }

    public func deleteAllSnapshots() throws(EventLogError) {
        rows.removeAll()
    }

    /// Changes one stored body in place (for corruption tests).
    public func mutateBody(at index: Int, _ change: (inout [UInt8]) -> Void) {
        change(&rows[index].body)
    }
}
