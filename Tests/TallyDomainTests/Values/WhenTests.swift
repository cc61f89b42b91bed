import Foundation
import Testing
import TallyTestSupport
@testable import TallyDomain
@testable import TallyEssentials

private func zone(_ identifier: String) -> Zone {
    Zone.named(identifier)!
}

private func day(_ year: Int, _ month: Int, _ day: Int) -> LocalDate {
    LocalDate(year: year, month: month, day: day)!
}

private let utc = zone("UTC")
private let prague = zone("Europe/Prague")
private let newYork = zone("America/New_York")
private let kolkata = zone("Asia/Kolkata")

/// 2026-11-21T14:30:00Z, a Saturday.
private let now: Int64 = 1_795_271_400_000
private let minute: Int64 = 60_000
private let hour: Int64 = 3_600_000
private let dayMs: Int64 = 86_400_000

private func whenError(_ text: String, now: Int64 = now, zone: Zone = utc, allowLogPosition: Bool = false) -> ValueError? {
    do {
        _ = try When.parse(text, now: now, zone: zone, allowLogPosition: allowLogPosition)
        return nil
    } catch {
        return error
    }
}

@Suite struct WhenParseTests {
    static let utcCases: [(String, When)] = [
        ("2026-11-21", .date(day(2026, 11, 21))),
        ("  2026-11-21\n", .date(day(2026, 11, 21))),
        ("2024-02-29", .date(day(2024, 2, 29))),
        ("0001-01-01", .date(day(1, 1, 1))),
        ("9999-12-31", .date(day(9999, 12, 31))),
        ("2026-11-21T14:30", .instant(now)),
        ("2026-11-21t14:30", .instant(now)),
        ("2026-11-21 14:30", .instant(now)),
        ("2026-11-21T14:30:15", .instant(now + 15_000)),
        ("2026-11-21T14:30:15.25", .instant(now + 15_250)),
        ("2026-11-21T00:00", .instant(1_795_219_200_000)),
        ("2026-11-21T23:59:59", .instant(1_795_219_200_000 + dayMs - 1000)),
        ("2026-11-21T14:30:00Z", .instant(now)),
        ("2026-11-21T14:30Z", .instant(now)),
        ("2026-11-21T14:30:00z", .instant(now)),
        ("2026-11-21T15:30:00+01:00", .instant(now)),
        ("2026-11-21T20:00+0530", .instant(now)),
        ("2026-11-21T09:30-05", .instant(now)),
        ("2026-11-21 14:30:00.123Z", .instant(now + 123)),
        ("now", .instant(now)),
        ("NOW", .instant(now)),
        (" Now ", .instant(now)),
        ("today", .date(day(2026, 11, 21))),
        ("Today", .date(day(2026, 11, 21))),
        ("yesterday", .date(day(2026, 11, 20))),
        ("TOMORROW", .date(day(2026, 11, 22))),
        // Days and weeks keep a day: `--due +3d` is a date, not an instant at the current time.
        ("+3d", .date(day(2026, 11, 24))),
        ("3d", .date(day(2026, 11, 24))),
        ("3D", .date(day(2026, 11, 24))),
        ("-2w", .date(day(2026, 11, 7))),
        ("+1W", .date(day(2026, 11, 28))),
        ("-5h", .instant(now - 5 * hour)),
        ("-30m", .instant(now - 30 * minute)),
        ("+90m", .instant(now + 90 * minute)),
        ("90M", .instant(now + 90 * minute)),
        ("0d", .date(day(2026, 11, 21))),
        ("-0m", .instant(now)),
        ("999999m", .instant(now + 999_999 * minute)),
        ("-000001h", .instant(now - hour)),
    ]

    @Test(arguments: utcCases)
    func acceptsInUTC(text: String, expected: When) throws {
        #expect(try When.parse(text, now: now, zone: utc) == expected)
    }

