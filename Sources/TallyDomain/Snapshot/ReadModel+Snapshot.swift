import TallyEssentials

/// The snapshot layout of the read models: every stored property, in a fixed order.
///
/// To add a property or a collection: write it in `write(to:)`, read it at the same place in
/// `init(reading:)`, and bump `SnapshotCodec.format`. The round-trip property test
/// (`SnapshotCodecTests`) fails until both sides agree, and the coverage test fails when the
/// model generator never fills the new property.
extension ReadModel {
    /// Appends every stored property in the snapshot order.
    func write(to writer: inout BinaryWriter) {
        writer.int(position)
        todos.write(to: &writer)
        records.write(to: &writer)
        let scopes = filters.keys.sorted { $0.rawValue < $1.rawValue }
        writer.count(scopes.count)
        for scope in scopes {
            writer.string(scope.rawValue)
            writer.string(JSON.object(filters[scope]!).serialized(.canonical))
        }
        let streams = settingsVersions.keys.sorted()
        writer.count(streams.count)
        for stream in streams {
            writer.string(stream)
            writer.count(settingsVersions[stream]!)
        }
        writer.array(series.sorted) { $1.write(to: &$0) }
        writer.array(athlete.entries) { $1.write(to: &$0) }
        writer.array(gear.items) { $1.write(to: &$0) }
        let categories = gear.defaults.keys.sorted()
        writer.count(categories.count)
        for category in categories {
            writer.string(category)
            writer.identifier(gear.defaults[category]!)
        }
        // Goals (format 11): per key, its changes in log order; the goals in force are each key's last.
        writer.array(goals.changes.keys.sorted()) { writer, key in
            writer.byte(UInt8(GoalPeriod.allCases.firstIndex(of: key.per)!))
            writer.byte(UInt8(GoalMetric.allCases.firstIndex(of: key.metric)!))
            writer.optional(key.category) { $0.string($1) }
            writer.array(goals.changes[key]!) { writer, change in
                writer.int(change.at)
                writer.optional(change.goal) { writer, goal in
                    writer.uint(goal.target.bitPattern)
                    writer.int(goal.from.dayNumber)
                }
            }
        }
    }

    /// Reads the properties back in the order `write(to:)` wrote them; the item tables stay in
    /// `buffer` and are decoded item by item when read.
    init(reading reader: inout BinaryReader, in buffer: SnapshotBuffer) throws(SnapshotDecodingError) {
        self.init()
        position = try reader.int()
        todos = try ItemTable(reading: &reader, in: buffer)
        records = try ItemTable(reading: &reader, in: buffer)
        for _ in 0..<(try reader.count()) {
            let raw = try reader.string()
            guard let scope = FilterScope(rawValue: raw) else { throw reader.failure("unknown filter scope '\(raw)'") }
            let text = try reader.string()
            guard case .object(let filter)? = try? JSON.parse(text) else { throw reader.failure("saved filter is not a JSON object") }
            filters[scope] = filter
        }
        for _ in 0..<(try reader.count()) {
            let stream = try reader.string()
            let version = try reader.natural()
            guard SnapshotLimits.counter(version, "version") == nil else { throw reader.failure("the version of settings stream '\(stream.prefix(40))' is out of range") }
            settingsVersions[stream] = version
        }
        for _ in 0..<(try reader.count()) {
            let one = try Series(reading: &reader)
            if let problem = one.snapshotProblem { throw reader.failure("a recurring series is out of range: " + problem) }
            series.insert(one)
        }
        var entries: [AthleteEntry] = []
        for _ in 0..<(try reader.count()) {
            let entry = try AthleteEntry(reading: &reader)
            if let problem = AthleteLimits.problem(entry) { throw reader.failure("an athlete setting is out of range: " + problem) }
            entries.append(entry)
        }
        athlete = AthleteHistory(entries: entries)
        var items: [Gear] = []
        for _ in 0..<(try reader.count()) {
            let one = try Gear(reading: &reader)
            if let problem = one.snapshotProblem ?? (one.number == items.count + 1 ? nil : "its number is out of order") {
                throw reader.failure("a piece of gear is out of range: " + problem)
            }
            items.append(one)
        }
        var defaults: [String: String] = [:]
        for _ in 0..<(try reader.count()) {
            let category = try reader.string()
            let id = try reader.identifier()
            guard (try? Validation.category(category)) == category else { throw reader.failure("a gear default's category is not a category") }
            defaults[category] = id
        }
        gear = GearBook(items: items, defaults: defaults)
        var changes: [GoalKey: [GoalChange]] = [:]
        for _ in 0..<(try reader.count()) {
            let per = Int(try reader.byte())
            let metric = Int(try reader.byte())
            let category = try reader.bool() ? try reader.string() : nil
            guard per < GoalPeriod.allCases.count, metric < GoalMetric.allCases.count else { throw reader.failure("a goal is not a goal") }
            let key = GoalKey(per: GoalPeriod.allCases[per], metric: GoalMetric.allCases[metric], category: category)
            if let problem = GoalPayload.keyProblem(key) { throw reader.failure("a goal is out of range: " + problem) }
            guard changes[key] == nil else { throw reader.failure("a goal is listed twice") }
            var list: [GoalChange] = []
            for _ in 0..<(try reader.count()) {
                let at = try reader.int()
                var goal: Goal?
                if try reader.bool() {
                    let target = Double(bitPattern: try reader.uint())
                    let day = try reader.int()
                    guard abs(day) < 4_000_000 else { throw reader.failure("a goal is not a goal") }
                    let one = Goal(key: key, target: target, from: LocalDate(dayNumber: day))
                    if let problem = GoalPayload.problem(one) { throw reader.failure("a goal is out of range: " + problem) }
                    goal = one
                }
                list.append(GoalChange(at: at, goal: goal))
            }
            guard !list.isEmpty else { throw reader.failure("a goal has no changes") }
            changes[key] = list
        }
        goals = GoalBook(changes: changes)
    }
}

