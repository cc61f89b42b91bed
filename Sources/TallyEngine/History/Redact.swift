import TallyDomain

/// What `redact` erased: per stream, the events whose value is gone.
public struct RedactionOutcome: Sendable {
    public var outcome: CommandOutcome
    /// One entry per stream (the item's, and its series' when it has one).
    public var erased: [RedactionFacts]
}

extension Dispatcher {
    /// Erases every past value of `field` from the events of `stream` (and, for a todo of a
    /// series, of the series' stream), as one command of `history.redacted` events; the store
    /// erases the values as it appends them (`Redaction`).
    ///
    /// - Throws: `HistoryError.notRedactable` for a field that cannot be erased from this kind of
    ///   item, `.uncommittedValues` when a value predates commitments (nothing is erased then),
    ///   `.nothingToRedact` when no value is left to erase.
    /// With `field` `file` (a record), the kept activity files its events name are erased
    /// instead; `keptFiles` tells which are still stored (none left is `.nothingToRedact`).
    /// With `annotation` (field `annotations`), only the text of that annotation is erased.
    public func redact(stream: String, record: Bool, field: String, reason: String?, annotation: String? = nil, keptFiles: BlobStore? = nil) throws -> RedactionOutcome {
        let allowed = record ? Redaction.recordFields + [Redaction.fileField] : Redaction.todoFields
        guard allowed.contains(field) else { throw HistoryError.notRedactable(field: field, record: record) }
        if field == Redaction.fileField {
            var erased: [RedactionFacts] = []
            let outcome = try execute { state, _ in
                let files = Redaction.files(in: try log.events(inStream: stream))
                guard !files.names.isEmpty else { throw HistoryError.nothingToRedact(field: field, alreadyErased: 0) }
                let stored = try files.names.filter { try keptFiles?.containsBlob($0) ?? true }
                guard !stored.isEmpty else { throw HistoryError.nothingToRedact(field: field, alreadyErased: files.names.count) }
                erased = [RedactionFacts(stream: stream, field: field, events: files.events, reason: reason)]
                let version = state.version(of: HistoryStream.name) + 1
                return Decision(events: [PendingEvent(stream: HistoryStream.name, version: version, event: .historyRedacted(erased[0]))], affected: [stream])
            }
            return RedactionOutcome(outcome: outcome, erased: erased)
        }
        var erased: [RedactionFacts] = []
        let outcome = try execute { state, _ in
            var streams = [stream]
            if !record, let series = state.todo(id: stream)?.series, series != stream, Commitment.key(ofField: field, type: "series.started") != nil {
                streams.append(series)
            }
            var uncommitted: [Int64] = []
            var already = 0
            erased = []
            for name in streams {
                let plan = Redaction.plan(field: field, annotation: annotation, in: try log.events(inStream: name))
                uncommitted += plan.uncommitted
                already += plan.alreadyErased.count
                if !plan.erased.isEmpty {
                    erased.append(RedactionFacts(stream: name, field: field, events: plan.erased.map(\.seq), reason: reason, annotation: annotation))
                }
            }
            guard uncommitted.isEmpty else { throw HistoryError.uncommittedValues(field: field, events: uncommitted.sorted()) }
            guard !erased.isEmpty else { throw HistoryError.nothingToRedact(field: field, alreadyErased: already) }
            var version = state.version(of: HistoryStream.name)
            let events = erased.map { facts in
                version += 1
                return PendingEvent(stream: HistoryStream.name, version: version, event: .historyRedacted(facts))
            }
            return Decision(events: events, affected: [stream])
        }
        return RedactionOutcome(outcome: outcome, erased: erased)
    }
}