    @Test(arguments: [
        ("2026-11-21T14:30", When.instant(now - hour)),
        ("2026-11-21 15:30", .instant(now)),
        ("2026-11-21T14:30:00Z", .instant(now)),
        ("today", .date(day(2026, 11, 21))),
        ("2026-07-01T12:00", .instant(1_782_900_000_000)),
    ])
    func readsWallTimeInTheGivenZone(text: String, expected: When) throws {
        #expect(try When.parse(text, now: now, zone: prague) == expected)
    }

    @Test func logPositionWhenAllowed() throws {
        #expect(try When.parse("@42", now: now, zone: utc, allowLogPosition: true) == .logPosition(42))
        #expect(try When.parse(" @1 ", now: now, zone: utc, allowLogPosition: true) == .logPosition(1))
        #expect(try When.parse("@9223372036854775807", now: now, zone: utc, allowLogPosition: true)
            == .logPosition(Int64.max))
    }

    @Test(arguments: [
        ("", "is empty"),
        ("   ", "is empty"),
        ("2026-02-30", "February 2026 has 28 days"),
        ("2025-02-29", "February 2025 has 28 days"),
        ("2100-02-29", "February 2100 has 28 days"),
        ("2026-04-31", "April 2026 has 30 days"),
        ("2026-13-01", "month must be 01-12"),
        ("2026-00-10", "month must be 01-12"),
        ("2026-01-00", "day must be 01-31"),
        ("2026-01-32", "day must be 01-31"),
        ("0000-01-01", "year must be 0001-9999"),
        ("10000-01-01", "year must be 0001-9999"),
        ("2026-1-1", "expected a date as YYYY-MM-DD"),
        ("2026/11/21", "expected a date as YYYY-MM-DD"),
        ("2026-11-21T25:00", "hour must be 00-23"),
        ("2026-11-21 24:00", "hour must be 00-23"),
        ("2026-11-21T14:60", "minute must be 00-59"),
        ("2026-11-21T14:30:60", "second must be 00-59"),
        ("2026-11-21T14:30:60Z", "second must be 00-59"),
        ("2026-11-21T1430", "expected a time as HH:MM or HH:MM:SS"),
        ("2026-11-21T9:30", "expected a time as HH:MM or HH:MM:SS"),
        ("2026-11-21T", "expected a time as HH:MM or HH:MM:SS"),
        ("2026-11-21T14:30:00.", "expected digits after '.'"),
        ("2026-11-21x", "unexpected 'x' at the end"),
        ("2026-11-21T14:30Zx", "unexpected 'x' at the end"),
        ("2026-11-21T14:30 Z", "unexpected ' Z' at the end"),
        ("2026-11-21T14:30+5", "expected a zone as Z, ±HH:MM, ±HHMM or ±HH"),
        ("2026-11-21T14:30+25:00", "zone offset hour must be 00-23"),
        ("2026-11-21T14:30+01:60", "zone offset minute must be 00-59"),
        ("banana", When.shape),
        ("nowx", When.shape),
        ("today!", When.shape),
        ("+-3d", When.shape),
        ("+", When.shape),
        ("+3", "a unit is required (m, h, d or w)"),
        ("2026", "a unit is required (m, h, d or w)"),
        ("3x", "unknown unit 'x' (use m, h, d or w)"),
        ("3days", "unknown unit 'days' (use m, h, d or w)"),
        ("+1234567d", "the number must have at most 6 digits"),
        ("+3d later", "unexpected ' later' at the end"),
        ("3d4h", "unexpected '4h' at the end"),
        ("3 d", "expected a date as YYYY-MM-DD"),
        ("1.5d", "expected a date as YYYY-MM-DD"),
        ("+999999w", "the result is outside the years 0001-9999"),
        ("@42", "a log position (@SEQ) is not allowed here"),
    ])
    func rejects(text: String, reason: String) {
        #expect(whenError(text).map { [$0.kind.rawValue, $0.input, $0.reason] } == ["when", text, reason])
    }

    @Test(arguments: [
        ("@0", "a log position must be 1 or more"),
        ("@-1", "a log position must be 1 or more"),
        ("@", "expected a log position as @SEQ, like @42"),
        ("@4x", "expected a log position as @SEQ, like @42"),
        ("@ 4", "expected a log position as @SEQ, like @42"),
        ("@99999999999999999999", "the log position is too big"),
    ])
    func rejectsBadLogPositions(text: String, reason: String) {
        #expect(whenError(text, allowLogPosition: true)?.reason == reason)
    }

    @Test func rejectsDatesBeforeYearOne() {
        let firstDay: Int64 = -62_135_596_800_000
        #expect(whenError("yesterday", now: firstDay)?.reason == "the result is outside the years 0001-9999")
        #expect(whenError("-1d", now: firstDay)?.reason == "the result is outside the years 0001-9999")
        #expect(throws: Never.self) { try When.parse("today", now: firstDay, zone: utc) }
    }
}

