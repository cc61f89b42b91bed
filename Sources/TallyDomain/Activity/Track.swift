
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// One fix of a recorded track: where and when, and the height when the device knew it.
public struct TrackPoint: Sendable, Equatable {
    /// ms since the Unix epoch; nil when the file has no time for the point.
    public var time: Int64?
    public var latitude: Double
    public var longitude: Double
    public var elevation: Double?
    /// The first point of a GPX track or segment after another: the way from the previous point was not recorded.
    public var startsSegment = false

    public init(time: Int64?, latitude: Double, longitude: Double, elevation: Double? = nil, startsSegment: Bool = false) {
        self.time = time
        self.latitude = latitude
        self.longitude = longitude
        self.elevation = elevation
        self.startsSegment = startsSegment
    }
}

/// What a device file says about one activity, before tally computes anything from it.
public struct ParsedActivity: Sendable, Equatable {
    /// The file's sport, as written (`running`, `Biking`, `1`); mapped by `SportCategory`.
    public var sport: String?
    public var name: String?
    /// The device's own figures, when the file has them.
    public var deviceStart: Int64?
    public var deviceElapsedSeconds: Double?
    public var deviceTimerSeconds: Double?
    public var deviceDistanceMeters: Double?
    public var deviceAscentMeters: Double?
    public var points: [TrackPoint]
    /// Heart rate, cadence and power as the file recorded them (with or without a position).
    public var samples: [SensorSample] = []
    /// The laps as the device recorded them (FIT `lap` messages, TCX `Lap`s), in file order.
    public var laps: [ParsedLap] = []
    /// The times are the device's local wall clock read as UTC (a FIT file with times relative to the
    /// device's start, placed by its local timestamp): the importer's zone corrects them.
    public var localClock = false
    /// The file was cut short (a FIT file whose header promises more bytes): this is what it held.
    public var truncated = false
    /// The FIT `session` messages, in file order (several in a multisport file: one per leg).
    public var sessions: [ParsedSession] = []
    /// The GPX tracks, in file order: where each begins in `points`, its name and type.
    public var tracks: [ParsedTrack] = []

    public init(
        sport: String? = nil, name: String? = nil, deviceStart: Int64? = nil, deviceElapsedSeconds: Double? = nil,
        deviceTimerSeconds: Double? = nil, deviceDistanceMeters: Double? = nil, deviceAscentMeters: Double? = nil,
        points: [TrackPoint] = []
    ) {
        self.sport = sport
        self.name = name
        self.deviceStart = deviceStart
        self.deviceElapsedSeconds = deviceElapsedSeconds
        self.deviceTimerSeconds = deviceTimerSeconds
        self.deviceDistanceMeters = deviceDistanceMeters
        self.deviceAscentMeters = deviceAscentMeters
        self.points = points
    }
}

/// One FIT `session` message: a leg of a multisport activity, or the whole of any other.
public struct ParsedSession: Sendable, Equatable {
    /// ms since the Unix epoch; nil when the session names no start time.
    public var start: Int64?
    /// `fit:SPORT` or `fit:SPORT:SUB_SPORT`, mapped by `SportCategory`.
    public var sport: String?
    public var elapsedSeconds: Double?
    public var timerSeconds: Double?
    public var distanceMeters: Double?
    public var ascentMeters: Double?

    public init(start: Int64?, sport: String? = nil, elapsedSeconds: Double? = nil, timerSeconds: Double? = nil, distanceMeters: Double? = nil, ascentMeters: Double? = nil) {
        self.start = start
        self.sport = sport
        self.elapsedSeconds = elapsedSeconds
        self.timerSeconds = timerSeconds
        self.distanceMeters = distanceMeters
        self.ascentMeters = ascentMeters
    }

    /// Most sessions kept per file (each is a few numbers; more than `FilePart.maxCount` legs refuse the file).
    public static let maxSessions = 10_000
}

/// One GPX `trk`: the index of its first point in `ParsedActivity.points`, its `name` and `type`.
public struct ParsedTrack: Sendable, Equatable {
    public var firstPoint: Int
    public var name: String?
    public var sport: String?

    public init(firstPoint: Int, name: String? = nil, sport: String? = nil) {
        self.firstPoint = firstPoint
        self.name = name
        self.sport = sport
    }

    /// Most tracks kept per file.
    public static let maxTracks = 100_000
}

/// Why a file could not become an activity (the import reports it and goes on).
public enum ActivityFileProblem: Error, Sendable, Equatable {
    /// Not a format tally reads (by content, not by name).
    case unknownFormat
    /// The bytes break the format: where and why, in English.
    case corrupt(String)
    /// The file is cut short: it promises more bytes than it has.
    case truncated
    /// A FIT file of another kind (settings, a workout, a weight scale...), or a GPX of routes only.
    case notAnActivity
    /// Fewer than two points with a time, and no device totals to fall back on.
    case noTimestamps
    /// A track file listed in a CSV is not in the folder.
    case missingFile(String)
    /// A name (absolute, with `..`, or a symbolic link) that leads out of the folder being imported: not read.
    case outsideFolder(String)
    /// The file is there but cannot be read (permissions): the file and the system's reason.
    case unreadable(String, reason: String)
    /// A directory, device or pipe where a file was expected.
    case notAFile(String)
    /// Larger than `ActivityLimits.maxFileBytes` once decompressed.
    case tooLarge
    /// Well formed, but a value no activity can have (a negative or endless time, a timestamp past
    /// the format's range, a climb of 5,000 km): what and why, in English. Checked before any
    /// arithmetic, against the limits every door shares (`EventRules`).
    case impossible(String)
}

/// Limits that keep hostile files from taking the machine down.
public enum ActivityLimits {
    /// Largest file (after decompression) tally reads: a day of 1 Hz GPS in GPX is about 20 MB.
    public static let maxFileBytes = 256 << 20
    /// Deepest XML nesting accepted; GPX and TCX need fewer than ten levels.
    public static let maxXMLDepth = 64
}

/// One lap as the device wrote it; each figure already checked (finite, 0 to 7 days or 1,000 km).
public struct ParsedLap: Sendable, Equatable {
    /// ms since the Unix epoch.
    public var start: Int64
    public var elapsedSeconds: Double?
    public var timerSeconds: Double?
    public var distanceMeters: Double?

    public init(start: Int64, elapsedSeconds: Double? = nil, timerSeconds: Double? = nil, distanceMeters: Double? = nil) {
        self.start = start
        self.elapsedSeconds = elapsedSeconds
        self.timerSeconds = timerSeconds
        self.distanceMeters = distanceMeters
    }

    /// Most laps kept per file.
    public static let maxLaps = 10_000

    /// A lap figure inside 0...max, or nil (an impossible lap figure is left out, not a refusal).
    public static func figure(_ value: Double?, max: Double) -> Double? {
        guard let value, value.isFinite, value >= 0, value <= max else { return nil }
        return value
    }
}

extension ParsedActivity {
    /// Moves every time by `ms` (a local wall clock to UTC).
    public mutating func shift(by ms: Int64) {
        deviceStart = deviceStart.map { $0 + ms }
        for index in points.indices { points[index].time = points[index].time.map { $0 + ms } }
        for index in samples.indices { samples[index].time += ms }
        for index in laps.indices { laps[index].start += ms }
        for index in sessions.indices { sessions[index].start = sessions[index].start.map { $0 + ms } }
        localClock = false
    }
}
