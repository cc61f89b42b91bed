#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import TallyEssentials

/// A point in time as the user wrote it.
public enum When: Sendable, Hashable {
    /// A whole day: `2026-11-21`, `today`, `tomorrow`, `+3d`, `fri`, `eom`, `in 2 weeks`, `za 3 dny`.
    case date(LocalDate)
    /// An exact instant: `now`, `+5h`, `-30m`, `in 2 hours`, datetimes.
    case instant(Int64)
    /// A position in the event log, `@SEQ`; only where the caller allows it.
    case logPosition(Int64)

    /// Reads a WHEN relative to `now` and the local `zone`.
    ///
    /// Keywords and units are case-insensitive and surrounding whitespace is ignored. Wall times skipped by
    /// a transition are read with the pre-transition offset; wall times that occur twice mean the earlier.
    /// A weekday name is the next such day, or with `lookingBack` (a point in the past, as `--as-of`
    /// asks for) the last one before today.
    public static func parse(
        _ text: String, now: Int64, zone: Zone, allowLogPosition: Bool = false, lookingBack: Bool = false
    ) throws(ValueError) -> When {
        do {
            return try read(text.trimming(.whitespacesAndNewlines), now: now, zone: zone,
                            allowLogPosition: allowLogPosition, lookingBack: lookingBack)
        } catch {
            throw ValueError(kind: .when, input: text, reason: error)
        }
    }

    /// The first instant the value covers (a date → its local midnight).
    public func startInstant(in zone: Zone) -> Int64 {
        switch self {
        case .date(let date): date.startInstant(in: zone)
        case .instant(let ms): ms
        case .logPosition: preconditionFailure("a log position has no instant")
        }
    }

    /// The first instant after the value (a date → next local midnight; an instant → itself + 1 ms). Used for inclusive "until"/"before" ranges.
    public func endInstant(in zone: Zone) -> Int64 {
        switch self {
        case .date(let date): date.adding(days: 1).startInstant(in: zone)
        case .instant(let ms): ms + 1
        case .logPosition: preconditionFailure("a log position has no instant")
        }
    }

    /// The canonical stored text: "2026-11-21" for a date, Timestamp.format for an instant, "@42" for a position.
    public var storageText: String {
        switch self {
        case .date(let date): date.description
        case .instant(let ms): Timestamp.format(ms)
        case .logPosition(let seq): "@\(seq)"
        }
    }

    /// Parses storageText back (dates, full ISO instants, @N); nil if it is not one.
    public static func fromStorage(_ text: String) -> When? {
        if let date = LocalDate.parse(text) { return .date(date) }
        if let ms = Timestamp.parse(text) { return .instant(ms) }
        if text.hasPrefix("@"), let seq = try? position(Array(text.utf8.dropFirst())) { return .logPosition(seq) }
        return nil
    }

    static let maxRelativeDigits = 6
    static let shape = ValueReasonKey.whenShape.english

    private static func read(_ text: String, now: Int64, zone: Zone, allowLogPosition: Bool, lookingBack: Bool, dayTime: Bool = true) throws(ParseReason) -> When {
        guard !text.isEmpty else { throw ParseReason(.empty) }
        if dayTime, let dayAndTime = try dayWithTime(text, now: now, zone: zone, lookingBack: lookingBack) { return dayAndTime }
        if let natural = try NaturalWhen.read(text, now: now, zone: zone, lookingBack: lookingBack) { return natural }
        let bytes = Array(text.utf8)
        if bytes[0] == UInt8(ascii: "@") {
            guard allowLogPosition else { throw ParseReason(.logPositionNotAllowed) }
            return .logPosition(try position(Array(bytes.dropFirst())))
        }
        var probe = ByteCursor(bytes)
        let leading = probe.digits()
        // Unsigned digits are an offset only when a unit or nothing follows; anything else is read as a date.
        if !leading.isEmpty, let next = probe.peek, !ByteCursor.isLetter(next) {
            return try absolute(DateTimeText.parse(bytes), zone: zone)
        }
        if leading.isEmpty, bytes[0] != UInt8(ascii: "+"), bytes[0] != UInt8(ascii: "-") {
            throw ParseReason(.whenShape)
        }
        return try relative(bytes, now: now, zone: zone)
    }

