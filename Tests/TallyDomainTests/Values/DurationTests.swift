import Testing
@testable import TallyDomain

private func durationError(_ text: String) -> ValueError? {
    do {
        _ = try ActivityDuration.parse(text)
        return nil
    } catch {
        return error
    }
}

@Suite struct DurationTests {
    @Test(arguments: [
        ("45m", 2700), ("1h30m", 5400), ("1h", 3600), ("90s", 90), ("1h30m15s", 5415),
        ("2h 5m", 7500), ("1h 30m 15s", 5415), ("2h5m", 7500), ("45 m", 2700), ("  45m  ", 2700),
        ("1H30M", 5400), ("90S", 90), ("1h15s", 3615), ("5m30s", 330),
        ("1.5h", 5400), ("0.5m", 30), ("0.1h", 360), ("1.25s", 1), ("1.5s", 2), ("0.4s", 0),
        ("1.9999999999s", 2), ("0.0001h", 0), ("0.5h 0.5m", 1830),
        ("1:30:00", 5400), ("0:45:30", 2730), ("26:00:00", 93600), ("01:02:03", 3723),
        ("27:30", 1650), ("0:59", 59), ("100:00", 6000), ("0:00", 0),
        ("90", 5400), ("7.5", 450), ("0", 0), ("0m", 0), ("0.01", 1),
        ("876600h", 3_155_760_000), ("3155760000s", 3_155_760_000),
    ])
    func parses(text: String, seconds: Int) throws {
        #expect(try ActivityDuration.parse(text) == seconds)
    }

    @Test(arguments: [
        ("", "is empty"),
        ("  ", "is empty"),
        ("-5m", "must not be negative"),
        ("-1:00", "must not be negative"),
        ("1h -5m", "must not be negative"),
        ("5x", "unknown unit 'x' (use h, m or s)"),
        ("5min", "unknown unit 'min' (use h, m or s)"),
        ("2d", "unknown unit 'd' (use h, m or s)"),
        ("1h2h", "unit 'h' appears twice"),
        ("1m 2M", "unit 'm' appears twice"),
        ("30m1h", "units must come in the order h, m, s"),
        ("1s1m", "units must come in the order h, m, s"),
        ("1h30", "a unit is required after 30 (h, m or s)"),
        ("1 h 2.5", "a unit is required after 2.5 (h, m or s)"),
        ("abc", "expected a duration like 45m, 1h30m, 1:30:00 or 27:30"),
        ("h", "expected a duration like 45m, 1h30m, 1:30:00 or 27:30"),
        ("+5m", "expected a duration like 45m, 1h30m, 1:30:00 or 27:30"),
        ("1h,30m", "expected a duration like 45m, 1h30m, 1:30:00 or 27:30"),
        ("1 2", "expected a duration like 45m, 1h30m, 1:30:00 or 27:30"),
        (".5h", "expected a duration like 45m, 1h30m, 1:30:00 or 27:30"),
        ("1.h", "expected digits after '.'"),
        ("1:5", "seconds must be two digits 00-59"),
        ("1:60", "seconds must be two digits 00-59"),
        ("1:30:0", "seconds must be two digits 00-59"),
        ("1:30:60", "seconds must be two digits 00-59"),
        ("1:60:00", "minutes must be two digits 00-59"),
        ("1:5:00", "minutes must be two digits 00-59"),
        ("1: 30", "seconds must be two digits 00-59"),
        ("1:2:3:4", "expected h:mm:ss or m:ss"),
        (":30", "expected a duration like 45m, 1h30m, 1:30:00 or 27:30"),
        ("1.5:00", "expected a duration like 45m, 1h30m, 1:30:00 or 27:30"),
        ("1:30m", "seconds must be two digits 00-59"),
        ("876601h", "must be at most 100 years"),
        ("3155760001s", "must be at most 100 years"),
        ("99999999999999999999h", "must be at most 100 years"),
        ("9999999999999999999999:00", "must be at most 100 years"),
        ("5000000000:00:00", "must be at most 100 years"),
    ])
    func rejects(text: String, reason: String) {
        #expect(durationError(text).map { [$0.kind.rawValue, $0.input, $0.reason] } == ["duration", text, reason])
    }

    @Test(arguments: [
        (0, "0:00"), (5, "0:05"), (59, "0:59"), (60, "1:00"), (1650, "27:30"), (3599, "59:59"),
        (3600, "1:00:00"), (5400, "1:30:00"), (3723, "1:02:03"), (86399, "23:59:59"),
        (86400, "24:00:00"), (93600, "26:00:00"), (360_000, "100:00:00"),
    ])
    func formats(seconds: Int, text: String) {
        #expect(ActivityDuration.format(seconds) == text)
    }

    @Test(arguments: [0, 59, 1650, 3600, 5415, 93600])
    func formatParsesBack(seconds: Int) throws {
        #expect(try ActivityDuration.parse(ActivityDuration.format(seconds)) == seconds)
    }
}
