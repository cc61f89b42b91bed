import Testing
import TallyTestSupport
@testable import TallyEssentials

/// Replays the committed fuzz corpus (Fuzz/corpus) with the fuzz targets' invariants, so every input
/// the fuzzers ever found interesting — crashes included — stays a regression test.
@Suite("Fuzz corpus replay: JSON")
struct JSONFuzzCorpusTests {
    @Test("JSON: parse or refuse, and every serializer round-trips")
    func json() throws {
        for (name, bytes) in FuzzCorpus.inputs("json") {
            guard let value = bytes.withUnsafeBufferPointer({ try? JSON.parse(utf8: $0) }) else { continue }
            for style in [JSON.Style.compact, .pretty, .canonical] {
                #expect(try JSON.parse(value.serialized(style)) == value, "\(name) \(style)")
            }
        }
    }
}
