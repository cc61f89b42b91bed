import Foundation
import Testing
@testable import TallyDomain
import TallyTestSupport
@testable import TallyEssentials

/// Every form of the README's table of dates, in English and Czech, and the refusals.
@Suite("Dates people type")
struct NaturalWhenTests {
    /// Wednesday 2026-11-18, 14:30 UTC.
    static let now = Timestamp.parse("2026-11-18T14:30:00Z")!
    static let utc = Fixtures.utc

    static func date(_ text: String) -> When { .date(LocalDate.parse(text)!) }

    static let forms: [(String, When)] = [
        ("today", date("2026-11-18")), ("dnes", date("2026-11-18")), ("dneska", date("2026-11-18")),
        ("tomorrow", date("2026-11-19")), ("zítra", date("2026-11-19")), ("zitra", date("2026-11-19")),
        ("yesterday", date("2026-11-17")), ("včera", date("2026-11-17")), ("pozítří", date("2026-11-20")),
        ("now", .instant(now)), ("teď", .instant(now)), ("nyní", .instant(now)),
        // Weekday names: the next such day, never today (today is a Wednesday).
        ("mon", date("2026-11-23")), ("Monday", date("2026-11-23")), ("pondělí", date("2026-11-23")), ("po", date("2026-11-23")),
        ("tue", date("2026-11-24")), ("tues", date("2026-11-24")), ("úterý", date("2026-11-24")), ("út", date("2026-11-24")), ("ut", date("2026-11-24")),
        ("wed", date("2026-11-25")), ("wednesday", date("2026-11-25")), ("středa", date("2026-11-25")), ("středu", date("2026-11-25")), ("st", date("2026-11-25")),
        ("thu", date("2026-11-19")), ("thursday", date("2026-11-19")), ("čtvrtek", date("2026-11-19")), ("čt", date("2026-11-19")),
        ("fri", date("2026-11-20")), ("FRIDAY", date("2026-11-20")), ("pátek", date("2026-11-20")), ("patek", date("2026-11-20")), ("pá", date("2026-11-20")),
        ("sat", date("2026-11-21")), ("sobota", date("2026-11-21")), ("sobotu", date("2026-11-21")), ("so", date("2026-11-21")),
        ("sun", date("2026-11-22")), ("neděle", date("2026-11-22")), ("neděli", date("2026-11-22")), ("ne", date("2026-11-22")),
        ("pa\u{301}tek", date("2026-11-20")),
        // Ends of the week (Sunday; weeks start on Monday), the month and the year.
        ("eow", date("2026-11-22")), ("end of week", date("2026-11-22")), ("konec týdne", date("2026-11-22")), ("kt", date("2026-11-22")),
        ("eom", date("2026-11-30")), ("end of month", date("2026-11-30")), ("konec měsíce", date("2026-11-30")), ("km", date("2026-11-30")),
        ("eoy", date("2026-12-31")), ("end of year", date("2026-12-31")), ("konec roku", date("2026-12-31")), ("kr", date("2026-12-31")),
        // in N UNIT / za N UNIT: days and longer are dates, hours and minutes instants.
        ("in 3 days", date("2026-11-21")), ("in 1 day", date("2026-11-19")), ("in 3d", date("2026-11-21")),
        ("za 3 dny", date("2026-11-21")), ("za 1 den", date("2026-11-19")), ("za 5 dní", date("2026-11-23")),
        ("in 2 weeks", date("2026-12-02")), ("za 2 týdny", date("2026-12-02")), ("za 1 týden", date("2026-11-25")),
        ("in 3 months", date("2027-02-18")), ("za 3 měsíce", date("2027-02-18")), ("in 1 year", date("2027-11-18")), ("za 2 roky", date("2028-11-18")),
        ("in 2 hours", .instant(now + 7_200_000)), ("za 2 hodiny", .instant(now + 7_200_000)), ("in 90 minutes", .instant(now + 5_400_000)),
        ("za 30 minut", .instant(now + 1_800_000)),
        // Offsets: days and weeks keep a day; hours and minutes are instants.
        ("+3d", date("2026-11-21")), ("-1w", date("2026-11-11")), ("+5h", .instant(now + 18_000_000)), ("-30m", .instant(now - 1_800_000)),
    ]

    @Test("looking back (--as-of, log --since, records, reports), a weekday is the last one before today, never today; with a time too")
    func weekdaysLookingBack() throws {
        // Today is Wednesday 2026-11-18.
        let back: [(String, String)] = [
            ("mon", "2026-11-16"), ("tue", "2026-11-17"), ("wed", "2026-11-11"), ("thu", "2026-11-12"),
            ("fri", "2026-11-13"), ("pátek", "2026-11-13"), ("sat", "2026-11-14"), ("sun", "2026-11-15"),
        ]
        for (text, expected) in back {
            #expect(try When.parse(text, now: Self.now, zone: Self.utc, lookingBack: true) == Self.date(expected), "\(text)")
            #expect(try When.parse(text, now: Self.now, zone: Self.utc) != Self.date(expected), "\(text): forward by default")
        }
        #expect(try When.parse("mon 09:30", now: Self.now, zone: Self.utc, lookingBack: true) == .instant(Timestamp.parse("2026-11-16T09:30:00Z")!))
        // Every weekday from every day of a week: 1 to 7 days back, on that weekday.
        for offset in 0 ..< 7 {
            let now = Self.now + Int64(offset) * 86_400_000
            let today = LocalDate.containing(now, in: Self.utc)
            for entry in NaturalWhen.weekdayNames {
                guard case .date(let day) = try When.parse(entry.english[0], now: now, zone: Self.utc, lookingBack: true) else {
                    Issue.record("\(entry.english[0]): not a date"); continue
                }
                let behind = today.dayNumber - day.dayNumber
                #expect(day.weekday == entry.weekday && (1...7).contains(behind), "\(today) \(entry.english[0]) → \(day)")
            }
        }
        // Words that are not weekdays read the same either way.
        for text in ["yesterday", "today", "eom", "in 3 days", "-2d", "2026-11-01"] {
            #expect(try When.parse(text, now: Self.now, zone: Self.utc, lookingBack: true) == When.parse(text, now: Self.now, zone: Self.utc), "\(text)")
        }
    }

