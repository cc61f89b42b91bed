#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import TallyEssentials

/// The words people type for a WHEN, in English and Czech: weekday names, `eow`/`eom`/`eoy`,
/// `in 3 days` / `za 3 dny`, `tomorrow` / `zítra`.
///
/// Case, surrounding spaces and Czech diacritics do not matter (`patek` is `pátek`). Day-sized
/// results are dates; hours and minutes are instants. Anything that could mean two things is
/// refused with the readings spelled out, never guessed.
enum NaturalWhen {
    /// A date or an instant for `text`; nil when the text is not made of these words at all. A weekday
    /// is the next one after today, or the last one before it when `lookingBack`.
    static func read(_ text: String, now: Int64, zone: Zone, lookingBack: Bool = false) throws(ParseReason) -> When? {
        let words = fold(text).split(whereSeparator: { $0 == " " || $0 == "\t" }).map(String.init)
        guard let first = words.first else { return nil }
        let today = LocalDate.containing(now, in: zone)
        if words.count == 1 {
            if let offset = dayWords[first] { return .date(try shift(today, by: Int64(offset))) }
            if first == "now" || first == "ted" || first == "nyni" { return .instant(now) }
        }
        let phrase = words.joined(separator: " ")
        if let end = ends[phrase] { return .date(end.date(from: today)) }
        if words.count == 1, let weekday = weekdays[first] {
            return .date(lookingBack ? previous(weekday, before: today) : next(weekday, after: today))
        }
        if words.count == 1, let readings = ambiguousWeekdays[first] {
            throw ParseReason(.ambiguousWeekday, ["input": text, "first": readings[0], "second": readings[1]])
        }
        if ["next", "this", "pristi", "tento", "tuto", "tenhle"].contains(first), words.count == 2,
           weekdays[words[1]] != nil || ends[words[1]] != nil {
            throw ParseReason(.ambiguousNext, ["input": text, "day": words[1], "date": next(weekdays[words[1]] ?? 7, after: today).description])
        }
        if first == "in" || first == "za" { return try within(words, text: text, now: now, today: today) }
        if let reason = numericDateHint(text, today: today) { throw reason }
        return nil
    }

    /// Every word this parser accepts for one weekday (1 = Monday).
    static let weekdayNames: [(weekday: Int, english: [String], czech: [String])] = [
        (1, ["monday", "mon"], ["pondělí", "po"]),
        (2, ["tuesday", "tue", "tues"], ["úterý", "út"]),
        (3, ["wednesday", "wed"], ["středa", "středu", "st"]),
        (4, ["thursday", "thu", "thur", "thurs"], ["čtvrtek", "čt"]),
        (5, ["friday", "fri"], ["pátek", "pá"]),
        (6, ["saturday", "sat"], ["sobota", "sobotu", "so"]),
        (7, ["sunday", "sun"], ["neděle", "neděli", "ne"]),
    ]

    private static let weekdays: [String: Int] = {
        var table: [String: Int] = [:]
        for entry in weekdayNames {
            for name in entry.english + entry.czech { table[fold(name)] = entry.weekday }
        }
        return table
    }()

    /// Prefixes that fit more than one weekday.
    private static let ambiguousWeekdays: [String: [String]] = [
        "t": ["tuesday", "thursday"], "s": ["saturday", "sunday"],
    ]

    private static let dayWords: [String: Int] = [
        "today": 0, "yesterday": -1, "tomorrow": 1, "dnes": 0, "dneska": 0, "vcera": -1, "zitra": 1, "pozitri": 2,
    ]

    /// The end of the current week (Sunday), month or year.
    private enum End {
        case week, month, year

        func date(from today: LocalDate) -> LocalDate {
            switch self {
            case .week: today.adding(days: 7 - today.weekday)
            case .month: LocalDate(uncheckedYear: today.year, month: today.month, day: LocalDate.daysInMonth(year: today.year, month: today.month))
            case .year: LocalDate(uncheckedYear: today.year, month: 12, day: 31)
            }
        }
    }

    private static let ends: [String: End] = [
        "eow": .week, "eom": .month, "eoy": .year,
        "end of week": .week, "end of month": .month, "end of year": .year,
        "konec tydne": .week, "konec mesice": .month, "konec roku": .year,
        "kt": .week, "km": .month, "kr": .year,
    ]

    /// Units of `in N UNIT` / `za N UNIT`.
    enum Unit { case minute, hour, day, week, month, year }

    private static let units: [String: Unit] = {
        var table: [String: Unit] = [:]
        let names: [(Unit, [String])] = [
            (.minute, ["minute", "minutes", "min", "mins", "minuta", "minuty", "minut", "minutu"]),
            (.hour, ["hour", "hours", "h", "hodina", "hodiny", "hodin", "hodinu"]),
            (.day, ["day", "days", "d", "den", "dny", "dni", "dnu"]),
            (.week, ["week", "weeks", "w", "tyden", "tydny", "tydnu"]),
            (.month, ["month", "months", "mesic", "mesice", "mesicu"]),
            (.year, ["year", "years", "y", "rok", "roky", "let", "roku"]),
        ]
        for (unit, words) in names {
            for word in words { table[word] = unit }
        }
        return table
    }()

