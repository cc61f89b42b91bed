import TallyDomain
import TallyEssentials

/// The days a report covers, both ends included.
public struct ReportPeriod: Sendable, Equatable {
    public var first: LocalDate
    public var last: LocalDate

    public init(first: LocalDate, last: LocalDate) {
        self.first = first
        self.last = last
    }

    /// Longest period a report draws: twenty years, 7,320 days (one calendar block per year).
    public static let maxDays = 7_320

    public var dayCount: Int { Int(last.dayNumber - first.dayNumber) + 1 }
    public var days: [LocalDate] { (0..<max(0, dayCount)).map { first.adding(days: $0) } }

    /// The Mondays of the ISO weeks the period touches, in order.
    public var weekStarts: [LocalDate] {
        var monday = first.adding(days: 1 - first.weekday)
        var result: [LocalDate] = []
        while monday <= last {
            result.append(monday)
            monday = monday.adding(days: 7)
        }
        return result
    }

    /// How volume charts group the period: ISO weeks up to two years (106 weeks), months beyond.
    public var grouping: StatsGrouping { weekStarts.count <= 106 ? .week : .month }

    /// The groups of `grouping` the period touches, in order, each with its label as `stats` writes
    /// it (`2026-W07`, `2026-03`) and its first day (possibly before the period's).
    public var buckets: [(label: String, first: LocalDate)] {
        guard grouping == .month else { return weekStarts.map { (Self.weekLabel($0), $0) } }
        var result: [(label: String, first: LocalDate)] = []
        // Month by month from the first day's; the month after December 9999 is past every date.
        var month = LocalDate(year: first.year, month: first.month, day: 1)
        while let current = month, current <= last {
            result.append(("\(current.year)-" + (current.month < 10 ? "0\(current.month)" : "\(current.month)"), current))
            month = current.month == 12 ? LocalDate(year: current.year + 1, month: 1, day: 1) : LocalDate(year: current.year, month: current.month + 1, day: 1)
        }
        return result
    }

    /// `2026-W07`: the ISO week label `stats` uses.
    public static func weekLabel(_ day: LocalDate) -> String {
        let week = day.isoWeek
        return "\(week.year)-W" + (week.week < 10 ? "0\(week.week)" : "\(week.week)")
    }
}

/// One day's activity totals, per category.
public struct ReportDay: Sendable, Equatable {
    public var date: LocalDate
    /// Categories by name.
    public var categories: [(category: String, totals: StatsTotals)]
    public var totals: StatsTotals

    public static func == (lhs: ReportDay, rhs: ReportDay) -> Bool {
        lhs.date == rhs.date && lhs.totals == rhs.totals && lhs.categories.map(\.category) == rhs.categories.map(\.category)
            && lhs.categories.map(\.totals) == rhs.categories.map(\.totals)
    }

    /// The category with the most time that day (the first by name on a tie).
    public var leading: String? {
        categories.max { $0.totals.durationSeconds != $1.totals.durationSeconds ? $0.totals.durationSeconds < $1.totals.durationSeconds : $0.category > $1.category }?.category
    }
}

/// Everything the training half of a report shows, from the projections `stats`, `record bests`
/// and `stats --streaks`/`--ytd` use.
public struct TrainingReport: Sendable {
    public var period: ReportPeriod
    /// Categories with records in the period, by total time (most first), then by name.
    public var categories: [String]
    /// Days with at least one record, in order.
    public var days: [ReportDay]
    /// Weeks, or months for a period longer than two years (`ReportPeriod.grouping`).
    public var grouping: StatsGrouping
    /// One label per bucket of the period, and per category the totals of each bucket.
    public var buckets: [String]
    public var volume: [String: [StatsTotals]]
    public var totals: StatsTotals
    public var bests: [CategoryBests]
    public var streaks: [Streaks]
    /// Nil in the year 1, which has no year before it.
    public var yearToDate: YearToDate?
    /// Live records of the period that keep their track file, oldest first.
    public var tracked: [Record]
}

/// Gathers a report's training figures.
public enum TrainingReportProjection {
    /// The figures of `period`. Streaks, bests and the year to date are those of the whole model at `now`.
    /// - Complexity: O(n log n) in the records, plus the days and weeks of the period.
    public static func run(period: ReportPeriod, on model: ReadModel, now: Int64, zone: Zone) throws(DomainError) -> TrainingReport {
        let since = period.first.description, until = period.last.description
        let view = try RecordProjection.run(RecordQuery(since: since, until: until, sort: .date, reverse: true), on: model, now: now, zone: zone)
        var byDay: [LocalDate: [String: StatsTotals]] = [:]
        var perCategory: [String: StatsTotals] = [:]
        var dayTotals: [LocalDate: StatsTotals] = [:]
        var totals = StatsTotals()
        for record in view.records {
            let day = LocalDate.containing(record.date, in: zone)
            byDay[day, default: [:]][record.category, default: StatsTotals()].add(record)
            dayTotals[day, default: StatsTotals()].add(record)
            perCategory[record.category, default: StatsTotals()].add(record)
            totals.add(record)
        }
        let categories = perCategory.keys.sorted {
            let (a, b) = (perCategory[$0]!.durationSeconds, perCategory[$1]!.durationSeconds)
            return a != b ? a > b : $0 < $1
        }
        let days = byDay.keys.sorted().map { date in
            let entries = byDay[date]!
            return ReportDay(date: date, categories: entries.keys.sorted().map { ($0, entries[$0]!) }, totals: dayTotals[date]!)
        }
        let buckets = period.buckets.map(\.label)
        var volume: [String: [StatsTotals]] = [:]
        for category in categories {
            let report = try StatsProjection.run(grouping: period.grouping, since: since, until: until, categories: [category], on: model, now: now, zone: zone)
            var byLabel: [String: StatsTotals] = [:]
            for bucket in report.buckets { byLabel[bucket.key] = bucket.totals }
            volume[category] = buckets.map { byLabel[$0] ?? StatsTotals() }
        }
        return TrainingReport(
            period: period, categories: categories, days: days, grouping: period.grouping, buckets: buckets, volume: volume, totals: totals,
            bests: BestsProjection.run(categories: [], year: nil, on: model, zone: zone),
            streaks: StreakProjection.run(categories: [], on: model, now: now, zone: zone),
            yearToDate: LocalDate.containing(now, in: zone).year > 1 ? YearToDateProjection.run(categories: [], on: model, now: now, zone: zone) : nil,
            tracked: view.records.filter { $0.track != nil }
        )
    }

    /// The period named by `--from` and `--to` (WHEN values, already validated): by default the
    /// 52 weeks up to today (364 days and today), never before 1 January of the year 1.
    public static func period(from: String?, to: String?, now: Int64, zone: Zone) throws(DomainError) -> ReportPeriod {
        let last = try to.map { raw throws(DomainError) in
            LocalDate.containing(try QueryBounds.when(raw, now: now, zone: zone, lookingBack: true).endInstant(in: zone) - 1, in: zone)
        } ?? LocalDate.containing(now, in: zone)
        let first = try from.map { raw throws(DomainError) in
            LocalDate.containing(try QueryBounds.when(raw, now: now, zone: zone, lookingBack: true).startInstant(in: zone), in: zone)
        } ?? max(last.adding(days: -364), LocalDate(year: 1, month: 1, day: 1)!)
        return ReportPeriod(first: first, last: last)
    }
}
