import Foundation
import TallyTestSupport
import Testing
@testable import TallyEssentials
@testable import TallyPlatform

/// UTC seconds of a UTC wall time.
private func utc(_ year: Int, _ month: Int, _ day: Int, _ hour: Int = 0, _ minute: Int = 0, _ second: Int = 0) -> Int64 {
    LocalDate(year: year, month: month, day: day)!.dayNumber * 86_400 + Int64(hour * 3600 + minute * 60 + second)
}

private func named(_ name: String) throws -> Zone {
    try #require(Zone.named(name), "zone \(name) in the system's zone database")
}

@Suite("time zones read from the system's TZif files")
struct TZifZoneTests {
    @Test func praguesTransitionsIn2026() throws {
        let prague = try named("Europe/Prague")
        #expect(prague.offsetSeconds(at: utc(2026, 3, 29, 0, 59, 59)) == 3600)
        #expect(prague.offsetSeconds(at: utc(2026, 3, 29, 1)) == 7200)
        #expect(prague.offsetSeconds(at: utc(2026, 10, 25, 0, 59, 59)) == 7200)
        #expect(prague.offsetSeconds(at: utc(2026, 10, 25, 1)) == 3600)
        // Before 1891 Prague kept local mean time, +0:57:44.
        #expect(prague.offsetSeconds(at: utc(1850, 6, 1)) == 3464)
    }

    @Test func newYorkHasANegativeOffset() throws {
        let newYork = try named("America/New_York")
        #expect(newYork.offsetSeconds(at: utc(2026, 3, 8, 6, 59, 59)) == -18000)
        #expect(newYork.offsetSeconds(at: utc(2026, 3, 8, 7)) == -14400)
        #expect(newYork.offsetSeconds(at: utc(2026, 11, 1, 5, 59, 59)) == -14400)
        #expect(newYork.offsetSeconds(at: utc(2026, 11, 1, 6)) == -18000)
        let stJohns = try named("America/St_Johns")
        #expect(stJohns.offsetSeconds(at: utc(2026, 1, 15)) == -(3 * 3600 + 1800))
    }

    @Test func lordHoweMovesItsClockByHalfAnHour() throws {
        let lordHowe = try named("Australia/Lord_Howe")
        #expect(lordHowe.offsetSeconds(at: utc(2026, 4, 4, 14, 59, 59)) == 39600)
        #expect(lordHowe.offsetSeconds(at: utc(2026, 4, 4, 15)) == 37800)
        #expect(lordHowe.offsetSeconds(at: utc(2026, 10, 3, 15, 29, 59)) == 37800)
        #expect(lordHowe.offsetSeconds(at: utc(2026, 10, 3, 15, 30)) == 39600)
        // Far past the file's last transition, the footer's rule decides.
        #expect(lordHowe.offsetSeconds(at: utc(2090, 3, 15)) == 39600)
        #expect(lordHowe.offsetSeconds(at: utc(2090, 4, 20)) == 37800)
    }

    @Test func apiaSkippedTheThirtiethOfDecember2011() throws {
        let apia = try named("Pacific/Apia")
        let jump = utc(2011, 12, 30, 10)
        #expect(apia.offsetSeconds(at: jump - 1) == -36000)
        #expect(apia.offsetSeconds(at: jump) == 50400)
        #expect(LocalDate.containing((jump - 1) * 1000, in: apia).description == "2011-12-29")
        #expect(LocalDate.containing(jump * 1000, in: apia).description == "2011-12-31")
        // The skipped day starts where the day after it starts.
        let skipped = LocalDate(year: 2011, month: 12, day: 30)!
        #expect(skipped.startInstant(in: apia) == jump * 1000)
    }

    @Test func utcIsAlwaysZero() throws {
        for zone in [Zone.utc, try named("UTC"), try named("Etc/UTC")] {
            for instant in [utc(1900, 1, 1), utc(2026, 7, 1), utc(2200, 12, 31)] {
                #expect(zone.offsetSeconds(at: instant) == 0)
            }
        }
    }

