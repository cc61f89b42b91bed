import Foundation
import Testing
import TallyDomain
import TallyTestSupport
@testable import TallyEssentials

/// The server's payload rules (`tally_payload_problem` of migrations 0006, 0010 and 0015, run by the insert trigger)
/// against `EventRules.checkPayload`: for each rule, payloads just inside and just outside each limit.
/// The server never accepts what EventRules refuses; it refuses what EventRules accepts only in the
/// documented differences, each case of which is named here (none since migration 13 made the tag
/// rule tally's: `TagRuleAgreementAttackTests`).
/// Lengths agree exactly: both count code points (after NFC where the field is kept in NFC), checked
/// on generated texts of characters of several code points just inside and outside every limit. And a writer with raw SQL cannot
/// append, well linked, an event every replica's `sync` would refuse.
@Suite("PostgreSQL: the server refuses what EventRules refuses, for every event type it knows", .enabled(if: PostgresTestServer.isEnabled))
struct PostgresPayloadRuleAttackTests {
    let server: PostgresTestServer

    init() throws {
        server = try PostgresTestServer.shared()
    }

    /// The blocks of letters without case the server's tag rule of migration 0006 took whole.
    static let uncasedBlocks: [ClosedRange<Int>] = [
        0x5D0 ... 0x5EA, 0x620 ... 0x64A, 0x904 ... 0x939, 0xE01 ... 0xE30, 0xE32 ... 0xE33, 0xE40 ... 0xE46, 0x3041 ... 0x3096, 0x30A1 ... 0x30FA,
        0x30FC ... 0x30FC, 0x3400 ... 0x4DBF, 0x4E00 ... 0x9FFF, 0xAC00 ... 0xD7A3,
    ]

    @Test("every code point of the uncased blocks the server takes whole is a tag tally keeps as it is")
    func uncasedBlocksAreTags() {
        for block in Self.uncasedBlocks {
            for code in block {
                guard let scalar = Unicode.Scalar(code) else { continue }
                let tag = String(scalar)
                #expect((try? Validation.tag(tag)) == tag, "U+\(String(code, radix: 16)) is not a tag tally keeps")
            }
        }
    }

    /// One payload; `stricter` marks a documented difference (EventRules accepts, the server refuses).
    struct Case {
        var name: String
        var type: String
        var payload: JSONObject
        var stricter = false
    }

    static let uuid = "0b5f7c9e-3a1d-4e2f-8a6b-9c0d1e2f3a4b"
    static let todo: JSONObject = ["title": "Task", "tags": .array([]), "priority": .null, "due": .null, "note": .null, "wait": .null, "series": .null]
    static let track: JSONObject = [
        "sha256": .string(String(repeating: "a", count: 64)), "format": "gpx", "movingSeconds": 1700, "elevationGainMeters": .double(12.5),
        "bestEfforts": .array([.object(["meters": 1000, "seconds": .double(300)])]),
    ]
    static let record: JSONObject = [
        "name": "Run", "category": "run", "durationSeconds": 1800, "distanceMeters": .double(5000), "place": .null,
        "date": "2026-11-20T07:00:00Z", "note": .null, "source": "local", "track": .null,
    ]

    static func with(_ base: JSONObject, _ key: String, _ value: JSON) -> JSONObject {
        var object = base
        object[key] = value
        return object
    }

    static func strings(_ values: [String]) -> JSON { .array(values.map { .string($0) }) }

