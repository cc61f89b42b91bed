/// The values a snapshot may hold: what folding valid events can produce, checked on every item
/// read from a body before anything uses it.
///
/// A snapshot is a cache. Its checksums prove only that its bytes are the ones stored, not that an
/// honest tally folded them, so each value is range-checked as the events' own limits check it:
/// texts by `EventRules` (lengths, no control characters), instants within the years a timestamp
/// may name, and counters far below anything that could overflow. Pure.
public enum SnapshotLimits {
    /// The instants an event can carry: from a day before 0001-01-01 to a day after 9999-12-31 (UTC),
    /// the range `Timestamp.parse` reads with any offset.
    public static let instants: ClosedRange<Int64> = {
        let first = LocalDate(year: 1, month: 1, day: 1)!.dayNumber - 1
        let last = LocalDate(year: 9999, month: 12, day: 31)!.dayNumber + 2
        return first * WallClock.msPerDay ... last * WallClock.msPerDay - 1
    }()

    /// The largest stream version, item number or settings version a snapshot may claim: far
    /// beyond any real log (2^40 events), far below an overflow when one is added.
    public static let maxCounter = 1 << 40

    /// The largest distance, climb or best-effort time a stored value may have (a guard against
    /// arithmetic on absurd numbers, not a plausibility limit: imports decide those).
    static let maxMagnitude = 1e12

    /// nil when `ms` is an instant an event can carry; otherwise why not.
    static func instant(_ ms: Int64, _ field: String) -> String? {
        instants.contains(ms) ? nil : "its \(field) is out of range"
    }

    static func due(_ due: Due?, _ field: String) -> String? {
        if case .instant(let ms)? = due { return instant(ms, field) }
        return nil
    }

    static func counter(_ value: Int, _ field: String, from low: Int = 1) -> String? {
        (low ... maxCounter).contains(value) ? nil : "its \(field) is out of range"
    }

    static func magnitude(_ value: Double?, _ field: String) -> String? {
        guard let value else { return nil }
        return value.isFinite && value >= 0 && value <= maxMagnitude ? nil : "its \(field) is out of range"
    }

    static func identifier(_ id: String) -> String? {
        id.isEmpty || id.utf8.count > 200 || id.unicodeScalars.contains(where: Validation.isControl) ? "its id is not an id" : nil
    }

    /// The first of `checks` that fails, in words.
    static func first(_ checks: [() -> String?]) -> String? {
        for check in checks { if let problem = check() { return problem } }
        return nil
    }

    /// Runs an `EventRules` check, turning its refusal into a reason.
    static func rule(_ check: () throws(EventLineError) -> Void) -> String? {
        do {
            try check()
            return nil
        } catch {
            return error.reason
        }
    }
}

extension Todo {
    /// Why this todo cannot have been folded from valid events; nil when every value is in range.
    public var snapshotProblem: String? {
        SnapshotLimits.first([
            { SnapshotLimits.identifier(self.id) },
            { SnapshotLimits.counter(self.number, "number") },
            { SnapshotLimits.rule { () throws(EventLineError) in try EventRules.title(self.title) } },
            { SnapshotLimits.rule { () throws(EventLineError) in try EventRules.tags(self.tags) } },
            { SnapshotLimits.rule { () throws(EventLineError) in try EventRules.note(self.note) } },
            { SnapshotLimits.due(self.due, "due time") },
            { SnapshotLimits.due(self.wait, "wait time") },
            { self.series.map(SnapshotLimits.identifier) ?? nil },
            { self.completedAt.flatMap { SnapshotLimits.instant($0, "completion time") } },
            { SnapshotLimits.instant(self.createdAt, "creation time") },
            { SnapshotLimits.instant(self.updatedAt, "update time") },
            { SnapshotLimits.counter(self.version, "version") },
            { self.origin.flatMap { origin in
                SnapshotLimits.first([
                    { origin.id.utf8.count > 200 || origin.id.unicodeScalars.contains(where: Validation.isControl) ? "its origin id is not an id" : nil },
                    { origin.createdAt.flatMap { SnapshotLimits.instant($0, "origin's creation time") } },
                ])
            } },
        ])
    }
}

extension Record {
    /// Why this record cannot have been folded from valid events; nil when every value is in range.
    public var snapshotProblem: String? {
        SnapshotLimits.first([
            { SnapshotLimits.identifier(self.id) },
            { SnapshotLimits.counter(self.number, "number") },
            { SnapshotLimits.rule { () throws(EventLineError) in try EventRules.name(self.name) } },
            { SnapshotLimits.rule { () throws(EventLineError) in try EventRules.category(self.category) } },
            { SnapshotLimits.rule { () throws(EventLineError) in try EventRules.duration(self.durationSeconds) } },
            { SnapshotLimits.magnitude(self.distanceMeters, "distance") },
            { SnapshotLimits.rule { () throws(EventLineError) in try EventRules.place(self.place) } },
            { SnapshotLimits.instant(self.date, "date") },
            { SnapshotLimits.rule { () throws(EventLineError) in try EventRules.note(self.note) } },
            { SnapshotLimits.instant(self.createdAt, "creation time") },
            { SnapshotLimits.instant(self.updatedAt, "update time") },
            { SnapshotLimits.counter(self.version, "version") },
            { self.track?.snapshotProblem },
        ])
    }
}

extension TrackSummary {
    /// Why this summary cannot have come from an import; nil when every value is in range.
    var snapshotProblem: String? {
        SnapshotLimits.first([
            { self.sha256.utf8.count == 64 && self.sha256.utf8.allSatisfy({ (0x30...0x39).contains($0) || (0x61...0x66).contains($0) })
                ? nil : "its track's file hash is not 64 hex digits" },
            { TrackPayload.formats.contains(self.format) ? nil : "its track's format is unknown" },
            { (0 ... Validation.maxDurationSeconds).contains(self.movingSeconds) ? nil : "its track's moving time is out of range" },
            { SnapshotLimits.magnitude(self.elevationGainMeters, "track's climb") },
            { self.bestEfforts.count <= 64 ? nil : "its track has too many best efforts" },
            { self.bestEfforts.allSatisfy { (1 ... 1_000_000_000).contains($0.meters) && SnapshotLimits.magnitude($0.seconds, "") == nil }
                ? nil : "a best effort of its track is out of range" },
        ])
    }
}

extension Series {
    /// Why this series cannot have been folded from valid events; nil when every value is in range.
    var snapshotProblem: String? {
        SnapshotLimits.first([
            { SnapshotLimits.identifier(self.id) },
            { SnapshotLimits.rule { () throws(EventLineError) in try EventRules.title(self.fields.title) } },
            { SnapshotLimits.rule { () throws(EventLineError) in try EventRules.tags(self.fields.tags) } },
            { SnapshotLimits.rule { () throws(EventLineError) in try EventRules.note(self.fields.note) } },
            { SnapshotLimits.due(self.fields.start, "start") },
            { SnapshotLimits.instant(self.createdAt, "creation time") },
            { SnapshotLimits.instant(self.updatedAt, "update time") },
            { SnapshotLimits.counter(self.version, "version") },
        ])
    }
}
