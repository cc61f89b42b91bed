import TallyEssentials

/// A distance covered, in metres.
public enum Distance: Sendable {
    /// The longest distance accepted, in metres.
    static let maxMeters = 1e9
    static let metersPerMile = 1609.344

    /// Reads a number and a unit: `5km`, `5 km`, `800m`, `3.1mi`; units km, m and mi, case-insensitive.
    public static func parse(_ text: String) throws(ValueError) -> Double {
        do {
            return try read(text.trimming(.whitespacesAndNewlines))
        } catch {
            throw ValueError(kind: .distance, input: text, reason: error)
        }
    }

    /// `meters` rounded to the millimetre, so sums and miles print short (`4988.966`, not `4988.9664000000005`).
    public static func toMillimetre(_ meters: Double) -> Double {
        guard meters.isFinite, meters.magnitude < 1e12 else { return meters }
        return (meters * 1000).rounded() / 1000
    }

    /// `5.00 km` from 1000 m on, `800 m` below; metres are rounded first, so 999.6 m shows as `1.00 km`.
    public static func format(_ meters: Double) -> String {
        guard meters.isFinite, meters.magnitude < 1e15 else { return "- m" }
        let sign = meters < 0 ? "-" : ""
        let magnitude = meters.magnitude
        guard magnitude.rounded() >= 1000 else { return "\(sign)\(Int64(magnitude.rounded())) m" }
        let centiKm = Int64((magnitude / 10).rounded())
        return "\(sign)\(centiKm / 100).\(ValueMath.pad(centiKm % 100, 2)) km"
    }

    /// `5:12 /km`, rounded to whole seconds before splitting into minutes, so 59.6 s is `1:00 /km`.
    public static func formatPace(secondsPerKm: Double) -> String {
        guard secondsPerKm.isFinite, secondsPerKm >= 0, secondsPerKm < 1e12 else { return "-:-- /km" }
        let seconds = Int64(secondsPerKm.rounded())
        return "\(seconds / 60):\(ValueMath.pad(seconds % 60, 2)) /km"
    }

    private static func read(_ text: String) throws(ParseReason) -> Double {
        guard !text.isEmpty else { throw ParseReason(.empty) }
        guard !text.hasPrefix("-") else { throw ParseReason(.negative) }
        var cursor = ByteCursor(Array(text.utf8))
        let number = try DecimalNumber.read(&cursor, shape: .distanceShape)
        if let next = cursor.peek, next == UInt8(ascii: "e") || next == UInt8(ascii: "E") {
            var lookahead = cursor
            lookahead.index += 1
            if let after = lookahead.peek, ByteCursor.isDigit(after) || after == UInt8(ascii: "+") || after == UInt8(ascii: "-") {
                throw ParseReason(.exponents)
            }
        }
        cursor.skipSpaces()
        let unit = cursor.letters()
        guard !unit.isEmpty else {
            throw ParseReason(cursor.atEnd ? .distanceUnitRequired : .distanceShape)
        }
        let factor: Double
        switch unit {
        case "km": factor = 1000
        case "m": factor = 1
        case "mi": factor = metersPerMile
        default: throw ParseReason(.distanceUnknownUnit, ["unit": unit])
        }
        guard cursor.atEnd else { throw DateTimeText.trailing(cursor) }
        guard let value = Double(number.text), value.isFinite else { throw ParseReason(.distanceTooLong) }
        let meters = value * factor
        guard meters.isFinite, meters <= maxMeters else { throw ParseReason(.distanceTooLong) }
        return toMillimetre(meters)
    }
}
