import Testing
@testable import TallyDomain
import TallyTestSupport
@testable import TallyEssentials

/// `LegacyValues`: whatever figure or instant an earlier version stored, every reader reads one and
/// the same event inside today's limits, and `EventLines.decode` takes the stored line unchanged.
@Suite("Values earlier versions let in, as every reader reads them")
struct LegacyValueReadingAttackTests {
    static func decodeBoth(_ type: String, _ schema: Int, _ data: String) -> (scanner: DomainEvent?, tree: Result<DomainEvent, EventDecodingError>) {
        var text = data
        return text.withUTF8 { bytes in
            (PayloadScanner.decode(type: type, schema: schema, utf8: bytes),
             Result { () throws(EventDecodingError) in try EventCatalog.decodeTree(type: type, schema: schema, utf8: bytes) })
        }
    }

    static func line(_ type: String, _ schema: Int, _ data: String) -> String {
        #"{"seq":1,"id":"e0000000-0000-4000-8000-000000000001","stream":"1e6ac700-0000-4000-8000-000000000001","version":1,"type":"\#(type)","schema":\#(schema),"recordedAt":"2026-11-21T12:00:00Z","actor":"old@tally","command":"c0000000-0000-4000-8000-000000000001","data":\#(data),"hash":null}"#
    }

    @Test("generated legacy payloads: read inside the limits, the scanner agrees with the tree, the line imports with its bytes")
    func generated() throws {
        var payloads = LegacyPayloads(seed: 22)
        var normalised = 0
        for index in 0..<AttackScale.count(short: 400, full: 20_000) {
            let (type, schema, data): (String, Int, String)
            switch index % 4 {
            case 0:
                let logged = payloads.recordLogged()
                (type, schema, data) = ("record.logged", logged.schema, logged.data)
            case 1: (type, schema, data) = ("record.edited", 1, payloads.recordEdited())
            case 2: (type, schema, data) = ("todo.created", 4, payloads.todoCreated())
            default: (type, schema, data) = ("todo.edited", 3, payloads.todoEdited())
            }
            let (scanner, tree) = Self.decodeBoth(type, schema, data)
            let event = try tree.get()
            if let scanner { #expect(scanner == event, "\(data)") }
            #expect(LegacyValues.read(event) == event, "reading is idempotent: \(data)")
            #expect((try? EventRules.checkPayload(event)) != nil, "read inside the limits: \(data)")
            if data.contains("\"10000-") || data.contains("-1e+300") || data.contains("\"durationSeconds\":0") { normalised += 1 }

            var line = Self.line(type, schema, data)
            let imported = try line.withUTF8 { bytes in try EventLines.decode(bytes) }
            #expect(imported.data == data, "the stored bytes are kept, so the hash holds: \(data)")
        }
        #expect(normalised > 0, "the generator reaches values past the limits")
    }

    @Test("only the shapes the formatters wrote outside 0001-9999 are read; anything else stays unreadable")
    func shapes() {
        let upper = Timestamp.supportedRange.upperBound, lower = Timestamp.supportedRange.lowerBound
        #expect(LegacyValues.instant("10000-01-01T04:59:00Z") == upper)
        #expect(LegacyValues.instant("0000-12-31T23:00:00.500Z") == lower)
        #expect(LegacyValues.instant("-0001-01-01T00:00:00Z") == lower)
        #expect(LegacyValues.date("10000-01-01") == LocalDate(year: 9999, month: 12, day: 31))
        #expect(LegacyValues.date("-0001-12-31") == LocalDate(year: 1, month: 1, day: 1))
        for text in ["2026-01-01T00:00:00Z", "9999-12-31", "010000-01-01T00:00:00Z", "10000-01-01T04:59:00+05:00", "10000-13-01T00:00:00Z",
                     "10000-01-01", "-0000-01-01", "10000", "1e5-01-01", "10000-01-01T04:59Z", "", "-", "100000000000000000000-01-01"] {
            #expect(LegacyValues.instant(text) == nil, "\(text)")
        }
        for text in ["2026-01-01", "10000-02-30", "10000-01-01T00:00:00Z", "00000-01-01", "-001-01-01"] {
            #expect(LegacyValues.date(text) == nil, "\(text)")
        }
        // A todo with a due of garbage is still not read.
        #expect(throws: EventDecodingError.self) {
            try EventCatalog.decodeRaw(type: "todo.edited", schema: 3, data: #"{"due":"10000-01-01Tnoon"}"#)
        }
    }

    @Test("texts, tags and ids past the limits are not normalised: import refuses them")
    func textsRefused() {
        let long = String(repeating: "t", count: 2000)
        for data in [#"{"due":null,"note":null,"priority":null,"series":null,"tags":[],"title":"\#(long)","wait":null}"#,
                     #"{"due":null,"note":null,"priority":null,"series":null,"tags":["a b"],"title":"x","wait":null}"#] {
            var line = Self.line("todo.created", 4, data)
            #expect(throws: EventLineError.self) { try line.withUTF8 { bytes in try EventLines.decode(bytes) } }
        }
    }
}

extension EventCatalog {
    /// Decodes a payload's text through the tree, as the log reads it.
    static func decodeRaw(type: String, schema: Int, data: String) throws -> DomainEvent {
        var text = data
        return try text.withUTF8 { bytes in try decodeTree(type: type, schema: schema, utf8: bytes) }
    }
}
