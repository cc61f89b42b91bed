import Foundation
import Testing
@testable import TallyCLI
import TallyTestSupport
@testable import TallyArguments

/// Replays the argument-parser fuzz corpus through the real command tree: every input parses or is a usage error.
@Suite("Argument fuzz corpus replay")
struct ArgumentFuzzCorpusTests {
    @Test("every corpus input gives an invocation or a usage error")
    func replay() throws {
        let folder = PackageFiles.url("Fuzz/corpus/args")
        let names = try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted()
        #expect(!names.isEmpty)
        let parser = ArgumentParser(root: CommandTree.root, globalOptions: CommandTree.globalOptions)
        for name in names {
            let bytes = try Data(contentsOf: folder.appendingPathComponent(name))
            let arguments = bytes.split(separator: 0, omittingEmptySubsequences: false).map { String(decoding: $0, as: UTF8.self) }
            do {
                _ = try parser.parse(arguments)
            } catch {
                #expect(!error.englishDescription.isEmpty, "\(name)")
            }
        }
    }
}