@Suite struct WhenDaylightSavingTests {
    @Test(arguments: [
        // Spring forward on 2026-03-29 (02:00 CET → 03:00 CEST): the day has 23 hours; days count in local dates.
        ("+1d", Int64(1_774_695_600_000), When.date(LocalDate(year: 2026, month: 3, day: 29)!)),
        ("-1d", 1_774_778_400_000, .date(LocalDate(year: 2026, month: 3, day: 28)!)),
        ("+24h", 1_774_695_600_000, .instant(1_774_695_600_000 + 24 * hour)),
        ("+1w", 1_774_436_400_000, .date(LocalDate(year: 2026, month: 4, day: 1)!)),
        // Fall back on 2026-10-25 (03:00 CEST → 02:00 CET): the day has 25 hours.
        ("+1d", 1_792_836_000_000, .date(LocalDate(year: 2026, month: 10, day: 25)!)),
        ("-1d", 1_792_926_000_000, .date(LocalDate(year: 2026, month: 10, day: 24)!)),
        ("+1440m", 1_792_836_000_000, .instant(1_792_836_000_000 + 24 * hour)),
        // 23:30 local on 2026-03-28 is 22:30 UTC: `tomorrow` is the local next day, not the UTC one.
        ("tomorrow", 1_774_737_000_000, .date(LocalDate(year: 2026, month: 3, day: 29)!)),
    ])
    func relativeDaysAreLocalDates(text: String, from start: Int64, expected: When) throws {
        #expect(try When.parse(text, now: start, zone: prague) == expected)
    }

    @Test(arguments: [
        // In the gap: 02:30 does not exist, use 03:30 CEST (= 02:30 CET).
        ("2026-03-29T02:30", Int64(1_774_747_800_000)),
        ("2026-03-29T02:00", 1_774_746_000_000),
        ("2026-03-29T03:00", 1_774_746_000_000),
        ("2026-03-29T01:59:59", 1_774_745_999_000),
        // In the overlap: the earlier (CEST) reading.
        ("2026-10-25T02:30", 1_792_888_200_000),
        ("2026-10-25T02:00", 1_792_886_400_000),
        ("2026-10-25T03:00", 1_792_893_600_000),
        ("2026-10-25T01:59", 1_792_886_340_000),
    ])
    func wallTimesAroundTransitions(text: String, expected: Int64) throws {
        #expect(try When.parse(text, now: now, zone: prague) == .instant(expected))
    }

    @Test func dayBoundsFollowLocalMidnights() {
        let spring = When.date(day(2026, 3, 29))
        #expect(spring.startInstant(in: prague) == 1_774_738_800_000)
        #expect(spring.endInstant(in: prague) == 1_774_821_600_000)
        #expect(spring.endInstant(in: prague) - spring.startInstant(in: prague) == 23 * hour)
        let autumn = When.date(day(2026, 10, 25))
        #expect(autumn.startInstant(in: prague) == 1_792_879_200_000)
        #expect(autumn.endInstant(in: prague) == 1_792_969_200_000)
        #expect(autumn.endInstant(in: prague) - autumn.startInstant(in: prague) == 25 * hour)
    }

