
/// Heart-rate and power zones (documented with their sources in docs/guide/training.md).
///
/// Each model is a list of bounds: zone 1 is below the first bound, zone n from bound n-1 up to
/// (not including) bound n, the last zone from the last bound up.
public struct ZoneModel: Sendable, Equatable {
    /// Which model: `friel-lthr`, `edwards-max`, `custom-lthr`, `custom-max`, `coggan-ftp`.
    public var name: String
    /// Bounds in bpm or W, increasing.
    public var bounds: [Int]

    public init(name: String, bounds: [Int]) {
        self.name = name
        self.bounds = bounds
    }

    /// The zone (1-based) of `value`.
    public func zone(of value: Int) -> Int {
        (bounds.firstIndex { value < $0 } ?? bounds.count) + 1
    }

    /// How many zones: one more than bounds.
    public var count: Int { bounds.count + 1 }
}

public enum TrainingZones {
    /// Joe Friel's five zones from the lactate threshold heart rate (running): below 85 %, 85-89 %,
    /// 90-94 %, 95-99 %, 100 % and above.
    public static let frielPercent = [85, 90, 95, 100]
    /// Sally Edwards' five zones from the maximum heart rate: below 60 %, 60-69 %, 70-79 %, 80-89 %, 90 % and above.
    public static let edwardsPercent = [60, 70, 80, 90]
    /// Andrew Coggan's seven power levels from FTP: up to 55 %, 56-75 %, 76-90 %, 91-105 %, 106-120 %, 121-150 %, above 150 %.
    public static let cogganPercent = [56, 76, 91, 106, 121, 151]

    /// The heart-rate zones of `settings`: custom percentages (`--hr-zones`) or Friel's of the threshold,
    /// else custom or Edwards' of the maximum; nil without either heart rate.
    public static func heartRate(_ settings: AthleteSettings) -> ZoneModel? {
        if let threshold = settings.thresholdHeartRate {
            let percent = settings.heartRateZones ?? frielPercent
            return ZoneModel(name: settings.heartRateZones == nil ? "friel-lthr" : "custom-lthr", bounds: bounds(percent, of: threshold))
        }
        if let max = settings.maxHeartRate {
            let percent = settings.heartRateZones ?? edwardsPercent
            return ZoneModel(name: settings.heartRateZones == nil ? "edwards-max" : "custom-max", bounds: bounds(percent, of: max))
        }
        return nil
    }

    /// Coggan's power levels from the FTP in force; nil without one.
    public static func power(_ settings: AthleteSettings) -> ZoneModel? {
        settings.ftp.map { ZoneModel(name: "coggan-ftp", bounds: bounds(cogganPercent, of: $0)) }
    }

    /// `percent` of `reference`, rounded to whole units (inputs are limited to 150 % of 1,000).
    static func bounds(_ percent: [Int], of reference: Int) -> [Int] {
        percent.map { Int((Double($0 * reference) / 100).rounded()) }
    }
}