    /// Every rule, just inside and just outside its limits.
    static func cases() -> [Case] {
        var cases: [Case] = []
        func add(_ name: String, _ type: String, _ payload: JSONObject, stricter: Bool = false) {
            cases.append(Case(name: name, type: type, payload: payload, stricter: stricter))
        }
        let x = { (count: Int) in String(repeating: "x", count: count) }
        // Texts: title (NFC, 500), note (NFC, 10,000, newline and tab allowed), name and place (200).
        let texts: [(key: String, max: Int, types: [(String, JSONObject)], note: Bool)] = [
            ("title", 500, [("todo.created", todo), ("todo.edited", [:]), ("series.changed", [:])], false),
            ("note", 10_000, [("todo.created", todo), ("todo.edited", [:]), ("record.logged", record), ("record.edited", [:])], true),
            ("name", 200, [("record.logged", record), ("record.edited", [:])], false),
            ("place", 200, [("record.logged", record), ("record.edited", [:])], false),
        ]
        for text in texts {
            for (type, base) in text.types {
                let values: [(String, String, Bool)] = [
                    ("1 character", "x", false), ("\(text.max) characters", x(text.max), false), ("\(text.max + 1) characters", x(text.max + 1), false),
                    ("\(text.max) characters between spaces", "  \t" + x(text.max) + " \u{3000}\u{200B}\n", false),
                    ("\(text.max - 1) and a composed é", x(text.max - 1) + "é", false),
                    ("\(text.max) and a composed é", x(text.max) + "é", false),
                    ("\(text.max - 1) and an é of two code points (one after NFC)", x(text.max - 1) + "e\u{301}", false),
                    ("\(text.max - 1) characters of two code points each after NFC", String(repeating: "\u{1EA1}\u{308}", count: text.max - 1), false),
                    ("\(text.max / 2) characters of two code points each after NFC", String(repeating: "\u{1EA1}\u{308}", count: text.max / 2), false),
                    ("empty", "", false), ("blank", "  \u{3000} ", false), ("only U+200B", "\u{200B}", false),
                    ("ESC inside", "a\u{1B}b", false), ("tab inside", "a\tb", false), ("newline inside", "a\nb", false),
                    ("CR inside", "a\rb", false), ("U+0085 inside", "a\u{85}b", false), ("DEL inside", "a\u{7F}b", false),
                    ("U+00A0 inside", "a\u{A0}b", false), ("emoji", "👩‍👩‍👧 plan", true),
                ]
                for (label, value, stricter) in values {
                    // The family emoji is one character of five code points: stricter only where it matters (never here, under 500).
                    add("\(type) \(text.key): \(label)", type, with(base, text.key, .string(value)), stricter: stricter && label != "emoji")
                }
                add("\(type) \(text.key): a number", type, with(base, text.key, 5))
                if text.key == "note" || text.key == "place" { add("\(type) \(text.key): null", type, with(base, text.key, .null)) }
            }
        }
        // Tags.
        for (type, base) in [("todo.created", todo), ("todo.edited", [:] as JSONObject), ("series.changed", [:] as JSONObject)] {
            let tagCases: [(String, [String], Bool)] = [
                ("none", [], false), ("20 tags", (0 ..< 20).map { "t\($0)" }, false), ("21 tags", (0 ..< 21).map { "t\($0)" }, false),
                ("a tag of 32", [x(32)], false), ("a tag of 33", [x(33)], false), ("an empty tag", [""], false),
                ("capitals", ["Work"], false), ("a space", ["a b"], false), ("a dot", ["a.b"], false), ("_ and -", ["a_b-c"], false),
                ("Czech", ["práce", "účet", "žďár"], false), ("German", ["straße"], false), ("Greek", ["ελληνικά"], false),
                ("Cyrillic", ["работа"], false), ("Czech capitals", ["Práce"], false), ("decomposed é", ["e\u{301}"], false),
                ("Japanese", ["日本"], false), ("Korean", ["한국"], false), ("Hebrew", ["עברית"], false), ("Arabic", ["عمل"], false), ("Thai", ["งาน"], false), ("Hindi with a vowel sign", ["काम"], false), ("Arabic digits", ["٣"], false), ("a symbol", ["a©"], false), ("an emoji", ["🏃"], false),
                ("dotless i", ["ı"], false), ("capital with dot", ["İ"], false), ("Latin-1 capital", ["À"], false), ("×", ["×"], false),
                ("÷", ["÷"], false), ("ſ", ["ſ"], false), ("ŉ", ["ŉ"], false), ("31 and é", [x(31) + "é"], false),
                ("32 and é", [x(32) + "é"], false),
            ]
            for (label, tags, stricter) in tagCases { add("\(type) tags: \(label)", type, with(base, "tags", strings(tags)), stricter: stricter) }
            add("\(type) tags: a number in the list", type, with(base, "tags", .array([5])))
        }
        // Every code point the server's tag rule lets in, one by one: EventRules must accept each.
        let letters = Array(0xDF ... 0x17F) + Array(0x3AC ... 0x3CE) + Array(0x430 ... 0x45F)
            + Self.uncasedBlocks.flatMap { block in [block.lowerBound, (block.lowerBound + block.upperBound) / 2, block.upperBound] }
        for code in letters {
            guard let scalar = Unicode.Scalar(code) else { continue }
            add("tag U+\(String(code, radix: 16))", "todo.edited", ["tags": strings([String(scalar)])])
        }
        // Dates and instants.
        let whens: [(String, String, Bool, Bool)] = [
            ("first day", "0001-01-01", true, false), ("last day", "9999-12-31", true, false), ("year 0", "0000-12-31", true, false),
            ("year 10000", "10000-01-01", true, false), ("first instant", "0001-01-01T00:00:00Z", false, false),
            ("last instant", "9999-12-31T23:59:59.999Z", false, false), ("before year 1", "0000-12-31T23:59:59.999Z", false, false),
            ("after 9999", "10000-01-01T00:00:00Z", false, false), ("an offset", "2026-01-01T00:00:00+01:00", false, false),
            ("an offset of +HHMM", "2026-01-01T00:00:00+0130", false, false), ("an offset of -HH", "2026-01-01T00:00:00-05", false, false),
            ("a space and z", "2026-01-01 08:30z", false, false), ("a lowercase t, no seconds", "2026-01-01t08:30Z", false, false),
            ("one digit after the second", "2026-01-01T08:30:00.5Z", false, false),
            ("four digits after the second", "2026-01-01T08:30:00.1234Z", false, false),
            ("an offset before year 1", "0001-01-01T00:30:00+01:00", false, false),
            ("an offset on the first day, still in year 1", "0001-01-01T05:00:00+01:00", false, false),
            ("a zero offset on the first day", "0001-01-01T00:00:00+00:00", false, false),
            ("an offset after 9999", "9999-12-31T23:30:00-01:00", false, false),
            ("an offset on the last day, still in 9999", "9999-12-31T20:00:00-01:00", false, false),
            ("a day before the last, with an offset", "9999-12-30T23:30:00-01:00", false, false),
            ("negative year", "-0001-01-01T00:00:00Z", false, false), ("no zone", "2026-01-01T08:30:00", false, false),
        ]
        for (label, value, dateOnly, stricter) in whens {
            for key in ["due", "wait"] {
                add("todo.created \(key): \(label)", "todo.created", with(todo, key, .string(value)), stricter: stricter)
                add("todo.edited \(key): \(label)", "todo.edited", [key: .string(value)], stricter: stricter)
            }
            // A record's date is an instant only: a day is not a record date.
            if !dateOnly {
                add("record.logged date: \(label)", "record.logged", with(record, "date", .string(value)), stricter: stricter)
                add("record.edited date: \(label)", "record.edited", ["date": .string(value)], stricter: stricter)
            }
        }
        add("todo.created due: null", "todo.created", with(todo, "due", .null))
        add("todo.created series: a UUID", "todo.created", with(todo, "series", .string(uuid)))
        add("todo.created series: capitals", "todo.created", with(todo, "series", .string(uuid.uppercased())))
        add("todo.edited series: not a UUID", "todo.edited", ["series": "series-1"])
        // Records.
        let numbers: [(String, [JSON])] = [
            ("durationSeconds", [0, 1, 604_800, 604_801, -5, .double(1.5), .double(1800), 5_000_000_000, "1800"]),
            ("distanceMeters", [.double(-0.1), 0, .double(-0.0), 1_000_000, .double(1_000_000.5), .null, "5"]),
        ]
        for (key, values) in numbers {
            for value in values {
                add("record.logged \(key): \(value.serialized())", "record.logged", with(record, key, value))
                add("record.edited \(key): \(value.serialized())", "record.edited", [key: value])
            }
        }
        for category in ["run", "Run", "r", x(32), x(33), "1run", "-run", "run-2", "run_2", "běh", ""] {
            add("record.logged category: \(category)", "record.logged", with(record, "category", .string(category)))
            add("record.edited category: \(category)", "record.edited", ["category": .string(category)])
        }
        // Tracks.
        let trackValues: [(String, [JSON])] = [
            ("sha256", [.string(String(repeating: "a", count: 63)), .string(String(repeating: "A", count: 64)), .string(String(repeating: "f", count: 64)),
                        .string(String(repeating: "g", count: 64))]),
            ("format", ["gpx", "tcx", "fit", "GPX", "kml"]),
            ("movingSeconds", [0, -1, 604_800, 604_801, .double(0.5)]),
            ("elevationGainMeters", [0, .double(-0.5), 100_000, .double(100_000.1), .null]),
            ("bestEfforts", [
                .array([]), .array(Array(repeating: .object(["meters": 1000, "seconds": .double(300)]), count: 32)),
                .array(Array(repeating: .object(["meters": 1000, "seconds": .double(300)]), count: 33)),
                .array([.object(["meters": 0, "seconds": .double(300)])]), .array([.object(["meters": 1_000_000, "seconds": .double(300)])]),
                .array([.object(["meters": 1_000_001, "seconds": .double(300)])]), .array([.object(["meters": 1000, "seconds": 0])]),
                .array([.object(["meters": 1000, "seconds": .double(0.001)])]), .array([.object(["meters": 1000, "seconds": 604_800])]),
                .array([.object(["meters": 1000, "seconds": .double(604_800.1)])]), .array([.object(["meters": .double(1.5), "seconds": 1])]),
            ]),
        ]
        for (key, values) in trackValues {
            for value in values {
                add("record.logged track.\(key): \(value.serialized().prefix(60))", "record.logged", with(record, "track", .object(with(track, key, value))))
            }
        }
        add("record.logged track: a good one", "record.logged", with(record, "track", .object(track)))
        // Since migration 0010: the fields and types added after 0006.
        let uuids = (0 ..< 51).map { String(format: "%08x-0000-4000-8000-%012x", $0, $0) }
        for type in ["todo.created", "todo.edited"] {
            let base: JSONObject = type == "todo.created" ? todo : [:]
            for project in ["home", "home.garden", "a.b.c.d.e.f.g.h", "a.b.c.d.e.f.g.h.i", "Home", "home..garden", ".home", "home.",
                            "h\(x(32))", "h\(x(33))", String(repeating: "abcdefghi.", count: 10) + "x", "zahrada.č", "home garden"] {
                add("\(type) project: \(project.prefix(40))", type, with(base, "project", .string(project)))
            }
            add("\(type) project: null", type, with(base, "project", .null))
            add("\(type) project: a number", type, with(base, "project", 5))
            for (name, after) in [("one", [uuid]), ("fifty", Array(uuids.prefix(50))), ("fifty-one", uuids), ("twice", [uuid, uuid]),
                                  ("capitals", [uuid.uppercased()]), ("not a UUID", ["todo-1"])] {
                add("\(type) after: \(name)", type, with(base, "after", strings(after)))
            }
            add("\(type) after: a number inside", type, with(base, "after", .array([1])))
        }
        // An effort is given with the record or after it (record edit --effort, null: --no-effort), by the same rule.
        let efforts: [JSON] = [1, 10, 0, 11, -1, .double(5.5), .double(7), .double(10.000001), .int(Int64.max), .null, "5", true, .array([5]), .object(["value": 5])]
        for effort in efforts {
            add("record.logged effort: \(effort.serialized())", "record.logged", with(record, "effort", effort))
            add("record.edited effort: \(effort.serialized())", "record.edited", ["effort": effort])
            add("record.edited effort with a note: \(effort.serialized())", "record.edited", ["note": "tired", "effort": effort])
        }
        for analysis: JSON in [1, 2, 1000, 0, 1001, .double(1.5)] {
            add("record.logged track.analysis: \(analysis.serialized())", "record.logged", with(record, "track", .object(with(track, "analysis", analysis))))
        }
        let sensorValues: [(String, [JSON])] = [
            ("averageHeartRate", [25, 250, 24, 251, .null]), ("maxHeartRate", [25, 251]), ("averageCadence", [0, 250, -1, 251]),
            ("averagePower", [0, 2500, 2501]), ("normalizedPower", [2500, 2501, .double(100.5)]),
        ]
        for (key, values) in sensorValues {
            for value in values {
                add("record.logged track.sensors.\(key): \(value.serialized())", "record.logged",
                    with(record, "track", .object(with(track, "sensors", .object([key: value])))))
            }
        }
        add("record.logged track.sensors: not an object", "record.logged", with(record, "track", .object(with(track, "sensors", 5))))
        add("record.edited track: a good one", "record.edited", ["track": .object(track)])
        add("record.edited track: a bad digest", "record.edited", ["track": .object(with(track, "sha256", "abc"))])
        add("record.edited track: a sensor past its range", "record.edited", ["track": .object(with(track, "sensors", .object(["averagePower": 9000])))])
        let athlete: JSONObject = ["from": "2026-11-01", "maxHeartRate": 190, "restingHeartRate": 50, "thresholdHeartRate": 170, "ftp": 250,
                                   "heartRateZones": .array([60, 70, 80, 90])]
        add("athlete.set: every setting", "athlete.set", athlete)
        add("athlete.set: every setting null", "athlete.set", ["from": "2026-11-01", "maxHeartRate": .null, "restingHeartRate": .null,
                                                                "thresholdHeartRate": .null, "ftp": .null, "heartRateZones": .null])
        let settings: [(String, [JSON])] = [
            ("maxHeartRate", [100, 250, 99, 251, .double(180.5), "180"]), ("restingHeartRate", [25, 120, 24, 121]),
            ("thresholdHeartRate", [80, 250, 79, 251]), ("ftp", [30, 1000, 29, 1001]),
            ("heartRateZones", [.array([30, 40, 50, 150]), .array([60, 60, 70, 80]), .array([60, 70, 80]), .array([60, 70, 80, 90, 95]),
                                .array([29, 70, 80, 90]), .array([60, 70, 80, 151]), .array([60, 70, "80", 90]), 5]),
            ("from", ["2026-02-28", "2026-02-30", "0000-01-01", "0001-01-01", "9999-12-31", "2026-11-01T10:00:00Z", 20261101]),
        ]
        for (key, values) in settings {
            for value in values {
                add("athlete.set \(key): \(value.serialized())", "athlete.set", with(athlete, key, value))
            }
            if key != "from" {
                var missing = athlete
                missing[key] = nil
                add("athlete.set without \(key)", "athlete.set", missing)
            }
        }
        // History markers.
        for type in ["history.undone", "history.redone"] {
            add("\(type): a UUID", type, ["command": .string(uuid)])
            add("\(type): capitals", type, ["command": .string(uuid.uppercased())])
            add("\(type): not a UUID", type, ["command": "undo-1"])
        }
        cases += newTypeCases(whens: whens.filter { !$0.2 }.map { ($0.0, $0.1) })
        // Random texts from an alphabet of every kind the rules tell apart.
        var generator = SystemRandomNumberGenerator()
        let alphabet = ["a", "Z", " ", "\t", "\n", "\u{1B}", "é", "e\u{301}", "\u{3000}", "\u{200B}", "日", "\u{85}", "-", "_", "ß", "Ω", "ж", "\u{308}", "🏃"]
        for index in 0 ..< AttackScale.count(short: 60, full: 3_000) {
            let length = [1, 2, 5, 31, 33, 199, 201, 499, 501].randomElement(using: &generator)!
            let text = (0 ..< length).map { _ in alphabet.randomElement(using: &generator)! }.joined()
            let key = ["title", "note", "name", "place", "tags"].randomElement(using: &generator)!
            let type = ["title": "todo.edited", "note": "todo.edited", "tags": "todo.edited", "name": "record.edited", "place": "record.edited"][key]!
            add("random \(index) \(key)", type, [key: key == "tags" ? strings([text]) : .string(text)])
        }
        cases += nearLimitCases()
        return cases
    }

