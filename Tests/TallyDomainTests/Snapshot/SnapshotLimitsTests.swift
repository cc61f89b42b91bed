import Testing
@testable import TallyDomain
import TallyEssentials

@Suite("Snapshot limits")
struct SnapshotLimitsTests {
    @Test("the instant range, written as literals, is a day before 0001-01-01 to the end of a day after 9999-12-31 (UTC)")
    func instantsMatchTheCalendar() throws {
        let first = try #require(LocalDate(year: 1, month: 1, day: 1)).dayNumber - 1
        let last = try #require(LocalDate(year: 9999, month: 12, day: 31)).dayNumber + 2
        #expect(SnapshotLimits.instants.lowerBound == first * WallClock.msPerDay)
        #expect(SnapshotLimits.instants.upperBound == last * WallClock.msPerDay - 1)
        #expect(SnapshotLimits.instant(first * WallClock.msPerDay - 1, "due") != nil)
        #expect(SnapshotLimits.instant(last * WallClock.msPerDay, "due") != nil)
        #expect(SnapshotLimits.instant(0, "due") == nil)
    }
}
