
/// How urgent a todo is. Ordered so that `high` sorts first.
public enum Priority: String, Sendable, CaseIterable, Comparable {
    case low, medium, high

    /// Rank used for sorting: higher is more urgent.
    public var rank: Int {
        switch self {
        case .low: 1
        case .medium: 2
        case .high: 3
        }
    }

    public static func < (lhs: Priority, rhs: Priority) -> Bool { lhs.rank < rhs.rank }
}