    /// Characters of several code points, before or after NFC: emoji sequences (a family, a flag, a
    /// skin tone, a keycap), a letter and a mark NFC composes or does not, Hangul jamo NFC composes
    /// into one syllable, a Devanagari cluster, and code points NFC expands into two.
    static let multiScalar = [
        "👩‍👩‍👧", "🇨🇿", "👍🏽", "1️⃣", "e\u{301}", "\u{1EA1}\u{308}", "\u{1100}\u{1161}", "\u{1100}\u{1161}\u{11A8}", "क्षि",
        "\u{344}", "\u{2ADC}", "a", "é", "日",
    ]

    /// Generated texts of `multiScalar` characters whose length in code points (after NFC for the
    /// fields kept in NFC) is just inside or just outside each text limit.
    static func nearLimitCases() -> [Case] {
        var cases: [Case] = []
        var generator = SystemRandomNumberGenerator()
        let fields: [(type: String, base: JSONObject, key: String, max: Int, nfc: Bool)] = [
            ("todo.edited", [:], "title", Validation.maxTitleLength, true), ("todo.edited", [:], "note", Validation.maxNoteLength, true),
            ("record.edited", [:], "name", Validation.maxNameLength, false), ("record.edited", [:], "place", Validation.maxNameLength, false),
            ("gear.changed", [:], "name", GearLimits.maxNameLength, true), ("todo.annotated", annotation, "text", Annotation.maxLength, true),
            ("history.redacted", redaction, "reason", RedactionFacts.maxReasonLength, false),
        ]
        for field in fields {
            for round in 0 ..< AttackScale.count(short: 7, full: 70) {
                let target = field.max - 3 + round % 7
                var text = ""
                // (Counted here as PostgreSQL's char_length counts, scalar by scalar; the server normalises with its own normalize().)
                func length() -> Int { (field.nfc ? TextForm.normalized(text) : text).unicodeScalars.count }
                while length() < target {
                    text += multiScalar.randomElement(using: &generator)!
                }
                cases.append(Case(name: "near the limit: \(field.type) \(field.key), \(text.count) characters, \(length()) code points", type: field.type,
                                  payload: with(field.base, field.key, .string(text))))
            }
        }
        return cases
    }

