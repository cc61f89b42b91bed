import Foundation
import Testing
@testable import TallyDomain
@testable import TallyEssentials

/// 2026-11-21T14:30:00Z.
private let base: Int64 = 1_795_271_400_000

@Suite struct TimestampTests {
    @Test(arguments: [
        (Int64(0), "1970-01-01T00:00:00Z"),
        (base, "2026-11-21T14:30:00Z"),
        (base + 123, "2026-11-21T14:30:00.123Z"),
        (base + 1, "2026-11-21T14:30:00.001Z"),
        (base + 59_990, "2026-11-21T14:30:59.990Z"),
        (-1, "1969-12-31T23:59:59.999Z"),
        (951_782_400_000, "2000-02-29T00:00:00Z"),
        (253_402_300_799_000, "9999-12-31T23:59:59Z"),
        (-62_135_596_800_000, "0001-01-01T00:00:00Z"),
    ])
    func formats(ms: Int64, text: String) {
        #expect(Timestamp.format(ms) == text)
        #expect(Timestamp.parse(text) == ms)
    }

    @Test(arguments: [
        ("2026-11-21T14:30:00Z", base),
        ("2026-11-21t14:30:00z", base),
        ("2026-11-21 14:30:00Z", base),
        ("2026-11-21T14:30Z", base),
        ("2026-11-21T14:30:00.1Z", base + 100),
        ("2026-11-21T14:30:00.12Z", base + 120),
        ("2026-11-21T14:30:00.1239Z", base + 123),
        ("2026-11-21T14:30:00.999999999Z", base + 999),
        ("2026-11-21T15:30:00+01:00", base),
        ("2026-11-21T15:30:00+0100", base),
        ("2026-11-21T15:30:00+01", base),
        ("2026-11-21T20:00:00+05:30", base),
        ("2026-11-21T09:30:00-05:00", base),
        ("2026-11-21T14:30:00-00:00", base),
        ("2026-11-22T00:00:00+09:30", base),
        ("2026-11-21T00:15:00+01:00", 1_795_216_500_000),
        ("2026-11-20T23:15:00-01:00", 1_795_220_100_000),
    ])
    func parses(text: String, ms: Int64) {
        #expect(Timestamp.parse(text) == ms)
    }

    @Test(arguments: [
        "", "2026-11-21", "2026-11-21T14:30", "2026-11-21T14:30:00", "2026-11-21T14:30:60Z",
        "2026-11-21T24:00:00Z", "2026-11-21T14:60Z", "2026-02-29T00:00:00Z", "2026-11-21T14:30:00.Z",
        "2026-11-21T14:30:00ZZ", "2026-11-21T14:30:00+1", "2026-11-21T14:30:00+24:00", "2026-11-21T14:30:00+01:6",
        " 2026-11-21T14:30:00Z", "2026-11-21T14:30:00Z ", "2026-11-21T14:30:00 Z", "garbage", "0000-01-01T00:00:00Z",
        "2026-11-21  14:30:00Z", "2026-11-21_14:30:00Z", "2026-11-21T14:30:00UTC",
    ])
    func refuses(text: String) {
        #expect(Timestamp.parse(text) == nil)
    }

    @Test func roundTripsEveryMillisecondPattern() {
        var ms: Int64 = -62_135_596_800_000
        let step: Int64 = 7_919_993_453
        while ms < 253_402_300_800_000 {
            #expect(Timestamp.parse(Timestamp.format(ms)) == ms)
            ms += step
        }
    }

    @Test(arguments: [
        (base, "Europe/Prague", true, "2026-11-21 15:30"),
        (base, "Europe/Prague", false, "2026-11-21"),
        (base + 59_999, "UTC", true, "2026-11-21 14:30"),
        (1_795_318_200_000, "America/New_York", true, "2026-11-21 22:30"),
        (1_795_318_200_000, "America/New_York", false, "2026-11-21"),
        (1_795_285_800_000, "Asia/Kolkata", true, "2026-11-22 00:00"),
        (1_795_285_740_000, "Asia/Kolkata", false, "2026-11-21"),
        (1_792_888_200_000, "Europe/Prague", true, "2026-10-25 02:30"),
        (1_792_891_800_000, "Europe/Prague", true, "2026-10-25 02:30"),
    ])
    func formatsLocalTime(ms: Int64, zoneID: String, withTime: Bool, text: String) {
        #expect(Timestamp.formatLocal(ms, in: Zone.named(zoneID)!, withTime: withTime) == text)
    }
}
