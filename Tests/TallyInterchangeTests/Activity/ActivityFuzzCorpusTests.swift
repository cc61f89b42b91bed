import Foundation
import Testing
@testable import TallyDomain
import TallyTestSupport
@testable import TallyEssentials
@testable import TallyInterchange

/// Replays the committed fuzz corpus (Fuzz/corpus) with the fuzz targets' invariants, so every input
/// the fuzzers ever found interesting — crashes included — stays a regression test.
@Suite("Fuzz corpus replay: activity files and XML")
struct ActivityFuzzCorpusTests {
    @Test("FIT, TCX and GPX inputs of the structure-aware targets: refused with a reason, or a record inside the limits that survives export and import",
          arguments: ["fit", "tcx", "gpx"])
    func activityFiles(_ target: String) throws {
        let inputs = FuzzCorpus.inputs(target)
        #expect(inputs.count >= 3)
        for (name, bytes) in inputs {
            let file = FuzzActivityInput.file(format: target, bytes)
            #expect(ActivityFileInvariant.violation(file) == nil, "\(target)/\(name)")
        }
    }

    @Test("XML, GPX and TCX: parse or refuse, and an accepted activity obeys the event rules")
    func xml() throws {
        let inputs = FuzzCorpus.inputs("xml")
        #expect(inputs.count >= 4)
        for (name, bytes) in inputs {
            try? XMLReader.parse(bytes) { _ in }
            guard let fields = try? ActivityFile.summarize(bytes) else { continue }
            #expect(throws: Never.self, "\(name)") { try EventRules.checkPayload(.recordLogged(fields)) }
        }
    }
}
