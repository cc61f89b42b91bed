import TallyEssentials

/// The values a snapshot may hold: what folding valid events can produce, checked on every item
/// read from a body before anything uses it.
///
/// A snapshot is a cache. Its checksums prove only that its bytes are the ones stored, not that an
/// honest tally folded them, so each value is range-checked as the events' own limits check it:
/// texts by `EventRules` (lengths, no control characters), instants within the years a timestamp
/// may name, and counters far below anything that could overflow. Pure.
public enum SnapshotLimits {
    /// The instants an event can carry: from a day before 0001-01-01 to a day after 9999-12-31 (UTC),
    /// the range `Timestamp.parse` reads with any offset: the start of 0000-12-31 to the end of
    /// 10000-01-01, in milliseconds since 1970 (`SnapshotLimitsTests` derives them from `LocalDate`).
    ///
    /// Literals, not computed from `LocalDate`: the summary check reads this range for every todo a
    /// list scans, and an initializer calling into TallyEssentials cannot be folded at compile time
    /// across the module boundary, so each read went through `swift_once` and compared with loaded
    /// bounds (31 instructions a todo `list` scans); literals make it constant compares.
    public static let instants: ClosedRange<Int64> = -62_135_683_200_000 ... 253_402_387_199_999

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
        var id = id
        // Ids are ASCII: their bytes answer without decoding scalars.
        let printableASCII = id.withUTF8 { bytes in bytes.allSatisfy { $0 >= 0x20 && $0 < 0x7F } }
        if printableASCII { return id.utf8.isEmpty || id.utf8.count > 200 ? "its id is not an id" : nil }
        return id.isEmpty || id.utf8.count > 200 || id.unicodeScalars.contains(where: Validation.isControl) ? "its id is not an id" : nil
    }

    /// Runs an `EventRules` check, turning its refusal into a reason. (An item's checks run one
    /// after the other, without an array of closures: they run for every item a command reads.)
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
        if let problem = SnapshotLimits.identifier(self.id) { return problem }
        if let problem = SnapshotLimits.counter(self.number, "number") { return problem }
        if let problem = SnapshotLimits.rule({ () throws(EventLineError) in try EventRules.title(self.title) }) { return problem }
        if let problem = SnapshotLimits.rule({ () throws(EventLineError) in try EventRules.tags(self.tags) }) { return problem }
        if let problem = SnapshotLimits.rule({ () throws(EventLineError) in try EventRules.note(self.note) }) { return problem }
        if let problem = SnapshotLimits.due(self.due, "due time") { return problem }
        if let problem = SnapshotLimits.due(self.wait, "wait time") { return problem }
        if let problem = self.series.flatMap(SnapshotLimits.identifier) { return problem }
        if let problem = self.completedAt.flatMap({ SnapshotLimits.instant($0, "completion time") }) { return problem }
        if let problem = SnapshotLimits.instant(self.createdAt, "creation time") { return problem }
        if let problem = SnapshotLimits.instant(self.updatedAt, "update time") { return problem }
        if let problem = SnapshotLimits.counter(self.version, "version") { return problem }
        if let problem = self.origin.flatMap(\.snapshotProblem) { return problem }
        if !self.after.isEmpty, let problem = SnapshotLimits.rule({ () throws(EventLineError) in try EventRules.after(self.after) }) { return problem }
        if self.project != nil, let problem = SnapshotLimits.rule({ () throws(EventLineError) in try EventRules.project(self.project) }) { return problem }
        if !self.annotations.isEmpty || !self.intervals.isEmpty, let problem = timeProblem { return problem }
        return nil
    }

    /// Why its annotations or intervals cannot have been folded from valid events; nil when they are in range.
    private var timeProblem: String? {
        guard annotations.count <= Annotation.maxPerTodo else { return "it has too many annotations" }
        for annotation in annotations {
            if let problem = SnapshotLimits.identifier(annotation.id) { return problem }
            if let problem = SnapshotLimits.instant(annotation.at, "annotation time") { return problem }
            if let problem = SnapshotLimits.rule({ () throws(EventLineError) in try EventRules.annotationText(annotation.text) }) { return problem }
        }
        guard intervals.count <= WorkInterval.maxPerTodo else { return "it has too many time intervals" }
        for (index, interval) in intervals.enumerated() {
            if let problem = SnapshotLimits.instant(interval.start, "interval start") { return problem }
            if let end = interval.end {
                if let problem = SnapshotLimits.instant(end, "interval end") { return problem }
                if end < interval.start { return "an interval of it ends before it begins" }
            } else if index != intervals.count - 1 {
                return "an interval of it runs while a later one exists"
            }
            if index > 0, intervals[index - 1].start >= interval.start { return "its intervals are not in order" }
        }
        return nil
    }
}

