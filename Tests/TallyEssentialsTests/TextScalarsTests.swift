import Foundation
import Testing
@testable import TallyDomain
@testable import TallyEssentials

/// The standard-library replacements of Foundation's text operations, checked against Foundation itself.
@Suite("text without Foundation: trimming, NFC, accent folding, paths")
struct TextScalarsTests {
    static let samples = [
        "", " ", "plain", "  both  ", "\t tab and space \t", "\nnew\r\nlines\n", "\u{00A0}no-break\u{00A0}",
        "\u{2003}em space\u{3000}", "\u{2028}line separator\u{2029}", "\u{85}next line\u{85}", " \u{301}combining",
        "café ", " Příliš žluťoučký kůň ", "\u{200B}zero width\u{200B}", "\u{FEFF}bom", "\u{000B}\u{000C}vt ff",
    ]

    @Test(arguments: samples)
    func trimsLikeFoundation(_ text: String) {
        #expect(text.trimming(.whitespaces).unicodeScalars.elementsEqual(text.trimmingCharacters(in: .whitespaces).unicodeScalars))
        #expect(text.trimming(.whitespacesAndNewlines).unicodeScalars.elementsEqual(text.trimmingCharacters(in: .whitespacesAndNewlines).unicodeScalars))
        #expect(Substring(text).trimming(.whitespaces) == text.trimmingCharacters(in: .whitespaces))
    }

    @Test func classifiesEveryScalarOfTheFirstPlanesLikeCharacterSet() {
        var mismatches: [UInt32] = []
        for value in UInt32(0)...0x2FFFF {
            guard let scalar = Unicode.Scalar(value) else { continue }
            if TextScalars.isSpace(scalar) != CharacterSet.whitespaces.contains(scalar)
                || TextScalars.isSpaceOrNewline(scalar) != CharacterSet.whitespacesAndNewlines.contains(scalar)
                || TextScalars.isLetter(scalar) != CharacterSet.letters.contains(scalar)
                || TextScalars.isLetterOrDigit(scalar) != CharacterSet.alphanumerics.contains(scalar) {
                mismatches.append(value)
            }
        }
        // Foundation's letter tables stop at an older Unicode version: it only lacks letters assigned since 9.0.
        let old = mismatches.filter { value in
            guard let age = Unicode.Scalar(value)?.properties.age else { return true }
            return age.major < 9
        }
        #expect(old.isEmpty, "\(old.prefix(20).map { String($0, radix: 16) })")
    }

    @Test(arguments: ["Cafe\u{301}", "Café", "Ångström", "A\u{30A}ngstro\u{308}m", "q\u{307}\u{323}", "\u{1E9B}\u{323}", "한국어", "\u{1100}\u{1161}\u{11A8}", "plain ascii", "Příliš žluťoučký kůň"])
    func nfcMatchesFoundation(_ text: String) {
        #expect(TextScalars.nfc(text).unicodeScalars.elementsEqual(text.precomposedStringWithCanonicalMapping.unicodeScalars))
    }

    @Test func foldsEveryLatinLetterAsCanonicalDecompositionDoes() {
        var checked = 0
        for value in Array(0xC0...0x24F) + Array(0x1E00...0x1EFF) {
            let text = String(Unicode.Scalar(UInt32(value))!)
            let foundation = String(String.UnicodeScalarView(text.decomposedStringWithCanonicalMapping.unicodeScalars.filter { !(0x300...0x36F).contains($0.value) }))
            #expect(TextScalars.withoutDiacritics(text) == foundation, "U+\(String(value, radix: 16))")
            checked += 1
        }
        #expect(checked == 656)
    }

    @Test func foldsWeekdayNames() {
        #expect(NaturalWhen.fold("Pátek") == "patek")
        #expect(NaturalWhen.fold("pa\u{301}tek ") == "patek")
        #expect(NaturalWhen.fold("ČTVRTEK") == "ctvrtek")
        #expect(NaturalWhen.fold("Úterý") == "utery")
        #expect(NaturalWhen.fold("Straße") == "straße")
    }

    @Test func replacesBytesNotCharacters() {
        #expect("a\"b\"".replacingAll("\"", with: "\"\"") == "a\"\"b\"\"")
        // A quote carrying a combining mark is one character, but still a quote to a CSV reader.
        #expect("\"\u{301}".replacingAll("\"", with: "'") == "'\u{301}")
        #expect("{x} and {x}".replacingAll("{x}", with: "y") == "y and y")
        #expect("abc".replacingAll("", with: "z") == "abc")
        #expect("aaa".replacingAll("aa", with: "b") == "ba")
    }

    /// What `NSString`'s path methods answer (documented behaviour; Linux Foundation crashes on some of these).
    @Test(arguments: [
        ("/a/b/c", "/a/b", "c", "/a/b/c/z.gpx"),
        ("/a/b/", "/a", "b", "/a/b/z.gpx"),
        ("a", "", "a", "a/z.gpx"),
        ("/a", "/", "a", "/a/z.gpx"),
        ("/", "/", "/", "/z.gpx"),
        ("", "", "", "z.gpx"),
        ("a/b", "a", "b", "a/b/z.gpx"),
        ("//a//b", "/a", "b", "/a/b/z.gpx"),
        ("/tmp/./x/y", "/tmp/./x", "y", "/tmp/./x/y/z.gpx"),
        ("a/..", "a", "..", "a/../z.gpx"),
    ])
    func pathsLikeNSString(_ path: String, _ parent: String, _ last: String, _ appended: String) {
        #expect(PathText.deletingLastComponent(path) == parent)
        #expect(PathText.lastComponent(path) == last)
        #expect(PathText.appending(path, "z.gpx") == appended)
    }

    @Test func standardizedPaths() {
        #expect(PathText.standardized("/a/./b/../c", home: nil) == "/a/c")
        #expect(PathText.standardized("/../x", home: nil) == "/x")
        #expect(PathText.standardized("~/notes.db", home: "/home/me") == "/home/me/notes.db")
        #expect(PathText.standardized("rel/./x", home: nil) == "rel/x")
    }

    @Test func caseInsensitiveOrder() {
        #expect(TextScalars.compareIgnoringCase("apple", "Banana") == .orderedAscending)
        #expect(TextScalars.compareIgnoringCase("ÉCLAIR", "e\u{301}clair") == .orderedSame)
        #expect(TextScalars.compareIgnoringCase("b", "A") == .orderedDescending)
    }
}
