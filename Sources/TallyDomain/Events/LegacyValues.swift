import TallyEssentials

/// How an event written under older rules is read today: its values past the limits every door now
/// checks (`EventRules`) are read as absent or brought to the nearest value inside, by the rules the
/// docs/design/storage-format.md lists under "Payload schemas and upcasting".
///
/// Events are immutable and hashed over their stored text, so a log is never rewritten: the event
/// keeps its bytes, and every reader (the fold, both payload decoders, `import` and `sync` through
/// `EventLines.decode`, `undo`, `verify`) reads the same normalised event. What is normalised is the
/// set of figures earlier doors let in from ordinary input (a FIT or TCX file's impossible climb,
/// time or best effort; a record's duration, distance or date; an instant past 9999-12-31 or before
/// 0001-01-01 that a time zone edge produced). Texts, tags, categories, ids and actors are not:
/// every door has held them to today's limits from the first version, and `import` and `sync`
/// still refuse them (a 2,000-character title in a pulled event is refused, not truncated).
/// Pure.
public enum LegacyValues {
    /// The event as today's tally reads it: `event` itself when every normalised value is inside.
    /// - Complexity: O(1) for every event but `record.logged` with a track (O(best efforts)).
    public static func read(_ event: DomainEvent) -> DomainEvent {
        normalised(event) ?? event
    }

    /// The event read normalised, or nil when every value it holds is inside the limits.
    public static func normalised(_ event: DomainEvent) -> DomainEvent? {
        switch event {
        case .todoCreated(let stored):
            // Bound with `let` and copied only when a value is outside.
            guard !inside(stored) else { return nil }
            var fields = stored
            read(&fields)
            return .todoCreated(fields)
        case .todoEdited(let stored):
            guard !inside(stored) else { return nil }
            var changes = stored
            read(&changes)
            return .todoEdited(changes)
        case .seriesStarted(let stored):
            guard !inside(stored.start) || !inside(stored.until.map(Due.date)) else { return nil }
            var fields = stored
            fields.start = clamped(fields.start)
            fields.until = fields.until.map(clamped)
            return .seriesStarted(fields)
        case .seriesChanged(let stored):
            guard !inside((stored.until ?? nil).map(Due.date)) else { return nil }
            var changes = stored
            changes.until = changes.until.map { $0.map(clamped) }
            return .seriesChanged(changes)
        case .recordLogged(let stored):
            guard !recordInside(stored) else { return nil }
            var fields = stored
            fields.durationSeconds = Record.bounded(duration: fields.durationSeconds)
            fields.distanceMeters = distance(fields.distanceMeters)
            fields.date = Record.bounded(date: fields.date)
            fields.track = fields.track.map(track)
            return .recordLogged(fields)
        case .recordEdited(let stored):
            let inside = stored.durationSeconds.map { $0 > 0 && $0 <= Validation.maxDurationSeconds } ?? true
                && stored.distanceMeters.map { distance($0) == $0 } ?? true
                && stored.date.map(Timestamp.supportedRange.contains) ?? true
                && stored.track.map { track($0) == $0 } ?? true
            guard !inside else { return nil }
            var changes = stored
            changes.durationSeconds = changes.durationSeconds.map(Record.bounded(duration:))
            changes.distanceMeters = changes.distanceMeters.map(distance)
            changes.date = changes.date.map(Record.bounded(date:))
            changes.track = changes.track.map(track)
            return .recordEdited(changes)
        case .athleteSet, .gearAdded, .gearChanged, .gearDefaulted, .goalSet, .goalRemoved:
            // No earlier version wrote athlete settings or gear: values past the limits are refused at every
            // door (`EventRules`), never read brought inside; the fold still bounds them (`Reducer`).
            return nil
        case .todoCompleted, .todoReopened, .todoDeleted, .todoRestored, .recordDeleted, .recordRestored,
             .filterSaved, .filterReset, .historyUndone, .historyRedone, .historyRedacted, .seriesEnded, .seriesResumed,
             .todoAnnotated, .todoDenotated, .todoStarted, .todoStopped, .todoUnstarted:
            // No earlier version wrote these: values past the limits are refused at every door.
            return nil
        }
    }

