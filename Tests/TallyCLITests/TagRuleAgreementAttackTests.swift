import Foundation
import Testing
import TallyDomain
import TallyTestSupport
import TallyEssentials

/// The server's tag rule (migration 13) against `EventRules.checkPayload`, on a real server: for the
/// first and last code point of every range of S and the code points just outside it, for generated
/// tags of many scripts (marks, Hangul, CJK, other digits, cases Unicode treats specially, texts
/// not in NFC, 32 and 33 code points), as tags, as a project's segments (after and before a dot:
/// a mark after it joins it into one character, which `ProjectPath` does not split) and as context names, the
/// server takes the payload exactly when EventRules does. No difference is allowed either way: a
/// stricter server strands the replica that took the tag offline, a looser one lets a writer with
/// raw SQL append an event every replica's `sync` refuses.
@Suite("PostgreSQL: the server takes a tag, a project or a context name exactly when tally does", .enabled(if: PostgresTestServer.isEnabled))
struct TagRuleAgreementAttackTests {
    typealias Case = PostgresPayloadRuleAttackTests.Case
    let rules: PostgresPayloadRuleAttackTests

    init() throws {
        rules = try PostgresPayloadRuleAttackTests()
    }

    /// The three places a name like a tag goes: a todo's tags, a segment of its project, a context's name.
    static func cases(_ label: String, _ name: String) -> [Case] {
        [
            Case(name: "tag \(label)", type: "todo.edited", payload: ["tags": .array([.string(name)])]),
            Case(name: "tag among others \(label)", type: "todo.created", payload: PostgresPayloadRuleAttackTests.with(
                PostgresPayloadRuleAttackTests.todo, "tags", .array(["work", .string(name)]))),
            Case(name: "project segment \(label)", type: "todo.edited", payload: ["project": .string("home.\(name)")]),
            Case(name: "project segment before a dot \(label)", type: "todo.edited", payload: ["project": .string("\(name).home")]),
            Case(name: "context \(label)", type: "filter.saved", payload: PostgresPayloadRuleAttackTests.contexts([name: .object(["expression": "tag:work"])])),
        ]
    }

    /// `text`'s code points repeated from its start until there are `count`.
    static func cycled(_ text: String, _ count: Int) -> String {
        let scalars = Array(text.unicodeScalars)
        return String(String.UnicodeScalarView((0 ..< count).map { scalars[$0 % scalars.count] }))
    }

    static func hex(_ text: String) -> String {
        text.unicodeScalars.map { "U+" + String($0.value, radix: 16, uppercase: true) }.joined(separator: " ")
    }

    /// Asks the server and EventRules about every case; both must give the same answer. Returns how
    /// many of them EventRules accepted.
    @discardableResult
    func expectAgreement(_ cases: [Case], label: String) throws -> Int {
        let database = try rules.migratedDatabase(label)
        let answers = try rules.serverAccepts(cases, database: database)
        #expect(answers.count == cases.count)
        var accepted = 0
        var disagreements: [String] = []
        for (item, server) in zip(cases, answers) {
            let tally = PostgresPayloadRuleAttackTests.eventRulesAccept(item) ?? false
            if tally { accepted += 1 }
            if tally != server { disagreements.append("\(item.name): tally \(tally ? "accepts" : "refuses"), the server \(server ? "accepts" : "refuses")") }
        }
        #expect(disagreements.isEmpty, "\(disagreements.count) of \(cases.count) disagree: \(disagreements.prefix(12).joined(separator: "; "))")
        return accepted
    }

    @Test("the first and last code point of every range of S, and those just outside it")
    func rangeBoundaries() throws {
        var codes: [UInt32] = []
        for range in TagScalars.ranges {
            codes += [range.lowerBound, range.upperBound]
            if range.lowerBound > 1 { codes.append(range.lowerBound - 1) }
            if range.upperBound < 0x10FFFF { codes.append(range.upperBound + 1) }
        }
        let scalars = codes.compactMap(Unicode.Scalar.init)
        // Each as a tag (every one of them), and a sample as a project's segment and as a context.
        var generator = SystemRandomNumberGenerator()
        // (Every scalar that joins a dot is in the sample: they are where a project's rule differs from a tag's.)
        let joining = (TagScalars.joiningAfterDot + TagScalars.joiningBeforeDot).flatMap { [$0.lowerBound, $0.upperBound] }.compactMap(Unicode.Scalar.init)
        let sample = Set(scalars.shuffled(using: &generator).prefix(AttackScale.count(short: 400, full: scalars.count)) + joining)
        var cases: [Case] = []
        for scalar in scalars + joining {
            let name = String(scalar)
            let all = Self.cases(Self.hex(name), name)
            cases += sample.contains(scalar) ? all : [all[0]]
        }
        let accepted = try expectAgreement(cases, label: "tagranges")
        // Both answers were exercised: every range's ends are taken, the code points outside refused.
        #expect(accepted > TagScalars.ranges.count * 2 && accepted < cases.count, "\(accepted) of \(cases.count) accepted")
    }

