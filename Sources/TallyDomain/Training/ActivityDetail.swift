
/// Time in each zone of one channel.
public struct ZoneTimes: Sendable, Equatable {
    public var model: ZoneModel
    /// Seconds in zone 1, 2, ...
    public var seconds: [Double]
}

/// One lap as the device recorded it, with what the samples say about it.
public struct LapDetail: Sendable, Equatable {
    public var number: Int
    /// ms since the Unix epoch.
    public var start: Int64
    public var seconds: Double
    public var distanceMeters: Double?
    public var averageHeartRate: Int?
    public var maxHeartRate: Int?
    public var averagePower: Int?
    /// Height at the lap's last point minus height at its first (of the filtered track), when both are known.
    public var elevationChange: Double?
}

/// One split of the track: the first kilometre (or mile), the second, ...; the last may be shorter.
public struct SplitDetail: Sendable, Equatable {
    public var number: Int
    public var meters: Double
    public var seconds: Double
    public var averageHeartRate: Int?
    /// Height at the end minus height at the start, when both are known.
    public var elevationChange: Double?
}

/// What `record show` computes from the kept file: time in zones (with the athlete's settings in
/// force on the activity's day), laps and splits.
public struct ActivityDetail: Sendable, Equatable {
    public var heartRateZones: ZoneTimes?
    public var powerZones: ZoneTimes?
    public var laps: [LapDetail] = []
    public var splits: [SplitDetail] = []

    /// Most splits computed (1,000 km in 1 km splits).
    public static let maxSplits = 1_000

    public static func compute(_ activity: ParsedActivity, category: String, settings: AthleteSettings, splitMeters: Double) -> ActivityDetail {
        let samples = SensorAnalysis.ordered(activity.samples)
        let weights = SensorAnalysis.weights(samples)
        let window = SampleWindow(samples: samples, weights: weights)
        var detail = ActivityDetail()
        if let model = TrainingZones.heartRate(settings) { detail.heartRateZones = window.zoneTimes(model, \.heartRate) }
        if let model = TrainingZones.power(settings) { detail.powerZones = window.zoneTimes(model, \.power) }
        let week = Int64(Validation.maxDurationSeconds) * 1000
        let profile = TrackGeometry.profile(activity.points, category: category)
        for (index, lap) in activity.laps.enumerated() {
            let next = index + 1 < activity.laps.count ? activity.laps[index + 1].start : nil
            let seconds = lap.elapsedSeconds ?? lap.timerSeconds ?? next.map { Double(max(0, min($0 - lap.start, week))) / 1000 } ?? 0
            let end = lap.start + Int64(seconds * 1000)
            detail.laps.append(LapDetail(
                number: index + 1, start: lap.start, seconds: seconds, distanceMeters: lap.distanceMeters,
                averageHeartRate: window.average(\.heartRate, from: lap.start, to: end), maxHeartRate: window.maximum(\.heartRate, from: lap.start, to: end),
                averagePower: window.average(\.power, from: lap.start, to: end),
                elevationChange: Self.elevationChange(profile, from: lap.start, to: end)
            ))
        }
        guard splitMeters > 0, profile.meters.count >= 2, profile.distance > 0 else { return detail }
        var startSeconds = 0.0
        var startElevation = profile.elevations.first ?? nil
        var number = 1
        var index = 1
        while index < profile.meters.count, number <= maxSplits {
            let boundary = Double(number) * splitMeters
            let isLast = index == profile.meters.count - 1
            if profile.meters[index] >= boundary || isLast {
                let reached = min(boundary, profile.meters[index])
                let span = profile.meters[index] - profile.meters[index - 1]
                let fraction = span > 0 ? (reached - profile.meters[index - 1]) / span : 1
                let seconds = profile.seconds[index - 1] + fraction * (profile.seconds[index] - profile.seconds[index - 1])
                let meters = reached - Double(number - 1) * splitMeters
                let from = profile.start + Int64(startSeconds * 1000)
                let to = profile.start + Int64(seconds * 1000)
                let endElevation = fraction >= 0.5 ? profile.elevations[index] : profile.elevations[index - 1]
                if meters > 0.5 {
                    detail.splits.append(SplitDetail(
                        number: number, meters: meters, seconds: seconds - startSeconds,
                        averageHeartRate: window.average(\.heartRate, from: from, to: to),
                        elevationChange: startElevation.flatMap { start in endElevation.map { $0 - start } }
                    ))
                }
                startSeconds = seconds
                startElevation = endElevation
                number += 1
                // A partial split ends the track; after a whole one the same stretch may cross the next boundary too.
                if reached < boundary { break }
                continue
            }
            index += 1
        }
        return detail
    }

    /// The height of the last kept point at or before `to` minus that of the first at or after
    /// `from` (ms since the epoch); nil without two such points with a height.
    static func elevationChange(_ profile: TrackGeometry.Profile, from: Int64, to: Int64) -> Double? {
        let start = Double(from - profile.start) / 1000, end = Double(to - profile.start) / 1000
        // The first point at or after `start`, and the first after `end` (the seconds increase strictly).
        func index(after seconds: Double, orAt: Bool) -> Int {
            var low = 0, high = profile.seconds.count
            while low < high {
                let mid = (low + high) / 2
                if profile.seconds[mid] < seconds || (!orAt && profile.seconds[mid] == seconds) { low = mid + 1 } else { high = mid }
            }
            return low
        }
        let first = index(after: start, orAt: true), last = index(after: end, orAt: false) - 1
        guard first < last, let low = profile.elevations[first], let high = profile.elevations[last] else { return nil }
        return high - low
    }
}

/// Weighted samples looked up by time.
struct SampleWindow {
    let samples: [SensorSample]
    let weights: [Int64]

    /// The first sample at or after `time`.
    func first(atOrAfter time: Int64) -> Int {
        var low = 0, high = samples.count
        while low < high {
            let mid = (low + high) / 2
            if samples[mid].time < time { low = mid + 1 } else { high = mid }
        }
        return low
    }

    func average(_ channel: KeyPath<SensorSample, Int?>, from: Int64, to: Int64) -> Int? {
        var total = 0.0, weight = 0.0
        var index = first(atOrAfter: from)
        while index < samples.count, samples[index].time < to {
            if let value = samples[index][keyPath: channel], weights[index] > 0 {
                total += Double(value) * Double(weights[index])
                weight += Double(weights[index])
            }
            index += 1
        }
        return weight > 0 ? Int((total / weight).rounded()) : nil
    }

    func maximum(_ channel: KeyPath<SensorSample, Int?>, from: Int64, to: Int64) -> Int? {
        var best: Int?
        var index = first(atOrAfter: from)
        while index < samples.count, samples[index].time < to {
            if let value = samples[index][keyPath: channel] { best = max(best ?? value, value) }
            index += 1
        }
        return best
    }

    func zoneTimes(_ model: ZoneModel, _ channel: KeyPath<SensorSample, Int?>) -> ZoneTimes? {
        var seconds = [Double](repeating: 0, count: model.count)
        var any = false
        for index in samples.indices {
            guard let value = samples[index][keyPath: channel], weights[index] > 0 else { continue }
            seconds[model.zone(of: value) - 1] += Double(weights[index]) / 1000
            any = true
        }
        return any ? ZoneTimes(model: model, seconds: seconds) : nil
    }
}
