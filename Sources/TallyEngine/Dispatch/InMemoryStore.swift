import TallyDomain

/// A whole store held in memory: the events, snapshots and kept files of a store that is never
/// written to disk. It reads a database that does not exist yet as an empty store, and it is the
/// third backend the store contract suite runs against (beside SQLite and PostgreSQL), so it
/// keeps every rule of the ports: all-or-nothing writes, one event per stream version, unique ids.
public final class InMemoryStore: EventStore {
    public private(set) var events: [EventEnvelope]
    private var pending: [EventEnvelope]? = nil
    private typealias SnapshotRow = (info: SnapshotInfo, body: [UInt8], sums: [UInt8])
    private var snapshotRows: [SnapshotRow] = []
    /// The snapshots as the running write leaves them; kept only when it commits, like its events and files.
    private var pendingSnapshotRows: [SnapshotRow]? = nil
    private var pendingBlobs: [String: Blob]? = nil
    private var blobs: [String: Blob] = [:]

    public init(events: [EventEnvelope] = []) {
        self.events = events
    }

    // MARK: EventLog

    public func head() throws(EventLogError) -> LogHead {
        let all = pending ?? events
        guard let last = all.last else { return .empty }
        return LogHead(seq: last.seq, hash: last.hash)
    }

    public func scan(after: Int64, through: Int64?, _ body: (EventEnvelope) throws -> Void) throws {
        for event in pending ?? events where event.seq > after && event.seq <= (through ?? .max) {
            try body(event)
        }
    }

    public func events(inStream stream: String) throws(EventLogError) -> [EventEnvelope] {
        (pending ?? events).filter { $0.stream == stream }.sorted { $0.version < $1.version }
    }

    public func scanBackward(before: Int64?, _ body: (EventEnvelope) throws -> Bool) throws {
        for event in (pending ?? events).reversed() where event.seq < (before ?? .max) {
            guard try body(event) else { return }
        }
    }

    public func event(id: String) throws(EventLogError) -> EventEnvelope? {
        (pending ?? events).first { $0.id == id }
    }

    public func lastVersion(ofStream stream: String) throws(EventLogError) -> Int {
        (pending ?? events).last { $0.stream == stream }?.version ?? 0
    }

    public func write<T>(_ body: () throws -> T) throws -> T {
        guard pending == nil else { throw EventLogError.io("a write is already running on this store") }
        pending = events
        pendingBlobs = blobs
        pendingSnapshotRows = snapshotRows
        defer {
            pending = nil
            pendingBlobs = nil
            pendingSnapshotRows = nil
        }
        let result = try body()
        events = pending ?? events
        blobs = pendingBlobs ?? blobs
        snapshotRows = pendingSnapshotRows ?? snapshotRows
        return result
    }

    public func append(_ newEvents: [EventEnvelope]) throws(EventLogError) {
        guard var staged = pending else { throw .io("append outside a write") }
        for event in newEvents {
            if staged.contains(where: { $0.stream == event.stream && $0.version == event.version }) {
                throw .conflict(stream: event.stream, version: event.version)
            }
            if staged.contains(where: { $0.id == event.id }) {
                throw .duplicateEventID(event.id)
            }
            staged.append(event)
        }
        // A redaction erases the values as it is appended, and drops the snapshots folded from them.
        for event in newEvents where event.type == "history.redacted" {
            let facts = try Redaction.facts(of: event)
            let earlier = staged.filter { $0.stream == facts.stream && $0.seq < event.seq }
            if facts.field == Redaction.fileField {
                let names = Redaction.files(in: earlier).names
                pendingBlobs = pendingBlobs?.filter { !names.contains($0.key) }
                continue
            }
            let erased = Redaction.plan(field: facts.field, annotation: facts.annotation, in: earlier).erased
            for value in erased {
                if let index = staged.firstIndex(where: { $0.seq == value.seq }) { staged[index].data = value.data }
            }
            if !erased.isEmpty, pendingSnapshotRows != nil { pendingSnapshotRows = [] }
        }
        pending = staged
    }

    // MARK: SnapshotStore

    public func snapshots() throws(EventLogError) -> [SnapshotInfo] {
        (pendingSnapshotRows ?? snapshotRows).map(\.info).sorted { $0.seq > $1.seq }
    }

    private func snapshotRow(_ info: SnapshotInfo) -> SnapshotRow? {
        (pendingSnapshotRows ?? snapshotRows).first { $0.info.seq == info.seq && $0.info.format == info.format && $0.info.reducerVersion == info.reducerVersion }
    }

    public func snapshotChunkSums(_ info: SnapshotInfo) throws -> [UInt8]? {
        snapshotRow(info)?.sums
    }

    public func readSnapshotChunk(_ info: SnapshotInfo, index: Int, into target: UnsafeMutableRawBufferPointer) throws -> Bool {
        guard let row = snapshotRow(info), index >= 0, info.chunkSize > 0 else { return false }
        let (start, overflow) = index.multipliedReportingOverflow(by: info.chunkSize)
        guard !overflow, start < row.body.count, min(row.body.count, start + info.chunkSize) - start == target.count else { return false }
        row.body.withUnsafeBytes { target.copyMemory(from: UnsafeRawBufferPointer(rebasing: $0[start ..< start + target.count])) }
        return true
    }

    public func saveSnapshot(_ info: SnapshotInfo, body: [UInt8], chunkSums: [UInt8], keep: Int) throws(EventLogError) {
        let same = { (other: SnapshotInfo) in other.format == info.format && other.reducerVersion == info.reducerVersion }
        var rows = pendingSnapshotRows ?? snapshotRows
        rows.removeAll { $0.info.seq == info.seq && same($0.info) }
        rows.append((info, body, chunkSums))
        let kept = rows.filter { same($0.info) }.sorted { $0.info.seq > $1.info.seq }.prefix(max(keep, 1)).map(\.info.seq)
        rows.removeAll { !same($0.info) || !kept.contains($0.info.seq) }
        setSnapshotRows(rows)
    }

    public func deleteAllSnapshots() throws(EventLogError) {
        setSnapshotRows([])
    }

    /// Inside a write, the rows it commits or drops; outside one, the stored rows.
    private func setSnapshotRows(_ rows: [SnapshotRow]) {
        if pendingSnapshotRows != nil { pendingSnapshotRows = rows } else { snapshotRows = rows }
    }

    // MARK: BlobStore

    public func containsBlob(_ sha256: String) throws(EventLogError) -> Bool {
        (pendingBlobs ?? blobs)[sha256] != nil
    }

    public func putBlob(_ blob: Blob) throws(EventLogError) {
        if pendingBlobs != nil {
            if pendingBlobs?[blob.sha256] == nil { pendingBlobs?[blob.sha256] = blob }
        } else if blobs[blob.sha256] == nil {
            blobs[blob.sha256] = blob
        }
    }

    public func blob(_ sha256: String) throws(EventLogError) -> Blob? {
        (pendingBlobs ?? blobs)[sha256]
    }

    public func blobNames() throws(EventLogError) -> [String] {
        (pendingBlobs ?? blobs).keys.sorted()
    }

    // MARK: EventStore

    public var replica: (any EventStore & ReplicaStore)? { nil }
    public var appendWatcher: (any AppendWatcher)? { nil }
    public var displayLocation: String { "memory" }
    public func schemaVersion() throws(EventLogError) -> Int { 0 }
    public var latestSchemaVersion: Int { 0 }
    public var needsMigration: Bool { false }
    public func storageSize() throws(EventLogError) -> Int64 { 0 }
    public var appendingRole: String? { nil }
    public func close() {}
}
