import TallyDomain

/// The code points a tag tally keeps as it is may hold, computed from this Swift runtime's Unicode
/// tables: the set S of migration 0013 (`tally_tags_ok`), which writes S out as ranges because
/// PostgreSQL's own `lower()` and `[[:alpha:]]` follow the database's locale.
///
/// A tag is a fixed point of `Validation.tag` exactly when it is 1-32 code points, in NFC, and each
/// of its scalars is in S: a tag scalar (`Validation.isTagScalar`) whose lowercase mapping is itself.
public enum TagScalars {
    /// Whether `scalar` is in S.
    public static func contains(_ scalar: Unicode.Scalar) -> Bool {
        Validation.isTagScalar(scalar) && scalar.properties.lowercaseMapping.unicodeScalars.elementsEqual(CollectionOfOne(scalar))
    }

    /// S as ascending ranges of code points, neither overlapping nor touching.
    /// - Complexity: O(1) after the first call, which looks at every code point.
    public static let ranges = codePoints(where: contains)

    /// The scalars of S that join a `.` before them into one character (Extend, SpacingMark:
    /// `.\u{301}`), so that `ProjectPath`, which splits a project's characters at `.`, does not split there.
    public static let joiningAfterDot = codePoints { contains($0) && ".\(String($0))".count == 1 }

    /// The scalars of S that join the `.` after them into one character (Prepend: U+0D4E).
    public static let joiningBeforeDot = codePoints { contains($0) && "\(String($0)).".count == 1 }

    /// The code points whose scalars satisfy `include`, as ascending ranges neither overlapping nor touching.
    public static func codePoints(where include: (Unicode.Scalar) -> Bool) -> [ClosedRange<UInt32>] {
        var ranges: [ClosedRange<UInt32>] = []
        for code in UInt32(0) ... 0x10FFFF {
            guard let scalar = Unicode.Scalar(code), include(scalar) else { continue }
            if let last = ranges.last, last.upperBound + 1 == code {
                ranges[ranges.count - 1] = last.lowerBound ... code
            } else {
                ranges.append(code ... code)
            }
        }
        return ranges
    }

    /// `ranges` as the lines of a regular expression's bracket that migration 0013 concatenates
    /// (`|| '\u0030-\u0039\u005f...'`), each at most about `width` characters after `indent`: what
    /// a new migration writes when `ranges` no longer matches the last one.
    public static func sqlLines(_ ranges: [ClosedRange<UInt32>], width: Int = 96, indent: String = "    ") -> [String] {
        var lines: [String] = []
        var line = ""
        for range in ranges {
            let item = range.count == 1 ? escape(range.lowerBound) : escape(range.lowerBound) + "-" + escape(range.upperBound)
            if !line.isEmpty, line.count + item.count > width {
                lines.append(indent + "|| '\(line)'")
                line = ""
            }
            line += item
        }
        if !line.isEmpty { lines.append(indent + "|| '\(line)'") }
        return lines
    }

    /// A code point as a regular expression escape: `\u00e9`, `\U0001f600`.
    static func escape(_ code: UInt32) -> String {
        let hex = String(code, radix: 16)
        return code <= 0xFFFF ? "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            : "\\U" + String(repeating: "0", count: 8 - hex.count) + hex
    }

    /// The code points of a bracket expression's body as PostgreSQL reads it: `\uXXXX` and
    /// `\UXXXXXXXX` escapes and single characters, `-` between two of them a range, a `-` first or
    /// last itself. The SQL around it (quotes, `||`, white space, comment lines) is left out first.
    /// Nil when an escape is malformed or a range runs backwards.
    public static func parseBracket(_ sql: String) -> [ClosedRange<UInt32>]? {
        let body = sql.split(separator: "\n", omittingEmptySubsequences: false)
            .map { line in line.trimmingPrefix(while: { $0 == " " }).hasPrefix("--") ? "" : line }
            .joined()
            .replacing("||", with: "")
            .filter { $0 != "'" && $0 != " " && $0 != "\n" }
        var scalars = Array(body.unicodeScalars)[...]
        func next() -> UInt32? {
            guard let first = scalars.popFirst() else { return nil }
            guard first == "\\" else { return first.value }
            guard let kind = scalars.popFirst(), kind == "u" || kind == "U" else { return nil }
            let digits = kind == "u" ? 4 : 8
            guard scalars.count >= digits, let code = UInt32(String(String.UnicodeScalarView(scalars.prefix(digits))), radix: 16) else { return nil }
            scalars = scalars.dropFirst(digits)
            return code
        }
        var ranges: [ClosedRange<UInt32>] = []
        while !scalars.isEmpty {
            guard let low = next() else { return nil }
            if scalars.first == "-", scalars.count > 1 {
                scalars = scalars.dropFirst()
                guard let high = next(), high >= low else { return nil }
                ranges.append(low ... high)
            } else {
                ranges.append(low ... low)
            }
        }
        return merged(ranges)
    }

    /// `ranges` sorted and joined where they overlap or touch.
    public static func merged(_ ranges: [ClosedRange<UInt32>]) -> [ClosedRange<UInt32>] {
        var result: [ClosedRange<UInt32>] = []
        for range in ranges.sorted(by: { $0.lowerBound < $1.lowerBound }) {
            if let last = result.last, range.lowerBound <= last.upperBound + 1 {
                result[result.count - 1] = last.lowerBound ... max(last.upperBound, range.upperBound)
            } else {
                result.append(range)
            }
        }
        return result
    }

    /// The text between the first `from` and the `to` after it, or nil.
    public static func section(of text: String, from: String, to: String) -> String? {
        guard let start = text.range(of: from), let end = text.range(of: to, range: start.upperBound ..< text.endIndex) else { return nil }
        return String(text[start.upperBound ..< end.lowerBound])
    }
}