    /// Every 6 hours from 1900 to 2150 (past the files' last transitions), against Foundation's own zone data.
    @Test(arguments: ["Europe/Prague", "America/New_York", "Australia/Lord_Howe", "Pacific/Apia", "America/Sao_Paulo", "Asia/Tokyo", "Africa/Casablanca", "Europe/Dublin"])
    func agreesWithFoundation(_ name: String) throws {
        let zone = try named(name)
        let foundation = try #require(TimeZone(identifier: name))
        var instant = utc(1900, 1, 1)
        var mismatches: [String] = []
        while instant < utc(2150, 1, 1) {
            let expected = foundation.secondsFromGMT(for: Date(timeIntervalSince1970: TimeInterval(instant)))
            if Int(zone.offsetSeconds(at: instant)) != expected, mismatches.count < 5 {
                mismatches.append("\(Date(timeIntervalSince1970: TimeInterval(instant))): \(zone.offsetSeconds(at: instant)) vs \(expected)")
            }
            instant += 6 * 3600
        }
        #expect(mismatches.isEmpty)
    }

    @Test func refusesWhatIsNotTZif() {
        #expect(throws: TZif.Failure.notTZif) { try TZif.parse(Array("not a zone file".utf8) + Array(repeating: 0, count: 60), name: "x") }
        #expect(throws: TZif.Failure.truncated) { try TZif.parse(Array("TZif2".utf8) + Array(repeating: 0, count: 10), name: "x") }
        #expect(Zone.named("Nowhere/Atlantis") == nil)
        #expect(Zone.named("../../etc/passwd") == nil)
    }

    @Test func aTruncatedFileIsRefused() throws {
        let bytes = try Array(Data(contentsOf: URL(fileURLWithPath: ZoneDatabase.defaultDirectory + "/Europe/Prague")))
        #expect(throws: TZif.Failure.self) { try TZif.parse(Array(bytes.prefix(bytes.count / 2)), name: "half") }
        #expect(try TZif.parse(bytes, name: "whole").offsetSeconds(at: utc(2026, 7, 1)) == 7200)
    }
}

@Suite("POSIX TZ rules")
struct PosixZoneRuleTests {
    @Test func centralEuropeMatchesPrague() throws {
        let rule = try #require(PosixZoneRule("CET-1CEST,M3.5.0,M10.5.0/3"))
        #expect(rule.standardOffset == 3600)
        #expect(rule.daylight?.offset == 7200)
        let prague = try named("Europe/Prague")
        var instant = utc(2030, 1, 1)
        while instant < utc(2040, 1, 1) {
            #expect(rule.offset(at: instant) == prague.offsetSeconds(at: instant))
            instant += 3 * 3600
        }
    }

    @Test func daylightDefaultsToOneHourAndTheUSRule() throws {
        let rule = try #require(PosixZoneRule("EST5EDT"))
        #expect(rule.standardOffset == -18000)
        #expect(rule.daylight?.offset == -14400)
        #expect(rule.offset(at: utc(2031, 3, 9, 6, 59, 59)) == -18000)
        #expect(rule.offset(at: utc(2031, 3, 9, 7)) == -14400)
        #expect(rule.offset(at: utc(2031, 11, 2, 6)) == -18000)
    }

    @Test func southernHemisphereAndHalfHours() throws {
        let rule = try #require(PosixZoneRule("<+1030>-10:30<+11>-11,M10.1.0,M4.1.0"))
        #expect(rule.standardOffset == 37800)
        #expect(rule.offset(at: utc(2030, 1, 15)) == 39600)
        #expect(rule.offset(at: utc(2030, 7, 15)) == 37800)
        #expect(rule.offset(at: utc(2030, 12, 31, 23)) == 39600)
    }