    @Test func skippedMidnightStartsAtTheTransition() throws {
        let saoPaulo = zone("America/Sao_Paulo")
        // On 2018-11-04 clocks went from 00:00 -03 straight to 01:00 -02.
        #expect(day(2018, 11, 4).startInstant(in: saoPaulo) == 1_541_300_400_000)
        #expect(try When.parse("2018-11-04T00:30", now: now, zone: saoPaulo) == .instant(1_541_302_200_000))
    }
}

@Suite struct WhenZoneTests {
    @Test(arguments: [
        // 2026-11-21 22:30 EST.
        (Int64(1_795_318_200_000), "America/New_York", day(2026, 11, 21)),
        // 2026-11-22 00:00 EST.
        (1_795_323_600_000, "America/New_York", day(2026, 11, 22)),
        // 2026-11-21 23:59 IST.
        (1_795_285_740_000, "Asia/Kolkata", day(2026, 11, 21)),
        // 2026-11-22 00:00 IST.
        (1_795_285_800_000, "Asia/Kolkata", day(2026, 11, 22)),
        // 2026-11-22 00:15 IST.
        (1_795_286_700_000, "Asia/Kolkata", day(2026, 11, 22)),
    ])
    func todayFollowsTheLocalDate(instant: Int64, zoneID: String, today: LocalDate) throws {
        let local = zone(zoneID)
        #expect(try When.parse("today", now: instant, zone: local) == .date(today))
        #expect(try When.parse("yesterday", now: instant, zone: local) == .date(today.adding(days: -1)))
        #expect(try When.parse("tomorrow", now: instant, zone: local) == .date(today.adding(days: 1)))
    }

    @Test func halfHourZone() throws {
        #expect(try When.parse("2026-11-22T00:15", now: now, zone: kolkata) == .instant(1_795_286_700_000))
        #expect(When.date(day(2026, 11, 22)).startInstant(in: kolkata) == 1_795_285_800_000)
        #expect(When.date(day(2026, 11, 21)).startInstant(in: newYork) == 1_795_237_200_000)
    }
}

@Suite struct WhenStorageTests {
    @Test(arguments: [
        (When.date(day(2026, 11, 21)), "2026-11-21"),
        (.instant(now), "2026-11-21T14:30:00Z"),
        (.instant(now + 5), "2026-11-21T14:30:00.005Z"),
        (.logPosition(42), "@42"),
    ])
    func roundTrips(value: When, text: String) {
        #expect(value.storageText == text)
        #expect(When.fromStorage(text) == value)
    }

    @Test(arguments: ["", "today", "+3d", "2026-11-21T14:30", "@0", "@", "@x", "2026-02-30", " 2026-11-21"])
    func refusesNonCanonicalText(text: String) {
        #expect(When.fromStorage(text) == nil)
    }

    @Test func fromStorageAcceptsOffsets() {
        #expect(When.fromStorage("2026-11-21T15:30:00+01:00") == .instant(now))
    }

    @Test func instantBounds() {
        #expect(When.instant(now).startInstant(in: prague) == now)
        #expect(When.instant(now).endInstant(in: prague) == now + 1)
        #expect(When.date(day(2026, 11, 21)).startInstant(in: utc) == 1_795_219_200_000)
        #expect(When.date(day(2026, 11, 21)).endInstant(in: utc) == 1_795_219_200_000 + dayMs)
    }
}

@Suite struct LocalDateTests {
    @Test(arguments: [
        (2024, 2, 29, true), (2000, 2, 29, true), (2100, 2, 29, false), (2025, 2, 29, false),
        (2026, 2, 28, true), (2026, 2, 30, false), (2026, 4, 30, true), (2026, 4, 31, false),
        (2026, 12, 31, true), (2026, 13, 1, false), (2026, 0, 1, false), (2026, 1, 0, false),
        (1, 1, 1, true), (9999, 12, 31, true), (0, 12, 31, false), (10000, 1, 1, false),
    ])
    func validatesDates(year: Int, month: Int, dayOfMonth: Int, valid: Bool) {
        #expect((LocalDate(year: year, month: month, day: dayOfMonth) != nil) == valid)
    }

