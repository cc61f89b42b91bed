import Foundation
import Testing
@testable import TallyCLI
import TallyDomain
import TallyTestSupport
@testable import TallyEssentials

/// `tally import` reads and decodes lines on a second thread in batches of 1,024 lines: a file of
/// several batches imports in its order, and an error in any batch is reported at its line with
/// nothing appended, as when every line was read on one thread.
@Suite("tally import across reading batches")
struct ImportBatchesTests {
    @Test("3,000 events with blank lines: every one imported in order, the chain intact, a second import skips all")
    func large() throws {
        let tally = TallyRunner()
        let path = tally.directory.path("large.jsonl")
        var random = SeededRandom(seed: 12)
        let file = try GeneratedExport(events: 3_000, path: path, random: &random)
        var lines = try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        lines.insert("   ", at: 1_500)
        try lines.joined(separator: "\n").write(toFile: path, atomically: true, encoding: .utf8)
        let count = file.ids.count
        let imported = tally.run("import", path)
        #expect(imported.status == 0 && imported.stdout == "Imported \(count) of \(count) events (0 already present).\n", "\(imported.stderr)")
        #expect(tally.run("verify").stdout == "OK: \(count) events, chain intact\n")
        let ids = tally.run("export").stdout.split(separator: "\n").compactMap { (try? JSON.parse(String($0)))?.objectValue?["id"]?.stringValue }
        #expect(ids == file.ids)
        let again = tally.run("import", "--json", path)
        #expect(again.json == .object(["read": .int(Int64(count)), "appended": 0, "skipped": .int(Int64(count)), "blobs": 0]))
    }

    @Test("a malformed line in a later batch exits 65 naming it, and nothing is appended", arguments: [2, 1_024, 1_025, 2_049, 2_600])
    func malformedLater(number: Int) throws {
        let tally = TallyRunner()
        let path = tally.directory.path("bad.jsonl")
        var random = SeededRandom(seed: UInt64(number))
        _ = try GeneratedExport(events: 2_700, path: path, random: &random)
        var lines = try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n").map(String.init)
        lines[number - 1] = String(lines[number - 1].dropLast(5))
        try (lines.joined(separator: "\n") + "\n").write(toFile: path, atomically: true, encoding: .utf8)
        let result = tally.run("import", path)
        #expect(result.status == 65, "\(result.stderr)")
        #expect(result.stderr.hasPrefix("Error: Line \(number): "), "\(result.stderr)")
        #expect(result.stderr.contains("Nothing was imported."))
        #expect(tally.eventCount == 0)
    }

    /// A stop with the queue full leaves `free` below its places; the reader must still be freed
    /// quietly (libdispatch stops a process that frees a semaphore below the value it was made with).
    @Test("the reader stops and is freed when its caller stops early with the queue full, and lines come in order")
    func earlyStop() throws {
        let directory = TemporaryDirectory()
        let path = directory.path("lines.txt")
        try (1...2_000).map { "line \($0)" }.joined(separator: "\n").write(toFile: path, atomically: true, encoding: .utf8)
        struct Enough: Error {}
        for stopAt in [1, 35, 1_999] {
            var seen: [Int] = []
            var reader: DecodedLineReader? = DecodedLineReader(try LineReader(path: path), head: .empty, depth: 2, linesPerBatch: 10)
            #expect(throws: Enough.self) {
                try reader?.forEachLine(blob: { _ in Issue.record("no blob line") }, blobFollows: {}) { bytes, number, prepared in
                    #expect(String(decoding: bytes, as: UTF8.self) == "line \(number)" && prepared == nil)
                    seen.append(number)
                    if number == stopAt { throw Enough() }
                }
            }
            #expect(seen == Array(1...stopAt))
            weak let stopped = reader
            reader = nil
            for _ in 0..<200 where stopped != nil { usleep(10_000) }
            #expect(stopped == nil, "the reading thread ended")
        }
    }
}
