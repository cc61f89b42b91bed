import TallyDomain

/// Folds stored events into read models.
public enum Replayer {
    /// Where a time-travelling view stops.
    public enum Bound: Sendable, Equatable {
        /// Everything up to and including this log position.
        case position(Int64)
        /// Everything recorded at or before this instant (ms since the epoch).
        case instant(Int64)
    }

    /// Folds the events after `model.position` (up to `bound`) into `model`.
    public static func fold(_ log: EventLog, into model: ReadModel, bound: Bound? = nil) throws -> ReadModel {
        var model = model
        var through: Int64? = nil
        var until: Int64? = nil
        switch bound {
        case .position(let seq): through = seq
        case .instant(let ms): until = ms
        case nil: break
        }
        try log.scan(after: model.position, through: through) { envelope in
            if let until, envelope.recordedAt > until { return }
            do throws(EventDecodingError) {
                try Reducer.evolve(&model, envelope)
            } catch {
                throw ReplayError(seq: envelope.seq, type: envelope.type, reason: error.reason)
            }
        }
        return model
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
