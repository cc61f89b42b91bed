#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// A calendar date without time or zone.
///
/// Dates follow the proleptic Gregorian calendar. Values made by `init?` and `parse` have years 1...9999;
/// only `adding(days:)` can step outside that range.
public struct LocalDate: Sendable, Hashable, Comparable, CustomStringConvertible {
    public let year: Int
    public let month: Int
    public let day: Int

    /// Creates a date; nil for days that do not exist (2026-02-30, 2025-02-29, month 13) or years outside 1...9999.
    public init?(year: Int, month: Int, day: Int) {
        guard LocalDate.supportedYears.contains(year), (1...12).contains(month),
              day >= 1, day <= LocalDate.daysInMonth(year: year, month: month)
        else { return nil }
        self.init(uncheckedYear: year, month: month, day: day)
    }

    /// Creates a date without validation; callers guarantee the day exists.
    public init(uncheckedYear year: Int, month: Int, day: Int) {
        self.year = year
        self.month = month
        self.day = day
    }

    /// The date `dayNumber` days after 1970-01-01.
    public init(dayNumber: Int64) {
        // Howard Hinnant's civil_from_days: eras of 400 years, March-based years so the leap day comes last.
        let z = dayNumber + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let doe = z - era * 146_097
        let yoe = (doe - doe / 1460 + doe / 36524 - doe / 146_096) / 365
        let doy = doe - (365 * yoe + yoe / 4 - yoe / 100)
        let mp = (5 * doy + 2) / 153
        let d = doy - (153 * mp + 2) / 5 + 1
        let m = mp < 10 ? mp + 3 : mp - 9
        let y = yoe + era * 400 + (m <= 2 ? 1 : 0)
        self.init(uncheckedYear: Int(y), month: Int(m), day: Int(d))
    }

    /// The date as `YYYY-MM-DD`.
    public var description: String {
        guard (0 ... 9999).contains(year) else {
            let yearText = year < 0 ? "-" + ValueMath.pad(-year, 4) : ValueMath.pad(year, 4)
            return "\(yearText)-\(ValueMath.pad(month, 2))-\(ValueMath.pad(day, 2))"
        }
        // Every date a list shows goes through here: ten ASCII digits and dashes, written directly.
        return String(unsafeUninitializedCapacity: 10) { buffer in
            func digits(_ value: Int, _ count: Int, at start: Int) { ValueMath.writeDigits(value, count, into: buffer, at: start) }
            digits(year, 4, at: 0)
            buffer[4] = UInt8(ascii: "-")
            digits(month, 2, at: 5)
            buffer[7] = UInt8(ascii: "-")
            digits(day, 2, at: 8)
            return 10
        }
    }

    /// Local midnight as epoch milliseconds; when midnight is skipped by a transition, the first instant of the day.
    public func startInstant(in zone: Zone) -> Int64 {
        let midnight = dayNumber * WallClock.msPerDay
        switch WallClock.resolve(midnight, in: zone) {
        case .exact(let instant), .ambiguous(let instant, _):
            return instant
        case .gap(let before, let after):
            return WallClock.firstInstant(reaching: midnight, between: before, and: after, in: zone)
        }
    }

    /// The local date of `instant` in `zone`.
    public static func containing(_ instant: Int64, in zone: Zone) -> LocalDate {
        LocalDate(dayNumber: ValueMath.floorDiv(WallClock.localMs(instant, in: zone), WallClock.msPerDay))
    }

    /// The date `days` later (earlier when negative).
    public func adding(days: Int) -> LocalDate {
        LocalDate(dayNumber: dayNumber + Int64(days))
    }

    /// ISO weekday: 1 = Monday ... 7 = Sunday.
    public var weekday: Int {
        // 1970-01-01 was a Thursday.
        Int(ValueMath.floorMod(dayNumber + 3, 7)) + 1
    }

    /// The ISO-8601 week-numbering year and week (1...53).
    public var isoWeek: (year: Int, week: Int) {
        // A week belongs to the year that holds its Thursday.
        let thursday = adding(days: 4 - weekday)
        let ordinal = thursday.dayNumber - LocalDate(uncheckedYear: thursday.year, month: 1, day: 1).dayNumber
        return (thursday.year, Int(ordinal / 7) + 1)
    }

    /// Days since 1970-01-01 (negative before).
    public var dayNumber: Int64 {
        // Howard Hinnant's days_from_civil.
        let y = Int64(year) - (month <= 2 ? 1 : 0)
        let m = Int64(month)
        let era = (y >= 0 ? y : y - 399) / 400
        let yoe = y - era * 400
        let doy = (153 * (m + (m > 2 ? -3 : 9)) + 2) / 5 + Int64(day) - 1
        let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy
        return era * 146_097 + doe - 719_468
    }

    /// Whether the year is within 1...9999, the range `init?` and `parse` accept.
    public var isInSupportedYears: Bool { LocalDate.supportedYears.contains(year) }

    /// The years `init?` and `parse` accept.
    public static let supportedYears = 1...9999