    @Test func julianAndZeroBasedDays() throws {
        // J60 is March 1 in every year; day 59 (zero-based) is February 29 in a leap year.
        let julian = try #require(PosixZoneRule("AAA0BBB,J60/0,J300/0"))
        #expect(julian.daylight?.start.date(in: 2028).description == "2028-03-01")
        #expect(julian.daylight?.start.date(in: 2027).description == "2027-03-01")
        let zeroBased = try #require(PosixZoneRule("AAA0BBB,59/0,300/0"))
        #expect(zeroBased.daylight?.start.date(in: 2028).description == "2028-02-29")
        #expect(zeroBased.daylight?.start.date(in: 2027).description == "2027-03-01")
        #expect(zeroBased.offset(at: utc(2028, 2, 29, 0)) == 3600)
        #expect(zeroBased.offset(at: utc(2028, 2, 28, 23, 59, 59)) == 0)
    }

    @Test func lastWeekdayOfTheMonth() throws {
        let rule = try #require(PosixZoneRule("AAA0BBB,M2.5.1,M11.5.6"))
        // The last Monday of February 2028 (a leap year) is the 28th; the last Saturday of November the 25th.
        #expect(rule.daylight?.start.date(in: 2028).description == "2028-02-28")
        #expect(rule.daylight?.end.date(in: 2028).description == "2028-11-25")
    }

    @Test func timesBeyondADayAndNegative() throws {
        // Greenland's footer: daylight time from the last Saturday of March at -1:00 to the last Saturday of October at 0:00.
        let rule = try #require(PosixZoneRule("<-02>2<-01>,M3.5.0/-1,M10.5.0/0"))
        #expect(rule.daylight?.start.time == -3600)
        let allYear = try #require(PosixZoneRule("EST5EDT,0/0,J365/25"))
        #expect(allYear.offset(at: utc(2030, 6, 1)) == -14400)
        #expect(allYear.offset(at: utc(2030, 1, 1, 12)) == -14400)
    }

    @Test(arguments: ["", "C", "CET", "CET-1CEST,M3.5.0", "CET-1CEST,M13.5.0,M10.5.0", "CET-1CEST,M3.6.0,M10.5.0", "CET-1CEST,J0,J10", "CET-1CEST,M3.5.7,M10.5.0", "CET-168", "<CET-1", "Europe/Prague"])
    func refusesMalformedStrings(_ text: String) {
        #expect(PosixZoneRule(text) == nil)
    }

    @Test func zonesFromPosixStrings() throws {
        let zone = try #require(Zone.named("CET-1CEST,M3.5.0,M10.5.0/3"))
        #expect(zone.offsetSeconds(at: utc(2026, 7, 1)) == 7200)
        #expect(try #require(Zone.named("UTC0")).offsetSeconds(at: utc(2026, 7, 1)) == 0)
        #expect(try #require(Zone.named("<+0530>-5:30")).offsetSeconds(at: utc(2026, 7, 1)) == 19800)
    }
}

@Suite("TZ and TZDIR")
struct ZoneEnvironmentTests {
    @Test func namesPathsAndColons() throws {
        let july = utc(2026, 7, 1) * 1000
        #expect(ZoneDatabase.zone(environment: ["TZ": "Europe/Prague"]).offsetMs(at: july) == 7_200_000)
        #expect(ZoneDatabase.zone(environment: ["TZ": ":Europe/Prague"]).offsetMs(at: july) == 7_200_000)
        #expect(ZoneDatabase.zone(environment: ["TZ": ":/usr/share/zoneinfo/America/New_York"]).offsetMs(at: july) == -14_400_000)
        #expect(ZoneDatabase.zone(environment: ["TZ": "/usr/share/zoneinfo/Asia/Tokyo"]).offsetMs(at: july) == 32_400_000)
        #expect(ZoneDatabase.zone(environment: ["TZ": "UTC"]).offsetMs(at: july) == 0)
        #expect(ZoneDatabase.zone(environment: ["TZ": "EST5EDT,M3.2.0,M11.1.0"]).offsetMs(at: july) == -14_400_000)
    }