extension AthleteEntry {
    /// The day's year, month and day, then each value as an optional count, the zones as an optional array.
    func write(to writer: inout BinaryWriter) {
        writer.int(Int64(from.year))
        writer.count(from.month)
        writer.count(from.day)
        for value in [maxHeartRate, restingHeartRate, thresholdHeartRate, ftp] { writer.optional(value) { $0.count($1) } }
        writer.optional(heartRateZones) { writer, zones in writer.array(zones) { $0.count($1) } }
    }

    /// Reads what `write(to:)` wrote.
    init(reading reader: inout BinaryReader) throws(SnapshotDecodingError) {
        let year = try reader.int()
        let month = try reader.natural()
        let day = try reader.natural()
        guard let from = Int(exactly: year).flatMap({ LocalDate(year: $0, month: month, day: day) }) else { throw reader.failure("an athlete setting's day is not a date") }
        var values: [Int?] = []
        for _ in 0..<4 { values.append(try reader.bool() ? try reader.natural() : nil) }
        var zones: [Int]?
        if try reader.bool() {
            var read: [Int] = []
            for _ in 0..<(try reader.count()) { read.append(try reader.natural()) }
            zones = read
        }
        self.init(from: from, maxHeartRate: values[0], restingHeartRate: values[1], thresholdHeartRate: values[2], ftp: values[3], heartRateZones: zones)
    }
}

extension Todo {
    /// Appends every stored property in the snapshot order.
    public func write(to writer: inout BinaryWriter) {
        writer.identifier(id)
        writer.count(number)
        writer.string(title)
        writer.array(tags) { $0.string($1) }
        writer.optional(priority) { $0.byte(UInt8($1.rank)) }
        writer.optional(due) { $1.write(to: &$0) }
        writer.optional(note) { $0.string($1) }
        writer.optional(wait) { $1.write(to: &$0) }
        writer.optional(series) { $0.identifier($1) }
        writer.bool(completed)
        writer.optional(completedAt) { $0.int($1) }
        writer.int(createdAt)
        writer.int(updatedAt)
        writer.bool(deleted)
        writer.count(version)
        writer.optional(origin) { writer, origin in
            writer.string(origin.tool.rawValue)
            writer.string(origin.id)
            writer.optional(origin.createdAt) { $0.int($1) }
        }
        writer.optional(project) { $0.string($1) }
        writer.array(after) { $0.identifier($1) }
        writer.array(annotations) { writer, annotation in
            writer.identifier(annotation.id)
            writer.int(annotation.at)
            writer.string(annotation.text)
        }
        writer.array(intervals) { writer, interval in
            writer.int(interval.start)
            writer.optional(interval.end) { $0.int($1) }
        }
    }

