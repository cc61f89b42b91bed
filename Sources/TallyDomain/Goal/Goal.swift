import TallyEssentials

/// The calendar period a goal counts over, in the local zone.
public enum GoalPeriod: String, Sendable, CaseIterable, Comparable {
    /// An ISO week, Monday to Sunday (as `stats --by week`).
    case week
    case month
    case year

    public static func < (lhs: GoalPeriod, rhs: GoalPeriod) -> Bool {
        allCases.firstIndex(of: lhs)! < allCases.firstIndex(of: rhs)!
    }

    /// The first day of the period holding `day`.
    public func start(of day: LocalDate) -> LocalDate {
        switch self {
        case .week: day.adding(days: 1 - day.weekday)
        case .month: LocalDate(uncheckedYear: day.year, month: day.month, day: 1)
        case .year: LocalDate(uncheckedYear: day.year, month: 1, day: 1)
        }
    }

    /// The first day of the period after the one starting on `start`.
    public func next(_ start: LocalDate) -> LocalDate {
        switch self {
        case .week: start.adding(days: 7)
        case .month: start.month == 12 ? LocalDate(uncheckedYear: start.year + 1, month: 1, day: 1) : LocalDate(uncheckedYear: start.year, month: start.month + 1, day: 1)
        case .year: LocalDate(uncheckedYear: start.year + 1, month: 1, day: 1)
        }
    }

    /// The first day of the period before the one starting on `start`.
    public func previous(_ start: LocalDate) -> LocalDate {
        switch self {
        case .week: start.adding(days: -7)
        case .month: start.month == 1 ? LocalDate(uncheckedYear: start.year - 1, month: 12, day: 1) : LocalDate(uncheckedYear: start.year, month: start.month - 1, day: 1)
        case .year: LocalDate(uncheckedYear: start.year - 1, month: 1, day: 1)
        }
    }

    /// `2026-W47`, `2026-11`, `2026` for the period starting on `start`.
    public func label(_ start: LocalDate) -> String {
        switch self {
        case .week:
            let week = start.isoWeek
            return "\(week.year)-W\(ValueMath.pad(week.week, 2))"
        case .month: return "\(start.year)-\(ValueMath.pad(start.month, 2))"
        case .year: return String(start.year)
        }
    }
}

/// What a goal measures.
public enum GoalMetric: String, Sendable, CaseIterable, Comparable {
    /// Metres.
    case distance
    /// Seconds.
    case time
    /// Activities.
    case count

    public static func < (lhs: GoalMetric, rhs: GoalMetric) -> Bool {
        allCases.firstIndex(of: lhs)! < allCases.firstIndex(of: rhs)!
    }

    /// The allowed targets.
    public var limits: ClosedRange<Double> {
        switch self {
        case .distance: 100...100_000_000
        case .time: 60...31_622_400
        case .count: 1...10_000
        }
    }

    /// How much `record` adds to a goal of this metric.
    public func amount(_ record: Record) -> Double {
        switch self {
        case .distance: record.distanceMeters ?? 0
        case .time: Double(record.durationSeconds)
        case .count: 1
        }
    }
}

/// Which goal: its period, metric and category (nil: every category). One goal per key.
public struct GoalKey: Sendable, Hashable, Comparable {
    public var per: GoalPeriod
    public var metric: GoalMetric
    public var category: String?

    public init(per: GoalPeriod, metric: GoalMetric, category: String? = nil) {
        self.per = per
        self.metric = metric
        self.category = category
    }

    public static func < (lhs: GoalKey, rhs: GoalKey) -> Bool {
        if lhs.per != rhs.per { return lhs.per < rhs.per }
        if lhs.metric != rhs.metric { return lhs.metric < rhs.metric }
        return (lhs.category ?? "") < (rhs.category ?? "")
    }

    /// `week distance running`, `month count`: how sync names the goal.
    public var description: String { "\(per.rawValue) \(metric.rawValue)" + (category.map { " " + $0 } ?? "") }
}

/// A goal: reach `target` (metres, seconds or activities) in every period from `from` on.
public struct Goal: Sendable, Equatable {
    public var key: GoalKey
    public var target: Double
    /// The day the goal was first set: its history starts with the period holding it.
    public var from: LocalDate

    public init(key: GoalKey, target: Double, from: LocalDate) {
        self.key = key
        self.target = target
        self.from = from
    }
}