    static let gear: JSONObject = ["name": "Trail shoes", "category": "run", "retireAtMeters": .double(800_000)]
    static let goal: JSONObject = ["per": "week", "metric": "distance", "category": "run", "target": .double(20_000), "from": "2026-11-01"]
    static let annotation: JSONObject = ["id": .string(uuid), "at": "2026-11-20T07:00:00Z", "text": "Called the bank"]
    static let redaction: JSONObject = ["stream": .string(uuid), "field": "title", "events": .array([3, 5]), "reason": .null]

    static func contexts(_ views: JSONObject, active: JSON? = nil) -> JSONObject {
        var filter: JSONObject = ["contexts": .object(views)]
        if let active { filter["active"] = active }
        return ["scope": "todos", "filter": .object(filter)]
    }

    /// The types and fields added since migration 0010 was first written (gear, goals, annotations
    /// and timing, redaction markers, record gear and track parts, the todos' contexts), just
    /// inside and outside each limit; `instants` are the instants of the date cases above.
    static func newTypeCases(whens instants: [(String, String)]) -> [Case] {
        var cases: [Case] = []
        func add(_ name: String, _ type: String, _ payload: JSONObject, stricter: Bool = false) {
            cases.append(Case(name: name, type: type, payload: payload, stricter: stricter))
        }
        let x = { (count: Int) in String(repeating: "x", count: count) }
        // Gear.
        add("gear.added: a good one", "gear.added", gear)
        let gearNames: [(String, String, Bool)] = [
            ("1 character", "x", false), ("60 characters", x(60), false), ("61 characters", x(61), false), ("empty", "", false),
            ("blank", "   ", false), ("a space before", " Shoes", false), ("a space after", "Shoes ", false), ("U+200B after", "Shoes\u{200B}", false),
            ("a newline inside", "Sho\nes", false), ("ESC inside", "Sho\u{1B}es", false), ("Czech", "Běžky Fischer", false),
            ("a space inside", "Trail  shoes", false), ("59 and a decomposed é", x(59) + "e\u{301}", false),
            ("58 and a family emoji (one character, five code points)", x(58) + "👩‍👩‍👧", false),
            ("55 and a family emoji", x(55) + "👩‍👩‍👧", false), ("56 and a family emoji", x(56) + "👩‍👩‍👧", false),
        ]
        for (label, name, stricter) in gearNames {
            add("gear.added name: \(label)", "gear.added", with(gear, "name", .string(name)), stricter: stricter)
            add("gear.changed name: \(label)", "gear.changed", ["name": .string(name)], stricter: stricter)
        }
        add("gear.added name: a number", "gear.added", with(gear, "name", 5))
        for category: JSON in ["run", "ride-2", "Run", "", .string(x(33)), 5] {
            add("gear.added category: \(category.serialized())", "gear.added", with(gear, "category", category))
            add("gear.defaulted category: \(category.serialized())", "gear.defaulted", ["category": category, "gear": .string(uuid)])
        }
        for retire: JSON in [1000, 999, .double(999.9), 100_000_000, 100_000_001, .double(1500.5), .null, "5000"] {
            add("gear.added retireAtMeters: \(retire.serialized())", "gear.added", with(gear, "retireAtMeters", retire))
            add("gear.changed retireAtMeters: \(retire.serialized())", "gear.changed", ["retireAtMeters": retire])
        }
        var noRetire = gear
        noRetire["retireAtMeters"] = nil
        add("gear.added without retireAtMeters", "gear.added", noRetire)
        add("gear.changed: nothing", "gear.changed", [:])
        for key in ["retired", "removed"] {
            for value: JSON in [true, false, "yes", 1, .null] {
                add("gear.changed \(key): \(value.serialized())", "gear.changed", [key: value])
            }
        }
        for (label, value) in [("a UUID", JSON.string(uuid)), ("null", .null), ("capitals", .string(uuid.uppercased())), ("a name", "Shoes"), ("a number", 5)] {
            add("gear.defaulted gear: \(label)", "gear.defaulted", ["category": "run", "gear": value])
            add("record.logged gear: \(label)", "record.logged", with(record, "gear", value))
            add("record.edited gear: \(label)", "record.edited", ["gear": value])
        }
        add("gear.defaulted without gear", "gear.defaulted", ["category": "run"])
        // Track parts (a multisport leg, a day of a file).
        let parts: [(String, JSON)] = [
            ("leg 1 of 2", .object(["index": 1, "count": 2, "kind": "leg"])), ("day 2 of 2", .object(["index": 2, "count": 2, "kind": "day"])),
            ("leg 100 of 100", .object(["index": 100, "count": 100, "kind": "leg"])), ("index 0", .object(["index": 0, "count": 2, "kind": "leg"])),
            ("index past the count", .object(["index": 3, "count": 2, "kind": "leg"])), ("a count of 1", .object(["index": 1, "count": 1, "kind": "leg"])),
            ("a count of 101", .object(["index": 1, "count": 101, "kind": "leg"])), ("a kind of lap", .object(["index": 1, "count": 2, "kind": "lap"])),
            ("a count of 2.0", .object(["index": 1, "count": .double(2), "kind": "leg"])), ("an index of 1.5", .object(["index": .double(1.5), "count": 2, "kind": "leg"])),
            ("no kind", .object(["index": 1, "count": 2])), ("a count of text", .object(["index": 1, "count": "2", "kind": "leg"])),
            ("null", .null), ("a number", 5),
        ]
        for (label, part) in parts {
            add("record.logged track.part: \(label)", "record.logged", with(record, "track", .object(with(track, "part", part))))
            add("record.edited track.part: \(label)", "record.edited", ["track": .object(with(track, "part", part))])
        }
        // Goals.
        add("goal.set: a good one", "goal.set", goal)
        for (key, values) in [("per", ["week", "month", "year", "day", "Week"] as [JSON]), ("metric", ["distance", "pace", 5])] {
            for value in values {
                add("goal.set \(key): \(value.serialized())", "goal.set", with(goal, key, value))
                add("goal.removed \(key): \(value.serialized())", "goal.removed", with(["per": "week", "metric": "distance", "category": .null], key, value))
            }
        }
        for category: JSON in [.null, "run", "Run", "", 5] {
            add("goal.set category: \(category.serialized())", "goal.set", with(goal, "category", category))
            add("goal.removed category: \(category.serialized())", "goal.removed", ["per": "month", "metric": "count", "category": category])
        }
        add("goal.removed without category", "goal.removed", ["per": "month", "metric": "count"])
        var noCategory = goal
        noCategory["category"] = nil
        add("goal.set without category", "goal.set", noCategory)
        let targets: [(String, [JSON])] = [
            ("distance", [100, 99, .double(100.5), 100_000_000, 100_000_001, "5000"]),
            ("time", [60, 59, 31_622_400, 31_622_401, .double(90.5)]),
            ("count", [1, 0, 10_000, 10_001, .double(2.5), .double(3), -1]),
        ]
        for (metric, values) in targets {
            for target in values {
                add("goal.set \(metric) target: \(target.serialized())", "goal.set", with(with(goal, "metric", .string(metric)), "target", target))
            }
        }
        for from: JSON in ["2026-02-28", "2026-02-30", "0000-01-01", "0001-01-01", "9999-12-31", "10000-01-01", "2026-11-01T10:00:00Z", 20261101] {
            add("goal.set from: \(from.serialized())", "goal.set", with(goal, "from", from))
        }
        // Annotations.
        add("todo.annotated: a good one", "todo.annotated", annotation)
        let annotationTexts: [(String, String, Bool)] = [
            ("1 character", "x", false), ("1000 characters", x(1000), false), ("1001 characters", x(1001), false), ("empty", "", false),
            ("a space before", " note", false), ("a space after", "note ", false), ("U+3000 before", "\u{3000}note", false),
            ("a newline inside", "a\nb", false), ("a tab inside", "a\tb", false), ("ESC inside", "a\u{1B}b", false), ("U+0085 inside", "a\u{85}b", false),
            ("composed é", "café", false), ("decomposed é (tally compares it by canonical equivalence)", "cafe\u{301}", false), ("Japanese", "銀行に電話", false),
            ("999 and a composed é", x(999) + "é", false), ("999 and an emoji of one character", x(999) + "👍", false),
            ("998 and a family emoji (one character, five code points)", x(998) + "👩‍👩‍👧", false),
            ("995 and a family emoji", x(995) + "👩‍👩‍👧", false), ("996 and a family emoji", x(996) + "👩‍👩‍👧", false),
        ]
        for (label, text, stricter) in annotationTexts {
            add("todo.annotated text: \(label)", "todo.annotated", with(annotation, "text", .string(text)), stricter: stricter)
        }
        add("todo.annotated text: a number", "todo.annotated", with(annotation, "text", 5))
        for (label, id) in [("capitals", JSON.string(uuid.uppercased())), ("not a UUID", "note-1"), ("null", .null)] {
            add("todo.annotated id: \(label)", "todo.annotated", with(annotation, "id", id))
            add("todo.denotated id: \(label)", "todo.denotated", ["id": id])
        }
        add("todo.denotated: a UUID", "todo.denotated", ["id": .string(uuid)])
        add("todo.denotated: nothing", "todo.denotated", [:])
        // Instants of the types no earlier version wrote: outside the years they are refused.
        for (label, value) in instants {
            add("todo.annotated at: \(label)", "todo.annotated", with(annotation, "at", .string(value)))
            add("todo.started at: \(label)", "todo.started", ["at": .string(value)])
            add("todo.started end: \(label)", "todo.started", ["at": "0001-01-01T00:00:00Z", "end": .string(value)])
            add("todo.stopped at: \(label)", "todo.stopped", ["at": .string(value)])
            add("todo.unstarted at: \(label)", "todo.unstarted", ["at": .string(value)])
        }
        for type in ["todo.started", "todo.stopped", "todo.unstarted"] {
            add("\(type) at: a day", type, ["at": "2026-11-20"])
            add("\(type) at: month 13", type, ["at": "2026-13-01T00:00:00Z"])
            add("\(type) at: missing", type, [:])
        }
        let start: JSONObject = ["at": "2026-11-20T07:00:00Z"]
        for (label, end) in [("equal", JSON.string("2026-11-20T07:00:00Z")), ("a millisecond before", "2026-11-20T06:59:59.999Z"),
                             ("an hour after", "2026-11-20T08:00:00Z"), ("before, by its offset", "2026-11-20T07:30:00+01:00"),
                             ("after, by its offset", "2026-11-20T06:30:00-01:00"), ("null", .null), ("a number", 5)] {
            add("todo.started end: \(label)", "todo.started", with(start, "end", end))
        }
        // Redaction markers.
        add("history.redacted: a good one", "history.redacted", redaction)
        for field in Redaction.todoFields + Redaction.recordFields + [Redaction.fileField, "due", "Title", "text"] {
            add("history.redacted field: \(field)", "history.redacted", with(redaction, "field", .string(field)))
        }
        let positions: [(String, JSON)] = [
            ("none", .array([])), ("one", .array([1])), ("zero", .array([0])), ("negative", .array([-3])), ("descending", .array([5, 3])),
            ("twice", .array([3, 3])), ("a fraction", .array([.double(1.5)])), ("2.0", .array([.double(2)])), ("text", .array(["3"])),
            ("1000 ascending", .array((1 ... 1000).map { .int(Int64($0)) })), ("not an array", 3),
        ]
        for (label, events) in positions {
            add("history.redacted events: \(label)", "history.redacted", with(redaction, "events", events))
        }
        for (label, reason) in [("500 characters", JSON.string(x(500))), ("501 characters", .string(x(501))), ("empty", ""), ("a newline inside", "a\nb"),
                                ("DEL inside", "a\u{7F}b"), ("Czech", "osobní údaje"), ("499 and an emoji", .string(x(499) + "🙈")), ("a number", 5)] {
            add("history.redacted reason: \(label)", "history.redacted", with(redaction, "reason", reason))
        }
        var noReason = redaction
        noReason["reason"] = nil
        add("history.redacted without reason", "history.redacted", noReason)
        for (label, stream) in [("capitals", JSON.string(uuid.uppercased())), ("a filter stream", "filter:todos"), ("null", .null)] {
            add("history.redacted stream: \(label)", "history.redacted", with(redaction, "stream", stream))
        }
        // One annotation named (redact --annotation N): its id, only with the field 'annotations'.
        for (label, annotation, field) in [("an annotation's id", JSON.string(uuid), "annotations"), ("with the note", .string(uuid), "note"),
                                           ("capitals", .string(uuid.uppercased()), "annotations"), ("null", .null, "annotations"),
                                           ("a number", 5, "annotations"), ("a filter stream", "filter:todos", "annotations")] as [(String, JSON, String)] {
            add("history.redacted annotation: \(label)", "history.redacted", with(with(redaction, "field", .string(field)), "annotation", annotation))
        }
        // The todos' contexts.
        let work: JSON = .object(["expression": "tag:work"])
        add("filter.saved todos: 0.9's saved view", "filter.saved", ["scope": "todos", "filter": .object(["expression": "tag:work"])])
        add("filter.saved todos: 0.9's saved view of 1001 characters", "filter.saved",
            ["scope": "todos", "filter": .object(["expression": .string("tag:" + x(997))])])
        add("filter.saved todos: one context, active", "filter.saved", contexts(["work": work], active: "work"))
        add("filter.saved todos: one context, none active", "filter.saved", contexts(["work": work]))
        add("filter.saved todos: no contexts", "filter.saved", contexts([:]))
        add("filter.saved todos: a context without an expression", "filter.saved", contexts(["home": .object(["limit": 20])]))
        add("filter.saved todos: an expression beside the contexts, not read", "filter.saved",
            ["scope": "todos", "filter": .object(["contexts": .object(["work": work]), "expression": .string(x(2000))])])
        var fifty = JSONObject()
        for index in 0 ..< 50 { fifty["c\(index)"] = work }
        add("filter.saved todos: 50 contexts", "filter.saved", contexts(fifty, active: "c49"))
        fifty["c50"] = work
        add("filter.saved todos: 51 contexts", "filter.saved", contexts(fifty))
        for name in ["práce", "a_b-c", x(32), x(33), "Work", "a b", "", "list", "none", "define", "ls", "lists", "🏃"] {
            add("filter.saved todos: a context named \(name.prefix(40))", "filter.saved", contexts([name: work]))
        }
        add("filter.saved todos: a context of 1001 characters", "filter.saved", contexts(["work": .object(["expression": .string("tag:" + x(997))])]))
        add("filter.saved todos: a context's expression a number", "filter.saved", contexts(["work": .object(["expression": 5])]))
        add("filter.saved todos: a context that is not an object", "filter.saved", contexts(["work": "tag:work"]))
        add("filter.saved todos: contexts not an object", "filter.saved", ["scope": "todos", "filter": .object(["contexts": 5])])
        for (label, active) in [("a missing context", JSON.string("home")), ("null", .null), ("a number", 5)] {
            add("filter.saved todos: active \(label)", "filter.saved", contexts(["work": work], active: active))
        }
        return cases
    }

