import TallyDomain

/// Folds stored events into read models.
public enum Replayer {
    /// Where a time-travelling view stops.
    public enum Bound: Sendable, Equatable {
        /// Everything up to and including this log position.
        case position(Int64)
        /// Everything recorded at or before this instant (ms since the epoch).
        ///
        /// `recorded_at` need not grow with `seq` (imported events keep their times), so every
        /// later event is still looked at and skipped one by one rather than ending the fold.
        case instant(Int64)
    }

    /// Read models together with the largest `recorded_at` folded into them.
    public struct Folded: Sendable, Equatable {
        public var model: ReadModel
        /// The largest `recorded_at` among the folded events; `Int64.min` when none was folded.
        public var latestRecordedAt: Int64
        /// The first event this fold could not read, and so applied nothing for (see `Reducer.skip`);
        /// nil when it read every event. Not part of equality: a fold that started from a snapshot
        /// taken after that event passed it over just the same without meeting it.
        public var unreadable: ReplayError?

        public init(model: ReadModel = ReadModel(), latestRecordedAt: Int64 = .min) {
            self.model = model
            self.latestRecordedAt = latestRecordedAt
        }

        public static func == (lhs: Folded, rhs: Folded) -> Bool {
            lhs.model == rhs.model && lhs.latestRecordedAt == rhs.latestRecordedAt
        }
    }

    /// Folds the events after `model.position` (up to `bound`) into `model`.
    public static func fold(_ log: EventLog, into model: ReadModel, bound: Bound? = nil) throws -> ReadModel {
        var folded = Folded(model: model)
        try fold(log, into: &folded, bound: bound)
        return folded.model
    }

    /// Folds the events after `folded.model.position` (up to `bound`), calling `progress` with the
    /// seq of every `progressInterval`-th event. An event that cannot be read is passed over
    /// (`Reducer.skip`) and named in `folded.unreadable`; `verify` reports it.
    public static func fold(
        _ log: EventLog, into folded: inout Folded, bound: Bound? = nil,
        progressInterval: Int = 8192, progress: ((Int64) throws -> Void)? = nil
    ) throws {
        var through: Int64? = nil
        var until: Int64? = nil
        switch bound {
        case .position(let seq): through = seq
        case .instant(let ms): until = ms
        case nil: break
        }
        var counter = 0
        // Mutates `folded` in place: a local copy would share the todos' storage and make the
        // first event copy all of it.
        try log.scanForFold(after: folded.model.position, through: through) { row in
            if let progress {
                counter += 1
                if counter == progressInterval {
                    counter = 0
                    try progress(row.seq)
                }
            }
            if let until, row.recordedAt > until { return }
            let event: DomainEvent
            do throws(EventDecodingError) {
                event = try EventCatalog.decode(type: row.type, schema: row.schema, utf8: row.data)
            } catch {
                // Applied as nothing: one unreadable event must not stop every command on the log.
                if folded.unreadable == nil { folded.unreadable = ReplayError(seq: row.seq, type: row.type, reason: error.reason) }
                Reducer.skip(&folded.model, stream: StreamKey(utf8: row.stream), version: row.version, seq: row.seq)
                if row.recordedAt > folded.latestRecordedAt { folded.latestRecordedAt = row.recordedAt }
                return
            }
            Reducer.evolve(&folded.model, event, stream: StreamKey(utf8: row.stream), version: row.version, seq: row.seq, at: row.recordedAt)
            if row.recordedAt > folded.latestRecordedAt { folded.latestRecordedAt = row.recordedAt }
        }
    }

    /// The chain hash of the event at `seq`; the genesis link for 0, nil when there is no such event.
    public static func hash(at seq: Int64, in log: EventLog) throws -> String? {
        if seq == 0 { return EventHash.genesis }
        var hash: String?
        try log.scan(after: seq - 1, through: seq) { hash = $0.hash }
        return hash
    }

    /// Whether an event falls inside a time-travel bound (everything does without one).
    public static func includes(_ event: EventEnvelope, bound: Bound?) -> Bool {
        switch bound {
        case nil: true
        case .position(let seq)?: event.seq <= seq
        case .instant(let ms)?: event.recordedAt <= ms
        }
    }
}