    /// Named cases: scripts of every kind, and the scalars Unicode treats specially.
    static let named: [(String, String)] = [
        ("Hindi with vowel signs", "हिंदी"), ("Hindi", "काम"), ("Thai", "ภาษาไทย"), ("Georgian", "ქართული"), ("Georgian Mtavruli", "ᲥᲐᲠᲗᲣᲚᲘ"),
        ("Armenian", "հայերեն"), ("Armenian capitals", "ՀԱՅ"), ("Ethiopic", "አማርኛ"), ("Tamil", "தமிழ்"), ("CJK", "日本語"), ("CJK extension B", "𠀀𠀁"),
        ("Hangul", "한국어"), ("Hangul jamo NFC composes", "\u{1100}\u{1161}\u{11A8}"), ("Hangul jamo alone", "\u{1100}"),
        ("Arabic digits", "٣٤"), ("Devanagari digits", "२०२६"), ("mathematical digits", "𝟘𝟙"), ("superscript two", "x²"), ("a fraction", "½"),
        ("Greek", "λόγος"), ("Greek final sigma alone", "ς"), ("Greek capital sigma", "Σ"), ("Greek with tonos decomposed", "λο\u{301}γος"),
        ("capital I with dot", "İ"), ("i with a combining dot", "i\u{307}"), ("dotless i", "ı"), ("titlecase dz", "ǅ"), ("lowercase dz", "ǆ"),
        ("capital DZ", "Ǆ"), ("upsilon with hook", "ϒ"), ("upsilon with hook and acute", "ϓ"), ("upsilon with hook, acute decomposed", "ϒ\u{301}"),
        ("Kelvin sign", "\u{212A}"), ("Angstrom sign", "\u{212B}"), ("Ohm sign", "\u{2126}"), ("capital sharp s", "ẞ"), ("sharp s", "ß"),
        ("ligature ff", "ﬀ"), ("fullwidth a", "ａ"), ("fullwidth A", "Ａ"), ("roman numeral twelve", "Ⅻ"), ("small roman numeral twelve", "ⅻ"),
        ("Devanagari qa (excluded from composition)", "\u{958}"), ("ka and nukta", "\u{915}\u{93C}"), ("a mark alone", "\u{301}"),
        ("marks out of order", "a\u{323}\u{302}"), ("marks in order", "a\u{302}\u{323}"), ("Deseret", "𐐨𐑉"), ("Deseret capital", "𐐀"),
        ("variation selector", "a\u{E0100}"), ("emoji", "🏃"), ("a symbol", "a©"), ("a space", "a b"), ("a dot", "a.b"), ("empty", ""),
        ("32 ASCII", String(repeating: "x", count: 32)), ("33 ASCII", String(repeating: "x", count: 33)),
        ("32 code points of Hindi", Self.cycled("हिंदी", 32)),
        ("33 code points of Hindi", Self.cycled("हिंदी", 33)),
        ("16 letters with a mark each, NFC composes none", String(repeating: "ŋ\u{301}", count: 16)),
        ("17 letters with a mark each", String(repeating: "ŋ\u{301}", count: 17)),
        ("31 and a decomposed é (32 after NFC, but not in NFC)", String(repeating: "x", count: 31) + "e\u{301}"),
        ("32 CJK", String(repeating: "日", count: 32)), ("33 CJK", String(repeating: "日", count: 33)),
        ("32 above the first plane", String(repeating: "𠀀", count: 32)), ("33 above the first plane", String(repeating: "𠀀", count: 33)),
    ]

    /// Scalars drawn for the generated tags: letters, marks and digits of many scripts, with and without case.
    static let alphabet: [Unicode.Scalar] = [
        "a", "z", "A", "Q", "0", "9", "_", "-", ".", " ", "é", "É", "ß", "ẞ", "\u{301}", "\u{308}", "\u{323}", "\u{345}", "σ", "ς", "Σ", "İ",
        "ı", "ǅ", "ǆ", "Ǆ", "ϒ", "ϓ", "ह", "ि", "ं", "द", "ी", "क", "\u{93C}", "\u{958}", "्", "२", "ก", "ั", "ำ", "ა", "Ა", "Ⴀ", "ⴀ", "ա",
        "Ա", "ሀ", "த", "ி", "日", "本", "한", "\u{1100}", "\u{1161}", "\u{11A8}", "٣", "ع", "ש", "𝟘", "Ⅻ", "ⅻ", "½", "²", "ﬀ", "Ａ", "ａ",
        "©", "🏃", "𐐨", "𐐀", "𠀀", "\u{E0100}", "\u{212A}", "Å", "\u{212B}", "\u{2126}", "ŉ", "ǰ", "ΐ",
    ]