    /// EventRules' answer: true accepted, false refused, nil when the payload does not even decode (outside its rules).
    static func eventRulesAccept(_ item: Case) -> Bool? {
        guard let schema = EventCatalog.currentSchemas[item.type],
              let event = try? EventCatalog.decode(type: item.type, schema: schema, data: item.payload) else { return nil }
        do {
            try EventRules.checkPayload(event)
            return true
        } catch {
            return false
        }
    }

    /// The server's answers for `cases`, in batches that fit one psql argument.
    func serverAccepts(_ cases: [Case], database: String) throws -> [Bool] {
        var answers: [Bool] = []
        var batch: [String] = []
        var size = 0
        func flush() throws {
            guard !batch.isEmpty else { return }
            let result = try server.psql("""
                SELECT string_agg(CASE WHEN tally_payload_problem(t, d::jsonb) IS NULL THEN '1' ELSE '0' END, '' ORDER BY i)
                FROM (VALUES \(batch.joined(separator: ","))) AS v(i, t, d)
                """, database: database)
            answers += result.map { $0 == "1" }
            batch = []
            size = 0
        }
        for (index, item) in cases.enumerated() {
            let data = JSON.object(item.payload).serialized(.canonical).replacingOccurrences(of: "'", with: "''")
            let row = "(\(index), '\(item.type)', '\(data)')"
            if size + row.utf8.count > 60_000 { try flush() }
            batch.append(row)
            size += row.utf8.count
        }
        try flush()
        return answers
    }