    /// Gregorian leap years: every fourth year, except centuries not divisible by 400.
    public static func isLeapYear(_ year: Int) -> Bool {
        (year % 4 == 0 && year % 100 != 0) || year % 400 == 0
    }

    /// The number of days in `month` (1...12) of `year`.
    public static func daysInMonth(year: Int, month: Int) -> Int {
        switch month {
        case 2: isLeapYear(year) ? 29 : 28
        case 4, 6, 9, 11: 30
        default: 31
        }
    }

    /// English month names for error reasons, January first.
    public static let monthNames = [
        "January", "February", "March", "April", "May", "June",
        "July", "August", "September", "October", "November", "December",
    ]

    /// Chronological order.
    public static func < (lhs: LocalDate, rhs: LocalDate) -> Bool {
        (lhs.year, lhs.month, lhs.day) < (rhs.year, rhs.month, rhs.day)
    }
}

/// Conversions between UTC instants and local wall-clock times of a zone, all in milliseconds.
public enum WallClock {
    public static let msPerDay: Int64 = 86_400_000

    /// How a local wall-clock time maps to instants.
    public enum Resolution: Equatable {
        /// Exactly one instant shows this wall time.
        case exact(Int64)
        /// The wall time occurs twice (clocks went back).
        case ambiguous(earlier: Int64, later: Int64)
        /// The wall time is skipped (clocks went forward). `before` reads it with the post-transition offset
        /// (an instant before the transition); `after` reads it with the pre-transition offset.
        case gap(before: Int64, after: Int64)
    }

    /// The zone's offset from UTC at `instant`.
    public static func offsetMs(at instant: Int64, in zone: Zone) -> Int64 {
        zone.offsetMs(at: instant)
    }

    /// The wall-clock time at `instant`, counted as if the local clock were UTC.
    public static func localMs(_ instant: Int64, in zone: Zone) -> Int64 {
        instant + offsetMs(at: instant, in: zone)
    }

    /// Finds every instant whose wall-clock time in `zone` is `local`.
    public static func resolve(_ local: Int64, in zone: Zone) -> Resolution {
        // Offsets in force two days either side cover any single transition near `local`.
        var offsets = Set([local - 2 * msPerDay, local, local + 2 * msPerDay].map { offsetMs(at: $0, in: zone) })
        for offset in Array(offsets) {
            offsets.insert(offsetMs(at: local - offset, in: zone))
        }
        let matches = offsets.map { local - $0 }
            .filter { localMs($0, in: zone) == local }
            .sorted()
        if let first = matches.first, let last = matches.last {
            return first == last ? .exact(first) : .ambiguous(earlier: first, later: last)
        }
        let before = local - (offsets.max() ?? 0)
        return .gap(before: before, after: local - offsetMs(at: before, in: zone))
    }

    /// The instant for a wall time the user wrote: the earlier one when it occurs twice, and with the
    /// pre-transition offset when it is skipped (so a skipped 02:30 becomes the 03:30 just after the jump).
    public static func instant(forLocal local: Int64, in zone: Zone) -> Int64 {
        switch resolve(local, in: zone) {
        case .exact(let instant), .ambiguous(let instant, _): instant
        case .gap(_, let after): after
        }
    }

    /// The first instant in `low...high` whose wall time is at or after `local`.
    public static func firstInstant(reaching local: Int64, between low: Int64, and high: Int64, in zone: Zone) -> Int64 {
        // Within a gap's bracket the wall time only moves forward, so the predicate is monotonic.
        var low = low
        var high = high
        while low < high {
            let mid = low + (high - low) / 2
            if localMs(mid, in: zone) >= local {
                high = mid
            } else {
                low = mid + 1
            }
        }
        return low
    }
}

/// Small integer helpers shared by the value types.
public enum ValueMath {
    /// Division rounding toward negative infinity.
    public static func floorDiv(_ a: Int64, _ b: Int64) -> Int64 {
        let q = a / b
        return (a % b != 0 && (a < 0) != (b < 0)) ? q - 1 : q
    }

    /// The remainder matching `floorDiv`, with the sign of `b`.
    public static func floorMod(_ a: Int64, _ b: Int64) -> Int64 {
        a - floorDiv(a, b) * b
    }

    /// Writes the low `count` decimal digits of a non-negative `value` at `start`, zero-padded.
    public static func writeDigits(_ value: Int, _ count: Int, into buffer: UnsafeMutableBufferPointer<UInt8>, at start: Int) {
        var rest = value
        for offset in stride(from: count - 1, through: 0, by: -1) {
            buffer[start + offset] = UInt8(truncatingIfNeeded: 48 + rest % 10)
            rest /= 10
        }
    }

    /// `value` in decimal, left-padded with zeros to `width` digits.
    public static func pad<T: BinaryInteger>(_ value: T, _ width: Int) -> String {
        let digits = String(value)
        return digits.count >= width ? digits : String(repeating: "0", count: width - digits.count) + digits
    }
}
