
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Figures from an activity's sensor samples (documented in docs/guide/training.md).
///
/// Each sample holds until the next one: its weight is the time to the next sample, when that is at
/// most `maxGap`; a longer gap is a pause (the device stopped recording) and counts for nothing,
/// and so does the last sample. Averages are weighted by that time (so a device that records
/// every 1 to 8 seconds, "smart recording", averages the same as one that records every second);
/// zeros count (a coasting cyclist's cadence and power are 0). Normalised power (Coggan) is computed
/// on the samples held second by second: the 30-second rolling average, raised to the fourth power,
/// averaged, and the fourth root taken; it needs at least 30 seconds of power.
public enum SensorAnalysis {
    /// The version of the analysis stored with each track (`TrackSummary.analysisVersion`): 1 is
    /// what imports computed before sensors were read (no sensor figures); 2 adds them; 3 makes a
    /// file holding several activities several records (multisport legs, GPX days: `FileSplit`); 4
    /// reads every leg of a TCX `MultiSportSession` (3 read its first activity alone).
    public static let version = 4
    /// Longest time (ms) a sample holds; a longer gap between two samples is a pause.
    public static let maxGap: Int64 = 60_000
    /// Window of the rolling average of normalised power, in seconds.
    public static let normalizedPowerWindow = 30

    /// How many ms each sample of `samples` (sorted by time) stands for.
    public static func weights(_ samples: [SensorSample]) -> [Int64] {
        var weights = [Int64](repeating: 0, count: samples.count)
        guard samples.count >= 2 else { return weights }
        for index in 0..<(samples.count - 1) {
            let (gap, overflow) = samples[index + 1].time.subtractingReportingOverflow(samples[index].time)
            if !overflow, gap > 0, gap <= maxGap { weights[index] = gap }
        }
        return weights
    }

    /// The samples in time order, later duplicates of an instant dropped, at most `SensorLimits.maxSamples`.
    public static func ordered(_ samples: [SensorSample]) -> [SensorSample] {
        var sorted = samples.filter(\.hasValue)
        if !zip(sorted, sorted.dropFirst()).allSatisfy({ $0.time < $1.time }) {
            sorted = sorted.enumerated().sorted { ($0.element.time, $0.offset) < ($1.element.time, $1.offset) }.map(\.element)
            var unique: [SensorSample] = []
            unique.reserveCapacity(sorted.count)
            for sample in sorted where unique.last?.time != sample.time { unique.append(sample) }
            sorted = unique
        }
        return Array(sorted.prefix(SensorLimits.maxSamples))
    }

    /// The whole activity's figures; nil when no sample holds a value.
    public static func summary(_ raw: [SensorSample]) -> SensorSummary? {
        let samples = ordered(raw)
        guard !samples.isEmpty else { return nil }
        let weights = weights(samples)
        var summary = SensorSummary()
        summary.averageHeartRate = average(samples, weights, \.heartRate)
        summary.maxHeartRate = samples.compactMap(\.heartRate).max()
        summary.averageCadence = average(samples, weights, \.cadence)
        summary.averagePower = average(samples, weights, \.power)
        summary.normalizedPower = normalizedPower(samples, weights)
        return summary.isEmpty ? nil : summary
    }

    /// The weighted average of one channel, rounded to a whole number; nil when no weight holds it.
    static func average(_ samples: [SensorSample], _ weights: [Int64], _ channel: KeyPath<SensorSample, Int?>) -> Int? {
        // Values are at most 2,500 and weights at most 60,000 ms over at most 604,800 samples: no overflow.
        var total = 0.0, weight = 0.0
        for index in samples.indices {
            guard let value = samples[index][keyPath: channel], weights[index] > 0 else { continue }
            total += Double(value) * Double(weights[index])
            weight += Double(weights[index])
        }
        guard weight > 0 else { return nil }
        return Int((total / weight).rounded())
    }

    /// Normalised power over the samples held second by second; nil with less than 30 s of power.
    static func normalizedPower(_ samples: [SensorSample], _ weights: [Int64]) -> Int? {
        var seconds: [Double] = []
        for index in samples.indices {
            guard let power = samples[index].power else { continue }
            // At most 7 days of seconds, however the samples are spaced.
            let repeats = min(Int((Double(weights[index]) / 1000).rounded()), Validation.maxDurationSeconds - seconds.count)
            if repeats > 0 { seconds.append(contentsOf: repeatElement(Double(power), count: repeats)) }
        }
        let window = normalizedPowerWindow
        guard seconds.count >= window else { return nil }
        var sum = seconds[0..<window].reduce(0, +)
        var fourth = 0.0
        var count = 0.0
        for end in (window - 1)..<seconds.count {
            if end >= window { sum += seconds[end] - seconds[end - window] }
            let rolling = sum / Double(window)
            fourth += rolling * rolling * rolling * rolling
            count += 1
        }
        return Int(pow(fourth / count, 0.25).rounded())
    }
}