extension TodoOrigin {
    /// Why this origin cannot have come from an import; nil when its values are in range.
    var snapshotProblem: String? {
        if let problem = (id.utf8.count > 200 || id.unicodeScalars.contains(where: Validation.isControl) ? "its origin id is not an id" : nil) { return problem }
        if let problem = createdAt.flatMap({ SnapshotLimits.instant($0, "origin's creation time") }) { return problem }
        return nil
    }
}

extension Record {
    /// Why this record cannot have been folded from valid events; nil when every value is in range.
    public var snapshotProblem: String? {
        if let problem = SnapshotLimits.identifier(self.id) { return problem }
        if let problem = SnapshotLimits.counter(self.number, "number") { return problem }
        if let problem = SnapshotLimits.rule({ () throws(EventLineError) in try EventRules.name(self.name) }) { return problem }
        if let problem = SnapshotLimits.rule({ () throws(EventLineError) in try EventRules.category(self.category) }) { return problem }
        if let problem = SnapshotLimits.rule({ () throws(EventLineError) in try EventRules.duration(self.durationSeconds) }) { return problem }
        if let problem = SnapshotLimits.magnitude(self.distanceMeters, "distance") { return problem }
        if let problem = SnapshotLimits.rule({ () throws(EventLineError) in try EventRules.place(self.place) }) { return problem }
        if let problem = SnapshotLimits.instant(self.date, "date") { return problem }
        if let problem = SnapshotLimits.rule({ () throws(EventLineError) in try EventRules.note(self.note) }) { return problem }
        if let problem = SnapshotLimits.instant(self.createdAt, "creation time") { return problem }
        if let problem = SnapshotLimits.instant(self.updatedAt, "update time") { return problem }
        if let problem = SnapshotLimits.counter(self.version, "version") { return problem }
        if let problem = self.track?.snapshotProblem { return problem }
        if let effort = self.effort, !Validation.effort.contains(effort) { return "its effort is out of range" }
        if let gear = self.gear, let problem = SnapshotLimits.identifier(gear) { return problem }
        return nil
    }
}

extension TrackSummary {
    /// Why this summary cannot have come from an import; nil when every value is in range.
    var snapshotProblem: String? {
        let hexDigits = sha256.utf8.allSatisfy { (0x30 ... 0x39).contains($0) || (0x61 ... 0x66).contains($0) }
        guard sha256.utf8.count == 64, hexDigits else { return "its track's file hash is not 64 hex digits" }
        guard TrackPayload.formats.contains(format) else { return "its track's format is unknown" }
        guard (0 ... Validation.maxDurationSeconds).contains(movingSeconds) else { return "its track's moving time is out of range" }
        if let problem = SnapshotLimits.magnitude(elevationGainMeters, "track's climb") { return problem }
        guard bestEfforts.count <= 64 else { return "its track has too many best efforts" }
        let effortsInRange = bestEfforts.allSatisfy { (1 ... 1_000_000_000).contains($0.meters) && SnapshotLimits.magnitude($0.seconds, "") == nil }
        guard effortsInRange else { return "a best effort of its track is out of range" }
        return TrackPayload.sensorProblem(self) == nil ? nil : "its track's analysis, sensor figures or file part are out of range"
    }
}

extension Series {
    /// Why this series cannot have been folded from valid events; nil when every value is in range.
    var snapshotProblem: String? {
        if let problem = SnapshotLimits.identifier(self.id) { return problem }
        if let problem = SnapshotLimits.rule({ () throws(EventLineError) in try EventRules.title(self.fields.title) }) { return problem }
        if let problem = SnapshotLimits.rule({ () throws(EventLineError) in try EventRules.tags(self.fields.tags) }) { return problem }
        if let problem = SnapshotLimits.rule({ () throws(EventLineError) in try EventRules.note(self.fields.note) }) { return problem }
        if let problem = SnapshotLimits.due(self.fields.start, "start") { return problem }
        if let problem = SnapshotLimits.instant(self.createdAt, "creation time") { return problem }
        if let problem = SnapshotLimits.instant(self.updatedAt, "update time") { return problem }
        if let problem = SnapshotLimits.counter(self.version, "version") { return problem }
        return nil
    }
}
