import TallyDomain
@testable import TallyEssentials

/// The seedable generator generated cases use, so they replay exactly.
public typealias SeededRandom = SplitMix64

/// Random but valid event logs for property tests: every event type of the catalog, chained hashes.
public struct LogGenerator {
    /// The event types this generator can produce; a test checks it covers `EventCatalog.types`.
    public static let coveredTypes: Set<String> = [
        "todo.created", "todo.edited", "todo.completed", "todo.reopened", "todo.deleted", "todo.restored",
        "record.logged", "record.edited", "record.deleted", "record.restored", "filter.saved", "filter.reset", "history.undone", "history.redone",
        "history.redacted", "series.started", "series.changed", "series.ended", "series.resumed", "athlete.set",
        "gear.added", "gear.changed", "gear.defaulted", "goal.set", "goal.removed",
        "todo.annotated", "todo.denotated", "todo.started", "todo.stopped", "todo.unstarted",
    ]

    private var random: SeededRandom
    private var factory = EventFactory()
    private var todos: [String] = []
    private var records: [String] = []
    private var series: [String] = []
    private var gears: [String] = []
    private var streamCounter = 0
    /// Annotations added so far, per todo (for removals), and the start of each todo's running interval.
    private var annotations: [String: [String]] = [:]
    private var starts: [String: [Int64]] = [:]

    public init(seed: UInt64) {
        random = SeededRandom(seed: seed)
    }

    /// A generator whose events continue after `events` (seq, versions, chain, clock, known items).
    public init(seed: UInt64, continuing events: [EventEnvelope]) {
        random = SeededRandom(seed: seed)
        factory = EventFactory(continuing: events)
        for event in events {
            if event.type == "todo.created" { todos.append(event.stream) }
            if event.type == "record.logged" { records.append(event.stream) }
            if event.type == "series.started" { series.append(event.stream) }
            if event.type == "gear.added" { gears.append(event.stream) }
        }
        streamCounter = todos.count + records.count + series.count + gears.count
    }

    /// `count` record events only, continuing the log generated so far.
    public mutating func recordEvents(_ count: Int) -> [EventEnvelope] {
        (0..<count).map { _ in nextRecordEvent(roll: Int.random(in: 0..<30, using: &random)) }
    }

    /// `count` series events and todos that wait or belong to a series, continuing the log generated so far.
    public mutating func seriesEvents(_ count: Int) -> [EventEnvelope] {
        (0..<count).map { _ in
            let roll = Int.random(in: 0..<25, using: &random)
            guard roll < 15 else {
                let stream = newStream()
                todos.append(stream)
                var fields = fields()
                fields.series = series.randomElement(using: &random)
                return factory.make(.todoCreated(fields), stream: stream)
            }
            return nextSeriesEvent(roll: roll)
        }
    }

    /// `count` gear events (added, changed, defaults, records moved to gear), continuing the log generated so far.
    public mutating func gearEvents(_ count: Int) -> [EventEnvelope] {
        (0..<count).map { gearEvent(roll: $0 % 4) }
    }

    /// `count` goal events (set and removed), continuing the log generated so far.
    public mutating func goalEvents(_ count: Int) -> [EventEnvelope] {
        (0..<count).map { _ in goalEvent() }
    }

    /// `count` envelopes continuing the log generated so far.
    public mutating func events(_ count: Int) -> [EventEnvelope] {
        (0..<count).map { _ in next() }
    }

    /// A `history.redacted` event naming `field` of a random todo (the payloads are left as they
    /// are: a fold reads the erasure from this event alone).
    public mutating func redactionEvent(field: String = "note") -> EventEnvelope? {
        guard let stream = todos.randomElement(using: &random) else { return nil }
        return factory.make(.historyRedacted(RedactionFacts(stream: stream, field: field, events: [], reason: "generated")), stream: HistoryStream.name)
    }

    /// Sets the clock so the next event is recorded at `ms` plus one second (for non-monotonic logs).
    public mutating func setClock(_ ms: Int64) {
        factory.clock = ms
    }

    /// `count` annotation and time events on the todos generated so far (there must be some).
    public mutating func timeEvents(_ count: Int) -> [EventEnvelope] {
        (0..<count).map { _ in timeEvent() }
    }

