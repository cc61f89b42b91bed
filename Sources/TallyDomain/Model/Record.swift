
/// Where a record came from.
public enum RecordSource: String, Sendable, CaseIterable {
    case local, `import`
}

/// An activity (a run, a ride, a gym session) as the read model knows it.
public struct Record: Sendable, Equatable, Identifiable {
    /// The stream id: a lowercase UUID.
    public var id: String
    /// Per-kind number, 1, 2, 3, ... in creation order, never reused.
    public var number: Int
    public var name: String
    public var category: String
    public var durationSeconds: Int
    public var distanceMeters: Double?
    public var place: String?
    /// When the activity happened, in ms since the epoch.
    public var date: Int64
    public var note: String?
    public var source: RecordSource
    public var createdAt: Int64
    public var updatedAt: Int64
    public var deleted: Bool
    public var version: Int
    /// What was computed from the original track file; nil for records typed by hand or without a track.
    public var track: TrackSummary?
    /// How hard it felt, 1-10 (`record add --effort`); nil when not given.
    public var effort: Int?
    /// The gear it was done with (a gear stream id); nil for none.
    public var gear: String?

    public init(
        id: String, number: Int, name: String, category: String, durationSeconds: Int, distanceMeters: Double? = nil,
        place: String? = nil, date: Int64, note: String? = nil, source: RecordSource = .local,
        createdAt: Int64, updatedAt: Int64, deleted: Bool = false, version: Int = 1, track: TrackSummary? = nil, effort: Int? = nil,
        gear: String? = nil
    ) {
        self.id = id
        self.number = number
        self.name = name
        self.category = category
        self.durationSeconds = durationSeconds
        self.distanceMeters = distanceMeters
        self.place = place
        self.date = date
        self.note = note
        self.source = source
        self.createdAt = createdAt
        self.updatedAt = updatedAt
        self.deleted = deleted
        self.version = version
        self.track = track
        self.effort = effort
        self.gear = gear
    }

    /// Seconds per kilometre; nil without a positive distance.
    public var paceSecondsPerKm: Double? {
        guard let distanceMeters, distanceMeters > 0 else { return nil }
        return Double(durationSeconds) / (distanceMeters / 1000)
    }
}
