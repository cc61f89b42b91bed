import TallyEssentials

/// `athlete set` as typed: each value a whole number (or for zones four comma-separated
/// percentages), `from` a day (default today).
public struct AthleteInput: Sendable, Equatable {
    public var from: String?
    public var maxHeartRate: String?
    public var restingHeartRate: String?
    public var thresholdHeartRate: String?
    public var ftp: String?
    public var heartRateZones: String?

    public init(from: String? = nil, maxHeartRate: String? = nil, restingHeartRate: String? = nil, thresholdHeartRate: String? = nil, ftp: String? = nil, heartRateZones: String? = nil) {
        self.from = from
        self.maxHeartRate = maxHeartRate
        self.restingHeartRate = restingHeartRate
        self.thresholdHeartRate = thresholdHeartRate
        self.ftp = ftp
        self.heartRateZones = heartRateZones
    }
}

/// The athlete half of the decider.
extension Decider {
    /// Sets the day's entry (merged with what that day already had); refuses values out of range
    /// and settings that would contradict each other on any day from then on.
    static func decideAthlete(_ input: AthleteInput, state: ReadModel, context: DecisionContext, into builder: inout DecisionBuilder) throws(DomainError) {
        let day: LocalDate
        if let raw = input.from {
            let instant = try Validation.activityDate(raw, now: context.now, zone: context.zone)
            day = LocalDate.containing(instant, in: context.zone)
        } else {
            day = LocalDate.containing(context.now, in: context.zone)
        }
        var entry = AthleteEntry(from: day)
        entry.maxHeartRate = try whole(input.maxHeartRate, "--max-hr", AthleteLimits.maxHeartRate)
        entry.restingHeartRate = try whole(input.restingHeartRate, "--resting-hr", AthleteLimits.restingHeartRate)
        entry.thresholdHeartRate = try whole(input.thresholdHeartRate, "--threshold-hr", AthleteLimits.thresholdHeartRate)
        entry.ftp = try whole(input.ftp, "--ftp", AthleteLimits.ftp)
        if let raw = input.heartRateZones {
            let parts = raw.split(separator: ",", omittingEmptySubsequences: false)
            let zones = parts.count == AthleteLimits.zoneBounds ? parts.compactMap { $0.utf8.count <= 4 ? Int($0.trimming(.whitespaces)) : nil } : []
            entry.heartRateZones = zones
            guard zones.count == AthleteLimits.zoneBounds, AthleteLimits.problem(AthleteEntry(from: day, heartRateZones: zones)) == nil else {
                throw .invalid(.invalidZones(String(raw.prefix(60))))
            }
        }
        guard !entry.isEmpty else { throw .invalid(.athleteNothingToSet) }
        let merged = (state.athlete.entry(on: day) ?? AthleteEntry(from: day)).merging(entry)
        if let reason = AthleteLimits.problem(merged) { throw .invalid(.outsideLimits(reason: reason)) }
        var after = state.athlete
        after.set(merged)
        for later in after.entries where later.from >= day {
            if let reason = AthleteLimits.conflict(after.settings(on: later.from)) {
                throw .invalid(.athleteConflict("from \(later.from): \(reason)"))
            }
        }
        guard merged != state.athlete.entry(on: day) else {
            builder.notices.append(.athleteUnchanged)
            return
        }
        builder.append(.athleteSet(merged), to: AthleteHistory.stream)
    }

    /// A whole number inside `range`, or nil when not given.
    private static func whole(_ raw: String?, _ option: String, _ range: ClosedRange<Int>) throws(DomainError) -> Int? {
        guard let raw else { return nil }
        let text = raw.trimming(.whitespaces)
        guard text.utf8.count <= 6, let value = Int(text), range.contains(value) else {
            throw .invalid(.trainingValue(option: option, value: String(raw.prefix(40)), low: range.lowerBound, high: range.upperBound))
        }
        return value
    }
}