    /// Reads one todo; written out field by field (no closures) because it runs once per todo at start-up.
    public init(reading reader: inout BinaryReader) throws(SnapshotDecodingError) {
        let id = try reader.identifier()
        let number = try reader.natural()
        let title = try reader.string()
        let tagCount = try reader.count()
        var tags: [String] = []
        if tagCount > 0 {
            tags.reserveCapacity(tagCount)
            for _ in 0..<tagCount { tags.append(try reader.string()) }
        }
        let priority = try reader.bool() ? try Priority(reading: &reader) : nil
        let due = try reader.bool() ? try Due(reading: &reader) : nil
        let note = try reader.bool() ? try reader.string() : nil
        let wait = try reader.bool() ? try Due(reading: &reader) : nil
        let series = try reader.bool() ? try reader.identifier() : nil
        let completed = try reader.bool()
        let completedAt = try reader.bool() ? try reader.int() : nil
        let createdAt = try reader.int()
        let updatedAt = try reader.int()
        let deleted = try reader.bool()
        let version = try reader.natural()
        let origin = try reader.bool() ? try TodoOrigin(reading: &reader) : nil
        let project = try reader.bool() ? try reader.string() : nil
        let afterCount = try reader.count()
        var after: [String] = []
        for _ in 0..<afterCount { after.append(try reader.identifier()) }
        let annotationCount = try reader.count()
        var annotations: [Annotation] = []
        for _ in 0..<annotationCount {
            annotations.append(Annotation(id: try reader.identifier(), at: try reader.int(), text: try reader.string()))
        }
        let intervalCount = try reader.count()
        var intervals: [WorkInterval] = []
        for _ in 0..<intervalCount {
            intervals.append(WorkInterval(start: try reader.int(), end: try reader.bool() ? try reader.int() : nil))
        }
        self.init(
            id: id, number: number, title: title, tags: tags, priority: priority, due: due, note: note,
            wait: wait, series: series, completed: completed, completedAt: completedAt, createdAt: createdAt, updatedAt: updatedAt,
            deleted: deleted, version: version, origin: origin, project: project, after: after,
            annotations: annotations, intervals: intervals
        )
    }
}

extension Record {
    /// Appends every stored property in the snapshot order; the distance as its IEEE 754 bit pattern.
    public func write(to writer: inout BinaryWriter) {
        writer.identifier(id)
        writer.count(number)
        writer.string(name)
        writer.string(category)
        writer.count(durationSeconds)
        writer.optional(distanceMeters) { $0.uint($1.bitPattern) }
        writer.optional(place) { $0.string($1) }
        writer.int(date)
        writer.optional(note) { $0.string($1) }
        writer.byte(source == .local ? 0 : 1)
        writer.int(createdAt)
        writer.int(updatedAt)
        writer.bool(deleted)
        writer.count(version)
        writer.optional(track) { $1.write(to: &$0) }
        writer.optional(effort) { $0.count($1) }
        writer.optional(gear) { $0.identifier($1) }
    }

    /// Reads one record, field by field like `Todo.init(reading:)`.
    public init(reading reader: inout BinaryReader) throws(SnapshotDecodingError) {
        let id = try reader.identifier()
        let number = try reader.natural()
        let name = try reader.string()
        let category = try reader.string()
        let durationSeconds = try reader.natural()
        let distanceMeters = try reader.bool() ? Double(bitPattern: try reader.uint()) : nil
        let place = try reader.bool() ? try reader.string() : nil
        let date = try reader.int()
        let note = try reader.bool() ? try reader.string() : nil
        let source: RecordSource
        switch try reader.byte() {
        case 0: source = .local
        case 1: source = .import
        default: throw reader.failure("unknown record source")
        }
        let createdAt = try reader.int()
        let updatedAt = try reader.int()
        let deleted = try reader.bool()
        let version = try reader.natural()
        let track = try reader.bool() ? try TrackSummary(reading: &reader) : nil
        let effort = try reader.bool() ? try reader.natural() : nil
        let gear = try reader.bool() ? try reader.identifier() : nil
        self.init(
            id: id, number: number, name: name, category: category, durationSeconds: durationSeconds,
            distanceMeters: distanceMeters, place: place, date: date, note: note, source: source,
            createdAt: createdAt, updatedAt: updatedAt, deleted: deleted, version: version, track: track, effort: effort,
            gear: gear
        )
    }
}

