
/// The fastest time over one standard distance inside one track.
public struct TrackEffort: Sendable, Equatable, Hashable {
    /// The standard distance in metres (`BestEfforts.distances`).
    public var meters: Int
    /// Seconds, to a tenth.
    public var seconds: Double

    public init(meters: Int, seconds: Double) {
        self.meters = meters
        self.seconds = seconds
    }
}

/// What tally computed from an activity's original file at import; the file itself is in the blob
/// store under `sha256`, so a later version can compute more from it.
public struct TrackSummary: Sendable, Equatable, Hashable {
    /// Lowercase hex SHA-256 of the file's content (decompressed): the blob's name.
    public var sha256: String
    /// `gpx`, `tcx` or `fit`.
    public var format: String
    /// Time in motion (the device's timer when it has one), whole seconds.
    public var movingSeconds: Int
    /// Metres climbed; nil when the file has no heights.
    public var elevationGainMeters: Double?
    /// Fastest times over the standard distances of the category at import, shortest first.
    public var bestEfforts: [TrackEffort]
    /// Heart rate, cadence and power over the activity; nil when the file has none (or was read by
    /// an analysis before version 2).
    public var sensors: SensorSummary?
    /// Which analysis computed these figures (`SensorAnalysis.version`); 1 for tracks stored
    /// before the analysis had a version.
    public var analysisVersion: Int

    public init(
        sha256: String, format: String, movingSeconds: Int, elevationGainMeters: Double? = nil, bestEfforts: [TrackEffort] = [],
        sensors: SensorSummary? = nil, analysisVersion: Int = 1
    ) {
        self.sha256 = sha256
        self.format = format
        self.movingSeconds = movingSeconds
        self.elevationGainMeters = elevationGainMeters
        self.bestEfforts = bestEfforts
        self.sensors = sensors
        self.analysisVersion = analysisVersion
    }
}
