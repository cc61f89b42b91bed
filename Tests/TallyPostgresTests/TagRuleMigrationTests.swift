import Foundation
import Testing
import TallyDomain
import TallyEssentials
import TallyPostgres
import TallyTestSupport

/// The server's tag rule (`tally_tag_scalars_ok`, migrations 13 and 14) writes out as ranges the code points this
/// Swift's Unicode tables let a tag hold (`TagScalars`). These tests hold the migration's text to
/// the runtime, and the runtime's `Validation.tag` to the rule the server applies: a tag is kept
/// exactly when it is 1-32 code points, in NFC, each in S. (The server itself is asked in
/// `TagRuleAgreementAttackTests`.)
@Suite("The server's tag rule: the ranges of the migration are this Swift's tag scalars")
struct TagRuleMigrationTests {
    /// The bracket of the tag pattern in `sql` as ranges: `p_tag ~ ('^[` ... `]+$'` since migration 14
    /// (`tally_tag_scalars_ok`), `!~ ('^[` ... `]+$'` inside `tally_tags_ok` before it.
    static func tagClass(_ sql: String) -> [ClosedRange<UInt32>]? {
        (TagScalars.section(of: sql, from: "p_tag ~ ('^[", to: "]+$'") ?? TagScalars.section(of: sql, from: "!~ ('^[", to: "]+$'"))
            .flatMap(TagScalars.parseBracket)
    }

    /// The newest migration that (re)defines the class of tag scalars: the rule a migrated log applies.
    static var newestTagRule: PostgresMigration? {
        PostgresMigration.all.last { $0.sql.contains("FUNCTION tally_tag_scalars_ok(p_tag TEXT)") }
    }

    /// Up to `limit` code points in `a` and not in `b`, as U+XXXX.
    static func missing(_ a: [ClosedRange<UInt32>], from b: [ClosedRange<UInt32>], limit: Int = 8) -> [String] {
        var found: [String] = []
        for range in a {
            for code in range where !b.contains(where: { $0.contains(code) }) {
                found.append("U+" + String(code, radix: 16, uppercase: true))
                if found.count == limit { return found }
            }
        }
        return found
    }

    /// The newest migration that (re)defines the scalars joining a project's dot (`tally_project_dot_joined`).
    static var newestProjectRule: PostgresMigration? {
        PostgresMigration.all.last { $0.sql.contains("FUNCTION tally_project_dot_joined(project TEXT)") }
    }

    @Test("the newest rules hold exactly the ranges TagScalars computes from this Swift runtime; else a new migration is needed")
    func rangesAreTheRuntimes() throws {
        let tags = try #require(Self.newestTagRule)
        let projects = try #require(Self.newestProjectRule)
        #expect(tags.version >= 14 && projects.version >= 14)
        let classes: [(name: String, migration: PostgresMigration, written: [ClosedRange<UInt32>]?, computed: [ClosedRange<UInt32>])] = [
            ("tag scalars (tally_tag_scalars_ok)", tags, Self.tagClass(tags.sql), TagScalars.ranges),
            ("scalars joining a dot before them (tally_project_dot_joined)", projects,
             TagScalars.section(of: projects.sql, from: "project ~ ('\\.[", to: "]')").flatMap(TagScalars.parseBracket), TagScalars.joiningAfterDot),
            ("scalars joining a dot after them (tally_project_dot_joined)", projects,
             TagScalars.section(of: projects.sql, from: "project ~ ('[", to: "]\\.')").flatMap(TagScalars.parseBracket), TagScalars.joiningBeforeDot),
        ]
        for item in classes {
            let written = try #require(item.written, "no class of \(item.name) in migration \(item.migration.version)")
            #expect(!written.isEmpty)
            guard written != item.computed else { continue }
            let file = FileManager.default.temporaryDirectory.appendingPathComponent("tally-tag-ranges-\(item.computed.count).sql")
            try (TagScalars.sqlLines(item.computed).joined(separator: "\n") + "\n").write(to: file, atomically: true, encoding: .utf8)
            Issue.record("""
                This Swift's Unicode tables give other \(item.name) than migration \(item.migration.version) holds: tally takes \
                \(Self.missing(item.computed, from: written)) where the server does not, the server \(Self.missing(written, from: item.computed)) where tally does not. \
                A new PostgreSQL migration must replace the function with the ranges written to \(file.path) (TagScalars.sqlLines).
                """)
        }
        // The joining scalars: combining marks, spacing marks and the few Prepend letters.
        #expect(TagScalars.joiningAfterDot.contains { $0.contains(0x301) } && TagScalars.joiningAfterDot.contains { $0.contains(0x93F) })
        #expect(TagScalars.joiningBeforeDot.contains { $0.contains(0xD4E) } && !TagScalars.joiningBeforeDot.contains { $0.contains(0x61) })
    }

