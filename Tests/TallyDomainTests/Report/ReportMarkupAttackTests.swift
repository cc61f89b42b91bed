import Foundation
import Testing
@testable import TallyDomain
import TallyTestSupport
@testable import TallyInterchange

/// Hostile text on its way into a report page or SVG: nothing that opens or closes markup, no
/// character XML forbids, no bidirectional override survives `Markup.escape`, and everything
/// else comes back unchanged when the five references are read back.
@Suite("Report markup escaping under hostile text")
struct ReportMarkupAttackTests {
    static let hostile = [
        "<script>alert(1)</script>", "]]><script>alert(1)</script><![CDATA[", "\" onload=\"alert(1)", "' onmouseover='alert(1)",
        "</title><script>x</script>", "<!-- -->", "&lt;already&gt; &amp;", "<svg/onload=alert(1)>", "javascript:alert(1)",
        "a\0b\u{1B}[2Jc\u{7}d\u{8}e\u{B}f\u{C}g\r\nh", "\u{85}\u{9B}\u{9D}\u{7F}", "evil\u{202E}gpj.exe", "\u{2066}isolated\u{2069}",
        String(String.UnicodeScalarView([0xFFFE, 0xFFFF, 0xFDD0, 0x1FFFF, 0x10FFFE].map { Unicode.Scalar($0)! })), "Běh 🏃 العربية עברית", "<style>body{display:none}</style>", "url(#x)",
    ]

    /// Reads the five references `escape` writes back to characters (the inverse on its output).
    static func unescape(_ text: String) -> String {
        text.replacingOccurrences(of: "&lt;", with: "<").replacingOccurrences(of: "&gt;", with: ">")
            .replacingOccurrences(of: "&quot;", with: "\"").replacingOccurrences(of: "&#39;", with: "'")
            .replacingOccurrences(of: "&amp;", with: "&")
    }

    /// What is not allowed to reach a page: markup characters, a `&` that starts anything but one of
    /// the five references, forbidden code points and the bidirectional controls.
    static func problems(_ escaped: String) -> [String] {
        var found: [String] = []
        for scalar in escaped.unicodeScalars {
            let value = scalar.value
            if "<>\"'".unicodeScalars.contains(scalar) { found.append("markup \(scalar)") }
            if value < 0x20 && value != 0x09 && value != 0x0A { found.append("control \(value)") }
            if (0x7F ... 0x9F).contains(value) || (0xFDD0 ... 0xFDEF).contains(value) || value & 0xFFFE == 0xFFFE { found.append("forbidden \(value)") }
            if (0x202A ... 0x202E).contains(value) || (0x2066 ... 0x2069).contains(value) { found.append("bidi \(value)") }
        }
        var rest = Substring(escaped)
        while let index = rest.firstIndex(of: "&") {
            let tail = rest[index...]
            if !["&amp;", "&lt;", "&gt;", "&quot;", "&#39;"].contains(where: { tail.hasPrefix($0) }) { found.append("bare &") }
            rest = rest[rest.index(after: index)...]
        }
        return found
    }

    /// `text` as `escape` should keep it: forbidden code points as U+FFFD, bidi controls gone.
    static func expected(_ text: String) -> String {
        var result = ""
        for scalar in text.unicodeScalars {
            if (0x202A ... 0x202E).contains(scalar.value) || (0x2066 ... 0x2069).contains(scalar.value) { continue }
            result.unicodeScalars.append(Markup.isForbidden(scalar.value) && scalar != "\t" && scalar != "\n" ? "\u{FFFD}" : scalar)
        }
        return result
    }

    @Test("the hand-picked hostile strings come out inert and otherwise unchanged")
    func handPicked() {
        for text in Self.hostile {
            let escaped = Markup.escape(text)
            #expect(Self.problems(escaped).isEmpty, "\(escaped.debugDescription): \(Self.problems(escaped))")
            #expect(Self.unescape(escaped) == Self.expected(text))
        }
        #expect(Markup.escape("<a href=\"x\">'&'</a>") == "&lt;a href=&quot;x&quot;&gt;&#39;&amp;&#39;&lt;/a&gt;")
        #expect(Markup.escape("]]>") == "]]&gt;")
        #expect(Markup.escape("evil\u{202E}gpj.exe") == "evilgpj.exe")
        #expect(Markup.escape("a\0b") == "a\u{FFFD}b")
        #expect(Markup.escape("tab\tand\nline") == "tab\tand\nline")
    }

    @Test("random strings of markup, controls, bidi and astral characters never leave anything live")
    func random() {
        var generator = SystemRandomNumberGenerator()
        let alphabet: [UInt32] = [0x3C, 0x3E, 0x26, 0x22, 0x27, 0x5D, 0x2F, 0x3D, 0x61, 0x20, 0x00, 0x09, 0x0A, 0x0D, 0x1B, 0x7F, 0x85, 0x9F,
                                  0x202A, 0x202E, 0x2066, 0x2069, 0x200E, 0xFDD0, 0xFFFE, 0xFFFF, 0x1F3C3, 0x10FFFF, 0x3B1, 0x5D0]
        for _ in 0..<AttackScale.count(short: 2_000, full: 200_000) {
            var text = ""
            for _ in 0..<Int.random(in: 0...40, using: &generator) {
                text.unicodeScalars.append(Unicode.Scalar(alphabet.randomElement(using: &generator)!)!)
            }
            let escaped = Markup.escape(text)
            #expect(Self.problems(escaped).isEmpty, "\(text.debugDescription) → \(escaped.debugDescription)")
            #expect(Self.unescape(escaped) == Self.expected(text), "\(text.debugDescription)")
        }
    }

    @Test("escaped text parses as the same text in XML, element content and attributes alike")
    func xmlRoundTrip() throws {
        for text in Self.hostile {
            let escaped = Markup.escape(text)
            let document = "<r a=\"\(escaped)\" b='\(escaped)'>\(escaped)</r>"
            let parsed = try #require(XMLText.parse(document), "\(document.debugDescription)")
            let want = Self.expected(text)
            #expect(parsed.text == want)
            #expect(parsed.attributes == [want, want])
        }
    }
}

/// The element content and attributes of a one-element XML document, read with tally's own XML
/// reader (the one the GPX and TCX files go through).
enum XMLText {
    static func parse(_ document: String) -> (text: String, attributes: [String])? {
        var text = ""
        var attributes: [String] = []
        do {
            try XMLReader.parse(Array(document.utf8)) { event in
                switch event {
                case .start(_, let values): attributes = ["a", "b"].compactMap { values[$0] }
                case .text(let chunk): text += chunk
                default: break
                }
            }
        } catch {
            return nil
        }
        return (text, attributes)
    }
}
