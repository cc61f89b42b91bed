import TallyEssentials

/// A length of time spent on an activity, in whole seconds.
public enum ActivityDuration: Sendable {
    /// The longest duration accepted: 100 years of 365.25 days.
    static let maxSeconds = 3_155_760_000

    /// Reads `45m`, `1h30m15s`, `2h 5m`, `1.5h`, `1:30:00` (h:mm:ss), `27:30` (m:ss) or a bare number of minutes (`90`, `7.5`).
    ///
    /// Units are h, m and s in that order, each at most once, case-insensitive; decimals are rounded to the nearest second.
    public static func parse(_ text: String) throws(ValueError) -> Int {
        do {
            return try read(text.trimming(.whitespacesAndNewlines))
        } catch {
            throw ValueError(kind: .duration, input: text, reason: error)
        }
    }

    /// `27:30` under an hour (m:ss), `1:30:00` from an hour on (h:mm:ss); hours keep counting past a day (`26:00:00`).
    public static func format(_ seconds: Int) -> String {
        let sign = seconds < 0 ? "-" : ""
        let total = seconds.magnitude
        let (hours, minutes, secs) = (total / 3600, total / 60 % 60, total % 60)
        if hours == 0 { return "\(sign)\(minutes):\(ValueMath.pad(secs, 2))" }
        return "\(sign)\(hours):\(ValueMath.pad(minutes, 2)):\(ValueMath.pad(secs, 2))"
    }

    private static let nanosPerSecond: Int64 = 1_000_000_000
    private static let fractionDigits = 9

    private static func read(_ text: String) throws(ParseReason) -> Int {
        guard !text.isEmpty else { throw ParseReason(.empty) }
        guard !text.hasPrefix("-") else { throw ParseReason(.negative) }
        let bytes = Array(text.utf8)
        let nanos = bytes.contains(UInt8(ascii: ":")) ? try clock(bytes) : try units(bytes)
        // Round half up to whole seconds.
        let seconds = (nanos + nanosPerSecond / 2) / nanosPerSecond
        guard seconds <= Int64(maxSeconds) else { throw ParseReason(.durationTooLong) }
        return Int(seconds)
    }

    /// `h:mm:ss` or `m:ss`; every field after the first is two digits 00-59.
    private static func clock(_ bytes: [UInt8]) throws(ParseReason) -> Int64 {
        let fields = bytes.split(separator: UInt8(ascii: ":"), omittingEmptySubsequences: false)
        guard fields.count == 2 || fields.count == 3 else { throw ParseReason(.clockShape) }
        guard !fields[0].isEmpty, fields[0].allSatisfy(ByteCursor.isDigit) else { throw ParseReason(.durationShape) }
        guard let lead = ByteCursor.value(fields[0]) else { throw ParseReason(.durationTooLong) }
        let names: [ValueReasonKey] = fields.count == 3 ? [.minutesField, .secondsField] : [.secondsField]
        var seconds = lead
        for (field, name) in zip(fields.dropFirst(), names) {
            guard field.count == 2, field.allSatisfy(ByteCursor.isDigit), let value = ByteCursor.value(field), value <= 59 else {
                throw ParseReason(name)
            }
            guard let scaled = checked(seconds, times: 60, plus: value) else { throw ParseReason(.durationTooLong) }
            seconds = scaled
        }
        guard let nanos = checked(seconds, times: nanosPerSecond, plus: 0) else { throw ParseReason(.durationTooLong) }
        return nanos
    }

    /// Number-and-unit parts such as `1h 30m`, or one bare number of minutes.
    private static func units(_ bytes: [UInt8]) throws(ParseReason) -> Int64 {
        let unitSeconds: [String: Int64] = ["h": 3600, "m": 60, "s": 1]
        let order = ["h", "m", "s"]
        var cursor = ByteCursor(bytes)
        var total: Int64 = 0
        var lastRank = -1
        while true {
            cursor.skipSpaces()
            if cursor.atEnd { break }
            let number = try DecimalNumber.read(&cursor, shape: .durationShape)
            cursor.skipSpaces()
            let unit = cursor.letters()
            if unit.isEmpty {
                guard cursor.atEnd else { throw ParseReason(.durationShape) }
                guard lastRank == -1 else { throw ParseReason(.durationUnitAfterNumber, ["number": number.text]) }
                return try scale(number, by: 60)
            }
            guard let perUnit = unitSeconds[unit], let rank = order.firstIndex(of: unit) else {
                throw ParseReason(.durationUnknownUnit, ["unit": unit])
            }
            guard rank != lastRank else { throw ParseReason(.durationUnitTwice, ["unit": unit]) }
            guard rank > lastRank else { throw ParseReason(.durationUnitOrder) }
            lastRank = rank
            let (sum, overflow) = total.addingReportingOverflow(try scale(number, by: perUnit))
            guard !overflow else { throw ParseReason(.durationTooLong) }
            total = sum
        }
        return total
    }

    /// `number × seconds` in nanoseconds.
    private static func scale(_ number: DecimalNumber, by seconds: Int64) throws(ParseReason) -> Int64 {
        guard let whole = ByteCursor.value(number.whole),
              let wholeNanos = checked(whole, times: seconds * nanosPerSecond, plus: 0)
        else { throw ParseReason(.durationTooLong) }
        // Fraction digits beyond nanoseconds cannot change the rounded second.
        var fraction = Array(number.fraction.prefix(fractionDigits))
        fraction += Array(repeating: UInt8(ascii: "0"), count: fractionDigits - fraction.count)
        let fractionNanos = (ByteCursor.value(fraction[...]) ?? 0) * seconds
        guard let nanos = checked(wholeNanos, times: 1, plus: fractionNanos) else { throw ParseReason(.durationTooLong) }
        return nanos
    }

    private static func checked(_ value: Int64, times factor: Int64, plus addend: Int64) -> Int64? {
        let (product, overflow1) = value.multipliedReportingOverflow(by: factor)
        let (sum, overflow2) = product.addingReportingOverflow(addend)
        return overflow1 || overflow2 ? nil : sum
    }
}

/// An unsigned decimal as written, `digits[.digits]`, kept as text so no precision is lost.
struct DecimalNumber {
    var whole: ArraySlice<UInt8>
    var fraction: ArraySlice<UInt8>

    var text: String {
        let wholeText = String(decoding: whole, as: UTF8.self)
        return fraction.isEmpty ? wholeText : wholeText + "." + String(decoding: fraction, as: UTF8.self)
    }

    /// Reads a number at the cursor; `shape` is the reason given when there is none.
    static func read(_ cursor: inout ByteCursor, shape: ValueReasonKey) throws(ParseReason) -> DecimalNumber {
        let whole = cursor.digits()
        guard !whole.isEmpty else {
            if cursor.peek == UInt8(ascii: "-") { throw ParseReason(.negative) }
            throw ParseReason(shape)
        }
        guard cursor.take(UInt8(ascii: ".")) else { return DecimalNumber(whole: whole, fraction: []) }
        let fraction = cursor.digits()
        guard !fraction.isEmpty else { throw ParseReason(.digitsAfterPoint) }
        return DecimalNumber(whole: whole, fraction: fraction)
    }
}