    @Test("named cases, and generated tags of 1-34 code points from many scripts, as tags, project segments and context names")
    func generatedTags() throws {
        var cases: [Case] = []
        for (label, name) in Self.named { cases += Self.cases(label, name) }
        var generator = SystemRandomNumberGenerator()
        for index in 0 ..< AttackScale.count(short: 600, full: 30_000) {
            let length = [1, 2, 3, 5, 8, 16, 31, 32, 33, 34].randomElement(using: &generator) ?? 1
            var view = String.UnicodeScalarView()
            for _ in 0 ..< length { view.append(Self.alphabet.randomElement(using: &generator) ?? "a") }
            let name = String(view)
            cases += Self.cases("random \(index) \(Self.hex(name))", name)
        }
        let accepted = try expectAgreement(cases, label: "taggenerated")
        #expect(accepted > cases.count / 20 && accepted < cases.count, "\(accepted) of \(cases.count) accepted")
    }

    @Test("through the insert trigger, by a writer with raw SQL: a tag, a project or a context name tally refuses is refused, one it takes goes in and re-imports")
    func rawInserts() throws {
        let (owner, _, role, database) = try PostgresInsertAttackTests().setUp(grants: PostgresTestServer.Grants.writer, label: "tagraw")
        var previous = try rules.server.psql("SELECT hash FROM events WHERE seq = 2", database: database)
        var seq: Int64 = 3
        func row(_ type: String, _ payload: JSONObject) -> EventEnvelope {
            var event = PostgresInsertAttackTests.validRow(previous: previous)
            event.seq = seq
            event.type = type
            event.schema = EventCatalog.currentSchemas[type] ?? 1
            if type == "filter.saved" { event.stream = "filter:todos" }
            event.data = JSON.object(payload).serialized(.canonical)
            event.hash = EventHash.link(previous: previous, event)
            return event
        }
        let todo = PostgresPayloadRuleAttackTests.todo
        func with(_ key: String, _ value: JSON) -> JSONObject { PostgresPayloadRuleAttackTests.with(todo, key, value) }
        let refused: [(name: String, type: String, payload: JSONObject, field: String)] = [
            ("a tag not in NFC", "todo.created", with("tags", .array(["cafe\u{301}"])), "tags"),
            ("a capital Georgian tag", "todo.created", with("tags", .array(["ᲥᲐᲠᲗᲣᲚᲘ"])), "tags"),
            ("Hangul jamo NFC composes", "todo.created", with("tags", .array(["\u{1100}\u{1161}"])), "tags"),
            ("a project whose dot a mark joins", "todo.created", with("project", "home.\u{301}x"), "project"),
            ("a project whose dot a Prepend letter joins", "todo.created", with("project", "x\u{D4E}.home"), "project"),
            ("a context name not in NFC", "filter.saved", PostgresPayloadRuleAttackTests.contexts(["λο\u{301}γος": .object([:])]), "contexts"),
        ]
        let export = owner.run("export").stdout
        for item in refused {
            #expect(PostgresPayloadRuleAttackTests.eventRulesAccept(Case(name: item.name, type: item.type, payload: item.payload)) == false,
                    "\(item.name): EventRules takes it")
            do {
                try rules.server.psql(PostgresInsertAttackTests.insert(row(item.type, item.payload)), database: database, user: role.name, password: role.password)
                Issue.record("\(item.name): the server accepted it")
            } catch {
                #expect("\(error)".contains("field ''\(item.field)''") || "\(error)".contains("field '\(item.field)'"), "\(item.name): \(error)")
            }
        }
        #expect(owner.run("export").stdout == export)
        // Tags, a project and a context tally takes in other scripts: taken, and the log exports and re-imports.
        let taken: [(type: String, payload: JSONObject)] = [
            ("todo.created", with("tags", .array(["हिंदी", "ქართული", "ϒ", "२०२६"]))),
            ("todo.created", with("project", "हिंदी.አማርኛ")),
            ("filter.saved", PostgresPayloadRuleAttackTests.contexts(["काम": .object(["expression": "tag:हिंदी"])])),
        ]
        for item in taken {
            let event = row(item.type, item.payload)
            try rules.server.psql(PostgresInsertAttackTests.insert(event), database: database, user: role.name, password: role.password)
            previous = event.hash
            seq += 1
        }
        #expect(owner.run("verify").status == 0)
        let full = owner.run("export")
        #expect(full.status == 0 && full.stdout.split(separator: "\n").count == 2 + taken.count)
        let replica = TallyRunner()
        let file = replica.directory.path("export.jsonl")
        try full.stdout.write(toFile: file, atomically: true, encoding: .utf8)
        let imported = replica.run("import", file)
        #expect(imported.status == 0, "\(imported.stderr)")
        #expect(replica.run("export").stdout == full.stdout)
    }
}