    @Test("the long classes stay out of the checks every todo event runs: one literal each, in functions only a tag or project that is not ASCII reaches")
    func classesApart() throws {
        /// The text of the newest definition of `signature`, from its name to the end of its body.
        func newestBody(_ signature: String) throws -> String {
            let migration = try #require(PostgresMigration.all.last { $0.sql.contains("FUNCTION " + signature) }, "no migration defines \(signature)")
            return try #require(TagScalars.section(of: migration.sql, from: "FUNCTION " + signature, to: "$$;"), "no body of \(signature)")
        }
        // A class joined with `||` is folded by the planner when a session first runs the check, and
        // planned again on its first calls: 4.5 ms of every connection's first todo event (migration 14).
        for signature in ["tally_tag_scalars_ok(p_tag TEXT)", "tally_project_dot_joined(project TEXT)"] {
            let body = try newestBody(signature)
            #expect(body.count > 4_000 && !body.contains("||"), "\(signature): \(body.count) characters, joined with || \(body.contains("||"))")
        }
        for signature in ["tally_tags_ok(p_value JSONB)", "tally_todo_links_problem(p_data JSONB)"] {
            let body = try newestBody(signature)
            #expect(body.count < 2_000 && !body.contains("\\u0"), "\(signature) holds a class again (\(body.count) characters)")
        }
        let tags = try newestBody("tally_tags_ok(p_value JSONB)")
        let ascii = try #require(tags.range(of: "~ '^[-_0-9a-z]+$'")), call = try #require(tags.range(of: "tally_tag_scalars_ok("))
        #expect(ascii.upperBound < call.lowerBound, "the ASCII check answers before the class is looked at")
    }

    @Test("the ranges are many and in order: ASCII letters and digits, Devanagari's marks, CJK, the planes above the first")
    func rangesLookRight() throws {
        let ranges = TagScalars.ranges
        #expect(ranges.count > 1_000)
        #expect(zip(ranges, ranges.dropFirst()).allSatisfy { $0.upperBound + 1 < $1.lowerBound })
        for code: UInt32 in [0x2D, 0x30, 0x39, 0x5F, 0x61, 0x7A, 0x939, 0x93F, 0x902, 0x4E00, 0xAC00, 0x3D2, 0x3C2, 0x131, 0x1D7D8] {
            #expect(ranges.contains { $0.contains(code) }, "U+\(String(code, radix: 16)) is a tag scalar")
        }
        for code: UInt32 in [0x41, 0x5A, 0x2E, 0x20, 0x130, 0x1C5, 0x3A3, 0xA9, 0x1F3C3, 0x212A] {
            #expect(!ranges.contains { $0.contains(code) }, "U+\(String(code, radix: 16)) is not")
        }
    }

