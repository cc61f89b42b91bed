#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import TallyEssentials

/// The rules user-typed fields must follow, shared by every command that takes them, and the
/// limits every door checks (`EventRules`): defined here once.
public enum Validation {
    public static let maxTitleLength = 500
    public static let maxTags = 20
    public static let maxTagLength = 32
    public static let maxNoteLength = 10_000

    public static let maxNameLength = 200
    public static let maxDurationSeconds = 7 * 24 * 3600
    public static let maxDistanceMeters = 1_000_000.0
    /// Most metres a record's track may climb.
    public static let maxElevationGainMeters = 100_000.0
    /// Most best efforts one track keeps, and the longest standard distance one may cover.
    public static let maxBestEfforts = 32
    /// Session RPE: how hard an activity felt, 1 (very easy) to 10 (maximal).
    public static let effort = 1...10
    public static let maxEffortMeters = 1_000_000
    /// How far ahead of now a record's date may be.
    public static let futureAllowanceMilliseconds: Int64 = 24 * 3600 * 1000

    /// How every limit counts a text: in Unicode code points, as PostgreSQL's `char_length` does in
    /// the server's payload rules (`tally_text_ok`), so that whatever one store accepts the server
    /// accepts too. A character of several code points (an emoji sequence, a letter with a mark
    /// NFC does not compose) counts as several. Fields kept in NFC are counted in their NFC form.
    public static func length(_ text: some StringProtocol) -> Int {
        text.unicodeScalars.count
    }

    /// The longest start of `text` made of whole characters and at most `max` code points (`length`).
    public static func prefix(_ text: String, maxLength max: Int) -> Substring {
        var used = 0
        var end = text.startIndex
        for index in text.indices {
            used += text[index].unicodeScalars.count
            if used > max { break }
            end = text.index(after: index)
        }
        return text[..<end]
    }

    /// Trims a title, puts it in Unicode NFC and checks its length and characters.
    public static func title(_ raw: String, max: Int = maxTitleLength) throws(DomainError) -> String {
        let title = TextForm.normalized(raw.trimming(.whitespacesAndNewlines))
        guard !title.isEmpty else { throw .invalid(.emptyTitle) }
        guard length(title) <= max else { throw .invalid(.titleTooLong(max: max)) }
        guard !title.unicodeScalars.contains(where: isControl) else { throw .invalid(.controlCharacters(field: "title")) }
        return title
    }

    /// Trims a record name: 1-200 characters, no control characters.
    public static func name(_ raw: String) throws(DomainError) -> String {
        let name = raw.trimming(.whitespacesAndNewlines)
        guard !name.isEmpty else { throw .invalid(.emptyName) }
        guard length(name) <= maxNameLength else { throw .invalid(.textTooLong(field: "name", max: maxNameLength)) }
        guard !name.unicodeScalars.contains(where: isControl) else { throw .invalid(.controlCharacters(field: "name")) }
        return name
    }

    /// A category: lowercased, then `[a-z][a-z0-9-]{0,31}`.
    public static func category(_ raw: String) throws(DomainError) -> String {
        let category = raw.lowercased()
        let bytes = Array(category.utf8)
        guard let first = bytes.first, first >= 0x61, first <= 0x7A, bytes.count <= 32,
              bytes.allSatisfy({ ($0 >= 0x61 && $0 <= 0x7A) || ($0 >= 0x30 && $0 <= 0x39) || $0 == 0x2D })
        else { throw .invalid(.invalidCategory(raw)) }
        return category
    }

    /// A DURATION above zero and at most 7 days.
    public static func duration(_ raw: String) throws(DomainError) -> Int {
        let seconds: Int
        do {
            seconds = try ActivityDuration.parse(raw)
        } catch {
            throw .invalid(.value(error))
        }
        guard seconds > 0, seconds <= maxDurationSeconds else { throw .invalid(.durationOutOfRange(seconds: seconds)) }
        return seconds
    }

    /// A DISTANCE from zero to 1,000 km, in metres.
    public static func distance(_ raw: String) throws(DomainError) -> Double {
        let meters: Double
        do {
            meters = try Distance.parse(raw)
        } catch {
            throw .invalid(.value(error))
        }
        guard meters >= 0, meters <= maxDistanceMeters else { throw .invalid(.distanceOutOfRange(meters: meters)) }
        return meters
    }

    /// When an activity happened: a day means its local midnight; at most one day after now. A weekday
    /// name is the last such day (an activity is logged after it happened).
    public static func activityDate(_ raw: String, now: Int64, zone: Zone) throws(DomainError) -> Int64 {
        let when: When
        do {
            when = try When.parse(raw, now: now, zone: zone, lookingBack: true)
        } catch {
            throw .invalid(.value(error))
        }
        if case .logPosition = when {
            throw .invalid(.value(ValueError(kind: .when, input: raw, reason: ParseReason(.logPositionNotAllowed))))
        }
        let instant = when.startInstant(in: zone)
        try storable(instant, raw)
        guard instant <= now + futureAllowanceMilliseconds else { throw .invalid(.dateTooFarInFuture(raw)) }
        return instant
    }

    /// An optional one-line text (a place): trimmed, no control characters, empty means none.
    public static func line(_ raw: String, field: String, max: Int = maxNameLength) throws(DomainError) -> String? {
        let text = raw.trimming(.whitespacesAndNewlines)
        guard !text.isEmpty else { return nil }
        guard length(text) <= max else { throw .invalid(.textTooLong(field: field, max: max)) }
        guard !text.unicodeScalars.contains(where: isControl) else { throw .invalid(.controlCharacters(field: field)) }
        return text
    }

