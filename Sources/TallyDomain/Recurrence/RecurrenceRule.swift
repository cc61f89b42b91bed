import TallyEssentials

/// How often a series comes back: every N days, weeks, months or years, or every weekday.
public enum RecurrencePeriod: Sendable, Hashable, CustomStringConvertible {
    case days(Int)
    case weeks(Int)
    case months(Int)
    case years(Int)
    /// Monday to Friday.
    case weekdays

    /// The largest N in `Nd`, `Nw`, `Nm`, `Ny`.
    public static let maxCount = 999

    /// The stored and shown form: `1d`, `2w`, `1m`, `1y`, `weekdays`.
    public var description: String {
        switch self {
        case .days(let n): "\(n)d"
        case .weeks(let n): "\(n)w"
        case .months(let n): "\(n)m"
        case .years(let n): "\(n)y"
        case .weekdays: "weekdays"
        }
    }

    /// Reads `daily`, `weekdays`, `weekly`, `monthly`, `yearly` (or the Czech `denně`, `týdně`, `měsíčně`,
    /// `ročně`, `pracovní-dny`) or `Nd`, `Nw`, `Nm`, `Ny` with N from 1 to 999.
    public static func parse(_ text: String) throws(ValueError) -> RecurrencePeriod {
        let folded = NaturalWhen.fold(text)
        let shape = ValueError(kind: .period, input: text, key: .periodShape)
        if let named = names[folded] { return named }
        guard let unit = folded.last, let count = Int(folded.dropLast()),
              folded.dropLast().allSatisfy({ $0.isASCII && $0.isNumber })
        else {
            throw folded.isEmpty ? ValueError(kind: .period, input: text, key: .empty) : shape
        }
        guard (1...maxCount).contains(count) else {
            throw ValueError(kind: .period, input: text, key: .periodRange, arguments: ["max": String(maxCount)])
        }
        switch unit {
        case "d": return .days(count)
        case "w": return .weeks(count)
        case "m": return .months(count)
        case "y": return .years(count)
        default: throw shape
        }
    }

    private static let names: [String: RecurrencePeriod] = [
        "daily": .days(1), "weekdays": .weekdays, "weekly": .weeks(1), "monthly": .months(1), "yearly": .years(1),
        "annually": .years(1), "denne": .days(1), "tydne": .weeks(1), "mesicne": .months(1), "rocne": .years(1),
        "pracovni-dny": .weekdays, "pracovni dny": .weekdays,
    ]

    /// The `index`-th occurrence of a fixed schedule that started on `start` (index 0 is `start`).
    ///
    /// Months and years count from the start's day, so a series on the 31st falls on the last day
    /// of shorter months and comes back to the 31st, and one on 29 February falls on the 28th
    /// outside leap years.
    public func occurrence(_ index: Int, from start: LocalDate) -> LocalDate {
        switch self {
        case .days(let n): start.adding(days: n * index)
        case .weeks(let n): start.adding(days: 7 * n * index)
        case .months(let n): Self.addingMonths(n * index, to: start)
        case .years(let n): Self.addingMonths(12 * n * index, to: start)
        case .weekdays: Self.addingWeekdays(index, to: start)
        }
    }

    /// The first date one period after `date` (for schedules that count from the completion).
    public func after(_ date: LocalDate) -> LocalDate {
        occurrence(1, from: date)
    }

    /// `date` moved by whole months, keeping the day or taking the month's last one.
    static func addingMonths(_ count: Int, to date: LocalDate) -> LocalDate {
        let index = date.year * 12 + (date.month - 1) + count
        let year = index >= 0 ? index / 12 : (index - 11) / 12
        let month = index - year * 12 + 1
        return LocalDate(uncheckedYear: year, month: month, day: min(date.day, LocalDate.daysInMonth(year: year, month: month)))
    }

    /// The `count`-th weekday after `date` (0 gives `date` itself, even on a weekend).
    static func addingWeekdays(_ count: Int, to date: LocalDate) -> LocalDate {
        guard count > 0 else { return date }
        // Whole weeks first, then the remaining days one at a time.
        var result = date.adding(days: 7 * ((count - 1) / 5))
        var left = (count - 1) % 5 + 1
        while left > 0 {
            result = result.adding(days: 1)
            if result.weekday <= 5 { left -= 1 }
        }
        return result
    }
}

/// What the next due date counts from.
public enum RecurrenceAnchor: String, Sendable, Hashable, CaseIterable {
    /// A fixed schedule: the next occurrence is the previous due date plus the period.
    case due
    /// The next one is due a period after the completion.
    case completion
}

/// A series' rule: the period, and what it counts from.
public struct RecurrenceRule: Sendable, Hashable {
    public var period: RecurrencePeriod
    public var anchor: RecurrenceAnchor

    public init(period: RecurrencePeriod, anchor: RecurrenceAnchor = .due) {
        self.period = period
        self.anchor = anchor
    }
}
