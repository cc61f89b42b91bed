import TallyDomain
import TallyEssentials

/// Stores snapshots of folded read models.
public enum SnapshotWriter {
    /// Encodes `folded` and stores it as the snapshot at its position, keeping the `keep` newest.
    ///
    /// Safe at any time after the events up to the position are committed: the log is
    /// append-only, so a snapshot stays true for its position whatever is appended later.
    ///
    /// Encoding reads every item of a model opened from a snapshot; when a chunk of that snapshot
    /// turns out damaged, nothing is stored and `LateSnapshotDamage` is thrown.
    @discardableResult
    public static func write(
        _ folded: Replayer.Folded, log: EventLog, to store: SnapshotStore, now: Int64, keep: Int = SnapshotPolicy.standard.keep,
        chunkSize: Int = SnapshotChunks.standardSize
    ) throws -> SnapshotInfo {
        let position = folded.model.position
        guard let logHash = try Replayer.hash(at: position, in: log) else {
            throw SnapshotProblem(seq: position, kind: .aheadOfLog(head: try log.head().seq))
        }
        let body = SnapshotCodec.encode(folded.model, latestRecordedAt: folded.latestRecordedAt, logHash: logHash)
        guard !folded.model.isPoisoned else { throw LateSnapshotDamage() }
        let (sums, checksum) = SnapshotChecksum.seal(body, chunkSize: chunkSize)
        let info = SnapshotInfo(
            seq: position, format: SnapshotCodec.format, reducerVersion: Reducer.version, createdAt: now,
            checksum: checksum, size: body.count, chunkSize: chunkSize
        )
        try store.saveSnapshot(info, body: body, chunkSums: sums, keep: keep)
        return info
    }
}