    /// Lowercases one tag, puts it in NFC and checks it: 1-32 letters or digits of any script, `_` or `-`.
    public static func tag(_ raw: String) throws(DomainError) -> String {
        let tag = TextForm.normalized(raw.lowercased())
        guard !tag.isEmpty, length(tag) <= maxTagLength, tag.unicodeScalars.allSatisfy(isTagScalar)
        else { throw .invalid(.invalidTag(raw)) }
        return tag
    }

    /// A project: tag-like names joined by dots (`home.garden`), normalised like tags.
    public static func project(_ raw: String) throws(DomainError) -> String {
        guard let project = ProjectPath.normalized(raw.trimming(.whitespaces)) else { throw .invalid(.invalidProject(raw)) }
        return project
    }

    /// A letter or digit of any script (with its combining marks), `_` or `-`.
    public static func isTagScalar(_ scalar: Unicode.Scalar) -> Bool {
        if scalar == "_" || scalar == "-" { return true }
        let properties = scalar.properties
        switch properties.generalCategory {
        case .lowercaseLetter, .uppercaseLetter, .titlecaseLetter, .modifierLetter, .otherLetter,
             .decimalNumber, .letterNumber, .otherNumber, .nonspacingMark, .spacingMark:
            return true
        default:
            return false
        }
    }

    /// Validates tags, dropping repeats but keeping the first-seen order.
    public static func tags(_ raw: [String]) throws(DomainError) -> [String] {
        var result: [String] = []
        for value in raw {
            let tag = try tag(value)
            if !result.contains(tag) { result.append(tag) }
        }
        guard result.count <= maxTags else { throw .invalid(.tooManyTags(max: maxTags)) }
        return result
    }

    /// `low`, `medium`, `high` (or `l`, `m`, `h`), any case.
    public static func priority(_ raw: String) throws(DomainError) -> Priority {
        switch raw.lowercased() {
        case "low", "l": .low
        case "medium", "m", "med": .medium
        case "high", "h": .high
        default: throw .invalid(.invalidPriority(raw))
        }
    }

    /// A WHEN the user gave for a due date: a day stays a day, anything else becomes an instant.
    public static func due(_ raw: String, now: Int64, zone: Zone) throws(DomainError) -> Due {
        let when: When
        do {
            when = try When.parse(raw, now: now, zone: zone)
        } catch {
            throw .invalid(.value(error))
        }
        switch when {
        case .date(let date): return .date(date)
        case .instant(let ms):
            try storable(ms, raw)
            return .instant(ms)
        case .logPosition: throw .invalid(.value(ValueError(kind: .when, input: raw, reason: ParseReason(.logPositionNotAllowed))))
        }
    }

    /// A WHEN used as a bound of a query (checked, not converted: the query resolves it when it runs).
    public static func whenBound(_ raw: String, now: Int64, zone: Zone) throws(DomainError) -> String {
        do {
            _ = try When.parse(raw, now: now, zone: zone)
        } catch {
            throw .invalid(.value(error))
        }
        return raw
    }

    /// An annotation's text: trimmed, in NFC, 1-`Annotation.maxLength` characters on one line.
    public static func annotation(_ raw: String) throws(DomainError) -> String {
        let text = TextForm.normalized(raw.trimming(.whitespacesAndNewlines))
        guard !text.isEmpty else { throw .invalid(.emptyAnnotation) }
        guard length(text) <= Annotation.maxLength else { throw .invalid(.textTooLong(field: "annotation", max: Annotation.maxLength)) }
        guard !text.unicodeScalars.contains(where: isControl) else { throw .invalid(.controlCharacters(field: "annotation")) }
        return text
    }

    /// A free-text note; empty means none. Newlines and tabs are allowed, other control characters are not.
    public static func note(_ raw: String) throws(DomainError) -> String? {
        let note = TextForm.normalized(raw.trimming(.whitespacesAndNewlines))
        guard !note.isEmpty else { return nil }
        guard length(note) <= maxNoteLength else { throw .invalid(.noteTooLong(max: maxNoteLength)) }
        guard !note.unicodeScalars.contains(where: { isControl($0) && $0 != "\n" && $0 != "\t" }) else {
            throw .invalid(.controlCharacters(field: "note"))
        }
        return note
    }

    /// Search text: trimmed, control characters refused; empty means no search.
    public static func search(_ raw: String) throws(DomainError) -> String? {
        let text = raw.trimming(.whitespacesAndNewlines)
        guard !text.unicodeScalars.contains(where: isControl) else { throw .invalid(.controlCharacters(field: "search")) }
        return text.isEmpty ? nil : text
    }

    /// Refuses an instant outside the years 0001-9999 in UTC (a local time late on 9999-12-31 west of
    /// Greenwich), which an export could not write so that `import` reads it back.
    private static func storable(_ instant: Int64, _ raw: String) throws(DomainError) {
        guard Timestamp.supportedRange.contains(instant) else {
            throw .invalid(.value(ValueError(kind: .when, input: raw, reason: ParseReason(.outsideYears))))
        }
    }

    /// C0 and C1 control characters (tab and line feed included), which no single-line field may hold.
    public static func isControl(_ scalar: Unicode.Scalar) -> Bool {
        scalar.value < 0x20 || (scalar.value >= 0x7F && scalar.value < 0xA0)
    }

    /// `--effort`: a whole number from 1 to 10.
    public static func effort(_ raw: String) throws(DomainError) -> Int {
        let text = raw.trimming(.whitespaces)
        guard text.utf8.count <= 3, let value = Int(text), effort.contains(value) else {
            throw .invalid(.trainingValue(option: "--effort", value: String(raw.prefix(40)), low: effort.lowerBound, high: effort.upperBound))
        }
        return value
    }
}
