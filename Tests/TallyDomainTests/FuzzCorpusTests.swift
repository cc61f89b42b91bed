import Foundation
import Testing
@testable import TallyDomain
import TallyTestSupport
@testable import TallyEssentials
@testable import TallyInterchange

/// Replays the committed fuzz corpus (Fuzz/corpus) with the fuzz targets' invariants, so every input
/// the fuzzers ever found interesting — crashes included — stays a regression test.
@Suite("Fuzz corpus replay")
struct FuzzCorpusTests {
    static func corpus(_ target: String) -> [(String, [UInt8])] {
        let folder = PackageFiles.url("Fuzz/corpus/\(target)")
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
        return names.sorted().compactMap { name in
            (try? Data(contentsOf: folder.appendingPathComponent(name))).map { (name, Array($0)) }
        }
    }

    @Test("value parsers: parse or refuse, and what parses survives formatting")
    func values() throws {
        let inputs = Self.corpus("values")
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
        let inputs = Self.corpus("dates")
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

    @Test("JSON: parse or refuse, and every serializer round-trips")
    func json() throws {
        for (name, bytes) in Self.corpus("json") {
            guard let value = bytes.withUnsafeBufferPointer({ try? JSON.parse(utf8: $0) }) else { continue }
            for style in [JSON.Style.compact, .pretty, .canonical] {
                #expect(try JSON.parse(value.serialized(style)) == value, "\(name) \(style)")
            }
        }
    }

    @Test("event payloads: decode or refuse, and decoded events re-encode equal")
    func events() throws {
        for (name, bytes) in Self.corpus("events") {
            let text = String(decoding: bytes, as: UTF8.self)
            guard let newline = text.firstIndex(of: "\n"),
                  case .object(let object)? = try? JSON.parse(String(text[text.index(after: newline)...])),
                  let event = try? EventCatalog.decode(type: String(text[..<newline]), schema: 1, data: object)
            else { continue }
            #expect(try EventCatalog.decode(type: EventCatalog.typeName(of: event), schema: 1, data: EventCatalog.payload(of: event)) == event, "\(name)")
        }
    }

    @Test("FIT, TCX and GPX inputs of the structure-aware targets: refused with a reason, or a record inside the limits that survives export and import",
          arguments: ["fit", "tcx", "gpx"])
    func activityFiles(_ target: String) throws {
        let inputs = Self.corpus(target)
        #expect(inputs.count >= 3)
        for (name, bytes) in inputs {
            let file = FuzzActivityInput.file(format: target, bytes)
            #expect(ActivityFileInvariant.violation(file) == nil, "\(target)/\(name)")
        }
    }

    @Test("XML, GPX and TCX: parse or refuse, and an accepted activity obeys the event rules")
    func xml() throws {
        let inputs = Self.corpus("xml")
        #expect(inputs.count >= 4)
        for (name, bytes) in inputs {
            try? XMLReader.parse(bytes) { _ in }
            guard let fields = try? ActivityFile.summarize(bytes) else { continue }
            #expect(throws: Never.self, "\(name)") { try EventRules.checkPayload(.recordLogged(fields)) }
        }
    }
}