extension TrackSummary {
    /// The hash and format as strings, moving seconds, the gain as IEEE 754 bits, then each effort's
    /// metres and seconds' bits; then the analysis version and the optional sensor figures (format 8), then the optional file part
    /// (index, count, kind; format 10).
    func write(to writer: inout BinaryWriter) {
        writer.string(sha256)
        writer.string(format)
        writer.count(movingSeconds)
        writer.optional(elevationGainMeters) { $0.uint($1.bitPattern) }
        writer.array(bestEfforts) { writer, effort in
            writer.count(effort.meters)
            writer.uint(effort.seconds.bitPattern)
        }
        writer.count(analysisVersion)
        writer.optional(sensors) { writer, sensors in
            for (_, path) in TrackPayload.sensorKeys {
                writer.optional(sensors[keyPath: path]) { $0.count($1) }
            }
        }
        writer.optional(part) { writer, part in
            writer.count(part.index)
            writer.count(part.count)
            writer.string(part.kind.rawValue)
        }
    }

    /// Reads what `write(to:)` wrote.
    init(reading reader: inout BinaryReader) throws(SnapshotDecodingError) {
        let sha256 = try reader.string()
        let format = try reader.string()
        let moving = try reader.natural()
        let gain = try reader.bool() ? Double(bitPattern: try reader.uint()) : nil
        var efforts: [TrackEffort] = []
        for _ in 0..<(try reader.count()) {
            let meters = try reader.natural()
            efforts.append(TrackEffort(meters: meters, seconds: Double(bitPattern: try reader.uint())))
        }
        let analysis = try reader.natural()
        var sensors: SensorSummary?
        if try reader.bool() {
            var read = SensorSummary()
            for (_, path) in TrackPayload.sensorKeys {
                read[keyPath: path] = try reader.bool() ? try reader.natural() : nil
            }
            sensors = read
        }
        var part: FilePart?
        if try reader.bool() {
            let index = try reader.natural()
            let count = try reader.natural()
            let raw = try reader.string()
            guard let kind = FilePart.Kind(rawValue: raw) else { throw reader.failure("unknown file part '\(raw)'") }
            part = FilePart(index: index, count: count, kind: kind)
        }
        self.init(
            sha256: sha256, format: format, movingSeconds: moving, elevationGainMeters: gain, bestEfforts: efforts,
            sensors: sensors, analysisVersion: analysis, part: part
        )
    }
}

extension TodoOrigin {
    /// Reads the tool's name, the id there and the optional creation time.
    init(reading reader: inout BinaryReader) throws(SnapshotDecodingError) {
        let raw = try reader.string()
        guard let tool = Tool(rawValue: raw) else { throw reader.failure("unknown import tool '\(raw)'") }
        let id = try reader.string()
        let createdAt = try reader.bool() ? try reader.int() : nil
        self.init(tool: tool, id: id, createdAt: createdAt)
    }
}

extension Priority {
    /// Reads a priority stored as its rank.
    init(reading reader: inout BinaryReader) throws(SnapshotDecodingError) {
        let rank = Int(try reader.byte())
        guard let value = Priority.allCases.first(where: { $0.rank == rank }) else { throw reader.failure("unknown priority rank \(rank)") }
        self = value
    }
}

extension Due {
    /// A kind byte (0 date, 1 instant), then the date's year, month and day or the instant.
    func write(to writer: inout BinaryWriter) {
        switch self {
        case .date(let date):
            writer.byte(0)
            writer.int(Int64(date.year))
            writer.count(date.month)
            writer.count(date.day)
        case .instant(let ms):
            writer.byte(1)
            writer.int(ms)
        }
    }

