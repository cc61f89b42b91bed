
/// A record's track file read again by today's analysis (`record reanalyze`).
public struct RecordAnalysis: Sendable, Equatable {
    /// The record's stream.
    public var stream: String
    /// What the analysis computed; its `sha256` is the record's own file.
    public var track: TrackSummary
    /// The record held a whole file that is several records today: what it becomes and the others.
    public var split: RecordSplit?

    public init(stream: String, track: TrackSummary, split: RecordSplit? = nil) {
        self.stream = stream
        self.track = track
        self.split = split
    }
}

/// A record that held a whole multisport or multi-day file, split into the records the file is
/// today: the record becomes the first (its name, category, times, distance and track change;
/// place, note and effort stay) and the others are logged beside it.
public struct RecordSplit: Sendable, Equatable {
    public var first: RecordFields
    public var others: [ImportedRecord]

    public init(first: RecordFields, others: [ImportedRecord]) {
        self.first = first
        self.others = others
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
            if let split = item.split {
                try decideSplit(record, split, state: state, into: &builder)
                continue
            }
            guard current != item.track else {
                builder.notices.append(.recordUnchanged(number: record.number))
                continue
            }
            builder.append(.recordEdited(RecordChanges(track: item.track)), to: item.stream)
            builder.affected.append(item.stream)
        }
    }

    /// The record becomes the file's first part; the other parts are logged (each once).
    private static func decideSplit(_ record: Record, _ split: RecordSplit, state: ReadModel, into builder: inout DecisionBuilder) throws(DomainError) {
        guard record.track?.part == nil, let track = split.first.track, track.part?.index == 1, track.sha256 == record.track?.sha256 else {
            throw .unknownReference(.record, record.id)
        }
        let first = split.first
        let changes = RecordChanges(
            name: first.name == record.name ? nil : try Validation.name(first.name),
            category: first.category == record.category ? nil : try Validation.category(first.category),
            durationSeconds: first.durationSeconds == record.durationSeconds ? nil : first.durationSeconds,
            distanceMeters: first.distanceMeters == record.distanceMeters ? nil : .some(first.distanceMeters),
            date: first.date == record.date ? nil : first.date,
            track: track
        )
        if let reason = EventRules.recordProblem(first) { throw .invalid(.outsideLimits(reason: reason)) }
        builder.append(.recordEdited(changes), to: record.id)
        builder.affected.append(record.id)
        for item in split.others {
            guard item.fields.track?.sha256 == track.sha256, item.fields.track?.part != nil else { throw .unknownReference(.record, item.stream) }
            guard state.version(of: item.stream) == 0 else { continue }
            try logImported(item, state: state, into: &builder)
        }
    }
}