    /// An annotation, its removal, or a start, stop or taken-back start of one of the todos.
    private mutating func timeEvent() -> EventEnvelope {
        let stream = todos.randomElement(using: &random)!
        let roll = Int.random(in: 0..<10, using: &random)
        switch roll {
        case 0..<3:
            let id = "a\(hex(7))-0000-4000-8000-\(hex(12))"
            annotations[stream, default: []].append(id)
            let text = ["called them", "waiting for a reply", "Zavolat zítra", "half done"].randomElement(using: &random)!
            // Some are dated before their event (imported with the source's date).
            let at = factory.clock + 1000 - (Bool.random(using: &random) ? 0 : Int64.random(in: 1...100_000_000, using: &random))
            return factory.make(.todoAnnotated(Annotation(id: id, at: at, text: text)), stream: stream)
        case 3:
            let id = annotations[stream]?.randomElement(using: &random) ?? "a\(hex(7))-0000-4000-8000-\(hex(12))"
            return factory.make(.todoDenotated(id: id), stream: stream)
        case 4..<6:
            let start = factory.clock + 1000 - Int64.random(in: 0...3_600_000, using: &random)
            starts[stream, default: []].append(start)
            let end: Int64? = roll == 5 && Bool.random(using: &random) ? start + Int64.random(in: 0...7_200_000, using: &random) : nil
            return factory.make(.todoStarted(start: start, end: end), stream: stream)
        case 6..<9:
            return factory.make(.todoStopped(at: factory.clock + 1000 - Int64.random(in: 0...600_000, using: &random)), stream: stream)
        default:
            let start = starts[stream]?.randomElement(using: &random) ?? factory.clock
            return factory.make(.todoUnstarted(start: start), stream: stream)
        }
    }

    /// One event: mostly changes to existing todos, a quarter creations, some settings, some records.
    private mutating func next() -> EventEnvelope {
        let roll = Int.random(in: 0..<168, using: &random)
        if roll >= 166 { return goalEvent() }
        if roll >= 160 { return gearEvent(roll: (roll - 160) % 4) }
        if roll >= 148, !todos.isEmpty { return timeEvent() }
        if roll >= 145 { return athleteEvent() }
        if roll >= 130 { return nextSeriesEvent(roll: roll - 130) }
        if roll >= 100 { return nextRecordEvent(roll: roll - 100) }
        if todos.isEmpty || roll < 25 {
            let stream = newStream()
            todos.append(stream)
            return factory.make(.todoCreated(fields()), stream: stream)
        }
        let stream = todos.randomElement(using: &random)!
        switch roll {
        case 25..<45:
            var edit = changes()
            // Some wait for the first todo, chosen from the title so the random sequence stays as it was.
            if let title = edit.title, title.count % 5 == 1, stream != todos[0] { edit.after = [todos[0]] }
            return factory.make(.todoEdited(edit), stream: stream)
        case 45..<60: return factory.make(.todoCompleted, stream: stream)
        case 60..<70: return factory.make(.todoReopened, stream: stream)
        case 70..<78: return factory.make(.todoDeleted, stream: stream)
        case 78..<84: return factory.make(.todoRestored, stream: stream)
        case 84..<89:
            let scope = FilterScope.allCases.randomElement(using: &random)!
            let filter: JSONObject = ["status": .string(["active", "all", "completed"].randomElement(using: &random)!), "limit": .int(Int64.random(in: 1...50, using: &random))]
            return factory.make(.filterSaved(scope: scope, filter: filter), stream: scope.stream)
        case 89..<92:
            let scope = FilterScope.allCases.randomElement(using: &random)!
            return factory.make(.filterReset(scope: scope), stream: scope.stream)
        case 92..<96:
            return factory.make(.historyUndone(command: "c\(hex(7))-0000-4000-8000-000000000000"), stream: "history")
        case 99:
            // About an item the log does not hold (the fold passes over it): tests that rename
            // streams would otherwise find a payload naming the old id.
            let facts = RedactionFacts(stream: "\(hex(8))-0000-4000-8000-ffffffffffff", field: "note", events: [], reason: nil)
            return factory.make(.historyRedacted(facts), stream: HistoryStream.name)
        default:
            return factory.make(.historyRedone(command: "c\(hex(7))-0000-4000-8000-000000000000"), stream: "history")
        }
    }

    /// An athlete entry on one of a few days, some values set, some zones.
    private mutating func athleteEvent() -> EventEnvelope {
        let day = LocalDate(year: 2025, month: Int.random(in: 1...12, using: &random), day: 1)!
        let entry = AthleteEntry(
            from: day, maxHeartRate: Bool.random(using: &random) ? Int.random(in: 180...200, using: &random) : nil,
            restingHeartRate: Bool.random(using: &random) ? Int.random(in: 40...60, using: &random) : nil,
            thresholdHeartRate: Bool.random(using: &random) ? Int.random(in: 150...175, using: &random) : nil,
            ftp: Bool.random(using: &random) ? Int.random(in: 150...400, using: &random) : nil,
            heartRateZones: Bool.random(using: &random) ? [80, 88, 94, 100] : nil
        )
        return factory.make(.athleteSet(entry), stream: AthleteHistory.stream)
    }