    /// Reads what `write(to:)` wrote.
    init(reading reader: inout BinaryReader) throws(SnapshotDecodingError) {
        switch try reader.byte() {
        case 0:
            let year = try reader.int()
            let month = try reader.natural()
            let day = try reader.natural()
            guard let date = LocalDate(year: Int(truncatingIfNeeded: year), month: month, day: day) else { throw reader.failure("impossible due date") }
            self = .date(date)
        case 1:
            self = .instant(try reader.int())
        default:
            throw reader.failure("unknown due kind")
        }
    }
}

extension Series {
    /// Appends every stored property in the snapshot order; the rule as its stored text.
    func write(to writer: inout BinaryWriter) {
        writer.identifier(id)
        writer.string(fields.rule.period.description)
        writer.string(fields.rule.anchor.rawValue)
        fields.start.write(to: &writer)
        writer.optional(fields.until) { Due.date($1).write(to: &$0) }
        writer.string(fields.title)
        writer.array(fields.tags) { $0.string($1) }
        writer.optional(fields.priority) { $0.byte(UInt8($1.rank)) }
        writer.optional(fields.note) { $0.string($1) }
        writer.bool(ended)
        writer.int(createdAt)
        writer.int(updatedAt)
        writer.count(version)
    }

    /// Reads what `write(to:)` wrote.
    init(reading reader: inout BinaryReader) throws(SnapshotDecodingError) {
        let id = try reader.identifier()
        let periodText = try reader.string()
        guard let period = try? RecurrencePeriod.parse(periodText) else { throw reader.failure("unknown period '\(periodText)'") }
        guard let anchor = RecurrenceAnchor(rawValue: try reader.string()) else { throw reader.failure("unknown recurrence anchor") }
        let start = try Due(reading: &reader)
        var until: LocalDate?
        if try reader.bool() {
            guard case .date(let date) = try Due(reading: &reader) else { throw reader.failure("series end is not a date") }
            until = date
        }
        let title = try reader.string()
        var tags: [String] = []
        for _ in 0..<(try reader.count()) { tags.append(try reader.string()) }
        let priority = try reader.bool() ? try Priority(reading: &reader) : nil
        let note = try reader.bool() ? try reader.string() : nil
        let ended = try reader.bool()
        let createdAt = try reader.int()
        let updatedAt = try reader.int()
        let version = try reader.natural()
        self.init(
            id: id,
            fields: SeriesFields(rule: RecurrenceRule(period: period, anchor: anchor), start: start, until: until, title: title, tags: tags, priority: priority, note: note),
            ended: ended, createdAt: createdAt, updatedAt: updatedAt, version: version
        )
    }
}

extension Gear {
    /// Every stored property in the snapshot order; the retirement distance as its IEEE 754 bit pattern.
    func write(to writer: inout BinaryWriter) {
        writer.identifier(id)
        writer.count(number)
        writer.string(name)
        writer.string(category)
        writer.optional(retireAtMeters) { $0.uint($1.bitPattern) }
        writer.bool(retired)
        writer.bool(removed)
        writer.int(createdAt)
        writer.int(updatedAt)
    }

    /// Reads what `write(to:)` wrote.
    init(reading reader: inout BinaryReader) throws(SnapshotDecodingError) {
        let id = try reader.identifier()
        let number = try reader.natural()
        let name = try reader.string()
        let category = try reader.string()
        let retireAt = try reader.bool() ? Double(bitPattern: try reader.uint()) : nil
        let retired = try reader.bool()
        let removed = try reader.bool()
        let createdAt = try reader.int()
        let updatedAt = try reader.int()
        self.init(
            id: id, number: number, name: name, category: category, retireAtMeters: retireAt, retired: retired, removed: removed,
            createdAt: createdAt, updatedAt: updatedAt
        )
    }

    /// Why this gear cannot have been folded from valid events; nil when every value is in range.
    var snapshotProblem: String? {
        if let problem = SnapshotLimits.identifier(id) { return problem }
        if let problem = SnapshotLimits.counter(number, "number") { return problem }
        if let problem = GearLimits.nameProblem(name) ?? GearLimits.retireProblem(retireAtMeters) { return problem }
        if (try? Validation.category(category)) != category { return "its category is not a category" }
        if let problem = SnapshotLimits.instant(createdAt, "creation time") { return problem }
        return SnapshotLimits.instant(updatedAt, "update time")
    }
}