    // MARK: Todos

    /// Whether every value of `fields` is one today's tally reads as it is.
    @inline(__always)
    static func inside(_ fields: TodoFields) -> Bool {
        inside(fields.due) && inside(fields.wait)
    }

    @inline(__always)
    static func inside(_ changes: TodoChanges) -> Bool {
        inside(changes.due ?? nil) && inside(changes.wait ?? nil)
    }

    /// `fields` read as `read(_:)` reads a `todo.created` holding them, in place: the payload
    /// scanner normalises the fields before it wraps them in an event, so the replay hot path
    /// never copies the event to look inside it.
    @inline(__always)
    static func read(_ fields: inout TodoFields) {
        guard !inside(fields) else { return }
        fields.due = fields.due.map(clamped)
        fields.wait = fields.wait.map(clamped)
    }

    /// `changes` read as `read(_:)` reads a `todo.edited` holding them, in place.
    @inline(__always)
    static func read(_ changes: inout TodoChanges) {
        guard !inside(changes) else { return }
        changes.due = changes.due.map { $0.map(clamped) }
        changes.wait = changes.wait.map { $0.map(clamped) }
    }

    /// Why `event` (as stored) is read otherwise: the English reason `verify` notes, or nil.
    public static func note(_ event: DomainEvent) -> String? {
        guard normalised(event) != nil else { return nil }
        do {
            try EventRules.checkPayload(event)
        } catch {
            return error.reason
        }
        return "a value outside the years 0001-9999"
    }

    // MARK: Figures

    /// A distance inside 0-1,000 km; anything else (negative, larger) is read as none.
    static func distance(_ meters: Double?) -> Double? {
        guard let meters, meters.isFinite, meters >= 0, meters <= Validation.maxDistanceMeters else { return nil }
        return meters
    }

    /// A track's moving time brought inside 0-7 days, a climb outside 0-100 km read as none, best
    /// efforts that are not a positive distance and a time of at most 7 days dropped, and at most
    /// `Validation.maxBestEfforts` kept.
    static func track(_ track: TrackSummary) -> TrackSummary {
        var track = track
        track.movingSeconds = min(max(track.movingSeconds, 0), Validation.maxDurationSeconds)
        if let gain = track.elevationGainMeters, !(gain.isFinite && gain >= 0 && gain <= Validation.maxElevationGainMeters) {
            track.elevationGainMeters = nil
        }
        track.bestEfforts = Array(track.bestEfforts.filter(effortInside).prefix(Validation.maxBestEfforts))
        track.analysisVersion = min(max(track.analysisVersion, 1), TrackPayload.maxAnalysisVersion)
        if var sensors = track.sensors {
            for (_, path) in TrackPayload.sensorKeys where sensors[keyPath: path].map({ !TrackPayload.range(path).contains($0) }) ?? false {
                sensors[keyPath: path] = nil
            }
            track.sensors = sensors.isEmpty ? nil : sensors
        }
        return track
    }

    static func effortInside(_ effort: TrackEffort) -> Bool {
        effort.meters > 0 && effort.meters <= Validation.maxEffortMeters && effort.seconds.isFinite
            && effort.seconds > 0 && effort.seconds <= Double(Validation.maxDurationSeconds)
    }