    /// A gear event by `roll` in 0..<4: gear added, changed, made a default, or a record moved to it.
    private mutating func gearEvent(roll: Int) -> EventEnvelope {
        // A few pieces of gear, as a person has: later rolls change them instead.
        if gears.isEmpty || (roll == 0 && gears.count < 3) {
            let stream = newStream()
            gears.append(stream)
            let fields = GearFields(
                name: "shoe \(hex(3)) ✓", category: category(),
                retireAtMeters: Bool.random(using: &random) ? nil : Double(Int.random(in: 1...2_000, using: &random)) * 1_000
            )
            return factory.make(.gearAdded(fields), stream: stream)
        }
        let gear = gears.randomElement(using: &random)!
        switch roll {
        case 1:
            var changes = GearChanges()
            while changes.isEmpty {
                if Bool.random(using: &random) { changes.name = "bike \(hex(3))" }
                if Bool.random(using: &random) { changes.retireAtMeters = .some(Bool.random(using: &random) ? nil : 800_000) }
                if Bool.random(using: &random) { changes.retired = Bool.random(using: &random) }
                if Int.random(in: 0..<4, using: &random) == 0 { changes.removed = Bool.random(using: &random) }
            }
            return factory.make(.gearChanged(changes), stream: gear)
        case 2:
            return factory.make(.gearDefaulted(category: category(), gear: Bool.random(using: &random) ? gear : nil), stream: GearBook.defaultsStream)
        default:
            guard let record = records.randomElement(using: &random) else { return factory.make(.gearChanged(GearChanges(retired: true)), stream: gear) }
            return factory.make(.recordEdited(RecordChanges(gear: .some(Bool.random(using: &random) ? gear : nil))), stream: record)
        }
    }

    /// A goal set (two thirds) or removed, on a few keys.
    private mutating func goalEvent() -> EventEnvelope {
        let key = GoalKey(
            per: GoalPeriod.allCases.randomElement(using: &random)!, metric: GoalMetric.allCases.randomElement(using: &random)!,
            category: Bool.random(using: &random) ? nil : "run"
        )
        if Int.random(in: 0..<3, using: &random) == 0 { return factory.make(.goalRemoved(key), stream: GoalBook.stream) }
        let target: Double = switch key.metric {
        case .distance: Double(Int.random(in: 1...500, using: &random)) * 1_000
        case .time: Double(Int.random(in: 1...100, using: &random)) * 3_600
        case .count: Double(Int.random(in: 1...30, using: &random))
        }
        let from = LocalDate(year: 2025, month: Int.random(in: 1...12, using: &random), day: Int.random(in: 1...28, using: &random))!
        return factory.make(.goalSet(Goal(key: key, target: target, from: from)), stream: GoalBook.stream)
    }

    private mutating func newStream() -> String {
        streamCounter += 1
        return "\(hex(8))-0000-4000-8000-\(String(streamCounter, radix: 16).leftPadded(to: 12))"
    }

    /// A record event by `roll` in 0..<30: a third logged, then edits, deletions and restorations.
    private mutating func nextRecordEvent(roll: Int) -> EventEnvelope {
        if records.isEmpty || roll < 10 {
            let stream = newStream()
            records.append(stream)
            return factory.make(.recordLogged(recordFields()), stream: stream)
        }
        let stream = records.randomElement(using: &random)!
        switch roll {
        case 10..<20: return factory.make(.recordEdited(recordChanges()), stream: stream)
        case 20..<25: return factory.make(.recordDeleted, stream: stream)
        default: return factory.make(.recordRestored, stream: stream)
        }
    }