    /// A new database that tally has migrated (by adding a todo to it): its name.
    func migratedDatabase(_ label: String) throws -> String {
        let uri = try server.makeDatabase(label)
        let owner = TallyRunner()
        owner.environment["TALLY_DB"] = uri
        #expect(owner.run("add", "First").status == 0)
        return PostgresTestServer.databaseName(uri)
    }

    @Test("for each rule, payloads just inside and outside each limit: the server and EventRules.checkPayload agree")
    func serverAgreesWithEventRules() throws {
        let database = try migratedDatabase("payload")
        let cases = Self.cases()
        let server = try serverAccepts(cases, database: database)
        #expect(server.count == cases.count)
        var decoded = 0
        var refused = 0
        for (item, serverAccepts) in zip(cases, server) {
            guard let accepts = Self.eventRulesAccept(item) else {
                // A payload tally cannot even decode would be an unreadable event on every client
                // and refused by every replica's sync: the server must refuse it too.
                #expect(!serverAccepts, "\(item.name): tally cannot decode it, the server accepts it")
                continue
            }
            decoded += 1
            if !accepts { refused += 1 }
            if !accepts {
                #expect(!serverAccepts, "\(item.name): EventRules refuses it, the server accepts it")
            } else if !item.stricter {
                #expect(serverAccepts, "\(item.name): EventRules accepts it, the server refuses it")
            } else if !item.name.hasPrefix("random") {
                #expect(!serverAccepts, "\(item.name): a documented difference the server no longer makes (update the README)")
            }
        }
        // Both sides were exercised: most cases decode, and many are refused.
        #expect(decoded > cases.count * 3 / 4 && refused > 100, "\(decoded) decoded, \(refused) refused of \(cases.count)")
    }

