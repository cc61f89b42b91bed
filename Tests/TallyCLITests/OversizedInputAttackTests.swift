import Foundation
import Testing
import TallyDomain
import TallyTestSupport

/// Import files with lines far larger than any file tally keeps, and blob lines no event names:
/// refused at once with bounded memory, never stored, never reported as stored.
@Suite("Huge and unnamed import lines")
struct OversizedInputAttackTests {
    /// A blob line whose base64 holds `bytes` bytes (`A` repeated), without a newline at the end when `open`.
    static func blobLine(sha: String, bytes: Int, to handle: FileHandle) {
        handle.write(Data("{\"blob\":\"\(sha)\",\"encoding\":\"identity\",\"data\":\"".utf8))
        let chunk = Data(repeating: UInt8(ascii: "Q"), count: 1 << 20)
        var left = bytes / 3 * 4
        while left > 0 {
            handle.write(left >= chunk.count ? chunk : chunk.prefix(left))
            left -= chunk.count
        }
        handle.write(Data("\"}\n".utf8))
    }

    @Test("a line past the 256 MB file limit is refused at once, without holding it all")
    func tooLong() throws {
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/time") else { return }
        let tally = TallyRunner()
        let path = tally.directory.path("huge.jsonl")
        FileManager.default.createFile(atPath: path, contents: nil)
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: path))
        Self.blobLine(sha: String(repeating: "a", count: 64), bytes: ActivityLimits.maxFileBytes + AttackScale.count(short: 1 << 20, full: 100 << 20), to: handle)
        try handle.close()
        let result = tally.run(["import", path], launcher: ["/usr/bin/time", "-v"])
        #expect(result.status == 65)
        #expect(result.stderr.contains("Error: Line 1 is longer than 357.9 MB, more than a 256 MB file takes; nothing was imported."), "\(result.stderr)")
        let resident = result.stderr.split(separator: "\n").first { $0.contains("Maximum resident set size") }
            .flatMap { Int($0.split(separator: ":").last?.trimmingCharacters(in: .whitespaces) ?? "") } ?? 0
        #expect(resident > 0 && resident < 2 * (ActivityLimits.maxFileBytes >> 10) + (160 << 10), "peak \(resident) KiB")
        #expect(!FileManager.default.fileExists(atPath: tally.databasePath), "a new database that got nothing is left behind")
    }

    @Test("a blob line no event names is not stored, and not reported as stored")
    func unnamedBlob() throws {
        let tally = TallyRunner()
        tally.run("add", "kept")
        let content = Array("an original file no event names".utf8)
        let sha = SHA256.hex(SHA256.digest(content))
        let line = "{\"blob\":\"\(sha)\",\"encoding\":\"identity\",\"data\":\"\(Data(content).base64EncodedString())\"}\n"
        let exported = tally.run("export").stdout
        for file in [line, line + exported, exported.replacingOccurrences(of: "\n", with: "\n" + line)] {
            let path = tally.directory.path("unnamed.jsonl")
            try file.write(toFile: path, atomically: true, encoding: .utf8)
            let result = tally.run("import", path)
            #expect(result.status == 0, "\(result.stderr)")
            #expect(!result.stdout.contains("original activity file"), "\(result.stdout)")
            let json = tally.run("--json", "import", path).json?.objectValue
            #expect(json?["blobs"]?.intValue == 0)
            #expect(!tally.run("export").stdout.contains(sha), "the unnamed file was stored")
            #expect(tally.eventCount == 1)
            #expect(tally.run("verify").status == 0)
        }
    }
}