    /// A series event by `roll` in 0..<15: a third started, then changes, ends and resumptions.
    private mutating func nextSeriesEvent(roll: Int) -> EventEnvelope {
        if series.isEmpty || roll < 5 {
            let stream = newStream()
            series.append(stream)
            let start = due() ?? .date(LocalDate(year: 2026, month: 1, day: 31)!)
            let fields = SeriesFields(
                rule: RecurrenceRule(period: period(), anchor: Bool.random(using: &random) ? .due : .completion), start: start,
                until: Bool.random(using: &random) ? nil : LocalDate(year: 2031, month: Int.random(in: 1...12, using: &random), day: 1),
                title: title(), tags: tags(), priority: priority(), note: Bool.random(using: &random) ? nil : "series \(hex(3))"
            )
            return factory.make(.seriesStarted(fields), stream: stream)
        }
        let stream = series.randomElement(using: &random)!
        switch roll {
        case 5..<10:
            var changes = SeriesChanges()
            while changes.isEmpty {
                if Int.random(in: 0..<3, using: &random) == 0 { changes.period = period() }
                if Int.random(in: 0..<4, using: &random) == 0 { changes.anchor = Bool.random(using: &random) ? .due : .completion }
                if Int.random(in: 0..<4, using: &random) == 0 { changes.until = .some(Bool.random(using: &random) ? nil : LocalDate(year: 2032, month: 6, day: Int.random(in: 1...28, using: &random))) }
                if Int.random(in: 0..<4, using: &random) == 0 { changes.title = title() }
                if Int.random(in: 0..<4, using: &random) == 0 { changes.tags = tags() }
                if Int.random(in: 0..<4, using: &random) == 0 { changes.priority = .some(priority()) }
                if Int.random(in: 0..<4, using: &random) == 0 { changes.note = .some(Bool.random(using: &random) ? nil : "changed \(hex(3))") }
            }
            return factory.make(.seriesChanged(changes), stream: stream)
        case 10..<12: return factory.make(.seriesEnded, stream: stream)
        default: return factory.make(.seriesResumed, stream: stream)
        }
    }

    private mutating func period() -> RecurrencePeriod {
        switch Int.random(in: 0..<5, using: &random) {
        case 0: .days(Int.random(in: 1...999, using: &random))
        case 1: .weeks(Int.random(in: 1...52, using: &random))
        case 2: .months(Int.random(in: 1...24, using: &random))
        case 3: .years(Int.random(in: 1...5, using: &random))
        default: .weekdays
        }
    }

    private mutating func recordFields() -> RecordFields {
        RecordFields(
            name: title(), category: category(), durationSeconds: Int.random(in: 1...604_800, using: &random),
            distanceMeters: distance(), place: Bool.random(using: &random) ? nil : "park \(hex(2))",
            date: Fixtures.epoch + Int64.random(in: -100_000_000...100_000, using: &random) * 1000,
            note: Bool.random(using: &random) ? nil : "felt \(hex(3)) ✓",
            source: Int.random(in: 0..<4, using: &random) == 0 ? .import : .local,
            track: Int.random(in: 0..<3, using: &random) == 0 ? track() : nil,
            effort: Bool.random(using: &random) ? nil : Int.random(in: 1...10, using: &random),
            gear: gears.isEmpty || Bool.random(using: &random) ? nil : gears.randomElement(using: &random)
        )
    }

    /// A track summary as an import computes one: a hash, moving time, maybe a gain, some efforts.
    private mutating func track() -> TrackSummary {
        let efforts = BestEfforts.footDistances.prefix(Int.random(in: 0...4, using: &random)).map { meters in
            TrackEffort(meters: meters, seconds: Double(meters) / Double.random(in: 2...5, using: &random))
        }
        return TrackSummary(
            sha256: hex(64), format: ["gpx", "tcx", "fit"][Int.random(in: 0..<3, using: &random)],
            movingSeconds: Int.random(in: 0...20_000, using: &random),
            elevationGainMeters: Bool.random(using: &random) ? nil : Double(Int.random(in: 0...2_000, using: &random)),
            bestEfforts: Array(efforts),
            sensors: Bool.random(using: &random) ? nil : SensorSummary(
                averageHeartRate: Int.random(in: 100...180, using: &random), maxHeartRate: Int.random(in: 180...200, using: &random),
                averageCadence: Bool.random(using: &random) ? nil : Int.random(in: 60...100, using: &random),
                averagePower: Bool.random(using: &random) ? nil : Int.random(in: 100...300, using: &random),
                normalizedPower: Bool.random(using: &random) ? nil : Int.random(in: 100...350, using: &random)
            ),
            analysisVersion: Int.random(in: 1...2, using: &random)
        )
    }

