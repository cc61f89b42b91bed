import TallyDomain

/// How far a rebuild has got, for a progress display.
public struct RebuildProgress: Sendable, Equatable {
    /// The seq folded so far.
    public var position: Int64
    /// The head when the rebuild started.
    public var total: Int64
}

/// What a rebuild did.
public struct RebuildResult: Sendable {
    public var folded: Replayer.Folded
    /// How many snapshots were discarded.
    public var discarded: Int
    /// The fresh snapshot; nil when the log is empty.
    public var snapshot: SnapshotInfo?
}

/// `rebuild`: forget every snapshot, replay the whole log, store a fresh snapshot.
public enum Rebuild {
    /// Runs a rebuild. The replay holds no write lock (it reads one consistent state of the log);
    /// the snapshot is stored at the position replayed, which stays valid whatever is appended meanwhile.
    ///
    /// The old snapshots are discarded only once the replay is done: what `progress` throws (Ctrl-C)
    /// during the replay leaves them as they were.
    /// - Complexity: O(events).
    public static func run(log: EventLog, snapshots store: SnapshotStore, now: Int64, keep: Int = SnapshotPolicy.standard.keep, progress: ((RebuildProgress) throws -> Void)? = nil) throws -> RebuildResult {
        let head = try log.head()
        var folded = Replayer.Folded()
        try Replayer.fold(log, into: &folded, bound: .position(head.seq), progressInterval: 16_384) { seq in
            try progress?(RebuildProgress(position: seq, total: head.seq))
        }
        try progress?(RebuildProgress(position: folded.model.position, total: head.seq))
        let discarded = try store.snapshots().count
        try store.deleteAllSnapshots()
        guard folded.model.position > 0 else {
            return RebuildResult(folded: folded, discarded: discarded, snapshot: nil)
        }
        let info = try SnapshotWriter.write(folded, log: log, to: store, now: now, keep: keep)
        return RebuildResult(folded: folded, discarded: discarded, snapshot: info)
    }
}
