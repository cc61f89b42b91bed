import Foundation
import Testing
import TallyDomain
import TallyTestSupport
@testable import TallyEssentials

/// Import files with lines far larger than any file tally keeps, and blob lines no event names:
/// refused at once with bounded memory, never stored, never reported as stored; an allowed large
/// file is read in pieces, with memory near twice its size through import and export.
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
        _ = FileManager.default.createFile(atPath: path, contents: nil)
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

    /// Peak resident memory in KiB from `/usr/bin/time -v`'s report on stderr (0 when absent).
    static func peakKiB(_ stderr: String) -> Int {
        stderr.split(separator: "\n").first { $0.contains("Maximum resident set size") }
            .flatMap { Int($0.split(separator: ":").last?.trimmingCharacters(in: .whitespaces) ?? "") } ?? 0
    }

    /// What `/bin/sh -c` prints.
    static func shell(_ script: String) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = ["-c", script]
        let pipe = Pipe()
        process.standardOutput = pipe
        try process.run()
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// A record.logged event line that names `sha` as its original file, from a real import.
    static func recordEvent(naming sha: String) throws -> String {
        let source = TallyRunner()
        source.run("record", "import", PackageFiles.url("Tests/Fixtures/activities/cerknicko-jezero.gpx").path)
        let event = try #require(source.run("export").stdout.split(separator: "\n").first { $0.contains("\"record.logged\"") })
        return String(event).replacingOccurrences(of: #""sha256":"[0-9a-f]{64}""#, with: "\"sha256\":\"\(sha)\"", options: .regularExpression)
    }

    /// Writes `bytes` of seeded random content to `path` (3 MB at a time) and returns its SHA-256.
    static func content(bytes: Int, to path: String) throws -> String {
        _ = FileManager.default.createFile(atPath: path, contents: nil)
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: path))
        var random = SplitMix64(seed: 256)
        var block = Data((0..<(3 << 20) / 8).flatMap { _ in withUnsafeBytes(of: random.next()) { Array($0) } })
        var left = bytes
        var round: UInt8 = 0
        while left > 0 {
            block[0] = round
            round &+= 1
            handle.write(left >= block.count ? block : block.prefix(left))
            left -= block.count
        }
        try handle.close()
        return try shell("sha256sum '\(path)' | cut -c1-64")
    }

    /// An import file: the blob line of the file at `raw` (read and encoded 3 MB at a time), then `event`.
    static func importFile(raw: String, sha: String, event: String, to path: String) throws {
        _ = FileManager.default.createFile(atPath: path, contents: nil)
        let output = try FileHandle(forWritingTo: URL(fileURLWithPath: path))
        let input = try FileHandle(forReadingFrom: URL(fileURLWithPath: raw))
        output.write(Data("{\"blob\":\"\(sha)\",\"encoding\":\"identity\",\"data\":\"".utf8))
        while let chunk = try input.read(upToCount: 3 << 20), !chunk.isEmpty {
            output.write(Data(chunk.base64EncodedString().utf8))
        }
        output.write(Data("\"}\n\(event)\n".utf8))
        try input.close()
        try output.close()
    }

    @Test("an allowed large file: import and export each peak near twice its size, and export -> import -> export is identical")
    func allowedLargeBlob() throws {
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/time"), FileManager.default.isExecutableFile(atPath: "/usr/bin/sha256sum") else { return }
        let size = AttackScale.count(short: 100 << 20, full: ActivityLimits.maxFileBytes)
        let tally = TallyRunner()
        let raw = tally.directory.path("original.bin")
        let sha = try Self.content(bytes: size, to: raw)
        let path = tally.directory.path("large.jsonl")
        try Self.importFile(raw: raw, sha: sha, event: try Self.recordEvent(naming: sha), to: path)
        try FileManager.default.removeItem(atPath: raw)
        // The bound: the decoded file, SQLite's copy of the row it builds, and a fixed 64 MB for the rest.
        let bound = 2 * (size >> 10) + (64 << 10)

        let imported = tally.run(["import", path], launcher: ["/usr/bin/time", "-v"])
        #expect(imported.status == 0, "\(imported.stderr)")
        #expect(imported.stdout.contains("Stored 1 original activity file."), "\(imported.stdout)")
        let importPeak = Self.peakKiB(imported.stderr)
        #expect(importPeak > 0 && importPeak < bound, "import peak \(importPeak) KiB for a \(size >> 20) MB file")
        #expect(tally.run("verify").status == 0)

        let first = tally.directory.path("first.jsonl")
        let exported = tally.run(["export", "--output", first], launcher: ["/usr/bin/time", "-v"])
        #expect(exported.status == 0, "\(exported.stderr)")
        let exportPeak = Self.peakKiB(exported.stderr)
        #expect(exportPeak > 0 && exportPeak < bound, "export peak \(exportPeak) KiB for a \(size >> 20) MB file")
        #expect(try Self.shell("head -n 1 '\(first)' | sha256sum") == (try Self.shell("head -n 1 '\(path)' | sha256sum")), "the blob line changed")
        try FileManager.default.removeItem(atPath: path)

        let copy = TallyRunner()
        #expect(copy.run("import", first).status == 0)
        #expect(copy.run("verify").status == 0)
        let second = copy.directory.path("second.jsonl")
        #expect(copy.run("export", "--output", second).status == 0)
        #expect(try Self.shell("sha256sum < '\(first)'") == (try Self.shell("sha256sum < '\(second)'")))
    }

    @Test("a blob line read in pieces is checked like a short one: bad base64 mid-line, cut short, a wrong name, bad gzip; nothing is appended")
    func streamedHostile() throws {
        let tally = TallyRunner()
        tally.run("add", "kept")
        let content = Data((0..<(3 << 19)).map { UInt8(truncatingIfNeeded: $0 &* 31) })
        let sha = SHA256.hex(SHA256.digest(Array(content)))
        let data = content.base64EncodedString()
        let event = try Self.recordEvent(naming: sha)
        let middle = data.index(data.startIndex, offsetBy: data.count / 2)
        let cases: [(String, String)] = [
            ("{\"blob\":\"\(sha)\",\"encoding\":\"identity\",\"data\":\"\(data[..<middle])!\(data[middle...])\"}\n\(event)\n", "Line 1: field 'data' is not base64."),
            ("{\"blob\":\"\(sha)\",\"encoding\":\"identity\",\"data\":\"\(data)", "Line 1: field 'data' is not base64."),
            ("{\"blob\":\"\(String(repeating: "b", count: 64))\",\"encoding\":\"identity\",\"data\":\"\(data)\"}\n\(event)\n", "does not match its name"),
            ("{\"blob\":\"\(sha)\",\"encoding\":\"gzip\",\"data\":\"\(data)\"}\n\(event)\n", "Line 1: the compressed data is damaged."),
            ("{\"blob\":\"\(sha)\",\"encoding\":\"identity\",\"data\":\"\(data)\",\"data\":\"\"}\n\(event)\n", "Line 1: field 'data' appears twice."),
        ]
        for (file, message) in cases {
            let path = tally.directory.path("streamed.jsonl")
            try file.write(toFile: path, atomically: true, encoding: .utf8)
            let result = tally.run("import", path)
            #expect(result.status == 65, "\(message): \(result.stderr)")
            #expect(result.stderr.contains(message) && result.stderr.contains("Nothing was imported."), "\(result.stderr)")
            #expect(tally.eventCount == 1)
            #expect(!tally.run("export").stdout.contains(sha))
        }
        // Two long blob lines in a row: only the one the next event names is stored.
        let line = "{\"blob\":\"\(sha)\",\"encoding\":\"identity\",\"data\":\"\(data)\"}\n"
        let other = Data(content.reversed())
        let otherLine = "{\"blob\":\"\(SHA256.hex(SHA256.digest(Array(other))))\",\"encoding\":\"identity\",\"data\":\"\(other.base64EncodedString())\"}\n"
        let path = tally.directory.path("two.jsonl")
        try (line + otherLine + event + "\n").write(toFile: path, atomically: true, encoding: .utf8)
        let unnamed = tally.run("--json", "import", path)
        #expect(unnamed.status == 0 && unnamed.json?.objectValue?["blobs"]?.intValue == 0, "\(unnamed.stderr)")
        try (otherLine + line + event + "\n").write(toFile: path, atomically: true, encoding: .utf8)
        let named = tally.run("--json", "import", path)
        #expect(named.status == 0 && named.json?.objectValue?["blobs"]?.intValue == 1, "\(named.stderr)")
        #expect(tally.run("export").stdout.contains(sha))
        #expect(tally.run("verify").status == 0)
    }
}
