#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import TallyEssentials

/// ISO-8601 formatting and parsing of UTC instants.
public enum Timestamp: Sendable {
    /// The instants `format` writes as `parse` reads them: 0001-01-01T00:00:00Z to 9999-12-31T23:59:59.999Z.
    /// Every instant stored in an event stays inside, so what is exported imports again.
    public static let supportedRange: ClosedRange<Int64> =
        LocalDate(uncheckedYear: 1, month: 1, day: 1).dayNumber * WallClock.msPerDay
        ... (LocalDate(uncheckedYear: 9999, month: 12, day: 31).dayNumber + 1) * WallClock.msPerDay - 1

    /// `2026-11-21T14:30:00Z`, with a `.123` fraction only when the milliseconds are not zero.
    public static func format(_ ms: Int64) -> String {
        let (date, msOfDay) = split(ms)
        let fraction = msOfDay % 1000
        guard (0 ... 9999).contains(date.year) else {
            let base = "\(date)T\(clock(msOfDay, withSeconds: true))"
            return fraction == 0 ? base + "Z" : base + "." + ValueMath.pad(fraction, 3) + "Z"
        }
        // Every stored and exported time goes through here (three per todo in `--json list`):
        // the bytes are written directly instead of joining padded pieces.
        let seconds = Int(msOfDay / 1000)
        let length = fraction == 0 ? 20 : 24
        return String(unsafeUninitializedCapacity: length) { buffer in
            func digits(_ value: Int, _ count: Int, at start: Int) { ValueMath.writeDigits(value, count, into: buffer, at: start) }
            digits(date.year, 4, at: 0)
            buffer[4] = UInt8(ascii: "-")
            digits(date.month, 2, at: 5)
            buffer[7] = UInt8(ascii: "-")
            digits(date.day, 2, at: 8)
            buffer[10] = UInt8(ascii: "T")
            digits(seconds / 3600, 2, at: 11)
            buffer[13] = UInt8(ascii: ":")
            digits(seconds / 60 % 60, 2, at: 14)
            buffer[16] = UInt8(ascii: ":")
            digits(seconds % 60, 2, at: 17)
            if fraction != 0 {
                buffer[19] = UInt8(ascii: ".")
                digits(Int(fraction), 3, at: 20)
            }
            buffer[length - 1] = UInt8(ascii: "Z")
            return length
        }
    }

    /// Reads `YYYY-MM-DDTHH:MM[:SS[.fraction]]` followed by `Z`, `z`, `±HH:MM`, `±HHMM` or `±HH`; nil otherwise.
    ///
    /// A space or `t` may stand for the `T`. The fraction is truncated to milliseconds; second 60 is refused.
    public static func parse(_ text: String) -> Int64? {
        guard let parsed = try? DateTimeText.parse(Array(text.utf8)),
              let msOfDay = parsed.timeOfDayMs,
              let offset = parsed.offsetMs
        else { return nil }
        return parsed.date.dayNumber * WallClock.msPerDay + msOfDay - offset
    }

    /// The wall-clock time in `zone` for tables: `2026-11-21 15:30`, or `2026-11-21` without the time.
    public static func formatLocal(_ ms: Int64, in zone: Zone, withTime: Bool, withSeconds: Bool = false) -> String {
        let (date, msOfDay) = split(WallClock.localMs(ms, in: zone))
        return withTime ? "\(date) \(clock(msOfDay, withSeconds: withSeconds))" : date.description
    }

    private static func split(_ ms: Int64) -> (LocalDate, Int64) {
        let day = ValueMath.floorDiv(ms, WallClock.msPerDay)
        return (LocalDate(dayNumber: day), ms - day * WallClock.msPerDay)
    }

    private static func clock(_ msOfDay: Int64, withSeconds: Bool) -> String {
        let seconds = msOfDay / 1000
        let hhmm = "\(ValueMath.pad(seconds / 3600, 2)):\(ValueMath.pad(seconds / 60 % 60, 2))"
        return withSeconds ? hhmm + ":" + ValueMath.pad(seconds % 60, 2) : hhmm
    }
}

/// The shared grammar of dates, wall times and ISO instants:
/// `YYYY-MM-DD[(T|t| )HH:MM[:SS[.fraction]][Z|z|±HH[[:]MM]]]`.
struct DateTimeText: Equatable {
    var date: LocalDate
    /// Milliseconds since midnight; nil for a bare date.
    var timeOfDayMs: Int64?
    /// Offset from UTC; nil when no zone was written.
    var offsetMs: Int64?

