import TallyDomain

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
    public static func load(log: EventLog, snapshots store: SnapshotStore?, bound: Replayer.Bound? = nil) throws -> LoadedState {
        var problems: [SnapshotProblem] = []
        var candidates: [SnapshotInfo] = []
        if let store {
            do {
                candidates = try store.snapshots()
            } catch {
                problems.append(SnapshotProblem(seq: 0, kind: .storage("\(error)")))
            }
        }
        // Listed before the head is read, so a snapshot written meanwhile is never past it.
        let head = try log.head()
        for info in candidates {
            guard let store else { break }
            if case .position(let limit)? = bound, info.seq > limit { continue }
            let opened = try open(info, log: log, store: store, head: head.seq, instantBound: bound.flatMap(\.instant))
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

    enum Opened {
        case usable(Replayer.Folded)
        case notForThisBound
        case invalid(SnapshotProblem)
    }

    /// Checks one stored snapshot and decodes it.
    static func open(_ info: SnapshotInfo, log: EventLog, store: SnapshotStore, head: Int64, instantBound: Int64?) throws -> Opened {
        func problem(_ kind: SnapshotProblem.Kind) -> Opened { .invalid(SnapshotProblem(seq: info.seq, kind: kind)) }
        guard info.format == SnapshotCodec.format else { return problem(.otherFormat(info.format)) }
        guard info.reducerVersion == Reducer.version else { return problem(.otherReducerVersion(info.reducerVersion)) }
        guard info.seq <= head else { return problem(.aheadOfLog(head: head)) }
        var decoded: Result<(header: SnapshotHeader, model: ReadModel), SnapshotDecodingError>?
        var checksumMatches = false
        var tooLate = false
        do {
            // One read of the body into a buffer the models then use in place.
            guard let buffer = try store.snapshotBody(info) else { return .notForThisBound }
            checksumMatches = SnapshotChecksum.hex(buffer.bytes) == info.checksum
            if checksumMatches {
                if let instantBound, let header = try? SnapshotCodec.header(buffer.bytes), header.latestRecordedAt > instantBound {
                    tooLate = true
                } else {
                    decoded = Result { () throws(SnapshotDecodingError) in try SnapshotCodec.decode(buffer) }
                }
            }
        } catch {
            return problem(.storage("\(error)"))
        }
        guard checksumMatches else { return problem(.checksumMismatch) }
        if tooLate { return .notForThisBound }
        let header: SnapshotHeader
        let model: ReadModel
        switch decoded {
        case .success(let value)?:
            (header, model) = value
        case .failure(let error)?:
            return problem(.undecodable("\(error.reason) at byte \(error.offset)"))
        case nil:
            return problem(.undecodable("empty body"))
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
