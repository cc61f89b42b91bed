
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
    /// Which record of its file this is, when the file holds several activities (the legs of a
    /// multisport file, the days of a GPX file); nil when the file is one record.
    public var part: FilePart?

    public init(
        sha256: String, format: String, movingSeconds: Int, elevationGainMeters: Double? = nil, bestEfforts: [TrackEffort] = [],
        sensors: SensorSummary? = nil, analysisVersion: Int = 1, part: FilePart? = nil
    ) {
        self.sha256 = sha256
        self.format = format
        self.movingSeconds = movingSeconds
        self.elevationGainMeters = elevationGainMeters
        self.bestEfforts = bestEfforts
        self.sensors = sensors
        self.analysisVersion = analysisVersion
        self.part = part
    }
}

/// One record of a file that holds several: its place among them and why the file was split.
public struct FilePart: Sendable, Equatable, Hashable {
    /// Why a file becomes several records.
    public enum Kind: String, Sendable, CaseIterable {
        /// A leg of a multisport activity (a FIT session): the legs are one activity, shown,
        /// deleted and restored together.
        case leg
        /// A day of a GPX file with tracks on different days: each day is an activity of its own.
        case day
    }

    /// 1-based position in the file, in time order.
    public var index: Int
    /// How many records the file became.
    public var count: Int
    public var kind: Kind

    public init(index: Int, count: Int, kind: Kind) {
        self.index = index
        self.count = count
        self.kind = kind
    }

    /// Most records one file becomes (legs or days); a file with more sessions or days is refused.
    public static let maxCount = 100

    /// True when index and count are possible: 1 ≤ index ≤ count ≤ `maxCount`, count ≥ 2.
    public var isValid: Bool {
        (2...Self.maxCount).contains(count) && (1...count).contains(index)
    }
}