    static func parse(_ bytes: [UInt8]) throws(ParseReason) -> DateTimeText {
        var cursor = ByteCursor(bytes)
        let date = try parseDate(&cursor)
        guard !cursor.atEnd else { return DateTimeText(date: date) }
        guard cursor.take(anyOf: [0x54, 0x74, 0x20]) != nil else { throw trailing(cursor) }
        var result = DateTimeText(date: date, timeOfDayMs: try parseTime(&cursor))
        if !cursor.atEnd {
            result.offsetMs = try parseZone(&cursor)
        }
        guard cursor.atEnd else { throw trailing(cursor) }
        return result
    }

    static func trailing(_ cursor: ByteCursor) -> ParseReason {
        ParseReason(.trailing, ["rest": cursor.rest])
    }

    private static func parseDate(_ cursor: inout ByteCursor) throws(ParseReason) -> LocalDate {
        let yearDigits = cursor.digits()
        if yearDigits.count > 4 { throw ParseReason(.year) }
        guard yearDigits.count == 4, cursor.take(0x2D) else { throw ParseReason(.dateShape) }
        let monthDigits = cursor.digits()
        guard monthDigits.count == 2, cursor.take(0x2D) else { throw ParseReason(.dateShape) }
        let dayDigits = cursor.digits()
        guard dayDigits.count == 2 else { throw ParseReason(.dateShape) }
        let year = Int(ByteCursor.value(yearDigits) ?? 0)
        let month = Int(ByteCursor.value(monthDigits) ?? 0)
        let day = Int(ByteCursor.value(dayDigits) ?? 0)
        guard LocalDate.supportedYears.contains(year) else { throw ParseReason(.year) }
        guard (1...12).contains(month) else { throw ParseReason(.month) }
        guard (1...31).contains(day) else { throw ParseReason(.day) }
        let length = LocalDate.daysInMonth(year: year, month: month)
        guard day <= length else {
            throw ParseReason(.monthLength, [
                "monthName": LocalDate.monthNames[month - 1], "month": ValueMath.pad(month, 2), "year": ValueMath.pad(year, 4), "days": String(length),
            ])
        }
        return LocalDate(uncheckedYear: year, month: month, day: day)
    }

    private static func parseTime(_ cursor: inout ByteCursor) throws(ParseReason) -> Int64 {
        let hourDigits = cursor.digits()
        guard hourDigits.count == 2, cursor.take(0x3A) else { throw ParseReason(.timeShape) }
        let minuteDigits = cursor.digits()
        guard minuteDigits.count == 2 else { throw ParseReason(.timeShape) }
        let hour = ByteCursor.value(hourDigits) ?? 0
        let minute = ByteCursor.value(minuteDigits) ?? 0
        guard hour <= 23 else { throw ParseReason(.hour) }
        guard minute <= 59 else { throw ParseReason(.minute) }
        var second: Int64 = 0
        var millis: Int64 = 0
        if cursor.take(0x3A) {
            let secondDigits = cursor.digits()
            guard secondDigits.count == 2 else { throw ParseReason(.timeShape) }
            second = ByteCursor.value(secondDigits) ?? 0
            guard second <= 59 else { throw ParseReason(.second) }
            if cursor.take(0x2E) {
                let fraction = cursor.digits()
                guard !fraction.isEmpty else { throw ParseReason(.digitsAfterPoint) }
                // Truncate to milliseconds: keep the first three digits, padded on the right.
                let kept = Array(fraction.prefix(3)) + Array(repeating: 0x30, count: max(0, 3 - fraction.count))
                millis = ByteCursor.value(kept[...]) ?? 0
            }
        }
        return ((hour * 60 + minute) * 60 + second) * 1000 + millis
    }

    private static func parseZone(_ cursor: inout ByteCursor) throws(ParseReason) -> Int64 {
        if cursor.take(anyOf: [0x5A, 0x7A]) != nil { return 0 }
        guard let sign = cursor.take(anyOf: [0x2B, 0x2D]) else { throw trailing(cursor) }
        let first = cursor.digits()
        let hours: Int64
        var minutes: Int64 = 0
        switch first.count {
        case 2:
            hours = ByteCursor.value(first) ?? 0
            if cursor.take(0x3A) {
                let minuteDigits = cursor.digits()
                guard minuteDigits.count == 2 else { throw ParseReason(.zoneShape) }
                minutes = ByteCursor.value(minuteDigits) ?? 0
            }
        case 4:
            hours = ByteCursor.value(first.prefix(2)) ?? 0
            minutes = ByteCursor.value(first.suffix(2)) ?? 0
        default:
            throw ParseReason(.zoneShape)
        }
        guard hours <= 23 else { throw ParseReason(.zoneHour) }
        guard minutes <= 59 else { throw ParseReason(.zoneMinute) }
        let magnitude = (hours * 60 + minutes) * 60_000
        return sign == 0x2D ? -magnitude : magnitude
    }
}
