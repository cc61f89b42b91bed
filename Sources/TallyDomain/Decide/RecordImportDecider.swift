
/// An activity from a device file or an export, ready for the decider.
///
/// `stream` is derived from the content (`NameUUID` of the track's SHA-256, or of the export
/// row's id), so the same file imported twice, or once on its own and once inside a Strava
/// folder, finds the record already present.
public struct ImportedRecord: Sendable, Equatable {
    public var stream: String
    public var fields: RecordFields

    public init(stream: String, fields: RecordFields) {
        self.stream = stream
        self.fields = fields
    }

    /// The stream of an activity with a track file.
    public static func stream(sha256: String) -> String { NameUUID.make("track:" + sha256) }

    /// The stream of one record of a file that holds several: the first keeps the file's own
    /// stream (so a file imported whole by an earlier version and split later keeps its record).
    public static func stream(sha256: String, part index: Int) -> String {
        index <= 1 ? stream(sha256: sha256) : NameUUID.make("track:" + sha256 + "#part:\(index)")
    }

    /// The stream of an export row without a track file.
    public static func stream(rowKey: String) -> String { NameUUID.make("activity:" + rowKey) }
}

/// The record-import half of the decider.
extension Decider {
    /// Logs each new activity; one already present is skipped, or restored when it was deleted
    /// (an undone import imported again comes back).
    static func decideRecordImport(_ items: [ImportedRecord], state: ReadModel, into builder: inout DecisionBuilder) throws(DomainError) {
        var seen: Set<String> = []
        var wholeNoticed: Set<String> = []
        for item in items {
            guard seen.insert(item.stream).inserted else {
                builder.notices.append(.recordAlreadyImported(id: item.stream))
                continue
            }
            if let existing = state.record(id: item.stream) {
                if existing.deleted {
                    builder.append(.recordRestored, to: item.stream)
                    builder.affected.append(item.stream)
                } else {
                    builder.notices.append(.recordAlreadyImported(id: item.stream))
                }
                continue
            }
            // A later part of a file an earlier version imported whole: adding it would count the part twice.
            if let track = item.fields.track, let part = track.part, part.index > 1,
               let whole = state.record(id: ImportedRecord.stream(sha256: track.sha256)), whole.track?.part == nil {
                if wholeNoticed.insert(whole.id).inserted { builder.notices.append(.recordImportedWhole(number: whole.number)) }
                continue
            }
            guard state.version(of: item.stream) == 0 else {
                builder.notices.append(.recordAlreadyImported(id: item.stream))
                continue
            }
            try logImported(item, state: state, into: &builder)
        }
    }

    /// Logs one new imported activity (its name and category checked again).
    static func logImported(_ item: ImportedRecord, state: ReadModel, into builder: inout DecisionBuilder) throws(DomainError) {
        var fields = item.fields
        fields.name = try Validation.name(fields.name)
        fields.category = try Validation.category(fields.category)
        guard fields.durationSeconds > 0, fields.durationSeconds <= Validation.maxDurationSeconds else {
            throw .invalid(.durationOutOfRange(seconds: fields.durationSeconds))
        }
        if fields.gear == nil { fields.gear = state.gear.defaultGear(for: fields.category)?.id }
        builder.append(.recordLogged(fields), to: item.stream, id: NameUUID.make(item.stream + "#1"))
        builder.affected.append(item.stream)
    }
}
