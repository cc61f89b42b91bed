
/// What the body's sensors said at one instant of an activity: heart rate, cadence and power,
/// each absent when the file has no (plausible) value for it.
///
/// Readers keep only values inside `SensorLimits`; anything else (a strap's 0 or 255, a power of
/// 60,000 W) is a dropout, not a value, and is left out rather than refusing the file.
public struct SensorSample: Sendable, Equatable {
    /// ms since the Unix epoch.
    public var time: Int64
    /// Beats per minute.
    public var heartRate: Int?
    /// Revolutions (or, for running, strides of one foot) per minute.
    public var cadence: Int?
    /// Watts.
    public var power: Int?

    public init(time: Int64, heartRate: Int? = nil, cadence: Int? = nil, power: Int? = nil) {
        self.time = time
        self.heartRate = heartRate
        self.cadence = cadence
        self.power = power
    }

    /// True when the sample holds at least one value.
    public var hasValue: Bool { heartRate != nil || cadence != nil || power != nil }
}

/// The plausible range of each sensor value (inclusive); a value outside is a dropout.
public enum SensorLimits {
    /// Beats per minute: below 25 or above 250 no human heart beats (straps write 0 and 255 when they lose contact).
    public static let heartRate = 25...250
    /// Per minute: a sprinter's legs or a track cyclist stay well under 250 (FIT writes 255 for none).
    public static let cadence = 0...250
    /// Watts: the best sprinters peak near 2,500 W.
    public static let power = 0...2_500
    /// Most samples kept per activity: a week at 1 Hz.
    public static let maxSamples = 7 * 86_400

    /// `value` as a whole number when it is finite and inside `range`; nil otherwise (checked before any conversion).
    public static func whole(_ value: Double, _ range: ClosedRange<Int>) -> Int? {
        guard value.isFinite, value >= Double(range.lowerBound) - 0.5, value < Double(range.upperBound) + 0.5 else { return nil }
        return Int(value.rounded())
    }

    /// `value` as a whole number when it is inside `range`.
    public static func whole(_ value: UInt64, _ range: ClosedRange<Int>) -> Int? {
        guard value <= UInt64(range.upperBound), Int(value) >= range.lowerBound else { return nil }
        return Int(value)
    }

    /// A sample's text value (`<gpxtpx:hr>`, `<Watts>`) as a whole number inside `range`, nil otherwise.
    public static func whole(text: String, _ range: ClosedRange<Int>) -> Int? {
        guard text.utf8.count <= 32, let value = Double(text) else { return nil }
        return whole(value, range)
    }
}