    @Test("the rule only grows: every code point the rule of migration 6 took is in S")
    func oldRuleIsInside() throws {
        let old = try #require(PostgresMigration.all.first { $0.version == 6 }.flatMap { Self.tagClass($0.sql) })
        let count = old.reduce(0) { $0 + $1.count }
        // (CJK, its extension A and the Hangul syllables alone are 38,756.)
        #expect(count > 39_000, "the old class parsed to \(count) code points")
        for code: UInt32 in [0x2D, 0x5F, 0x30, 0x39, 0x61, 0x7A, 0xDF, 0x131, 0x17F, 0x3CE, 0x45F, 0x939, 0xD7A3] {
            #expect(old.contains { $0.contains(code) }, "the old class parsed without U+\(String(code, radix: 16))")
        }
        let outside = Self.missing(old, from: TagScalars.ranges)
        #expect(outside.isEmpty, "the old rule took \(outside), which the new one refuses")
    }

    @Test("a one-scalar tag is kept as it is exactly when its scalar is in S and in NFC")
    func singleScalars() {
        var kept = 0
        for code in UInt32(0) ... 0x10FFFF {
            guard let scalar = Unicode.Scalar(code), Validation.isTagScalar(scalar) || scalar.properties.changesWhenLowercased else { continue }
            let tag = String(scalar)
            let tally = (try? Validation.tag(tag)).map { $0.unicodeScalars.elementsEqual(tag.unicodeScalars) } ?? false
            let rule = TagScalars.contains(scalar) && TextForm.normalized(tag).unicodeScalars.elementsEqual(tag.unicodeScalars)
            if tally { kept += 1 }
            if tally != rule {
                Issue.record("U+\(String(code, radix: 16)): Validation.tag keeps it \(tally), the server's rule \(rule)")
                return
            }
        }
        #expect(kept > 100_000)
    }

    /// Tags of 1-34 scalars from every kind the rule tells apart: ASCII, letters with and without
    /// case, titlecase, marks that compose and marks that do not, Hangul syllables and jamo, CJK,
    /// digits of other scripts, symbols, and scalars outside the first plane.
    static let alphabet: [Unicode.Scalar] = [
        "a", "z", "A", "0", "_", "-", ".", " ", "é", "É", "ß", "ẞ", "\u{301}", "\u{308}", "\u{323}", "\u{345}", "σ", "ς", "Σ", "İ", "ı",
        "ǅ", "ǆ", "Ǆ", "ϒ", "ϓ", "ह", "ि", "ं", "द", "ी", "क", "\u{93C}", "\u{958}", "्", "२", "ก", "ั", "ა", "Ა", "Ⴀ", "ⴀ", "ա", "Ա",
        "日", "本", "한", "\u{1100}", "\u{1161}", "\u{11A8}", "٣", "𝟘", "Ⅻ", "ⅻ", "ﬀ", "Ａ", "ａ", "©", "🏃", "𐐨", "𐐀", "\u{E0100}",
        "K", "\u{212A}", "Å", "\u{212B}", "\u{2126}",
    ]

    @Test("generated tags of many scripts: Validation.tag keeps a tag exactly when it is 1-32 code points, in NFC, each in S")
    func generatedTags() {
        var generator = SystemRandomNumberGenerator()
        var kept = 0
        let rounds = AttackScale.count(short: 20_000, full: 500_000)
        for _ in 0 ..< rounds {
            let length = [1, 2, 3, 5, 8, 31, 32, 33, 34].randomElement(using: &generator) ?? 1
            var view = String.UnicodeScalarView()
            for _ in 0 ..< length { view.append(Self.alphabet.randomElement(using: &generator) ?? "a") }
            let tag = String(view)
            let tally = (try? Validation.tag(tag)).map { $0.unicodeScalars.elementsEqual(tag.unicodeScalars) } ?? false
            let rule = (1 ... 32).contains(tag.unicodeScalars.count) && tag.unicodeScalars.allSatisfy(TagScalars.contains)
                && TextForm.normalized(tag).unicodeScalars.elementsEqual(tag.unicodeScalars)
            if tally { kept += 1 }
            #expect(tally == rule, "\(tag.unicodeScalars.map { String($0.value, radix: 16) }): Validation.tag keeps it \(tally), the rule \(rule)")
        }
        // Both answers were exercised.
        #expect(kept > rounds / 50 && kept < rounds, "\(kept) of \(rounds) kept")
    }
}
