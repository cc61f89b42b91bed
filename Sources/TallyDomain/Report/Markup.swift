
/// Text made safe for HTML and SVG (XML) output. Every string that comes from a user, a file or
/// the log passes through here before it reaches a page: nothing else writes markup from data.
///
/// The result is valid both in HTML and in XML 1.0 (an SVG file), in element content and in a
/// double- or single-quoted attribute value: `&`, `<`, `>`, `"` and `'` become references, so
/// no tag, comment, CDATA end (`]]>`) or attribute can be opened or closed by data. Characters
/// XML forbids or HTML reports as errors (C0 and C1 controls other than tab and line feed,
/// noncharacters) become U+FFFD. Bidirectional embeddings, overrides and isolates (U+202A-U+202E,
/// U+2066-U+2069) are dropped, so a title cannot reverse the text around it; the HTML report
/// also puts every user string in its own `<bdi>`.
public enum Markup {
    /// `text` escaped for element content or a quoted attribute value.
    /// - Complexity: O(n) in the length of `text`.
    public static func escape(_ text: String) -> String {
        var result = ""
        result.unicodeScalars.reserveCapacity(text.unicodeScalars.count)
        for scalar in text.unicodeScalars {
            switch scalar.value {
            case 0x26: result += "&amp;"
            case 0x3C: result += "&lt;"
            case 0x3E: result += "&gt;"
            case 0x22: result += "&quot;"
            case 0x27: result += "&#39;"
            case 0x09, 0x0A: result.unicodeScalars.append(scalar)
            case 0x202A ... 0x202E, 0x2066 ... 0x2069: continue
            default:
                result.unicodeScalars.append(isForbidden(scalar.value) ? "\u{FFFD}" : scalar)
            }
        }
        return result
    }

    /// Controls (but tab and line feed), and the noncharacters U+FDD0-U+FDEF and U+xFFFE/U+xFFFF of every plane.
    static func isForbidden(_ value: UInt32) -> Bool {
        value < 0x20 || (0x7F ... 0x9F).contains(value) || (0xFDD0 ... 0xFDEF).contains(value) || value & 0xFFFE == 0xFFFE
    }

    /// A coordinate or length for an SVG attribute: rounded to a tenth, without a locale, `-0` as
    /// `0`, and `0` for anything not finite (a chart never carries NaN into markup).
    public static func number(_ value: Double) -> String {
        guard value.isFinite, value.magnitude < 1e12 else { return "0" }
        let tenths = Int64((value * 10).rounded())
        if tenths == 0 { return "0" }
        let sign = tenths < 0 ? "-" : ""
        let magnitude = tenths.magnitude
        return magnitude % 10 == 0 ? "\(sign)\(magnitude / 10)" : "\(sign)\(magnitude / 10).\(magnitude % 10)"
    }
}
