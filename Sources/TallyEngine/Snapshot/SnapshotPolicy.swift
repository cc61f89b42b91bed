/// When write commands take snapshots, and how many are kept.
public struct SnapshotPolicy: Sendable, Equatable {
    /// A write command takes a snapshot once at least this many events lie after the newest usable one.
    public var tailThreshold: Int64
    /// How many snapshots are kept; older ones are deleted when a new one is stored.
    public var keep: Int

    public init(tailThreshold: Int64, keep: Int = 2) {
        precondition(tailThreshold >= 1 && keep >= 1, "a policy needs a positive threshold and keeps at least one snapshot")
        self.tailThreshold = tailThreshold
        self.keep = keep
    }

    /// The policy tally uses; see docs/performance.md for the measurements behind the threshold.
    public static let standard = SnapshotPolicy(tailThreshold: 1000, keep: 2)

    /// Whether a write command that left the models at `position` should store a snapshot now.
    public func shouldSnapshot(position: Int64, base: Int64) -> Bool {
        position - base >= tailThreshold
    }
}
