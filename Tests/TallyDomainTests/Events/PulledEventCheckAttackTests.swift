import Testing
@testable import TallyDomain
import TallyTestSupport
@testable import TallyEssentials

/// `EventLines.accepts`, the check a clone makes on every pulled event, against its definition:
/// the event's export line written and read back (`decode(encode(event))`).
@Suite("the pulled-event check against the export line")
struct PulledEventCheckAttackTests {
    /// True when the export line of `event` imports.
    static func lineImports(_ event: EventEnvelope) -> Bool {
        var line = EventLines.encode(event)
        return (try? line.withUTF8 { bytes in try EventLines.decode(bytes) }) != nil
    }

    /// `event` changed in the ways a hostile shared log could store it.
    static func variants(of event: EventEnvelope, random: inout SeededRandom) -> [EventEnvelope] {
        var variants: [EventEnvelope] = []
        func with(_ change: (inout EventEnvelope) -> Void) {
            var copy = event
            change(&copy)
            variants.append(copy)
        }
        with { $0.id = "" }
        with { $0.id = $0.id.uppercased() }
        with { $0.stream = "" }
        with { $0.stream = "history" }
        with { $0.type = "" }
        with { $0.type = "todo.unknown" }
        with { $0.actor = "" }
        with { $0.actor = "a\u{07}b" }
        with { $0.actor = String(repeating: "a", count: 1_000) }
        with { $0.command = "" }
        with { $0.command = "not-a-uuid" }
        for version in [0, -1, 1, Int(Int32.max), Int(Int32.max) + 1, Int.max] { with { $0.version = version } }
        for schema in [0, -3, 1, 2, 3, 4, 99, Int(Int32.max) + 1] { with { $0.schema = schema } }
        for time in [
            Int64.min / 2, -62_135_596_800_001, -62_135_596_800_000, -62_167_219_200_000, -62_167_219_200_001, -1, 0,
            253_402_300_799_999, 253_402_300_800_000, Int64.max / 2,
        ] { with { $0.recordedAt = time } }
        for data in [
            "", " ", "{", "}", "[]", "null", "1", "\"x\"", "{}", "{\"title\":\"\"}", "{\"title\":1}", " {} ", "{}\n",
            "{\"title\":\"a\u{0}b\"}", "{\"title\":\"x\",\"title\":\"y\"}", "{\"a\":1,}", "{\"a\":01}", "{\"a\":1e999}",
        ] { with { $0.data = data } }
        // A payload nested to the parser's limit as a line would count it, and one level past it.
        for depth in [JSON.maximumDepth - 2, JSON.maximumDepth - 1, JSON.maximumDepth] {
            let nested = String(repeating: "[", count: depth) + String(repeating: "]", count: depth)
            with { $0.data = String(event.data.dropLast()) + (event.data == "{}" ? "" : ",") + "\"zz\":" + nested + "}" }
            with { $0.data = String(repeating: "{\"a\":", count: depth) + "1" + String(repeating: "}", count: depth) }
        }
        // Random bytes of the payload replaced.
        for _ in 0..<4 where !event.data.isEmpty {
            var bytes = Array(event.data.utf8)
            bytes[Int.random(in: 0..<bytes.count, using: &random)] = UInt8.random(in: 0x20...0x7E, using: &random)
            with { $0.data = String(decoding: bytes, as: UTF8.self) }
        }
        return variants
    }

    @Test("every generated event and hostile variant: accepted exactly when its export line imports")
    func sameAsTheLine() {
        var generator = LogGenerator(seed: 28)
        var random = SeededRandom(seed: 2028)
        var events = generator.events(AttackScale.count(short: 300, full: 3_000))
        events += generator.recordEvents(40) + generator.seriesEvents(40) + generator.gearEvents(20) + generator.goalEvents(20)
        events += generator.timeEvents(40)
        if let redaction = generator.redactionEvent() { events.append(redaction) }
        var checked = 0, refused = 0
        for event in events {
            #expect(EventLines.accepts(event), "a generated event is refused: \(EventLines.encode(event))")
            for variant in Self.variants(of: event, random: &random) {
                let accepted = EventLines.accepts(variant)
                #expect(accepted == Self.lineImports(variant), "\(EventLines.encode(variant))")
                checked += 1
                if !accepted { refused += 1 }
            }
        }
        #expect(checked > 1_000 && refused > checked / 4 && refused < checked, "\(refused) of \(checked) refused")
    }

    @Test("a time the calendar cannot write is refused, without a trap")
    func extremeTimes() {
        var generator = LogGenerator(seed: 6)
        var event = generator.events(1)[0]
        for time in [Int64.min, Int64.min / 2 - 1, Int64.max / 2 + 1, Int64.max] {
            event.recordedAt = time
            #expect(!EventLines.accepts(event))
        }
    }

    @Test("a payload hiding members after its object is refused, though its line would import")
    func hiddenMembers() {
        var generator = LogGenerator(seed: 5)
        let event = generator.events(1)[0]
        var forged = event
        // As a line this overrides `type`; on its own it is not one JSON object.
        forged.data = event.data + ",\"type\":\"todo.created\""
        #expect(!EventLines.accepts(forged))
        forged.data = event.data + ",\"extra\":1"
        #expect(Self.lineImports(forged), "the line reader takes the hidden member")
        #expect(!EventLines.accepts(forged))
    }
}
