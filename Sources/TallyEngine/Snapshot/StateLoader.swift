#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import TallyDomain
import TallyEssentials

/// Read models ready to serve, and where they came from.
public struct LoadedState: Sendable {
    public var folded: Replayer.Folded
    /// The snapshot the fold started from; nil for a replay from the first event.
    public var snapshot: SnapshotInfo?
    /// Snapshots that were looked at and not used, newest first.
    public var problems: [SnapshotProblem]

    /// The read models.
    public var model: ReadModel { folded.model }
    /// The position the fold started from: the snapshot's, or 0.
    public var base: Int64 { snapshot?.seq ?? 0 }
}

/// Start-up: the newest valid snapshot plus the events after it.
public enum StateLoader {
    /// Loads the read models at `bound` (the head when nil), starting from the newest snapshot that
    /// is valid and not past the bound, and folding only the events after it.
    ///
    /// A snapshot is valid when its format and reducer version are this binary's, its checksum and
    /// body check out, its position is within the log and the log's event there is the one it was
    /// taken after. Invalid snapshots newer than the one used are reported in `problems`, never
    /// trusted, and never fatal. For an `.instant` bound a snapshot is used only when every event it
    /// contains was recorded at or before the instant (see `Replayer.Bound.instant`).
    ///
    /// The snapshot's chunks are read when first touched (see `SnapshotBuffer`): a chunk that fails
    /// its checksum later poisons the models (`ReadModel.isPoisoned`), and the caller must start over
    /// without snapshots. With `readAll`, every chunk is read and checked here instead, so the models
    /// returned can be trusted whatever is read from them.
    public static func load(log: EventLog, snapshots store: SnapshotStore?, bound: Replayer.Bound? = nil, readAll: Bool = false) throws -> LoadedState {
        var problems: [SnapshotProblem] = []
        var candidates: [SnapshotInfo] = []
        if let store {
            do {
                candidates = try store.snapshots()
            } catch where error.isServerGone {
                // The server went away: no replay can follow, so this is the command's failure, not a snapshot's.
                throw error
            } catch {
                problems.append(SnapshotProblem(seq: 0, kind: .storage(ErrorWords.text(error))))
            }
        }
        // Listed before the head is read, so a snapshot written meanwhile is never past it.
        let head = try log.head()
        for info in candidates {
            guard let store else { break }
            if case .position(let limit)? = bound, info.seq > limit { continue }
            let opened = try open(info, log: log, store: store, head: head.seq, instantBound: bound.flatMap(\.instant), readAll: readAll)
            // Consumed so the decoded models are uniquely referenced before the tail mutates them.
            switch consume opened {
            case .usable(var folded):
                try Replayer.fold(log, into: &folded, bound: bound)
                return LoadedState(folded: folded, snapshot: info, problems: problems)
            case .notForThisBound:
                continue
            case .invalid(let problem):
                problems.append(problem)
            }
        }
        var folded = Replayer.Folded()
        try Replayer.fold(log, into: &folded, bound: bound)
        return LoadedState(folded: folded, snapshot: nil, problems: problems)
    }

    /// The largest body a snapshot row may claim: the format's limit, and half the memory of this
    /// machine (a body is reserved whole, and a larger one could not be used anyway).
    static let largestBody = min(SnapshotChunks.largestBody, Int(clamping: ProcessInfo.processInfo.physicalMemory / 2))

    enum Opened {
        case usable(Replayer.Folded)
        case notForThisBound
        case invalid(SnapshotProblem)
    }

    /// Checks one stored snapshot and opens it: its row's checksum proves the chunk checksums, and
    /// only the chunks holding the header and the tables' frames are read (all of them with `readAll`).
    static func open(_ info: SnapshotInfo, log: EventLog, store: SnapshotStore, head: Int64, instantBound: Int64?, readAll: Bool = false) throws -> Opened {
        func problem(_ kind: SnapshotProblem.Kind) -> Opened { .invalid(SnapshotProblem(seq: info.seq, kind: kind)) }
        guard info.format == SnapshotCodec.format else { return problem(.otherFormat(info.format)) }
        guard info.reducerVersion == Reducer.version else { return problem(.otherReducerVersion(info.reducerVersion)) }
        guard info.seq <= head else { return problem(.aheadOfLog(head: head)) }
        guard info.seq >= 1, SnapshotLimits.instants.contains(info.createdAt) else { return problem(.undecodable("its row is out of range")) }
        let chunkSize = info.chunkSize
        guard SnapshotChunks.sizes.contains(chunkSize), chunkSize & (chunkSize - 1) == 0, info.size > 0 else {
            return problem(.undecodable("the body is not stored in chunks"))
        }
        // Checked before the buffer of this size is reserved (a row may claim anything).
        guard info.size <= largestBody else { return problem(.undecodable("it claims a body of \(info.size) bytes")) }
        let buffer: SnapshotBuffer
        do {
            guard let sumBytes = try store.snapshotChunkSums(info) else { return .notForThisBound }
            guard SnapshotChunks.proof(sums: sumBytes, size: info.size, chunkSize: chunkSize) == info.checksum,
                  let sums = SnapshotChunks.decode(sumBytes), sums.count == SnapshotChunks.count(size: info.size, chunkSize: chunkSize)
            else { return problem(.checksumMismatch) }
            buffer = store.snapshotBody(info, sums: sums)
        } catch let error as EventLogError where error.isServerGone {
            throw error
        } catch {
            return problem(.storage(ErrorWords.text(error)))
        }
        if readAll { buffer.loadAll() }
        if let instantBound, let header = try? SnapshotCodec.header(buffer), !buffer.isPoisoned, header.latestRecordedAt > instantBound {
            return .notForThisBound
        }
        let decoded = Result { () throws(SnapshotDecodingError) in try SnapshotCodec.decode(buffer) }
        // Pruned or replaced by another process since it was listed: not a problem, just not there.
        if buffer.superseded { return .notForThisBound }
        guard !buffer.isPoisoned else { return problem(SnapshotProblem.damage(of: buffer)) }
        let header: SnapshotHeader
        let model: ReadModel
        switch decoded {
        case .success(let value):
            (header, model) = value
        case .failure(let error):
            return problem(.undecodable("\(error.reason) at byte \(error.offset)"))
        }
        guard header.position == info.seq, header.format == info.format, header.reducerVersion == info.reducerVersion else {
            return problem(.undecodable("the body's header does not match its row"))
        }
        guard try Replayer.hash(at: info.seq, in: log) == header.logHash else { return problem(.otherHistory) }
        return .usable(Replayer.Folded(model: model, latestRecordedAt: header.latestRecordedAt))
    }
}

extension Replayer.Bound {
    /// The instant of an `.instant` bound.
    var instant: Int64? {
        if case .instant(let ms) = self { return ms }
        return nil
    }
}
