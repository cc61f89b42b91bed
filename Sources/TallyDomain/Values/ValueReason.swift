
/// Why a value was refused, as a key and its arguments, so the CLI can say it in any language
/// through its catalog; `english` is the same sentence fragment in English (logs, tests, fallbacks).
public enum ValueReasonKey: String, CaseIterable, Sendable {
    case empty, negative
    case durationShape, clockShape, minutesField, secondsField, durationTooLong
    case durationUnitAfterNumber, durationUnknownUnit, durationUnitTwice, durationUnitOrder, digitsAfterPoint
    case whenShape, logPositionNotAllowed, relativeTooManyDigits, relativeUnitRequired, relativeUnknownUnit, outsideYears
    case logPositionMinimum, logPositionShape, logPositionTooBig
    case exponents, distanceShape, distanceUnitRequired, distanceUnknownUnit, distanceTooLong
    case trailing, dateShape, timeShape, zoneShape, year, month, day, monthLength
    case hour, minute, second, zoneHour, zoneMinute
    case logPositionPastEnd
    // Dates people type and recurrence periods
    case ambiguousWeekday, ambiguousNext, withinShape, minutesOrMonths, withinUnitRequired, withinUnknownUnit, dayMonthOrder, dayMonthOrderSingle, periodShape, periodRange

    /// The English template; `{name}` placeholders are filled from the reason's arguments.
    public var english: String {
        switch self {
        case .empty: "is empty"
        case .negative: "must not be negative"
        case .durationShape: "expected a duration like 45m, 1h30m, 1:30:00 or 27:30"
        case .clockShape: "expected h:mm:ss or m:ss"
        case .minutesField: "minutes must be two digits 00-59"
        case .secondsField: "seconds must be two digits 00-59"
        case .durationTooLong: "must be at most 100 years"
        case .durationUnitAfterNumber: "a unit is required after {number} (h, m or s)"
        case .durationUnknownUnit: "unknown unit '{unit}' (use h, m or s)"
        case .durationUnitTwice: "unit '{unit}' appears twice"
        case .durationUnitOrder: "units must come in the order h, m, s"
        case .digitsAfterPoint: "expected digits after '.'"
        case .whenShape: "expected a date (YYYY-MM-DD), a datetime (YYYY-MM-DD HH:MM), now, today, tomorrow, a weekday, eow, eom, eoy, in 3 days or an offset like -2d"
        case .logPositionNotAllowed: "a log position (@SEQ) is not allowed here"
        case .relativeTooManyDigits: "the number must have at most {max} digits"
        case .relativeUnitRequired: "a unit is required (m, h, d or w)"
        case .relativeUnknownUnit: "unknown unit '{unit}' (use m, h, d or w)"
        case .outsideYears: "the result is outside the years 0001-9999"
        case .logPositionMinimum: "a log position must be 1 or more"
        case .logPositionShape: "expected a log position as @SEQ, like @42"
        case .logPositionTooBig: "the log position is too big"
        case .exponents: "exponents are not allowed"
        case .distanceShape: "expected a number and a unit, like 5km, 800m or 3.1mi"
        case .distanceUnitRequired: "a unit is required (km, m or mi)"
        case .distanceUnknownUnit: "unknown unit '{unit}' (use km, m or mi)"
        case .distanceTooLong: "must be at most 1000000 km"
        case .trailing: "unexpected '{rest}' at the end"
        case .dateShape: "expected a date as YYYY-MM-DD"
        case .timeShape: "expected a time as HH:MM or HH:MM:SS"
        case .zoneShape: "expected a zone as Z, ±HH:MM, ±HHMM or ±HH"
        case .year: "year must be 0001-9999"
        case .month: "month must be 01-12"
        case .day: "day must be 01-31"
        case .monthLength: "{monthName} {year} has {days} days"
        case .hour: "hour must be 00-23"
        case .minute: "minute must be 00-59"
        case .second: "second must be 00-59"
        case .zoneHour: "zone offset hour must be 00-23"
        case .zoneMinute: "zone offset minute must be 00-59"
        case .logPositionPastEnd: "the log ends at {last}"
        case .ambiguousWeekday: "'{input}' could mean {first} or {second}; write the day in full"
        case .ambiguousNext: "'{input}' is ambiguous (this week's or next week's?); write '{day}' for the next such day, or a date like {date}"
        case .withinShape: "expected '{word} N UNIT', like 'in 3 days' or 'za 3 dny'"
        case .minutesOrMonths: "'m' could mean minutes or months; write '{word} {amount} minutes' or '{word} {amount} months'"
        case .withinUnitRequired: "a unit is required (minutes, hours, days, weeks, months or years)"
        case .withinUnknownUnit: "unknown unit '{unit}' (use minutes, hours, days, weeks, months or years)"
        case .dayMonthOrder: "the order of day and month differs between countries; write {first} or {second}"
        case .dayMonthOrderSingle: "the order of day and month differs between countries; write {first}"
        case .periodShape: "expected daily, weekdays, weekly, monthly, yearly or N followed by d, w, m or y (like 2w)"
        case .periodRange: "the number must be from 1 to {max}"
        }
    }

    /// Reasons after which a message adds no examples of its own: they already show what a valid
    /// value looks like, or the value is well formed and only points past the end of the log.
    public var showsExamples: Bool {
        self == .durationShape || self == .whenShape || self == .distanceShape || self == .logPositionPastEnd
    }
}

/// A reason key with its arguments; the public parsers wrap it into a `ValueError`.
struct ParseReason: Error, Equatable {
    let key: ValueReasonKey
    let arguments: [String: String]

    init(_ key: ValueReasonKey, _ arguments: [String: String] = [:]) {
        self.key = key
        self.arguments = arguments
    }

    /// The reason in English.
    var text: String { ValueReasonText.fill(key.english, arguments) }
}

/// Fills `{name}` placeholders; unknown names stay as they are.
public enum ValueReasonText {
    public static func fill(_ pattern: String, _ arguments: [String: String]) -> String {
        var text = pattern
        for (name, value) in arguments {
            text = text.replacingAll("{\(name)}", with: value)
        }
        return text
    }
}