    @Test func tzdirNamesTheDatabase() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("tzdir-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory.appendingPathComponent("Test"), withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        try FileManager.default.copyItem(atPath: "/usr/share/zoneinfo/Asia/Tokyo", toPath: directory.path + "/Test/Zone")
        let zone = ZoneDatabase.zone(environment: ["TZ": "Test/Zone", "TZDIR": directory.path])
        #expect(zone.offsetSeconds(at: utc(2026, 1, 1)) == 32400)
        #expect(zone.name == "Test/Zone")
    }

    @Test func unknownNamesFallBackToTheSystemZone() {
        let system = ZoneDatabase.system()
        let unknown = ZoneDatabase.zone(environment: ["TZ": "Nowhere/Atlantis"])
        #expect(unknown.name == system.name)
        #expect(ZoneDatabase.zone(environment: [:]).name == system.name)
    }
}

@Suite("local wall times across transitions")
struct WallClockTests {
    @Test func praguesSpringGapReadsWithTheOffsetBeforeTheJump() throws {
        let prague = try named("Europe/Prague")
        // 02:30 on 2026-03-29 does not exist; as typed it means 03:30 CEST (01:30 UTC), as Calendar read it.
        let local = LocalDate(year: 2026, month: 3, day: 29)!.dayNumber * WallClock.msPerDay + 9_000_000
        #expect(WallClock.resolve(local, in: prague) == .gap(before: utc(2026, 3, 29, 0, 30) * 1000, after: utc(2026, 3, 29, 1, 30) * 1000))
        #expect(WallClock.instant(forLocal: local, in: prague) == utc(2026, 3, 29, 1, 30) * 1000)
    }

    @Test func praguesAutumnOverlapTakesTheEarlierInstant() throws {
        let prague = try named("Europe/Prague")
        let local = LocalDate(year: 2026, month: 10, day: 25)!.dayNumber * WallClock.msPerDay + 9_000_000
        #expect(WallClock.resolve(local, in: prague) == .ambiguous(earlier: utc(2026, 10, 25, 0, 30) * 1000, later: utc(2026, 10, 25, 1, 30) * 1000))
        #expect(WallClock.instant(forLocal: local, in: prague) == utc(2026, 10, 25, 0, 30) * 1000)
    }

    @Test func lordHowesHalfHourGap() throws {
        let lordHowe = try named("Australia/Lord_Howe")
        // 02:15 on 2026-10-04 is skipped (02:00 +10:30 became 02:30 +11).
        let local = LocalDate(year: 2026, month: 10, day: 4)!.dayNumber * WallClock.msPerDay + 8_100_000
        #expect(WallClock.instant(forLocal: local, in: lordHowe) == utc(2026, 10, 3, 15, 45) * 1000)
    }
}

@Suite("civil calendar arithmetic")
struct CivilDateTests {
    /// Day numbers, ISO weekdays and ISO weeks computed independently (Python's proleptic Gregorian `date`).
    @Test(arguments: [
        ("0001-01-01", Int64(-719_162), 1, 1, 1),
        ("1600-01-01", -135_140, 6, 1599, 52),
        ("1700-02-28", -98_557, 7, 1700, 8),
        ("1800-03-01", -62_032, 6, 1800, 9),
        ("1900-02-28", -25_509, 3, 1900, 9),
        ("1900-03-01", -25_508, 4, 1900, 9),
        ("1969-12-31", -1, 3, 1970, 1),
        ("1970-01-01", 0, 4, 1970, 1),
        ("2000-02-29", 11_016, 2, 2000, 9),
        ("2000-03-01", 11_017, 3, 2000, 9),
        ("2024-02-29", 19_782, 4, 2024, 9),
        ("2026-11-23", 20_780, 1, 2026, 48),
        ("2100-03-01", 47_541, 1, 2100, 9),
        ("2400-02-29", 157_113, 2, 2400, 9),
        ("9999-12-31", 2_932_896, 5, 9999, 52),
    ])
    func knownDates(_ text: String, _ dayNumber: Int64, _ weekday: Int, _ isoYear: Int, _ isoWeek: Int) throws {
        let date = try #require(LocalDate.parse(text))
        #expect(date.dayNumber == dayNumber)
        #expect(LocalDate(dayNumber: dayNumber) == date)
        #expect(date.weekday == weekday)
        #expect(date.isoWeek.year == isoYear && date.isoWeek.week == isoWeek)
    }

