import Foundation
import Testing
@testable import TallyEngine
@testable import TallyDomain
import TallyTestSupport
@testable import TallyEssentials

/// `record bests`, `stats --streaks` and `stats --ytd` over whole read models.
@Suite("Bests, streaks and year to date")
struct ActivityProjectionTests {
    static func at(_ text: String) -> Int64 { Timestamp.parse(text)! }

    static func track(_ efforts: [(Int, Double)]) -> TrackSummary {
        TrackSummary(sha256: String(repeating: "b", count: 64), format: "gpx", movingSeconds: 100, bestEfforts: efforts.map { TrackEffort(meters: $0.0, seconds: $0.1) })
    }

    @Test("the fastest per category and distance, from tracks and whole activities within 1%, never across categories")
    func bests() {
        let model = RecordProjectionTests.model([
            RecordFields(name: "Tracked", category: "running", durationSeconds: 3_000, distanceMeters: 10_100, date: Self.at("2025-05-01T07:00:00Z"),
                         source: .import, track: Self.track([(400, 90), (1_000, 240), (5_000, 1_300), (10_000, 2_700)])),
            RecordFields(name: "Race", category: "running", durationSeconds: 1_250, distanceMeters: 4_960, date: Self.at("2026-04-01T09:00:00Z")),
            RecordFields(name: "Too long", category: "running", durationSeconds: 1_000, distanceMeters: 5_060, date: Self.at("2026-04-02T09:00:00Z")),
            RecordFields(name: "Fast walk", category: "walking", durationSeconds: 1_000, distanceMeters: 5_000, date: Self.at("2026-04-03T09:00:00Z")),
            RecordFields(name: "Same time later", category: "running", durationSeconds: 1_250, distanceMeters: 5_000, date: Self.at("2026-04-04T09:00:00Z")),
            RecordFields(name: "Deleted", category: "running", durationSeconds: 600, distanceMeters: 5_000, date: Self.at("2026-04-05T09:00:00Z")),
            RecordFields(name: "Ride", category: "cycling", durationSeconds: 1_500, distanceMeters: 20_000, date: Self.at("2026-04-06T09:00:00Z"),
                         track: Self.track([(10_000, 700), (20_000, 1_500), (400, 20)])),
        ], deleted: [6])
        let bests = BestsProjection.run(categories: [], year: nil, on: model, zone: Fixtures.utc)
        #expect(bests.map(\.category) == ["cycling", "running", "walking"])
        #expect(bests[0].efforts.map(\.meters) == [10_000, 20_000], "a 400 m effort is not a cycling distance")
        let running = bests[1].efforts
        #expect(running.map(\.meters) == [400, 1_000, 5_000, 10_000])
        #expect(running.map(\.seconds) == [90, 240, 1_250, 2_700])
        #expect(running[2].recordName == "Race" && running[2].fromTrack == false, "the earlier of two equal times")
        #expect(running[0].recordName == "Tracked" && running[0].fromTrack)
        #expect(bests[2].efforts.map(\.recordName) == ["Fast walk"])
        let only2025 = BestsProjection.run(categories: ["running"], year: 2025, on: model, zone: Fixtures.utc)
        #expect(only2025.count == 1 && only2025[0].efforts[2].seconds == 1_300)
        #expect(BestsProjection.run(categories: ["swimming"], year: nil, on: model, zone: Fixtures.utc).isEmpty)
    }

    @Test("streaks: days and ISO weeks across a year boundary with a week 53; current counts from yesterday or last week")
    func streaks() {
        let days = ["2026-12-26", "2026-12-27", "2026-12-28", "2027-01-04", "2027-01-05", "1969-12-29", "1969-12-30"]
        let model = RecordProjectionTests.model(days.map {
            RecordFields(name: "Run", category: "running", durationSeconds: 600, date: Self.at($0 + "T08:00:00Z"))
        })
        let rows = StreakProjection.run(categories: [], on: model, now: Self.at("2027-01-06T20:00:00Z"), zone: Fixtures.utc)
        let all = rows[0]
        #expect(all.category == nil && rows.map(\.category) == [nil, "running"])
        #expect(all.longestDays == 3 && all.longestDaysEnd == LocalDate(year: 2026, month: 12, day: 28))
        #expect(all.currentDays == 2, "nothing today yet: the run ending yesterday counts")
        // 2026-W52 (26, 27 Dec), 2026-W53 (28 Dec), 2027-W01 (4, 5 Jan): three weeks in a row.
        #expect(all.longestWeeks == 3 && all.longestWeeksEnd == "2027-W01" && all.currentWeeks == 3)
        #expect(all.activeDays == 7)
        let later = StreakProjection.run(categories: [], on: model, now: Self.at("2027-01-20T08:00:00Z"), zone: Fixtures.utc)[0]
        #expect(later.currentDays == 0 && later.currentWeeks == 0)
        let old = StreakProjection.run(categories: [], on: RecordProjectionTests.model([
            RecordFields(name: "Run", category: "running", durationSeconds: 600, date: Self.at("1969-12-29T08:00:00Z")),
            RecordFields(name: "Run", category: "running", durationSeconds: 600, date: Self.at("1970-01-05T08:00:00Z")),
        ]), now: Self.at("1970-01-06T08:00:00Z"), zone: Fixtures.utc)[0]
        #expect(old.longestWeeks == 2 && old.currentWeeks == 2, "weeks before 1970 number consecutively too")
    }

    @Test("year to date: this year up to now against last year up to the same moment; 29 February counts as 28")
    func yearToDate() {
        let model = RecordProjectionTests.model([
            RecordFields(name: "a", category: "running", durationSeconds: 600, distanceMeters: 2_000, date: Self.at("2027-01-10T08:00:00Z")),
            RecordFields(name: "b", category: "running", durationSeconds: 600, distanceMeters: 3_000, date: Self.at("2028-02-29T09:00:00Z")),
            RecordFields(name: "c", category: "running", durationSeconds: 600, distanceMeters: 1_000, date: Self.at("2027-02-28T11:00:00Z")),
            RecordFields(name: "d", category: "gym", durationSeconds: 900, date: Self.at("2027-02-28T13:00:00Z")),
            RecordFields(name: "e", category: "running", durationSeconds: 600, distanceMeters: 4_000, date: Self.at("2028-01-02T08:00:00Z")),
        ])
        let ytd = YearToDateProjection.run(categories: [], on: model, now: Self.at("2028-02-29T12:00:00Z"), zone: Fixtures.utc)
        #expect(ytd.year == 2028)
        #expect(ytd.current.count == 2 && ytd.current.distanceMeters == 7_000)
        #expect(ytd.previous.count == 2 && ytd.previous.distanceMeters == 3_000, "28 February 2027 up to noon: c counts, d does not")
        #expect(ytd.byCategory.map(\.category) == ["running"])
    }
}
