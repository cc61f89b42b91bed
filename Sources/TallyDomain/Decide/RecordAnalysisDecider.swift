
/// A record's track file read again by today's analysis (`record reanalyze`).
public struct RecordAnalysis: Sendable, Equatable {
    /// The record's stream.
    public var stream: String
    /// What the analysis computed; its `sha256` is the record's own file.
    public var track: TrackSummary

    public init(stream: String, track: TrackSummary) {
        self.stream = stream
        self.track = track
    }
}

/// The reanalysis half of the decider.
extension Decider {
    /// Appends a `record.edited` with the new track summary to each record whose summary differs;
    /// a record that is gone, has no track or another file is refused (nothing is appended).
    static func decideReanalysis(_ items: [RecordAnalysis], state: ReadModel, into builder: inout DecisionBuilder) throws(DomainError) {
        var seen: Set<String> = []
        for item in items where seen.insert(item.stream).inserted {
            guard let record = state.record(id: item.stream), let current = record.track, current.sha256 == item.track.sha256 else {
                throw .unknownReference(.record, item.stream)
            }
            if let reason = TrackPayload.problem(item.track) { throw .invalid(.outsideLimits(reason: reason)) }
            guard current != item.track else {
                builder.notices.append(.recordUnchanged(number: record.number))
                continue
            }
            builder.append(.recordEdited(RecordChanges(track: item.track)), to: item.stream)
            builder.affected.append(item.stream)
        }
    }
}