    @Test func leapYearsAndMonthLengths() {
        #expect(LocalDate.isLeapYear(2000) && LocalDate.isLeapYear(2024) && LocalDate.isLeapYear(1600))
        #expect(!LocalDate.isLeapYear(1900) && !LocalDate.isLeapYear(2100) && !LocalDate.isLeapYear(2026))
        #expect((1...12).map { LocalDate.daysInMonth(year: 2026, month: $0) } == [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31])
        #expect(LocalDate.daysInMonth(year: 2400, month: 2) == 29)
        #expect(LocalDate(year: 2100, month: 2, day: 29) == nil)
    }

    @Test func everyDayOfFourCenturiesRoundTrips() {
        var expected = LocalDate(year: 1800, month: 1, day: 1)!
        for number in expected.dayNumber...LocalDate(year: 2200, month: 1, day: 1)!.dayNumber {
            let date = LocalDate(dayNumber: number)
            #expect(date == expected)
            if date != expected { break }
            expected = expected.day < LocalDate.daysInMonth(year: expected.year, month: expected.month)
                ? LocalDate(year: expected.year, month: expected.month, day: expected.day + 1)!
                : expected.month < 12 ? LocalDate(year: expected.year, month: expected.month + 1, day: 1)! : LocalDate(year: expected.year + 1, month: 1, day: 1)!
        }
    }
}

@Suite("damaged zone files and rules never crash")
struct ZoneRobustnessTests {
    /// Prague's file with bytes changed, cut or grown at random: each parses or throws, and a parsed zone answers
    /// for any instant.
    @Test func mutatedZoneFiles() throws {
        let original = try Array(Data(contentsOf: URL(fileURLWithPath: ZoneDatabase.defaultDirectory + "/Europe/Prague")))
        var random = SeededRandom(seed: 8536)
        var parsed = 0
        for _ in 0..<2000 {
            var bytes = original
            for _ in 0..<Int.random(in: 1...4, using: &random) {
                switch Int.random(in: 0..<3, using: &random) {
                case 0: bytes[Int.random(in: 0..<bytes.count, using: &random)] = UInt8.random(in: 0...255, using: &random)
                case 1: bytes.removeLast(Int.random(in: 0..<min(64, bytes.count), using: &random))
                default: bytes.insert(UInt8.random(in: 0...255, using: &random), at: Int.random(in: 0...bytes.count, using: &random))
                }
            }
            guard let zone = try? TZif.parse(bytes, name: "mutated") else { continue }
            parsed += 1
            for instant in [Int64.min / 2, -1_000_000_000_000, 0, 1_800_000_000, 4_000_000_000, Int64.max / 2] {
                _ = zone.offsetSeconds(at: instant)
            }
        }
        #expect(parsed > 0, "some mutations leave a readable file")
    }

    @Test func randomRuleStrings() {
        var random = SeededRandom(seed: 1003)
        let alphabet = Array("ACDEMST<>+-:,./J0123456789")
        for _ in 0..<5000 {
            let text = String((0..<Int.random(in: 0...30, using: &random)).map { _ in alphabet.randomElement(using: &random)! })
            if let rule = PosixZoneRule(text) {
                _ = rule.offset(at: 1_800_000_000)
            }
        }
    }
}