    @Test(arguments: [
        ("2026-11-21", day(2026, 11, 21)), ("0001-01-01", day(1, 1, 1)), ("2024-02-29", day(2024, 2, 29)),
    ])
    func parsesAndDescribes(text: String, date: LocalDate) {
        #expect(LocalDate.parse(text) == date)
        #expect(date.description == text)
    }

    @Test(arguments: ["", "2026-11-21T00:00", " 2026-11-21", "2026-11-21 ", "2026-2-03", "26-11-21", "2026-02-29", "today"])
    func parseRefuses(text: String) {
        #expect(LocalDate.parse(text) == nil)
    }

    @Test(arguments: [
        (day(2020, 12, 31), 2020, 53, 4), (day(2021, 1, 3), 2020, 53, 7), (day(2021, 1, 4), 2021, 1, 1),
        (day(2024, 12, 30), 2025, 1, 1), (day(2026, 1, 1), 2026, 1, 4), (day(2027, 1, 1), 2026, 53, 5),
        (day(2010, 1, 3), 2009, 53, 7), (day(2008, 12, 29), 2009, 1, 1), (day(2026, 11, 21), 2026, 47, 6),
        (day(2024, 2, 29), 2024, 9, 4), (day(2005, 1, 1), 2004, 53, 6), (day(2026, 12, 31), 2026, 53, 4),
        (day(1970, 1, 1), 1970, 1, 4),
    ])
    func isoWeeks(date: LocalDate, weekYear: Int, week: Int, weekday: Int) {
        #expect(date.isoWeek.year == weekYear)
        #expect(date.isoWeek.week == week)
        #expect(date.weekday == weekday)
    }

    @Test func addsDaysAcrossMonthsAndLeapDays() {
        #expect(day(2024, 2, 28).adding(days: 1) == day(2024, 2, 29))
        #expect(day(2024, 2, 29).adding(days: 1) == day(2024, 3, 1))
        #expect(day(2100, 2, 28).adding(days: 1) == day(2100, 3, 1))
        #expect(day(2026, 12, 31).adding(days: 1) == day(2027, 1, 1))
        #expect(day(2026, 1, 1).adding(days: -1) == day(2025, 12, 31))
        #expect(day(2026, 11, 21).adding(days: 365) == day(2027, 11, 21))
        #expect(day(1, 1, 1).dayNumber == -719_162)
        #expect(day(9999, 12, 31).dayNumber == 2_932_896)
    }

    @Test func containingUsesTheZone() {
        #expect(LocalDate.containing(now, in: utc) == day(2026, 11, 21))
        #expect(LocalDate.containing(1_795_318_200_000, in: utc) == day(2026, 11, 22))
        #expect(LocalDate.containing(1_795_318_200_000, in: newYork) == day(2026, 11, 21))
        #expect(LocalDate.containing(-1, in: utc) == day(1969, 12, 31))
        #expect(day(2026, 11, 21).startInstant(in: utc) == 1_795_219_200_000)
        #expect(day(2026, 11, 21).startInstant(in: prague) == 1_795_215_600_000)
    }

    @Test func ordersChronologically() {
        #expect(day(2026, 11, 21) < day(2026, 11, 22))
        #expect(day(2026, 11, 21) < day(2026, 12, 1))
        #expect(day(2025, 12, 31) < day(2026, 1, 1))
        #expect(!(day(2026, 1, 1) < day(2026, 1, 1)))
    }
}

