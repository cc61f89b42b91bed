import Foundation
import Testing
@testable import TallyCLI
import TallyDomain
import TallyTestSupport

@Suite("Import line reader")
struct LineReaderTests {
    /// The lines `LineReader` gives for `bytes`, read `chunk` bytes at a time.
    static func lines(_ bytes: [UInt8], chunk: Int) throws -> [[UInt8]] {
        let directory = TemporaryDirectory("tally-lines")
        let path = directory.path("input")
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        var lines: [[UInt8]] = []
        try LineReader(path: path, chunkSize: chunk).forEachLine { line, number in
            #expect(number == lines.count + 1)
            lines.append(Array(line))
        }
        return lines
    }

    @Test("lines split at \\n, drop one \\r before it, keep a last line without \\n, whatever the chunk size", arguments: [1, 2, 3, 7, 64, 1 << 20])
    func splitting(chunk: Int) throws {
        let input = Array("first\r\nsecond\n\n  \nlonger than any small chunk\r\r\nlast".utf8)
        let expected = ["first", "second", "", "  ", "longer than any small chunk\r", "last"].map { Array($0.utf8) }
        #expect(try Self.lines(input, chunk: chunk) == expected)
        #expect(try Self.lines([], chunk: chunk).isEmpty)
        #expect(try Self.lines(Array("\n".utf8), chunk: chunk) == [[]])
    }

    @Test("every input of the committed fuzz corpus reads back to itself and decodes or is refused cleanly")
    func corpusReplay() throws {
        let folder = PackageFiles.url("Fuzz/corpus/lines")
        let names = try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted()
        #expect(!names.isEmpty)
        var decoded = 0
        for name in names {
            let bytes = Array(try Data(contentsOf: folder.appendingPathComponent(name)))
            guard let first = bytes.first else { continue }
            let input = Array(bytes.dropFirst())
            let lines = try Self.lines(input, chunk: Int(first % 64) + 1)
            for line in lines {
                if (try? line.withUnsafeBufferPointer { try EventLines.decode($0) }) != nil { decoded += 1 }
            }
            let newlines = input.filter { $0 == 0x0A }.count
            #expect(lines.count == newlines + (input.last.map { $0 == 0x0A ? 0 : 1 } ?? 0), "\(name)")
        }
        #expect(decoded >= 2, "the seed events no longer decode")
    }
}
