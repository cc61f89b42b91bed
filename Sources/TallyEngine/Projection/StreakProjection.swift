#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import TallyDomain
import TallyEssentials

/// Streaks of one category (or of everything, `category == nil`).
public struct Streaks: Sendable, Equatable {
    public var category: String?
    /// Active days: at least one record that day.
    public var longestDays: Int
    public var longestDaysEnd: LocalDate?
    /// The run of active days ending today, or yesterday when today has none yet.
    public var currentDays: Int
    /// Active ISO weeks in a row.
    public var longestWeeks: Int
    public var longestWeeksEnd: String?
    /// The run of active weeks ending this week, or last week when this one has none yet.
    public var currentWeeks: Int
    public var activeDays: Int
}

/// `stats --streaks`: consecutive active days and weeks, overall and per category.
public enum StreakProjection {
    /// Overall first, then each category by name.
    /// - Complexity: O(n log n).
    public static func run(categories: [String], on model: ReadModel, now: Int64, zone: Zone) -> [Streaks] {
        var days: [String: Set<LocalDate>] = [:]
        var all: Set<LocalDate> = []
        for record in model.records where !record.deleted {
            if !categories.isEmpty, !categories.contains(record.category) { continue }
            let day = LocalDate.containing(record.date, in: zone)
            days[record.category, default: []].insert(day)
            all.insert(day)
        }
        let today = LocalDate.containing(now, in: zone)
        var result = [streaks(nil, all, today: today)]
        result += days.keys.sorted().map { streaks($0, days[$0]!, today: today) }
        return result
    }

    static func streaks(_ category: String?, _ days: Set<LocalDate>, today: LocalDate) -> Streaks {
        let numbers = days.map(\.dayNumber).sorted()
        let (longestDays, dayEnd) = longestRun(numbers)
        let todayNumber = today.dayNumber
        let currentDays = runEnding(at: days.contains(today) ? todayNumber : todayNumber - 1, in: Set(numbers))
        // ISO weeks as consecutive numbers: the Monday's day number divided by 7 (Mondays are 7k + 4).
        let weeks = Set(numbers.map { weekNumber($0) })
        let (longestWeeks, weekEnd) = longestRun(weeks.sorted())
        let thisWeek = weekNumber(todayNumber)
        let currentWeeks = runEnding(at: weeks.contains(thisWeek) ? thisWeek : thisWeek - 1, in: weeks)
        let weekLabel = weekEnd.map { week -> String in
            let iso = LocalDate(dayNumber: week * 7 + 4).isoWeek
            return "\(iso.year)-W" + (iso.week < 10 ? "0\(iso.week)" : "\(iso.week)")
        }
        return Streaks(
            category: category, longestDays: longestDays, longestDaysEnd: dayEnd.map { LocalDate(dayNumber: $0) },
            currentDays: currentDays, longestWeeks: longestWeeks, longestWeeksEnd: weekLabel, currentWeeks: currentWeeks,
            activeDays: numbers.count
        )
    }

    /// The week holding `day`, numbered so consecutive weeks are consecutive numbers: week k starts
    /// on Monday 7k + 4 (day 0, 1970-01-01, was a Thursday). Floor division, so days before 1970 work too.
    static func weekNumber(_ day: Int64) -> Int64 {
        let shifted = day - 4
        return shifted >= 0 ? shifted / 7 : -((-shifted + 6) / 7)
    }

    /// Length and last element of the longest run of consecutive numbers (the latest on ties).
    static func longestRun(_ sorted: [Int64]) -> (Int, Int64?) {
        var best = 0, run = 0
        var end: Int64?
        var previous: Int64?
        for value in sorted {
            run = previous.map { value == $0 + 1 ? run + 1 : 1 } ?? 1
            if run >= best {
                best = run
                end = value
            }
            previous = value
        }
        return (best, end)
    }

    static func runEnding(at last: Int64, in set: Set<Int64>) -> Int {
        var count = 0
        var value = last
        while set.contains(value) {
            count += 1
            value -= 1
        }
        return count
    }
}

/// `stats --ytd`: this year to date against the same span of last year.
public struct YearToDate: Sendable, Equatable {
    public var year: Int
    /// From 1 January to now, and from 1 January last year to the same moment a year ago.
    public var current: StatsTotals
    public var previous: StatsTotals
    public var byCategory: [(category: String, current: StatsTotals, previous: StatsTotals)]

    public static func == (lhs: YearToDate, rhs: YearToDate) -> Bool {
        lhs.year == rhs.year && lhs.current == rhs.current && lhs.previous == rhs.previous
            && lhs.byCategory.map(\.category) == rhs.byCategory.map(\.category)
            && lhs.byCategory.map(\.current) == rhs.byCategory.map(\.current)
            && lhs.byCategory.map(\.previous) == rhs.byCategory.map(\.previous)
    }
}

public enum YearToDateProjection {
    /// Totals of this year up to `now` and of last year up to the same date and time (29 February counts as 28).
    /// - Complexity: O(n).
    public static func run(categories: [String], on model: ReadModel, now: Int64, zone: Zone) -> YearToDate {
        let today = LocalDate.containing(now, in: zone)
        let startThis = LocalDate(year: today.year, month: 1, day: 1)!.startInstant(in: zone)
        let startLast = LocalDate(year: today.year - 1, month: 1, day: 1)!.startInstant(in: zone)
        let sameDay = LocalDate(year: today.year - 1, month: today.month, day: today.day) ?? LocalDate(year: today.year - 1, month: today.month, day: 28)!
        let timeOfDay = now - today.startInstant(in: zone)
        let endLast = sameDay.startInstant(in: zone) + timeOfDay
        var current = StatsTotals(), previous = StatsTotals()
        var perCategory: [String: (StatsTotals, StatsTotals)] = [:]
        for record in model.records where !record.deleted {
            if !categories.isEmpty, !categories.contains(record.category) { continue }
            if record.date >= startThis, record.date <= now {
                current.add(record)
                perCategory[record.category, default: (StatsTotals(), StatsTotals())].0.add(record)
            } else if record.date >= startLast, record.date <= endLast {
                previous.add(record)
                perCategory[record.category, default: (StatsTotals(), StatsTotals())].1.add(record)
            }
        }
        let rows = perCategory.keys.sorted().map { (category: $0, current: perCategory[$0]!.0, previous: perCategory[$0]!.1) }
        return YearToDate(year: today.year, current: current, previous: previous, byCategory: rows)
    }
}
