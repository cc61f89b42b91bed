import TallyDomain

/// Stores snapshots of folded read models.
public enum SnapshotWriter {
    /// Encodes `folded` and stores it as the snapshot at its position, keeping the `keep` newest.
    ///
    /// Safe at any time after the events up to the position are committed: the log is
    /// append-only, so a snapshot stays true for its position whatever is appended later.
    @discardableResult
    public static func write(_ folded: Replayer.Folded, log: EventLog, to store: SnapshotStore, now: Int64, keep: Int = SnapshotPolicy.standard.keep) throws -> SnapshotInfo {
        let position = folded.model.position
        guard let logHash = try Replayer.hash(at: position, in: log) else {
            throw SnapshotProblem(seq: position, kind: .aheadOfLog(head: try log.head().seq))
        }
        let body = SnapshotCodec.encode(folded.model, latestRecordedAt: folded.latestRecordedAt, logHash: logHash)
        let info = SnapshotInfo(
            seq: position, format: SnapshotCodec.format, reducerVersion: Reducer.version, createdAt: now,
            checksum: SnapshotChecksum.hex(body), size: body.count
        )
        try store.saveSnapshot(info, body: body, keep: keep)
        return info
    }
}
