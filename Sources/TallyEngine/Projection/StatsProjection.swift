#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import TallyDomain
import TallyEssentials

/// How `stats` groups records.
public enum StatsGrouping: String, Sendable, CaseIterable {
    /// ISO-8601 weeks (`2026-W47`) in the local zone.
    case week
    /// Calendar months (`2026-11`) in the local zone.
    case month
    /// One bucket per category.
    case category
    /// Calendar years in the local zone.
    case year
}

/// Totals of a group of records.
public struct StatsTotals: Sendable, Equatable {
    public var count = 0
    public var durationSeconds = 0
    public var distanceMeters = 0.0
    /// Time spent on records that have a distance: the base of the average pace.
    public var durationWithDistance = 0
    /// The one category of the records counted; nil when there are none or several (a pace or a
    /// speed is never averaged across sports).
    public private(set) var category: String?
    private var mixed = false

    public init() {}

    /// Average seconds per kilometre over the records with a distance; nil without distance.
    public var paceSecondsPerKm: Double? {
        distanceMeters > 0 ? Double(durationWithDistance) / (distanceMeters / 1000) : nil
    }

    mutating func add(_ record: Record) {
        if count == 0 {
            category = record.category
        } else if !mixed, category != record.category {
            mixed = true
            category = nil
        }
        count += 1
        durationSeconds += record.durationSeconds
        if let distance = record.distanceMeters, distance > 0 {
            distanceMeters += distance
            durationWithDistance += record.durationSeconds
        }
    }
}

/// One group of `stats`: its label and totals.
public struct StatsBucket: Sendable, Equatable {
    public var key: String
    public var totals: StatsTotals
}

/// The answer of `stats`.
public struct StatsReport: Sendable, Equatable {
    public var grouping: StatsGrouping
    public var buckets: [StatsBucket]
    public var totals: StatsTotals
}

/// Groups live records into weeks, months or categories.
public enum StatsProjection {
    /// Buckets the records matching the range and categories. Weeks and months between the first and last
    /// non-empty ones are included, empty, so a chart shows gaps; categories are sorted by total time.
    /// - Complexity: O(n) plus the number of buckets.
    public static func run(
        grouping: StatsGrouping, since: String?, until: String?, categories: [String],
        on model: ReadModel, now: Int64, zone: Zone
    ) throws(DomainError) -> StatsReport {
        let view = try RecordProjection.run(RecordQuery(categories: categories, since: since, until: until), on: model, now: now, zone: zone)
        var totals = StatsTotals()
        var byKey: [String: StatsTotals] = [:]
        var periods: Set<Period> = []
        for record in view.records {
            totals.add(record)
            let key: String
            switch grouping {
            case .category:
                key = record.category
            case .week, .month, .year:
                let period = Period(of: record.date, grouping: grouping, zone: zone)
                periods.insert(period)
                key = period.label
            }
            byKey[key, default: StatsTotals()].add(record)
        }
        var buckets: [StatsBucket]
        switch grouping {
        case .category:
            buckets = byKey.map { StatsBucket(key: $0.key, totals: $0.value) }
            buckets.sort { $0.totals.durationSeconds != $1.totals.durationSeconds ? $0.totals.durationSeconds > $1.totals.durationSeconds : $0.key < $1.key }
        case .week, .month, .year:
            guard let first = periods.min(), let last = periods.max() else {
                return StatsReport(grouping: grouping, buckets: [], totals: totals)
            }
            buckets = []
            var period = first
            while period <= last {
                buckets.append(StatsBucket(key: period.label, totals: byKey[period.label] ?? StatsTotals()))
                period = period.next
            }
        }
        return StatsReport(grouping: grouping, buckets: buckets, totals: totals)
    }
}

/// A week or a month, ordered in time.
struct Period: Hashable, Comparable {
    let grouping: StatsGrouping
    let year: Int
    /// ISO week number or month number.
    let index: Int

    init(of instant: Int64, grouping: StatsGrouping, zone: Zone) {
        let date = LocalDate.containing(instant, in: zone)
        self.grouping = grouping
        if grouping == .week {
            let week = date.isoWeek
            year = week.year
            index = week.week
        } else if grouping == .year {
            year = date.year
            index = 0
        } else {
            year = date.year
            index = date.month
        }
    }

    private init(grouping: StatsGrouping, year: Int, index: Int) {
        self.grouping = grouping
        self.year = year
        self.index = index
    }

    var label: String {
        if grouping == .year { return String(year) }
        let padded = index < 10 ? "0\(index)" : "\(index)"
        return grouping == .week ? "\(year)-W\(padded)" : "\(year)-\(padded)"
    }

    var next: Period {
        if grouping == .year { return Period(grouping: grouping, year: year + 1, index: 0) }
        if grouping == .month {
            return index == 12 ? Period(grouping: grouping, year: year + 1, index: 1) : Period(grouping: grouping, year: year, index: index + 1)
        }
        return index >= Period.weeksIn(year) ? Period(grouping: grouping, year: year + 1, index: 1) : Period(grouping: grouping, year: year, index: index + 1)
    }

    /// 52 or 53: the ISO week of 28 December is always the year's last.
    static func weeksIn(_ year: Int) -> Int {
        LocalDate(year: year, month: 12, day: 28)!.isoWeek.week
    }

    static func < (lhs: Period, rhs: Period) -> Bool {
        (lhs.year, lhs.index) < (rhs.year, rhs.index)
    }
}
