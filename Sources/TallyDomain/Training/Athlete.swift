import TallyEssentials

/// The athlete's settings from one day on: what `athlete set --from DATE` stored for that day.
/// A value left nil is not set by this entry (an earlier entry's value stays in force).
public struct AthleteEntry: Sendable, Equatable, Hashable {
    /// The first day (local) the values apply to.
    public var from: LocalDate
    public var maxHeartRate: Int?
    public var restingHeartRate: Int?
    public var thresholdHeartRate: Int?
    /// Functional threshold power, W.
    public var ftp: Int?
    /// The upper bounds of heart-rate zones 1-4 in percent of the threshold heart rate (of the
    /// maximum when no threshold is set); zone 5 is everything above. Nil: the model's defaults.
    public var heartRateZones: [Int]?

    public init(
        from: LocalDate, maxHeartRate: Int? = nil, restingHeartRate: Int? = nil, thresholdHeartRate: Int? = nil, ftp: Int? = nil,
        heartRateZones: [Int]? = nil
    ) {
        self.from = from
        self.maxHeartRate = maxHeartRate
        self.restingHeartRate = restingHeartRate
        self.thresholdHeartRate = thresholdHeartRate
        self.ftp = ftp
        self.heartRateZones = heartRateZones
    }

    /// True when the entry sets nothing (it is then no entry at all).
    public var isEmpty: Bool {
        maxHeartRate == nil && restingHeartRate == nil && thresholdHeartRate == nil && ftp == nil && heartRateZones == nil
    }

    /// `other`'s values laid over these (the same day set again changes only what it names).
    public func merging(_ other: AthleteEntry) -> AthleteEntry {
        var merged = self
        merged.maxHeartRate = other.maxHeartRate ?? maxHeartRate
        merged.restingHeartRate = other.restingHeartRate ?? restingHeartRate
        merged.thresholdHeartRate = other.thresholdHeartRate ?? thresholdHeartRate
        merged.ftp = other.ftp ?? ftp
        merged.heartRateZones = other.heartRateZones ?? heartRateZones
        return merged
    }
}

/// The settings in force on one day: each value from the latest entry on or before it that sets it.
public struct AthleteSettings: Sendable, Equatable {
    public var maxHeartRate: Int?
    public var restingHeartRate: Int?
    public var thresholdHeartRate: Int?
    public var ftp: Int?
    public var heartRateZones: [Int]?

    public init(maxHeartRate: Int? = nil, restingHeartRate: Int? = nil, thresholdHeartRate: Int? = nil, ftp: Int? = nil, heartRateZones: [Int]? = nil) {
        self.maxHeartRate = maxHeartRate
        self.restingHeartRate = restingHeartRate
        self.thresholdHeartRate = thresholdHeartRate
        self.ftp = ftp
        self.heartRateZones = heartRateZones
    }
}

/// The limits of every athlete value (inclusive), checked at every door (`EventRules`).
public enum AthleteLimits {
    public static let maxHeartRate = 100...250
    public static let restingHeartRate = 25...120
    public static let thresholdHeartRate = 80...250
    public static let ftp = 30...1_000
    /// Zone bounds in percent; exactly four, strictly increasing.
    public static let zonePercent = 30...150
    public static let zoneBounds = 4

    /// Why an entry breaks the limits (English), or nil.
    public static func problem(_ entry: AthleteEntry) -> String? {
        let checks: [(String, Int?, ClosedRange<Int>)] = [
            ("maxHeartRate", entry.maxHeartRate, maxHeartRate), ("restingHeartRate", entry.restingHeartRate, restingHeartRate),
            ("thresholdHeartRate", entry.thresholdHeartRate, thresholdHeartRate), ("ftp", entry.ftp, ftp),
        ]
        for (name, value, range) in checks {
            if let value, !range.contains(value) { return "field '\(name)' is not between \(range.lowerBound) and \(range.upperBound)" }
        }
        if let zones = entry.heartRateZones {
            guard zones.count == zoneBounds, zones.allSatisfy(zonePercent.contains), zip(zones, zones.dropFirst()).allSatisfy({ $0 < $1 }) else {
                return "field 'heartRateZones' is not four increasing percentages between \(zonePercent.lowerBound) and \(zonePercent.upperBound)"
            }
        }
        guard entry.from.isInSupportedYears else { return "field 'from' is outside the years 0001-9999" }
        return nil
    }

    /// Why settings in force contradict each other (English), or nil: the resting heart rate is
    /// below the threshold and the maximum, the threshold at most the maximum.
    public static func conflict(_ settings: AthleteSettings) -> String? {
        if let resting = settings.restingHeartRate, let max = settings.maxHeartRate, resting >= max {
            return "the resting heart rate \(resting) is not below the maximum \(max)"
        }
        if let resting = settings.restingHeartRate, let threshold = settings.thresholdHeartRate, resting >= threshold {
            return "the resting heart rate \(resting) is not below the threshold \(threshold)"
        }
        if let threshold = settings.thresholdHeartRate, let max = settings.maxHeartRate, threshold > max {
            return "the threshold heart rate \(threshold) is above the maximum \(max)"
        }
        return nil
    }
}

/// Every dated entry of the athlete's settings, by day: the read model of `athlete.set`.
public struct AthleteHistory: Sendable, Equatable {
    /// Entries sorted by day, at most one a day, none empty.
    public private(set) var entries: [AthleteEntry] = []

    public init(entries: [AthleteEntry] = []) {
        self.entries = []
        for entry in entries { set(entry) }
    }

    /// Puts `entry` in place of the day's entry (an empty one removes it).
    public mutating func set(_ entry: AthleteEntry) {
        entries.removeAll { $0.from == entry.from }
        guard !entry.isEmpty else { return }
        let index = entries.firstIndex { $0.from > entry.from } ?? entries.endIndex
        entries.insert(entry, at: index)
    }

    /// The entry of exactly that day.
    public func entry(on day: LocalDate) -> AthleteEntry? {
        entries.first { $0.from == day }
    }

    /// The settings in force on `day`.
    /// - Complexity: O(entries)
    public func settings(on day: LocalDate) -> AthleteSettings {
        var settings = AthleteSettings()
        for entry in entries where entry.from <= day {
            settings.maxHeartRate = entry.maxHeartRate ?? settings.maxHeartRate
            settings.restingHeartRate = entry.restingHeartRate ?? settings.restingHeartRate
            settings.thresholdHeartRate = entry.thresholdHeartRate ?? settings.thresholdHeartRate
            settings.ftp = entry.ftp ?? settings.ftp
            settings.heartRateZones = entry.heartRateZones ?? settings.heartRateZones
        }
        return settings
    }

    /// The stream that holds the athlete's settings.
    public static let stream = "athlete"
}