    /// `in N UNIT` or `za N UNIT`: days and longer give a date, hours and minutes an instant.
    private static func within(_ words: [String], text: String, now: Int64, today: LocalDate) throws(ParseReason) -> When {
        let shape = ParseReason(.withinShape, ["word": words[0]])
        guard words.count == 3 || words.count == 2 else { throw shape }
        var numberText = words[1]
        var unitText = words.count == 3 ? words[2] : ""
        if words.count == 2 {
            // `in 3d`: the unit stuck to the number.
            numberText = String(words[1].prefix(while: \.isNumber))
            unitText = String(words[1].dropFirst(numberText.count))
        }
        guard !numberText.isEmpty, numberText.allSatisfy({ $0.isASCII && $0.isNumber }) else { throw shape }
        guard numberText.count <= When.maxRelativeDigits, let amount = Int64(numberText) else {
            throw ParseReason(.relativeTooManyDigits, ["max": String(When.maxRelativeDigits)])
        }
        if unitText == "m" { throw ParseReason(.minutesOrMonths, ["word": words[0], "amount": String(amount)]) }
        guard let unit = units[unitText] else {
            throw unitText.isEmpty ? ParseReason(.withinUnitRequired) : ParseReason(.withinUnknownUnit, ["unit": unitText])
        }
        switch unit {
        case .minute: return .instant(now + amount * 60_000)
        case .hour: return .instant(now + amount * 3_600_000)
        case .day: return .date(try shift(today, by: amount))
        case .week: return .date(try shift(today, by: amount * 7))
        case .month: return .date(try months(today, amount))
        case .year: return .date(try months(today, amount * 12))
        }
    }

    /// `date` moved by whole months, on the same day or the last day of a shorter month.
    static func months(_ date: LocalDate, _ count: Int64) throws(ParseReason) -> LocalDate {
        let index = Int64(date.year) * 12 + Int64(date.month - 1) + count
        let year = ValueMath.floorDiv(index, 12)
        guard LocalDate.supportedYears.contains(Int(clamping: year)) else { throw ParseReason(.outsideYears) }
        let month = Int(ValueMath.floorMod(index, 12)) + 1
        let day = min(date.day, LocalDate.daysInMonth(year: Int(year), month: month))
        return LocalDate(uncheckedYear: Int(year), month: month, day: day)
    }

    /// The next `weekday` strictly after `date` (never `date` itself).
    static func next(_ weekday: Int, after date: LocalDate) -> LocalDate {
        let ahead = (weekday - date.weekday + 7) % 7
        return date.adding(days: ahead == 0 ? 7 : ahead)
    }

    /// The last `weekday` strictly before `date` (never `date` itself).
    static func previous(_ weekday: Int, before date: LocalDate) -> LocalDate {
        let behind = (date.weekday - weekday + 7) % 7
        return date.adding(days: -(behind == 0 ? 7 : behind))
    }

    /// For `3/4/2026`, `3.4.` and the like: the readings to choose from, since day and month order differ by country.
    private static func numericDateHint(_ text: String, today: LocalDate) -> ParseReason? {
        let separators: Set<Character> = ["/", "."]
        let trimmed = text.trimming(.whitespaces)
        guard trimmed.contains(where: { separators.contains($0) }),
              trimmed.allSatisfy({ ($0.isASCII && $0.isNumber) || separators.contains($0) || $0 == " " })
        else { return nil }
        let parts = trimmed.split(whereSeparator: { separators.contains($0) || $0 == " " }).compactMap { Int($0) }
        guard parts.count == 2 || parts.count == 3 else { return nil }
        let year = parts.count == 3 ? (parts[2] < 100 ? 2000 + parts[2] : parts[2]) : today.year
        let readings = [(parts[0], parts[1]), (parts[1], parts[0])].compactMap { LocalDate(year: year, month: $0.1, day: $0.0) }
        let unique = readings.reduce(into: [LocalDate]()) { if !$0.contains($1) { $0.append($1) } }
        guard !unique.isEmpty else { return nil }
        return unique.count == 1
            ? ParseReason(.dayMonthOrderSingle, ["first": unique[0].description])
            : ParseReason(.dayMonthOrder, ["first": unique[0].description, "second": unique[1].description])
    }

    private static func shift(_ date: LocalDate, by days: Int64) throws(ParseReason) -> LocalDate {
        guard abs(days) <= 3_700_000 else { throw ParseReason(.outsideYears) }
        let result = date.adding(days: Int(days))
        guard result.isInSupportedYears else { throw ParseReason(.outsideYears) }
        return result
    }

    /// Lowercased, without diacritics, NFC-insensitive: `Pátek` and `pa\u{301}tek` both become `patek`.
    static func fold(_ text: String) -> String {
        TextScalars.withoutDiacritics(text.lowercased()).trimming(.whitespacesAndNewlines)
    }
}