    /// `tomorrow 10:00`, `fri 9:30`, `in 2 days 18:00`: a day in any form, then a time of day
    /// (`H:MM`, `HH:MM` or `HH:MM:SS`), as the local instant; nil when the text is not of that shape.
    private static func dayWithTime(_ text: String, now: Int64, zone: Zone, lookingBack: Bool) throws(ParseReason) -> When? {
        guard let space = text.lastIndex(where: \.isWhitespace) else { return nil }
        let head = text[..<space].trimming(.whitespaces)
        var time = String(text[text.index(after: space)...])
        let parts = time.split(separator: ":", omittingEmptySubsequences: false)
        guard !head.isEmpty, parts.count == 2 || parts.count == 3, (1...2).contains(parts[0].count),
              parts.dropFirst().allSatisfy({ $0.count == 2 }), parts.allSatisfy({ $0.allSatisfy(\.isASCII) && $0.allSatisfy(\.isNumber) })
        else { return nil }
        // The day is read without this rule again: one time at the end, never a recursion per word.
        guard case .date(let day)? = try? read(head, now: now, zone: zone, allowLogPosition: false, lookingBack: lookingBack, dayTime: false) else { return nil }
        if parts[0].count == 1 { time = "0" + time }
        return absolute(try DateTimeText.parse(Array("\(day)T\(time)".utf8)), zone: zone)
    }

    private static func absolute(_ parsed: DateTimeText, zone: Zone) -> When {
        let day = parsed.date.dayNumber * WallClock.msPerDay
        guard let msOfDay = parsed.timeOfDayMs else { return .date(parsed.date) }
        if let offset = parsed.offsetMs { return .instant(day + msOfDay - offset) }
        return .instant(WallClock.instant(forLocal: day + msOfDay, in: zone))
    }

    /// `[+|-]N(m|h|d|w)`: minutes and hours are exact instants; days and weeks are dates (today moved by whole days).
    private static func relative(_ bytes: [UInt8], now: Int64, zone: Zone) throws(ParseReason) -> When {
        var cursor = ByteCursor(bytes)
        let negative = cursor.take(anyOf: [UInt8(ascii: "+"), UInt8(ascii: "-")]) == UInt8(ascii: "-")
        let digits = cursor.digits()
        guard !digits.isEmpty else { throw ParseReason(.whenShape) }
        guard digits.count <= maxRelativeDigits else {
            throw ParseReason(.relativeTooManyDigits, ["max": String(maxRelativeDigits)])
        }
        let unit = cursor.letters()
        guard !unit.isEmpty || !cursor.atEnd else { throw ParseReason(.relativeUnitRequired) }
        guard cursor.atEnd else { throw DateTimeText.trailing(cursor) }
        let amount = (ByteCursor.value(digits) ?? 0) * (negative ? -1 : 1)
        switch unit {
        case "m": return .instant(now + amount * 60_000)
        case "h": return .instant(now + amount * 3_600_000)
        case "d": return try .date(shift(LocalDate.containing(now, in: zone), by: amount))
        case "w": return try .date(shift(LocalDate.containing(now, in: zone), by: amount * 7))
        default: throw ParseReason(.relativeUnknownUnit, ["unit": unit])
        }
    }

    private static func shift(_ date: LocalDate, by days: Int64) throws(ParseReason) -> LocalDate {
        let result = date.adding(days: Int(days))
        guard result.isInSupportedYears else { throw ParseReason(.outsideYears) }
        return result
    }

    /// The digits after `@`: a positive sequence number.
    private static func position(_ bytes: [UInt8]) throws(ParseReason) -> Int64 {
        var cursor = ByteCursor(bytes)
        let digits = cursor.digits()
        guard !digits.isEmpty, cursor.atEnd else {
            if bytes.first == UInt8(ascii: "-") { throw ParseReason(.logPositionMinimum) }
            throw ParseReason(.logPositionShape)
        }
        guard let seq = ByteCursor.value(digits) else { throw ParseReason(.logPositionTooBig) }
        guard seq >= 1 else { throw ParseReason(.logPositionMinimum) }
        return seq
    }
}
