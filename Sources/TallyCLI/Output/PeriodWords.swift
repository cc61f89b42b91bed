import TallyArguments
import TallyEssentials
import TallyDomain

/// A recurrence period in words (`month`, `3 days`, `weekday`), so `every 1m` never reads as minutes.
enum PeriodWords {
    static func text(_ period: RecurrencePeriod, _ catalog: Catalog) -> String {
        switch period {
        case .days(let n): catalog.plural(.periodDays, count: n)
        case .weeks(let n): catalog.plural(.periodWeeks, count: n)
        case .months(let n): catalog.plural(.periodMonths, count: n)
        case .years(let n): catalog.plural(.periodYears, count: n)
        case .weekdays: catalog.text(.periodWeekday)
        }
    }
}
