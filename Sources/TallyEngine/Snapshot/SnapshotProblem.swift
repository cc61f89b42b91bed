import TallyDomain
import TallyEssentials

/// Why a stored snapshot was not used, or could not be written.
///
/// Problems are returned, never printed: the command line decides how to tell the user.
public struct SnapshotProblem: Sendable, Hashable, Error {
    public enum Kind: Sendable, Hashable {
        /// Written with another body layout (another tally version).
        case otherFormat(Int)
        /// Folded by reducers of another version: its models may differ from what this tally computes.
        case otherReducerVersion(Int)
        /// Claims a position past the end of the log.
        case aheadOfLog(head: Int64)
        /// The body does not match its checksum.
        case checksumMismatch
        /// The body does not decode, or its header disagrees with its row.
        case undecodable(String)
        /// The log's event at the snapshot's position is not the one the snapshot was taken after.
        case otherHistory
        /// The database refused to read it.
        case storage(String)
        /// The database refused to store it after a command (disk full, busy, ...); the command stands.
        case notStored(EventLogError)
        /// Folding the tail onto the snapshot does not give what a full replay gives (found by `SnapshotCheck`).
        case differsFromReplay(String)
    }

    /// The snapshot's position; 0 when the problem is not about one stored snapshot.
    public var seq: Int64
    public var kind: Kind

    public init(seq: Int64, kind: Kind) {
        self.seq = seq
        self.kind = kind
    }

    /// Why a buffer read chunk by chunk was poisoned: a value refused (`SnapshotBuffer.forgery`), or
    /// a chunk that failed its checksum.
    public static func damage(of buffer: SnapshotBuffer) -> Kind {
        buffer.forgery.map(Kind.undecodable) ?? .checksumMismatch
    }
}

extension SnapshotProblem {
    /// True for snapshots that are merely out of date (another tally wrote them), not damaged.
    public var isStale: Bool {
        switch kind {
        case .otherFormat, .otherReducerVersion: true
        default: false
        }
    }
}

/// Thrown before a command commits (or a snapshot is stored) when a chunk of the snapshot its
/// models were read from failed its checksum on a late read, or a value read from it was refused
/// (`SnapshotBuffer.reject`): what was read may be wrong, so the command must start over from a
/// full replay.
public struct LateSnapshotDamage: Error, Sendable, Equatable {
    public init() {}
}
