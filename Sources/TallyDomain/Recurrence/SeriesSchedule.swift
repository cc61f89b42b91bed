#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import TallyEssentials

/// When the next instance of a series is due. Pure.
///
/// A fixed schedule (`from: due`) counts from the series' start: the next occurrence is the first
/// one after the instance just closed that is not in the past. Occurrences missed while nothing
/// was completed are skipped, not created: the one overdue instance stands for them, so the list
/// never floods. A schedule that counts from the completion is due one period after the day of
/// the completion. A due with a time keeps its local wall-clock time, across daylight-saving
/// changes too. Nothing is due after `until`, or once the series has ended.
public enum SeriesSchedule {
    /// The next occurrence's day and due value; nil when the series has no more.
    public static func next(_ series: Series, after instance: Todo, today: LocalDate, zone: Zone) -> (date: LocalDate, due: Due)? {
        guard !series.ended else { return nil }
        let fields = series.fields
        let date: LocalDate
        switch fields.rule.anchor {
        case .completion:
            date = fields.rule.period.after(today)
        case .due:
            let previous = instance.due.map { day(of: $0, zone: zone) } ?? today.adding(days: -1)
            let target = max(previous.adding(days: 1), today)
            date = firstOccurrence(of: fields.rule.period, from: day(of: fields.start, zone: zone), onOrAfter: target)
        }
        guard date.isInSupportedYears else { return nil }
        if let until = fields.until, date > until { return nil }
        return (date, due(on: date, like: fields.start, zone: zone))
    }

    /// The next `count` occurrences of a fixed schedule from `today` on, for `show`.
    public static func upcoming(_ series: Series, after instance: Todo?, today: LocalDate, zone: Zone, count: Int) -> [LocalDate] {
        var result: [LocalDate] = []
        var previous = instance?.due.map { day(of: $0, zone: zone) } ?? today.adding(days: -1)
        let start = day(of: series.fields.start, zone: zone)
        while result.count < count, !series.ended {
            let date: LocalDate = switch series.fields.rule.anchor {
            case .completion: series.fields.rule.period.after(result.last ?? previous)
            case .due: firstOccurrence(of: series.fields.rule.period, from: start, onOrAfter: max(previous.adding(days: 1), today))
            }
            guard date.isInSupportedYears else { break }
            if let until = series.fields.until, date > until { break }
            result.append(date)
            previous = date
        }
        return result
    }

    /// The local day a due value falls on.
    public static func day(of due: Due, zone: Zone) -> LocalDate {
        switch due {
        case .date(let date): date
        case .instant(let ms): LocalDate.containing(ms, in: zone)
        }
    }

    /// The due value for `date`: the date itself, or the start's wall-clock time on that date.
    static func due(on date: LocalDate, like start: Due, zone: Zone) -> Due {
        switch start {
        case .date: return .date(date)
        case .instant(let ms):
            let local = WallClock.localMs(ms, in: zone)
            let timeOfDay = ValueMath.floorMod(local, WallClock.msPerDay)
            return .instant(WallClock.instant(forLocal: date.dayNumber * WallClock.msPerDay + timeOfDay, in: zone))
        }
    }

    /// The first occurrence of a schedule starting on `start` that is on or after `target`.
    static func firstOccurrence(of period: RecurrencePeriod, from start: LocalDate, onOrAfter target: LocalDate) -> LocalDate {
        guard target > start else { return start }
        switch period {
        case .days(let n), .weeks(let n):
            let step = Int64(period == .days(n) ? n : 7 * n)
            let gap = target.dayNumber - start.dayNumber
            return start.adding(days: Int((gap + step - 1) / step * step))
        case .months(let n), .years(let n):
            let step = period == .months(n) ? n : 12 * n
            let months = (target.year * 12 + target.month) - (start.year * 12 + start.month)
            var index = max(0, months / step - 1)
            while period.occurrence(index, from: start) < target { index += 1 }
            return period.occurrence(index, from: start)
        case .weekdays:
            var date = target
            while date.weekday > 5 { date = date.adding(days: 1) }
            return date
        }
    }
}
