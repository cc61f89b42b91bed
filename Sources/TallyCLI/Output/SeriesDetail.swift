#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import TallyDomain
import TallyEssentials

/// What `show` tells about the series of a recurring todo: its rule, the next occurrences, its instances.
struct SeriesDetail {
    var series: Series
    var upcoming: [LocalDate]
    /// Every instance, oldest first.
    var instances: [Todo]

    /// How many next occurrences `show` lists.
    static let upcomingCount = 3

    init(series: Series, state: ReadModel, now: Int64, zone: Zone) {
        self.series = series
        instances = state.todos.filter { $0.series == series.id }
        let open = instances.last { !$0.completed && !$0.deleted }
        let today = LocalDate.containing(now, in: zone)
        upcoming = SeriesSchedule.upcoming(series, after: open ?? instances.last, today: today, zone: zone, count: Self.upcomingCount)
    }

    /// `{"id", "every", "from", "start", "until", "ended", "next": [dates], "instances": [ids]}`
    var json: JSON {
        .object([
            "id": .string(series.id),
            "every": .string(series.fields.rule.period.description),
            "from": .string(series.fields.rule.anchor.rawValue),
            "start": .string(series.fields.start.storageText),
            "until": series.fields.until.map { .string($0.description) } ?? .null,
            "ended": .bool(series.ended),
            "next": .array(upcoming.map { .string($0.description) }),
            "instances": .array(instances.map { .string($0.id) }),
        ])
    }
}

extension TodoRenderer {
    /// The rows `show` adds for a recurring todo.
    func seriesRows(_ detail: SeriesDetail) -> [(String, String)] {
        let catalog = context.catalog
        let fields = detail.series.fields
        var rule = catalog.text(.showSeriesRule, [
            "period": PeriodWords.text(fields.rule.period, catalog),
            "from": EventDescriber(catalog: catalog, zone: context.zone).anchor(fields.rule.anchor),
            "until": fields.until.map { catalog.text(.historySeriesUntil, ["until": $0.description]) } ?? "",
        ])
        if detail.series.ended { rule += " (" + catalog.text(.showSeriesEnded) + ")" }
        let next = detail.upcoming.isEmpty ? catalog.text(.showSeriesNone) : detail.upcoming.map(\.description).joined(separator: ", ")
        let instances = detail.instances.map { "\($0.number) \(marker($0)) \(due($0.due))" }.joined(separator: ", ")
        return [
            (catalog.text(.showSeries), rule),
            (catalog.text(.showSeriesNext), next),
            (catalog.text(.showSeriesInstances), instances),
        ]
    }
}
