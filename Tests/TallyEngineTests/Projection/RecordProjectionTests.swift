import Foundation
import Testing
@testable import TallyEngine
@testable import TallyDomain
import TallyTestSupport
@testable import TallyEssentials

@Suite("Record projection and stats")
struct RecordProjectionTests {
    static func at(_ text: String) -> Int64 { Timestamp.parse(text)! }

    static func model(_ records: [RecordFields], deleted: Set<Int> = []) -> ReadModel {
        var model = ReadModel()
        var seq: Int64 = 0
        for (index, fields) in records.enumerated() {
            seq += 1
            Reducer.evolve(&model, .recordLogged(fields), stream: "r\(index + 1)", version: 1, seq: seq, at: Fixtures.epoch)
        }
        for number in deleted.sorted() {
            seq += 1
            Reducer.evolve(&model, .recordDeleted, stream: "r\(number)", version: 2, seq: seq, at: Fixtures.epoch)
        }
        return model
    }

    let model = RecordProjectionTests.model([
        RecordFields(name: "Morning run", category: "running", durationSeconds: 1650, distanceMeters: 5000, place: "Park", date: at("2026-11-16T06:00:00Z")),
        RecordFields(name: "commute", category: "cycling", durationSeconds: 2100, distanceMeters: 12_400, date: at("2026-11-17T07:00:00Z"), source: .import),
        RecordFields(name: "Gym", category: "gym", durationSeconds: 3600, date: at("2026-11-18T17:00:00Z"), note: "legs day"),
        RecordFields(name: "Long run", category: "running", durationSeconds: 3900, distanceMeters: 12_000, date: at("2026-11-21T08:00:00Z")),
        RecordFields(name: "Another gym", category: "gym", durationSeconds: 3600, date: at("2026-11-18T17:00:00Z")),
        RecordFields(name: "Deleted", category: "running", durationSeconds: 600, distanceMeters: 2000, date: at("2026-11-19T08:00:00Z")),
    ], deleted: [6])

    func numbers(_ query: RecordQuery) throws -> [Int] {
        try RecordProjection.run(query, on: model, now: Fixtures.epoch, zone: Fixtures.utc).records.map(\.number)
    }

    @Test("filters: categories, sources, date range, search; deleted never shown")
    func filters() throws {
        #expect(try numbers(.standard) == [4, 3, 5, 2, 1])
        #expect(try numbers(RecordQuery(categories: ["running"])) == [4, 1])
        #expect(try numbers(RecordQuery(categories: ["running", "gym"])) == [4, 3, 5, 1])
        #expect(try numbers(RecordQuery(sources: [.import])) == [2])
        #expect(try numbers(RecordQuery(sources: [.local, .import])) == [4, 3, 5, 2, 1])
        #expect(try numbers(RecordQuery(since: "2026-11-17", until: "2026-11-18")) == [3, 5, 2])
        #expect(try numbers(RecordQuery(since: "2026-11-18T17:00")) == [4, 3, 5])
        #expect(try numbers(RecordQuery(until: "2026-11-16")) == [1])
        #expect(try numbers(RecordQuery(search: "LEGS")) == [3])
        #expect(try numbers(RecordQuery(search: "park")) == [1])
        #expect(try numbers(RecordQuery(search: "cycl")) == [2])
    }

    @Test("sorts in natural direction, ties by creation order, reverse flips")
    func sorting() throws {
        #expect(try numbers(RecordQuery(sort: .date, reverse: true)) == [1, 2, 3, 5, 4])
        #expect(try numbers(RecordQuery(sort: .name)) == [5, 2, 3, 4, 1])
        #expect(try numbers(RecordQuery(sort: .duration)) == [4, 3, 5, 2, 1])
        #expect(try numbers(RecordQuery(sort: .duration, reverse: true)) == [1, 2, 3, 5, 4])
        #expect(try numbers(RecordQuery(sort: .distance)) == [2, 4, 1, 3, 5])
        #expect(try numbers(RecordQuery(sort: .distance, reverse: true)) == [1, 4, 2, 3, 5])
    }