    @Test("a redaction naming 100,000 positions is taken and one naming 100,001 refused, by the server and by EventRules")
    func redactionPositionLimit() throws {
        let database = try migratedDatabase("payloadpositions")
        for (count, accepted) in [(RedactionFacts.maxEvents, true), (RedactionFacts.maxEvents + 1, false)] {
            // (Built on the server: the payload is too long for one psql argument.)
            let answer = try server.psql("""
                SELECT tally_payload_problem('history.redacted', jsonb_build_object('stream', '\(Self.uuid)', 'field', 'note',
                  'events', (SELECT jsonb_agg(position ORDER BY position) FROM generate_series(1, \(count)) AS position), 'reason', NULL::text)) IS NULL
                """, database: database)
            #expect(answer == (accepted ? "t" : "f"), "\(count) positions: the server answers \(answer)")
            let facts = RedactionFacts(stream: Self.uuid, field: "note", events: (1 ... Int64(count)).map { $0 }, reason: nil)
            #expect((Redaction.problem(facts) == nil) == accepted, "\(count) positions: EventRules disagrees")
        }
    }

    @Test("a writer with raw SQL cannot append, well linked, an event past the limits; the log stays whole and its export re-imports")
    func rawInsertsPastTheLimits() throws {
        let (owner, _, role, database) = try PostgresInsertAttackTests().setUp(grants: PostgresTestServer.Grants.writer, label: "payloadraw")
        let previous = try server.psql("SELECT hash FROM events WHERE seq = 2", database: database)
        func row(_ type: String, _ payload: JSONObject) -> EventEnvelope {
            var event = PostgresInsertAttackTests.validRow(previous: previous)
            event.type = type
            event.schema = EventCatalog.currentSchemas[type] ?? 1
            event.data = JSON.object(payload).serialized(.canonical)
            event.hash = EventHash.link(previous: previous, event)
            return event
        }
        var fiftyOne = JSONObject()
        for index in 0 ..< 51 { fiftyOne["c\(index)"] = .object([:]) }
        let hostile: [(String, EventEnvelope, String)] = [
            ("a 2,000-character title", row("todo.created", Self.with(Self.todo, "title", .string(String(repeating: "t", count: 2_000)))), "title"),
            ("50 tags", row("todo.created", Self.with(Self.todo, "tags", Self.strings((0 ..< 50).map { "t\($0)" }))), "tags"),
            ("a 20,000-character note", row("todo.created", Self.with(Self.todo, "note", .string(String(repeating: "n", count: 20_000)))), "note"),
            // (A negative duration or a date in year 12000 is a value earlier versions let in: every
            // reader reads it brought inside the limits, and so the server takes it; see below.)
            ("a duration of 10^20 seconds", row("record.logged", Self.with(Self.record, "durationSeconds", .double(1e20))), "durationSeconds"),
            ("a due date in month 13", row("todo.created", Self.with(Self.todo, "due", "2026-13-01")), "due"),
            ("a record at hour 25", row("record.logged", Self.with(Self.record, "date", "2026-01-01T25:00:00Z")), "date"),
            // Since migration 0010.
            ("a project of capitals", row("todo.created", Self.with(Self.todo, "project", "Home.Garden")), "project"),
            ("a todo after itself twice", row("todo.created", Self.with(Self.todo, "after", Self.strings([Self.uuid, Self.uuid]))), "after"),
            ("an effort of 11", row("record.logged", Self.with(Self.record, "effort", 11)), "effort"),
            ("a maximum heart rate of 400", row("athlete.set", ["from": "2026-11-01", "maxHeartRate": 400, "restingHeartRate": .null,
                                                               "thresholdHeartRate": .null, "ftp": .null, "heartRateZones": .null]), "maxHeartRate"),
            ("a gear name of 61 characters", row("gear.added", Self.with(Self.gear, "name", .string(String(repeating: "g", count: 61)))), "name"),
            ("gear retired as text", row("gear.changed", ["retired": "yes"]), "retired"),
            ("a default gear that is a name", row("gear.defaulted", ["category": "run", "gear": "Shoes"]), "gear"),
            ("a goal of no activities", row("goal.set", Self.with(Self.with(Self.goal, "metric", "count"), "target", 0)), "target"),
            ("a goal removed per day", row("goal.removed", ["per": "day", "metric": "count", "category": .null]), "per"),
            ("a 2,000-character annotation", row("todo.annotated", Self.with(Self.annotation, "text", .string(String(repeating: "a", count: 2_000)))), "text"),
            ("an annotation removed by a name", row("todo.denotated", ["id": "note-1"]), "id"),
            ("timing that ends before it starts", row("todo.started", ["at": "2026-11-20T07:00:00Z", "end": "2026-11-20T06:00:00Z"]), "end"),
            ("timing stopped in year 10000", row("todo.stopped", ["at": "10000-01-01T00:00:00.000Z"]), "at"),
            ("timing unstarted in month 13", row("todo.unstarted", ["at": "2026-13-01T00:00:00Z"]), "at"),
            ("a redaction of descending positions", row("history.redacted", Self.with(Self.redaction, "events", .array([5, 3]))), "events"),
            ("a redaction of a due date", row("history.redacted", Self.with(Self.redaction, "field", "due")), "field"),
            ("a record's gear that is a name", row("record.logged", Self.with(Self.record, "gear", "Shoes")), "gear"),
            ("a record's leg 3 of 2", row("record.logged", Self.with(Self.record, "track", .object(Self.with(Self.track, "part",
                .object(["index": 3, "count": 2, "kind": "leg"]))))), "track.part"),
            ("51 contexts", row("filter.saved", Self.contexts(fiftyOne)), "contexts"),
            ("an active context that does not exist", row("filter.saved", Self.contexts(["work": .object([:])], active: "home")), "active"),
            // Since migration 0015.
            ("an effort edited to 0", row("record.edited", ["effort": 0]), "effort"),
            ("an effort edited to a word", row("record.edited", ["effort": "hard"]), "effort"),
        ]
        let export = owner.run("export").stdout
        for (name, event, field) in hostile {
            do {
                try server.psql(PostgresInsertAttackTests.insert(event), database: database, user: role.name, password: role.password)
                Issue.record("\(name): the server accepted it")
            } catch {
                #expect("\(error)".contains("field '\(field)'") || "\(error)".contains("field ''\(field)''"), "\(name): \(error)")
            }
        }
        #expect(try server.psql("SELECT count(*) FROM events", database: database) == "2")
        #expect(owner.run("export").stdout == export)
        // Just inside the limits, well linked: accepted, and what the log holds exports and imports back.
        try server.psql(PostgresInsertAttackTests.insert(row("todo.created", Self.with(Self.todo, "title", .string(String(repeating: "t", count: 500))))),
                        database: database, user: role.name, password: role.password)
        #expect(owner.run("verify").status == 0)
        let full = owner.run("export")
        #expect(full.status == 0)
        let replica = TallyRunner()
        let file = replica.directory.path("export.jsonl")
        try full.stdout.write(toFile: file, atomically: true, encoding: .utf8)
        let imported = replica.run("import", file)
        #expect(imported.status == 0, "\(imported.stderr)")
        #expect(replica.run("export").stdout == full.stdout)
    }

    @Test("every payload the client writes is accepted: a generated history of every event type imports into a PostgreSQL log and exports back unchanged")
    func generatedHistoryRoundTrips() throws {
        let uri = try server.makeDatabase("payloadhistory")
        let tally = TallyRunner()
        tally.environment["TALLY_DB"] = uri
        var generator = LogGenerator(seed: 2_310)
        let events = generator.events(AttackScale.count(short: 600, full: 6_000))
        let types = Set(events.map(\.type))
        // Every event type tally writes (the server checks each of them since migration 0010).
        for type in EventCatalog.currentSchemas.keys.sorted() {
            #expect(types.contains(type), "the history holds no \(type)")
        }
        let lines = events.map(EventLines.encode).joined(separator: "\n") + "\n"
        let file = tally.directory.path("history.jsonl")
        try lines.write(toFile: file, atomically: true, encoding: .utf8)
        let imported = tally.run("import", file)
        #expect(imported.status == 0, "\(imported.stderr)")
        #expect(try server.psql("SELECT count(*) FROM events", database: PostgresTestServer.databaseName(uri)) == String(events.count))
        #expect(tally.run("verify").status == 0)
        #expect(tally.run("export").stdout == lines)
    }
}