/// One change of a goal as the log recorded it: the goal from `at` on, or its removal.
public struct GoalChange: Sendable, Equatable {
    /// When the event was recorded (milliseconds since the epoch).
    public var at: Int64
    /// The goal as set then; nil when it was removed.
    public var goal: Goal?

    public init(at: Int64, goal: Goal?) {
        self.at = at
        self.goal = goal
    }
}

/// Every goal in force, by key, and each goal's dated history of targets.
public struct GoalBook: Sendable, Equatable {
    /// The stream of `goal.set` and `goal.removed`.
    public static let stream = "goals"
    /// At most this many goals.
    public static let maxGoals = 100

    public private(set) var goals: [GoalKey: Goal] = [:]
    /// Per key, every change in log order (a set that repeats the goal as it stands is not kept).
    public private(set) var changes: [GoalKey: [GoalChange]] = [:]

    public init() {}

    /// The book a list of changes per key folds to: each key's goal is its last change's.
    init(changes: [GoalKey: [GoalChange]]) {
        self.changes = changes
        for (key, list) in changes { goals[key] = list.last?.goal }
    }

    /// The goals in key order.
    public var sorted: [Goal] { goals.values.sorted { $0.key < $1.key } }

    public subscript(key: GoalKey) -> Goal? { goals[key] }

    mutating func set(_ goal: Goal, at time: Int64) {
        if goals[goal.key] != goal { changes[goal.key, default: []].append(GoalChange(at: time, goal: goal)) }
        goals[goal.key] = goal
    }

    mutating func remove(_ key: GoalKey, at time: Int64) {
        guard goals[key] != nil else { return }
        goals[key] = nil
        changes[key, default: []].append(GoalChange(at: time, goal: nil))
    }

    /// The target in force for the period of `key.per` from `start` up to (not including) `end`,
    /// or nil when the goal was not in force then.
    ///
    /// A period is judged by the target in force at its end (the first instant of `end` in
    /// `zone`): the last change recorded before then decides, as `tally goal --as-of` on the
    /// period's last day shows it. A removal leaves the period without a goal; a set counts when
    /// the period is not before that goal's first day. A period that ended before any change was
    /// recorded (a goal set with `--from` in the past) takes the target of the first set whose first
    /// day reaches back to it, as it stood at the end of the period that set was recorded in (so a
    /// target corrected the same week is the one the earlier weeks are measured by, and a set removed
    /// or undone within its period claims nothing).
    /// - Complexity: O(changes of the key).
    public func target(of key: GoalKey, start: LocalDate, end: LocalDate, zone: Zone) -> Double? {
        guard let list = changes[key], !list.isEmpty else { return nil }
        if let decided = inForce(list, key: key, start: start, end: end, zone: zone) { return decided }
        // Before any change: the first set reaching back whose goal still reached back at the end of
        // its own period (a set removed or undone within its period claims nothing).
        for change in list {
            guard let goal = change.goal, key.per.start(of: goal.from) <= start else { continue }
            let recorded = min(max(change.at, Timestamp.supportedRange.lowerBound), Timestamp.supportedRange.upperBound)
            let setIn = key.per.start(of: LocalDate.containing(recorded, in: zone))
            if let target = inForce(list, key: key, start: start, end: key.per.next(setIn), zone: zone) ?? nil { return target }
        }
        return nil
    }

    /// The target the last change before `end` leaves in force for a period from `start`: nil when no
    /// change came before `end`, `.some(nil)` when the goal was removed or began after `start`.
    private func inForce(_ list: [GoalChange], key: GoalKey, start: LocalDate, end: LocalDate, zone: Zone) -> Double?? {
        let closing = end.startInstant(in: zone)
        guard let last = list.last(where: { $0.at < closing }) else { return nil }
        guard let goal = last.goal, key.per.start(of: goal.from) <= start else { return .some(nil) }
        return goal.target
    }
}

/// Limits and payloads of the goal events (`goal.set`, `goal.removed`).
public enum GoalPayload {
    public static func encode(_ goal: Goal) -> JSONObject {
        var object = key(goal.key)
        object["target"] = .double(goal.target)
        object["from"] = .string(goal.from.description)
        return object
    }

    public static func key(_ key: GoalKey) -> JSONObject {
        ["per": .string(key.per.rawValue), "metric": .string(key.metric.rawValue), "category": key.category.map { .string($0) } ?? .null]
    }

