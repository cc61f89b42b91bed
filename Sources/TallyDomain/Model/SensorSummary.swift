
/// What the sensors said over a whole activity, computed at import (or `record reanalyze`) from the
/// samples of the original file (`SensorAnalysis`). Each figure is absent when the file has no such data.
public struct SensorSummary: Sendable, Equatable, Hashable {
    /// Time-weighted average heart rate, bpm.
    public var averageHeartRate: Int?
    /// Highest heart rate, bpm.
    public var maxHeartRate: Int?
    /// Time-weighted average cadence (zeros included), per minute.
    public var averageCadence: Int?
    /// Time-weighted average power (zeros included), W.
    public var averagePower: Int?
    /// Normalised power (Coggan: 30-s rolling average, fourth power, mean, fourth root), W.
    public var normalizedPower: Int?

    public init(averageHeartRate: Int? = nil, maxHeartRate: Int? = nil, averageCadence: Int? = nil, averagePower: Int? = nil, normalizedPower: Int? = nil) {
        self.averageHeartRate = averageHeartRate
        self.maxHeartRate = maxHeartRate
        self.averageCadence = averageCadence
        self.averagePower = averagePower
        self.normalizedPower = normalizedPower
    }

    /// True when no figure is known.
    public var isEmpty: Bool {
        averageHeartRate == nil && maxHeartRate == nil && averageCadence == nil && averagePower == nil && normalizedPower == nil
    }
}
