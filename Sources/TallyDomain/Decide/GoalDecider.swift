import TallyEssentials

/// `goal set` as typed: one of distance, time and count.
public struct GoalInput: Sendable, Equatable {
    public var per: GoalPeriod
    public var distance: String?
    public var time: String?
    public var count: String?
    public var category: String?
    /// The first day whose period counts (default today, or the goal's first day when it is set already).
    public var from: String?

    public init(per: GoalPeriod, distance: String? = nil, time: String? = nil, count: String? = nil, category: String? = nil, from: String? = nil) {
        self.per = per
        self.distance = distance
        self.time = time
        self.count = count
        self.category = category
        self.from = from
    }
}

/// The goal half of the decider.
extension Decider {
    static func decideSetGoal(_ input: GoalInput, state: ReadModel, context: DecisionContext, into builder: inout DecisionBuilder) throws(DomainError) {
        let category = try input.category.map { raw throws(DomainError) in try Validation.category(raw) }
        let metric: GoalMetric
        let target: Double
        if let raw = input.distance {
            metric = .distance
            guard raw.utf8.count <= 40 else { throw .invalid(.outsideLimits(reason: "a distance goal is from 100 m to 100,000 km")) }
            do { target = Distance.toMillimetre(try Distance.parse(raw)) } catch { throw .invalid(.value(error)) }
        } else if let raw = input.time {
            metric = .time
            guard raw.utf8.count <= 40 else { throw .invalid(.outsideLimits(reason: "a time goal is from 1 minute to 8,784 hours")) }
            do { target = Double(try ActivityDuration.parse(raw)) } catch { throw .invalid(.value(error)) }
        } else {
            metric = .count
            let raw = input.count ?? ""
            let text = raw.trimming(.whitespaces)
            guard text.utf8.count <= 6, let value = Int(text), (1...10_000).contains(value) else {
                throw .invalid(.trainingValue(option: "--count", value: String(raw.prefix(40)), low: 1, high: 10_000))
            }
            target = Double(value)
        }
        guard metric.limits.contains(target) else {
            throw .invalid(.outsideLimits(reason: metric == .distance ? "a distance goal is from 100 m to 100,000 km" : "a time goal is from 1 minute to 8,784 hours"))
        }
        let key = GoalKey(per: input.per, metric: metric, category: category)
        let existing = state.goals[key]
        let from: LocalDate
        if let raw = input.from {
            from = LocalDate.containing(try Validation.activityDate(raw, now: context.now, zone: context.zone), in: context.zone)
        } else {
            from = existing?.from ?? LocalDate.containing(context.now, in: context.zone)
        }
        if existing == nil, state.goals.goals.count >= GoalBook.maxGoals {
            throw .invalid(.outsideLimits(reason: "at most \(GoalBook.maxGoals) goals"))
        }
        let goal = Goal(key: key, target: target, from: from)
        if let reason = GoalPayload.problem(goal) { throw .invalid(.outsideLimits(reason: reason)) }
        guard goal != existing else {
            builder.notices.append(.goalUnchanged)
            return
        }
        builder.append(.goalSet(goal), to: GoalBook.stream)
    }
}
