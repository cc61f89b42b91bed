import Foundation
import Testing
@testable import TallyDomain
import TallyTestSupport
@testable import TallyEssentials

/// Replays the committed fuzz corpus (Fuzz/corpus) with the fuzz targets' invariants, so every input
/// the fuzzers ever found interesting — crashes included — stays a regression test.
@Suite("Fuzz corpus replay: values, dates and events")
struct DomainFuzzCorpusTests {
    @Test("value parsers: parse or refuse, and what parses survives formatting")
    func values() throws {
        let inputs = FuzzCorpus.inputs("values")
        #expect(inputs.count >= 10)
        let zone = Zone.named("Europe/Prague")!
        for (name, bytes) in inputs {
            let text = String(decoding: bytes, as: UTF8.self)
            if let seconds = try? ActivityDuration.parse(text) {
                #expect(try ActivityDuration.parse(ActivityDuration.format(seconds)) == seconds, "\(name)")
            }
            if let when = try? When.parse(text, now: Fixtures.epoch, zone: zone, allowLogPosition: true) {
                #expect(When.fromStorage(when.storageText) == when, "\(name)")
            }
            _ = try? Distance.parse(text)
        }
    }

    @Test("dates people type and periods: parse or refuse, and what parses survives its stored form")
    func dates() throws {
        let inputs = FuzzCorpus.inputs("dates")
        #expect(inputs.count >= 10)
        for (name, bytes) in inputs {
            let text = String(decoding: bytes, as: UTF8.self)
            for zone in [Zone.named("Europe/Prague")!, Fixtures.utc] {
                if let when = try? When.parse(text, now: Fixtures.epoch, zone: zone) {
                    #expect(When.fromStorage(when.storageText) == when, "\(name)")
                }
            }
            if let period = try? RecurrencePeriod.parse(text) {
                #expect(try RecurrencePeriod.parse(period.description) == period, "\(name)")
            }
        }
    }

    @Test("event payloads: decode or refuse, and decoded events re-encode equal")
    func events() throws {
        for (name, bytes) in FuzzCorpus.inputs("events") {
            let text = String(decoding: bytes, as: UTF8.self)
            guard let newline = text.firstIndex(of: "\n"),
                  case .object(let object)? = try? JSON.parse(String(text[text.index(after: newline)...])),
                  let event = try? EventCatalog.decode(type: String(text[..<newline]), schema: 1, data: object)
            else { continue }
            #expect(try EventCatalog.decode(type: EventCatalog.typeName(of: event), schema: 1, data: EventCatalog.payload(of: event)) == event, "\(name)")
        }
    }
}