    /// The key of a payload; nil when a member is missing or not one of its values.
    public static func decodeKey(_ object: JSONObject) -> GoalKey? {
        guard let per = object["per"]?.stringValue.flatMap(GoalPeriod.init(rawValue:)),
              let metric = object["metric"]?.stringValue.flatMap(GoalMetric.init(rawValue:)),
              let category = object["category"] else { return nil }
        if category.isNull { return GoalKey(per: per, metric: metric) }
        guard let text = category.stringValue else { return nil }
        return GoalKey(per: per, metric: metric, category: text)
    }

    public static func decode(_ object: JSONObject) -> Goal? {
        guard let key = decodeKey(object), let target = object["target"]?.doubleValue,
              let from = object["from"]?.stringValue.flatMap(LocalDate.parse) else { return nil }
        return Goal(key: key, target: target, from: from)
    }

    /// Why a goal breaks the limits every door shares, or nil.
    public static func problem(_ goal: Goal) -> String? {
        if let reason = keyProblem(goal.key) { return reason }
        guard goal.target.isFinite, goal.key.metric.limits.contains(goal.target) else {
            return "a goal's target is outside \(goal.key.metric.limits.lowerBound)-\(goal.key.metric.limits.upperBound)"
        }
        if goal.key.metric == .count, goal.target.rounded() != goal.target { return "a goal's count is not a whole number" }
        return goal.from.isInSupportedYears ? nil : "a goal's first day is outside the years 0001-9999"
    }

    public static func keyProblem(_ key: GoalKey) -> String? {
        guard let category = key.category else { return nil }
        return (try? Validation.category(category)) == category ? nil : "a goal's category is not [a-z][a-z0-9-]{0,31}"
    }
}

/// One period of a goal: what was done against the target then in force.
public struct GoalPeriodResult: Sendable, Equatable {
    public var start: LocalDate
    /// The first day after the period.
    public var end: LocalDate
    public var label: String
    public var done: Double
    /// The target in force for the period (see `GoalBook.target`); nil when the goal was not.
    public var target: Double?

    /// Whether the target was reached; false without one.
    public var met: Bool { target.map { done >= $0 } ?? false }
    /// What was left to reach the target; 0 without one.
    public var left: Double { target.map { max(0, $0 - done) } ?? 0 }
}

/// A goal's current period and its past periods, newest first.
public struct GoalProgress: Sendable, Equatable {
    public var goal: Goal
    public var current: GoalPeriodResult
    /// The periods from the goal's first one up to the one before `current`, newest first, at most
    /// `limit`, each judged by the target in force for it.
    public var history: [GoalPeriodResult]
    /// How many past periods there are in all (`history` may hold fewer).
    public var pastPeriods: Int

    /// Progress of every goal on `today`, over the live records of `model`.
    /// - Complexity: O(records × goals) plus the periods shown times the goal's changes.
    public static func of(_ model: ReadModel, today: LocalDate, zone: Zone, limit: Int) -> [GoalProgress] {
        let goals = model.goals.sorted
        guard !goals.isEmpty else { return [] }
        var days: [(LocalDate, Record)] = []
        for index in 0..<model.records.count {
            let record = model.records[index]
            if !record.deleted { days.append((LocalDate.containing(record.date, in: zone), record)) }
        }
        return goals.map { goal in
            let per = goal.key.per
            let currentStart = per.start(of: today)
            let firstStart = min(per.start(of: goal.from), currentStart)
            var sums: [LocalDate: Double] = [:]
            for (day, record) in days where day >= firstStart && (goal.key.category == nil || goal.key.category == record.category) {
                sums[per.start(of: day), default: 0] += goal.key.metric.amount(record)
            }
            func result(_ start: LocalDate, target: Double?) -> GoalPeriodResult {
                GoalPeriodResult(start: start, end: per.next(start), label: per.label(start), done: sums[start] ?? 0, target: target)
            }
            var history: [GoalPeriodResult] = []
            var count = 0
            var start = currentStart
            while start > firstStart {
                start = per.previous(start)
                if history.count < limit {
                    history.append(result(start, target: model.goals.target(of: goal.key, start: start, end: per.next(start), zone: zone)))
                }
                count += 1
                if count > 10_000 { break }
            }
            return GoalProgress(goal: goal, current: result(currentStart, target: goal.target), history: history, pastPeriods: count)
        }
    }
}