    @Test("totals cover what is shown after the limit")
    func totals() throws {
        let view = try RecordProjection.run(RecordQuery(sort: .duration, limit: 2), on: model, now: Fixtures.epoch, zone: Fixtures.utc)
        #expect(view.records.map(\.number) == [4, 3] && view.matched == 5)
        #expect(view.totalSeconds == 7500 && view.totalMeters == 12_000)
    }

    @Test("weekly buckets in UTC, with empty weeks between, totals and pace")
    func weeks() throws {
        let report = try StatsProjection.run(grouping: .week, since: nil, until: nil, categories: [], on: model, now: Fixtures.epoch, zone: Fixtures.utc)
        #expect(report.buckets.map(\.key) == ["2026-W47"])
        #expect(report.totals.count == 5 && report.totals.durationSeconds == 14_850 && report.totals.distanceMeters == 29_400)
        #expect(report.totals.paceSecondsPerKm == 7650.0 / 29.4)
        let spread = Self.model([
            RecordFields(name: "a", category: "running", durationSeconds: 600, distanceMeters: 2000, date: Self.at("2026-12-30T10:00:00Z")),
            RecordFields(name: "b", category: "running", durationSeconds: 1200, date: Self.at("2027-01-04T10:00:00Z")),
            RecordFields(name: "c", category: "gym", durationSeconds: 60, date: Self.at("2027-01-19T10:00:00Z")),
        ])
        let weekly = try StatsProjection.run(grouping: .week, since: nil, until: nil, categories: [], on: spread, now: Fixtures.epoch, zone: Fixtures.utc)
        #expect(weekly.buckets.map(\.key) == ["2026-W53", "2027-W01", "2027-W02", "2027-W03"])
        #expect(weekly.buckets.map(\.totals.count) == [1, 1, 0, 1])
        #expect(weekly.buckets[0].totals.paceSecondsPerKm == 300 && weekly.buckets[1].totals.paceSecondsPerKm == nil)
        let monthly = try StatsProjection.run(grouping: .month, since: nil, until: nil, categories: ["running"], on: spread, now: Fixtures.epoch, zone: Fixtures.utc)
        #expect(monthly.buckets.map(\.key) == ["2026-12", "2027-01"])
        #expect(monthly.totals.count == 2)
    }

    @Test("buckets follow the local zone: a Sunday-night UTC run is Monday in Tokyo")
    func zones() throws {
        let late = Self.model([RecordFields(name: "late", category: "running", durationSeconds: 600, date: Self.at("2026-11-29T20:00:00Z"))])
        let utc = try StatsProjection.run(grouping: .week, since: nil, until: nil, categories: [], on: late, now: Fixtures.epoch, zone: Fixtures.utc)
        let tokyo = try StatsProjection.run(grouping: .week, since: nil, until: nil, categories: [], on: late, now: Fixtures.epoch, zone: Zone.named("Asia/Tokyo")!)
        #expect(utc.buckets.map(\.key) == ["2026-W48"] && tokyo.buckets.map(\.key) == ["2026-W49"])
        let newYear = Self.model([RecordFields(name: "ny", category: "running", durationSeconds: 600, date: Self.at("2026-12-31T23:30:00Z"))])
        let newYork = try StatsProjection.run(grouping: .month, since: nil, until: nil, categories: [], on: newYear, now: Fixtures.epoch, zone: Zone.named("America/New_York")!)
        let prague = try StatsProjection.run(grouping: .month, since: nil, until: nil, categories: [], on: newYear, now: Fixtures.epoch, zone: Zone.named("Europe/Prague")!)
        #expect(newYork.buckets.map(\.key) == ["2026-12"] && prague.buckets.map(\.key) == ["2027-01"])
    }

    @Test("categories are ordered by total time; an empty range has no buckets")
    func categoriesAndEmpty() throws {
        let report = try StatsProjection.run(grouping: .category, since: nil, until: nil, categories: [], on: model, now: Fixtures.epoch, zone: Fixtures.utc)
        #expect(report.buckets.map(\.key) == ["gym", "running", "cycling"])
        #expect(report.buckets.map(\.totals.count) == [2, 2, 1])
        let empty = try StatsProjection.run(grouping: .week, since: "2030-01-01", until: nil, categories: [], on: model, now: Fixtures.epoch, zone: Fixtures.utc)
        #expect(empty.buckets.isEmpty && empty.totals.count == 0)
    }
}