    static func recordInside(_ fields: RecordFields) -> Bool {
        guard fields.durationSeconds > 0, fields.durationSeconds <= Validation.maxDurationSeconds,
              distance(fields.distanceMeters) == fields.distanceMeters, Timestamp.supportedRange.contains(fields.date) else { return false }
        guard let track = fields.track else { return true }
        return track.movingSeconds >= 0 && track.movingSeconds <= Validation.maxDurationSeconds
            && track.elevationGainMeters.map { $0.isFinite && $0 >= 0 && $0 <= Validation.maxElevationGainMeters } ?? true
            && track.bestEfforts.count <= Validation.maxBestEfforts && track.bestEfforts.allSatisfy(effortInside)
            && TrackPayload.sensorProblem(track) == nil
    }

    // MARK: Dates and instants

    static func inside(_ due: Due?) -> Bool {
        switch due {
        case .instant(let ms)?: Timestamp.supportedRange.contains(ms)
        case .date(let date)?: date.isInSupportedYears
        case nil: true
        }
    }

    /// A due date or instant brought inside the years 0001-9999.
    static func clamped(_ due: Due) -> Due {
        switch due {
        case .instant(let ms): .instant(Record.bounded(date: ms))
        case .date(let date): .date(clamped(date))
        }
    }

    static func clamped(_ date: LocalDate) -> LocalDate {
        if date.year < 1 { return LocalDate(uncheckedYear: 1, month: 1, day: 1) }
        if date.year > 9999 { return LocalDate(uncheckedYear: 9999, month: 12, day: 31) }
        return date
    }

    /// An instant stored as `Timestamp.format` writes one outside the years 0001-9999 (`10000-01-01T04:59:00Z`,
    /// `0000-12-31T23:00:00Z`, `-0001-…`), read as the nearest instant inside; nil for any other text.
    public static func instant(_ text: String) -> Int64? {
        storedInstant(text).map(Record.bounded(date:))
    }

    /// A date stored as `LocalDate.description` writes one outside the years 0001-9999, read as
    /// 0001-01-01 or 9999-12-31; nil for any other text.
    public static func date(_ text: String) -> LocalDate? {
        storedDate(text).map(clamped)
    }

    /// Such an instant as the decoder reads it before `read`: the millisecond just outside the
    /// range on its side (the text names one further out, which no reader needs).
    static func storedInstant(_ text: String) -> Int64? {
        guard let (year, rest) = outsideYear(text), rest.utf8.count == 16 || rest.utf8.count == 20, rest.hasSuffix("Z"),
              Timestamp.parse("2000" + rest) != nil else { return nil }
        return year < 1 ? Timestamp.supportedRange.lowerBound - 1 : Timestamp.supportedRange.upperBound + 1
    }

    /// Such a date as the decoder reads it before `read`: year 0 or 10000, on its side.
    static func storedDate(_ text: String) -> LocalDate? {
        guard let (year, rest) = outsideYear(text), rest.utf8.count == 6, LocalDate.parse("2000" + rest) != nil else { return nil }
        return LocalDate(uncheckedYear: year < 1 ? 0 : 10_000, month: year < 1 ? 12 : 1, day: year < 1 ? 31 : 1)
    }

    /// A due date or instant in either shape, as the decoder reads it before `read`.
    static func storedDue(_ text: String) -> Due? {
        if let date = storedDate(text) { return .date(date) }
        return storedInstant(text).map { .instant($0) }
    }

    /// The year of a text that starts with one outside 1-9999 as the formatters write it (`0000`,
    /// five or more digits without a leading zero, or `-` and four or more digits), and the text after it.
    private static func outsideYear(_ text: String) -> (year: Int, rest: Substring)? {
        let negative = text.hasPrefix("-")
        let body = negative ? text.dropFirst() : Substring(text)
        let digits = body.prefix { $0.isASCII && $0.isNumber }
        guard digits.count >= 4, digits.count <= 18, let value = Int(digits) else { return nil }
        let rest = body.dropFirst(digits.count)
        if negative { return value > 0 ? (-value, rest) : nil }
        if digits.count == 4 { return value == 0 ? (0, rest) : nil }
        return digits.first != "0" ? (value, rest) : nil
    }
}
