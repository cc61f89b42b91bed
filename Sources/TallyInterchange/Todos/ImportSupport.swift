#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import TallyEssentials
import TallyDomain

/// A foreign file that cannot be read at all (exit 65): where, and why.
public struct ImportFormatError: Error, Sendable, Equatable {
    public var location: ImportSource
    /// The JSON parser's explanation, in English.
    public var reason: String
    /// The file, once the caller knows it.
    public var path: String?
    /// The file is of another format than the one asked for: which one.
    public var otherFormat: FormatSniffer.Format?

    public init(location: ImportSource, reason: String, path: String? = nil, otherFormat: FormatSniffer.Format? = nil) {
        self.location = location
        self.reason = reason
        self.path = path
        self.otherFormat = otherFormat
    }
}

/// Helpers the importers share: tags from foreign names, strict UTF-8 lines, making items fit.
public enum ImportSupport {
    /// A foreign project or tag as a tally tag: NFC, lowercased, characters other than letters, digits,
    /// `_` and `-` become `-`. Nil when nothing but `-` is left or it is longer than a tag may be.
    public static func tag(_ raw: String) -> String? {
        let folded = TextForm.normalized(raw.lowercased())
        var tag = ""
        for scalar in folded.unicodeScalars {
            tag.unicodeScalars.append(Validation.isTagScalar(scalar) ? scalar : "-")
        }
        guard !tag.allSatisfy({ $0 == "-" }), Validation.length(tag) <= Validation.maxTagLength else { return nil }
        return tag
    }

    /// The text of `bytes` as UTF-8, without a byte-order mark; throws naming the first bad line.
    public static func text(_ bytes: [UInt8]) throws(ImportFormatError) -> String {
        var body = bytes[...]
        if body.starts(with: [0xEF, 0xBB, 0xBF]) { body = body.dropFirst(3) }
        // Decoding replaces invalid sequences with U+FFFD, so only valid UTF-8 survives the round trip.
        // (String(validating:as:) would say it directly but needs macOS 15.)
        let text = String(decoding: body, as: UTF8.self)
        guard !text.utf8.elementsEqual(body) else { return text }
        var number = 1
        var previous: UInt8 = 0
        for (decoded, original) in zip(text.utf8, body) {
            if decoded != original { break }
            if original == 0x0D || (original == 0x0A && previous != 0x0D) { number += 1 }
            previous = original
        }
        throw ImportFormatError(location: .line(number), reason: "not valid UTF-8 text")
    }

    /// The lines of `bytes` (LF, CRLF or CR alone), after a byte-order mark, checked to be UTF-8.
    public static func lines(_ bytes: [UInt8]) throws(ImportFormatError) -> [String] {
        let text = try text(bytes)
        var lines: [String] = []
        var current = ""
        var afterCR = false
        for scalar in text.unicodeScalars {
            if scalar == "\n", afterCR {
                afterCR = false
                continue
            }
            afterCR = scalar == "\r"
            if scalar == "\n" || scalar == "\r" {
                lines.append(current)
                current = ""
            } else {
                current.unicodeScalars.append(scalar)
            }
        }
        lines.append(current)
        if lines.last == "" { lines.removeLast() }
        return lines
    }

    /// The fields checked against tally's rules, as the decider will check them.
    public static func validated(_ fields: TodoFields) throws(DomainError) -> TodoFields {
        var fields = fields
        fields.title = try Validation.title(fields.title)
        fields.tags = try Validation.tags(fields.tags)
        fields.note = try fields.note.flatMap { raw throws(DomainError) in try Validation.note(raw) }
        return fields
    }

    /// A day as a due date, or an instant that falls on local midnight read back as that day.
    public static func due(instant: Int64, zone: Zone) -> Due {
        let date = LocalDate.containing(instant, in: zone)
        return date.startInstant(in: zone) == instant ? .date(date) : .instant(instant)
    }
}

