import Testing
@testable import TallyDomain

private func distanceError(_ text: String) -> ValueError? {
    do {
        _ = try Distance.parse(text)
        return nil
    } catch {
        return error
    }
}

@Suite struct DistanceTests {
    @Test(arguments: [
        ("5km", 5000.0), ("5 km", 5000), ("5KM", 5000), ("5Km", 5000), ("800m", 800), ("800 M", 800),
        ("0km", 0), ("0m", 0), ("1mi", 1609.344), ("2MI", 3218.688), ("0.5km", 500), ("  10m ", 10),
        ("10.5km", 10500), ("1000000km", 1e9), ("1000000000m", 1e9), ("007km", 7000),
    ])
    func parsesExactly(text: String, meters: Double) throws {
        #expect(try Distance.parse(text) == meters)
    }

    /// Stored to the millimetre, so sums and JSON stay short.
    @Test(arguments: [("3.1mi", 4988.966), ("42.195km", 42195.0), ("26.2 mi", 42164.813)])
    func parsesWithinRounding(text: String, meters: Double) throws {
        #expect(abs(try Distance.parse(text) - meters) < 1e-6)
    }

    @Test(arguments: [
        ("", "is empty"),
        ("5", "a unit is required (km, m or mi)"),
        ("5.5", "a unit is required (km, m or mi)"),
        ("-5km", "must not be negative"),
        ("5k", "unknown unit 'k' (use km, m or mi)"),
        ("10.5K", "unknown unit 'k' (use km, m or mi)"),
        ("5 miles", "unknown unit 'miles' (use km, m or mi)"),
        ("5 kms", "unknown unit 'kms' (use km, m or mi)"),
        ("abc", "expected a number and a unit, like 5km, 800m or 3.1mi"),
        ("km", "expected a number and a unit, like 5km, 800m or 3.1mi"),
        ("nan km", "expected a number and a unit, like 5km, 800m or 3.1mi"),
        ("inf km", "expected a number and a unit, like 5km, 800m or 3.1mi"),
        ("+5km", "expected a number and a unit, like 5km, 800m or 3.1mi"),
        (".5km", "expected a number and a unit, like 5km, 800m or 3.1mi"),
        ("5,5km", "expected a number and a unit, like 5km, 800m or 3.1mi"),
        ("5.km", "expected digits after '.'"),
        ("1e3km", "exponents are not allowed"),
        ("1E3km", "exponents are not allowed"),
        ("1e-3km", "exponents are not allowed"),
        ("5km x", "unexpected ' x' at the end"),
        ("5km5", "unexpected '5' at the end"),
        ("1000001km", "must be at most 1000000 km"),
        ("1000000.001km", "must be at most 1000000 km"),
        ("1000000001m", "must be at most 1000000 km"),
        (String(repeating: "9", count: 400) + "m", "must be at most 1000000 km"),
    ])
    func rejects(text: String, reason: String) {
        #expect(distanceError(text).map { [$0.kind.rawValue, $0.input, $0.reason] } == ["distance", text, reason])
    }

    @Test(arguments: [
        (5000.0, "5.00 km"), (1000, "1.00 km"), (999.4, "999 m"), (999.5, "1.00 km"), (800, "800 m"),
        (0, "0 m"), (0.4, "0 m"), (12345.6, "12.35 km"), (42195, "42.20 km"), (42194.9, "42.19 km"),
        (1609.344, "1.61 km"), (9995, "10.00 km"), (9994.9, "9.99 km"), (1e9, "1000000.00 km"),
    ])
    func formats(meters: Double, text: String) {
        #expect(Distance.format(meters) == text)
    }

    @Test(arguments: [
        (312.0, "5:12 /km"), (59.6, "1:00 /km"), (59.4, "0:59 /km"), (299.5, "5:00 /km"), (0, "0:00 /km"),
        (3600, "60:00 /km"), (359.49, "5:59 /km"), (Double.infinity, "-:-- /km"), (Double.nan, "-:-- /km"),
    ])
    func formatsPace(secondsPerKm: Double, text: String) {
        #expect(Distance.formatPace(secondsPerKm: secondsPerKm) == text)
    }
}
