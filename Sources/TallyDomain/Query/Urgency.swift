import TallyEssentials

/// How much a todo is worth doing now (`tally next`): a sum of terms, each a factor from 0 to 1
/// (how much the todo has of it) times a coefficient (how much that matters). The terms and their
/// default coefficients follow Taskwarrior 2.6's urgency, so a list moved from there keeps its order.
/// Pure.
public enum Urgency {
    /// One term of a score: its name, the todo's factor, the coefficient, and their product.
    public struct Term: Sendable, Equatable {
        public var name: String
        public var factor: Double
        public var coefficient: Double
        public var value: Double { factor * coefficient }
    }

    /// The coefficients; `TALLY_URGENCY` changes them (`Coefficients.parse`).
    public struct Coefficients: Sendable, Equatable {
        public var due = 12.0
        public var priorityHigh = 6.0
        public var priorityMedium = 3.9
        public var priorityLow = 1.8
        public var started = 4.0
        public var blocking = 8.0
        public var age = 2.0
        /// Days after which a todo counts as fully old.
        public var ageMaxDays = 365.0
        public var tags = 1.0
        public var project = 1.0
        public var annotations = 1.0
        /// Extra coefficients for todos with a tag (`tag.next`) or in a project or below it (`project.work`).
        public var tag: [String: Double] = ["next": 15.0]
        public var projectBonus: [String: Double] = [:]

        public init() {}

        /// The names `parse` reads, each with its default.
        public static let names = [
            "due", "priority.high", "priority.medium", "priority.low", "started", "blocking", "age", "age.max",
            "tags", "project", "annotations", "tag.NAME", "project.NAME",
        ]

        /// Reads `name=value` pairs separated by spaces or commas (`due=10 tag.next=20 project.work=2`),
        /// over the defaults. Values are numbers from -100 to 100 (`age.max`: 1 to 36500 days).
        public static func parse(_ text: String) -> Result<Coefficients, UrgencyError> {
            var result = Coefficients()
            let pairs = text.split { $0 == " " || $0 == "," || $0 == "\n" || $0 == "\t" }
            guard pairs.count <= 200 else { return .failure(UrgencyError(pair: String(text.prefix(40)), reason: .tooMany)) }
            for pair in pairs {
                let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
                guard parts.count == 2, let value = Double(parts[1]), value.isFinite else {
                    return .failure(UrgencyError(pair: String(pair.prefix(80)), reason: .notANumber))
                }
                let name = String(parts[0]).lowercased()
                let range: ClosedRange<Double> = name == "age.max" ? 1...36_500 : -100...100
                guard range.contains(value) else { return .failure(UrgencyError(pair: String(pair.prefix(80)), reason: .outOfRange)) }
                switch name {
                case "due": result.due = value
                case "priority.high": result.priorityHigh = value
                case "priority.medium": result.priorityMedium = value
                case "priority.low": result.priorityLow = value
                case "started": result.started = value
                case "blocking": result.blocking = value
                case "age": result.age = value
                case "age.max": result.ageMaxDays = value
                case "tags": result.tags = value
                case "project": result.project = value
                case "annotations": result.annotations = value
                default:
                    if name.hasPrefix("tag."), let tag = try? Validation.tag(String(name.dropFirst(4))) {
                        result.tag[tag] = value
                    } else if name.hasPrefix("project."), let project = ProjectPath.normalized(String(name.dropFirst(8))) {
                        result.projectBonus[project] = value
                    } else {
                        return .failure(UrgencyError(pair: String(pair.prefix(80)), reason: .unknownName))
                    }
                }
            }
            return .success(result)
        }
    }

    /// The terms of `todo`'s score at `now`; `blocking` is whether pending todos wait for it.
    public static func terms(_ todo: Todo, blocking: Bool, now: Int64, zone: Zone, coefficients c: Coefficients) -> [Term] {
        var terms: [Term] = []
        if let due = todo.due {
            terms.append(Term(name: "due", factor: dueFactor(due.sortInstant(in: zone), now: now), coefficient: c.due))
        }
        switch todo.priority {
        case .high?: terms.append(Term(name: "priority.high", factor: 1, coefficient: c.priorityHigh))
        case .medium?: terms.append(Term(name: "priority.medium", factor: 1, coefficient: c.priorityMedium))
        case .low?: terms.append(Term(name: "priority.low", factor: 1, coefficient: c.priorityLow))
        case nil: break
        }
        if todo.running != nil { terms.append(Term(name: "started", factor: 1, coefficient: c.started)) }
        if blocking { terms.append(Term(name: "blocking", factor: 1, coefficient: c.blocking)) }
        let days = Double(max(now - todo.createdAt, 0)) / 86_400_000
        terms.append(Term(name: "age", factor: min(days / c.ageMaxDays, 1), coefficient: c.age))
        if !todo.tags.isEmpty { terms.append(Term(name: "tags", factor: countFactor(todo.tags.count), coefficient: c.tags)) }
        if todo.project != nil { terms.append(Term(name: "project", factor: 1, coefficient: c.project)) }
        if !todo.annotations.isEmpty {
            terms.append(Term(name: "annotations", factor: countFactor(todo.annotations.count), coefficient: c.annotations))
        }
        for tag in todo.tags.sorted() {
            if let coefficient = c.tag[tag] { terms.append(Term(name: "tag.\(tag)", factor: 1, coefficient: coefficient)) }
        }
        if let project = todo.project {
            for (name, coefficient) in c.projectBonus.sorted(by: { $0.key < $1.key }) where ProjectPath.isWithin(project, name) {
                terms.append(Term(name: "project.\(name)", factor: 1, coefficient: coefficient))
            }
        }
        return terms.filter { $0.factor != 0 }
    }

    /// The score: the sum of the terms.
    public static func score(_ terms: [Term]) -> Double {
        terms.reduce(0) { $0 + $1.value }
    }

    /// Taskwarrior's due factor: 1 from a week overdue on, 0.2 from two weeks ahead on, linear between.
    public static func dueFactor(_ due: Int64, now: Int64) -> Double {
        let overdue = Double(now - due) / 86_400_000
        if overdue >= 7 { return 1 }
        if overdue >= -14 { return (overdue + 14) * 0.8 / 21 + 0.2 }
        return 0.2
    }

    /// Taskwarrior's factor for tags and annotations: 0.8 for one, 0.9 for two, 1 for more.
    static func countFactor(_ count: Int) -> Double {
        switch count {
        case 0: 0
        case 1: 0.8
        case 2: 0.9
        default: 1
        }
    }
}

/// Why `TALLY_URGENCY` cannot be read: the pair as written and what is wrong with it.
public struct UrgencyError: Error, Sendable, Equatable {
    public enum Reason: Sendable, Equatable { case notANumber, outOfRange, unknownName, tooMany }
    public var pair: String
    public var reason: Reason
}