    @Test(arguments: forms)
    func reads(text: String, expected: When) throws {
        #expect(try When.parse(text, now: Self.now, zone: Self.utc) == expected)
    }

    @Test("on a Sunday eow is today, and the next Sunday is a week away")
    func sunday() throws {
        let sunday = Timestamp.parse("2026-11-22T10:00:00Z")!
        #expect(try When.parse("eow", now: sunday, zone: Self.utc) == Self.date("2026-11-22"))
        #expect(try When.parse("sun", now: sunday, zone: Self.utc) == Self.date("2026-11-29"))
    }

    @Test("a month ahead of 31 January is the last day of February")
    func monthEnd() throws {
        let january = Timestamp.parse("2026-01-31T10:00:00Z")!
        #expect(try When.parse("in 1 month", now: january, zone: Self.utc) == Self.date("2026-02-28"))
        #expect(try When.parse("eom", now: january, zone: Self.utc) == Self.date("2026-01-31"))
    }

    @Test("the day of a name is the local day: late on Saturday evening in Prague, 'tomorrow' is Sunday")
    func localDay() throws {
        let prague = Zone.named("Europe/Prague")!
        let saturdayNight = Timestamp.parse("2026-11-21T23:30:00Z")!  // 00:30 on Sunday in Prague
        #expect(try When.parse("tomorrow", now: saturdayNight, zone: prague) == Self.date("2026-11-23"))
        #expect(try When.parse("+1d", now: saturdayNight, zone: prague) == Self.date("2026-11-23"))
    }

    @Test("ambiguous or malformed input is refused with a suggestion", arguments: [
        ("next fri", "is ambiguous (this week's or next week's?); write 'fri' for the next such day, or a date like 2026-11-20"),
        ("příští pátek", "is ambiguous"),
        ("this monday", "is ambiguous"),
        ("t", "could mean tuesday or thursday"),
        ("s", "could mean saturday or sunday"),
        ("in 3 m", "'m' could mean minutes or months; write 'in 3 minutes' or 'in 3 months'"),
        ("3/4/2026", "write 2026-04-03 or 2026-03-04"),
        ("3.4.", "write 2026-04-03 or 2026-03-04"),
        ("12/12/2026", "write 2026-12-12"),
        ("in days", "expected 'in N UNIT'"),
        ("in 3", "a unit is required"),
        ("in 3 fortnights", "unknown unit 'fortnights'"),
        ("za 9999999 dní", "at most 6 digits"),
        ("in 999999 years", "outside the years 0001-9999"),
        ("in -3 days", "expected 'in N UNIT'"),
        ("friday 13", "expected a date"),
        ("fri fri", "expected a date"),
    ])
    func refuses(text: String, reason: String) {
        #expect {
            try When.parse(text, now: Self.now, zone: Self.utc)
        } throws: { error in
            guard let error = error as? ValueError else { return false }
            return error.kind == .when && error.input == text && error.reason.contains(reason)
        }
    }

    @Test("periods: names, Czech names, Nd/Nw/Nm/Ny; zero, huge, negative and unknown ones are refused")
    func periods() throws {
        let cases: [(String, RecurrencePeriod)] = [
            ("daily", .days(1)), ("weekdays", .weekdays), ("weekly", .weeks(1)), ("monthly", .months(1)), ("yearly", .years(1)),
            ("denně", .days(1)), ("týdně", .weeks(1)), ("měsíčně", .months(1)), ("ročně", .years(1)), ("pracovní-dny", .weekdays),
            ("3d", .days(3)), ("2W", .weeks(2)), ("6m", .months(6)), ("1y", .years(1)), ("999d", .days(999)),
        ]
        for (text, period) in cases {
            #expect(try RecurrencePeriod.parse(text) == period, "\(text)")
            #expect(try RecurrencePeriod.parse(period.description) == period)
        }
        for bad in ["", "0d", "1000d", "-1w", "+1w", "1.5m", "d", "3x", "every day", "3 d", "1\u{0}d", "٣d", "99999999999999999999d"] {
            #expect(throws: ValueError.self, "\(bad)") { try RecurrencePeriod.parse(bad) }
        }
    }

    @Test("the schedule: the n-th occurrence clamps to month ends and weekdays skip weekends")
    func schedule() {
        let start = LocalDate.parse("2026-01-31")!
        #expect((0..<4).map { RecurrencePeriod.months(1).occurrence($0, from: start).description } == ["2026-01-31", "2026-02-28", "2026-03-31", "2026-04-30"])
        #expect(RecurrencePeriod.months(13).occurrence(1, from: start).description == "2027-02-28")
        let friday = LocalDate.parse("2026-01-02")!
        #expect((1...6).map { RecurrencePeriod.weekdays.occurrence($0, from: friday).description }
            == ["2026-01-05", "2026-01-06", "2026-01-07", "2026-01-08", "2026-01-09", "2026-01-12"])
        #expect(SeriesSchedule.firstOccurrence(of: .weekdays, from: friday, onOrAfter: LocalDate.parse("2026-01-10")!).description == "2026-01-12")
        #expect(SeriesSchedule.firstOccurrence(of: .years(4), from: LocalDate.parse("2024-02-29")!, onOrAfter: LocalDate.parse("2025-01-01")!).description == "2028-02-29")
    }
}