@Suite struct LocalDateTextTests {
    @Test("YYYY-MM-DD for every day from year 0 to 9999 sampled, and the signed and five-digit years around them")
    func description() throws {
        for dayNumber in stride(from: Int64(-719_528), through: 2_932_896, by: 97) {
            let date = LocalDate(dayNumber: dayNumber)
            let expected = (date.year < 0 ? "-" : "") + String(repeating: "0", count: max(0, 4 - String(abs(date.year)).count))
                + String(abs(date.year)) + "-" + (date.month < 10 ? "0" : "") + String(date.month) + "-" + (date.day < 10 ? "0" : "") + String(date.day)
            #expect(date.description == expected)
            if (1 ... 9999).contains(date.year) { #expect(LocalDate.parse(date.description) == date) }
        }
        #expect(LocalDate(dayNumber: 0).description == "1970-01-01")
        #expect(LocalDate(dayNumber: -719_529).description == "-0001-12-31")
        #expect(LocalDate(dayNumber: 2_932_897).description == "10000-01-01")
    }
}

@Suite struct TimestampTextTests {
    /// The text the format had before it wrote bytes directly: date, time and the fraction when not zero.
    private func reference(_ ms: Int64) -> String {
        let day = ms >= 0 ? ms / 86_400_000 : (ms - 86_399_999) / 86_400_000
        let msOfDay = ms - day * 86_400_000
        func pad(_ value: Int64, _ width: Int) -> String {
            let digits = String(value)
            return String(repeating: "0", count: max(0, width - digits.count)) + digits
        }
        let seconds = msOfDay / 1000
        let base = LocalDate(dayNumber: day).description + "T" + pad(seconds / 3600, 2) + ":" + pad(seconds / 60 % 60, 2) + ":" + pad(seconds % 60, 2)
        return msOfDay % 1000 == 0 ? base + "Z" : base + "." + pad(msOfDay % 1000, 3) + "Z"
    }

    @Test("ISO-8601 UTC text, with milliseconds only when there are some, from year 0 to 9999 and beyond, and it parses back")
    func format() {
        var random = SystemRandomNumberGenerator()
        let edges: [Int64] = [0, -1, 1, 999, 1000, 86_399_999, 86_400_000, -86_400_000, 1_763_731_200_123, 253_402_300_799_999, 253_402_300_800_000, -62_167_219_200_000, -62_167_219_200_001]
        let samples = edges + (0 ..< 20_000).map { _ in Int64.random(in: -62_167_219_200_000 ... 253_402_300_799_999, using: &random) }
        for ms in samples {
            let text = Timestamp.format(ms)
            #expect(text == reference(ms), "\(ms)")
            if (1 ... 9999).contains(LocalDate.containing(ms, in: .utc).year) { #expect(Timestamp.parse(text) == ms, "\(text)") }
        }
        #expect(Timestamp.format(0) == "1970-01-01T00:00:00Z")
        #expect(Timestamp.format(1_763_731_200_123) == "2025-11-21T13:20:00.123Z")
    }
}

@Suite struct WhenDayWithTimeTests {
    /// 2026-11-21T14:30:00Z, a Saturday.
    static let now: Int64 = 1_795_271_400_000

    @Test("a day in words then a time of day is that local instant", arguments: [
        ("tomorrow 10:00", "UTC", "2026-11-22T10:00:00Z"),
        ("tomorrow 10:00", "Europe/Prague", "2026-11-22T09:00:00Z"),
        ("mon 9:30", "UTC", "2026-11-23T09:30:00Z"),
        ("in 2 days 18:00:30", "UTC", "2026-11-23T18:00:30Z"),
        ("2026-12-24 18:00", "UTC", "2026-12-24T18:00:00Z"),
    ])
    func dayWithTime(text: String, zone: String, expected: String) throws {
        let when = try When.parse(text, now: Self.now, zone: Zone.named(zone)!)
        #expect(when == .instant(Timestamp.parse(expected)!))
    }

    @Test("a wrong time after a day is refused with the time's reason; a time after an instant is not a day and time")
    func refused() {
        #expect(throws: ValueError.self) { try When.parse("tomorrow 25:00", now: Self.now, zone: .utc) }
        #expect(throws: ValueError.self) { try When.parse("now 10:00", now: Self.now, zone: .utc) }
        #expect(throws: ValueError.self) { try When.parse("tomorrow 10:0", now: Self.now, zone: .utc) }
    }
}

@Suite struct WhenDayWithTimeAttackTests {
    @Test("many times after a day are refused without recursing once per word")
    func manyTimes() {
        let text = "tomorrow" + String(repeating: " 10:00", count: AttackScale.count(short: 20_000, full: 200_000))
        #expect(throws: ValueError.self) { try When.parse(text, now: WhenDayWithTimeTests.now, zone: .utc) }
    }
}