    private mutating func recordChanges() -> RecordChanges {
        var changes = RecordChanges()
        while changes.isEmpty {
            if Int.random(in: 0..<4, using: &random) == 0 { changes.name = title() }
            if Int.random(in: 0..<4, using: &random) == 0 { changes.category = category() }
            if Int.random(in: 0..<4, using: &random) == 0 { changes.durationSeconds = Int.random(in: 1...604_800, using: &random) }
            if Int.random(in: 0..<4, using: &random) == 0 { changes.distanceMeters = .some(distance()) }
            if Int.random(in: 0..<4, using: &random) == 0 { changes.place = .some(Bool.random(using: &random) ? nil : "hill \(hex(2))") }
            if Int.random(in: 0..<4, using: &random) == 0 { changes.date = Fixtures.epoch + Int64.random(in: -100_000_000...0, using: &random) * 1000 }
            if Int.random(in: 0..<4, using: &random) == 0 { changes.note = .some(Bool.random(using: &random) ? nil : "edited \(hex(3))") }
        }
        // Some give or clear an effort, chosen from the values drawn so the random sequence stays as it was.
        let weight = (changes.name ?? changes.category ?? "").unicodeScalars.reduce(changes.durationSeconds ?? 0) { $0 + Int($1.value) }
        if weight % 3 == 1 { changes.effort = .some(weight % 4 == 0 ? nil : weight % 10 + 1) }
        return changes
    }

    private mutating func category() -> String {
        ["run", "bike", "swim", "gym", "trail-run"].randomElement(using: &random)!
    }

    private mutating func distance() -> Double? {
        switch Int.random(in: 0..<3, using: &random) {
        case 0: return nil
        case 1: return Double(Int.random(in: 0...1_000_000, using: &random))
        default: return Double(Int.random(in: 0...10_000_000, using: &random)) / 10
        }
    }

    private mutating func fields() -> TodoFields {
        var fields = TodoFields(
            title: title(), tags: tags(), priority: priority(), due: due(), note: Bool.random(using: &random) ? nil : "note \(hex(4)) ✓",
            wait: Int.random(in: 0..<4, using: &random) == 0 ? due() : nil,
            series: Int.random(in: 0..<4, using: &random) == 0 ? series.randomElement(using: &random) : nil
        )
        // Some todos are imported; chosen from the title so the random sequence stays as it was.
        let weight = fields.title.unicodeScalars.reduce(0) { $0 + Int($1.value) }
        switch weight % 4 {
        case 0: fields.origin = TodoOrigin(tool: .taskwarrior, id: "uuid-\(weight)", createdAt: Int64(weight) * 1_000)
        case 1: fields.origin = TodoOrigin(tool: .todotxt, id: String(weight % 97 + 1))
        default: break
        }
        // Some have a project, chosen the same way.
        if weight % 3 == 0 { fields.project = ["home", "home.garden", "práce.úřad"][weight % 9 / 3] }
        return fields
    }

    private mutating func changes() -> TodoChanges {
        var changes = TodoChanges()
        while changes.isEmpty {
            if Int.random(in: 0..<3, using: &random) == 0 { changes.title = title() }
            if Int.random(in: 0..<4, using: &random) == 0 { changes.tags = tags() }
            if Int.random(in: 0..<4, using: &random) == 0 { changes.priority = .some(priority()) }
            if Int.random(in: 0..<4, using: &random) == 0 { changes.due = .some(due()) }
            if Int.random(in: 0..<4, using: &random) == 0 { changes.note = .some(Bool.random(using: &random) ? nil : "edited \(hex(3))") }
            if Int.random(in: 0..<6, using: &random) == 0 { changes.wait = .some(due()) }
        }
        if let title = changes.title, title.count % 3 == 0 { changes.project = .some(title.count % 2 == 0 ? "work.q4" : nil) }
        return changes
    }

    private mutating func title() -> String {
        let words = ["Buy", "oat", "milk", "call", "Bob", "fix", "the", "bike", "Ünïcode", "日本", "a \"quoted\" word"]
        return (0..<Int.random(in: 1...5, using: &random)).map { _ in words.randomElement(using: &random)! }.joined(separator: " ")
    }

    private mutating func tags() -> [String] {
        let pool = ["home", "work", "shop", "x", "long-tag-name_1"]
        return (0..<Int.random(in: 0...3, using: &random)).map { _ in pool.randomElement(using: &random)! }
    }

    private mutating func priority() -> Priority? {
        [nil, .low, .medium, .high].randomElement(using: &random)!
    }

    private mutating func due() -> Due? {
        switch Int.random(in: 0..<3, using: &random) {
        case 0: return nil
        case 1: return .date(LocalDate(year: Int.random(in: 2020...2030, using: &random), month: Int.random(in: 1...12, using: &random), day: Int.random(in: 1...28, using: &random))!)
        default: return .instant(Fixtures.epoch + Int64.random(in: -1_000_000_000...1_000_000_000, using: &random) * 1000)
        }
    }

    private mutating func hex(_ digits: Int) -> String {
        String((0..<digits).map { _ in "0123456789abcdef".randomElement(using: &random)! })
    }
}

extension String {
    fileprivate func leftPadded(to width: Int) -> String {
        String(repeating: "0", count: max(0, width - count)) + self
    }
}
