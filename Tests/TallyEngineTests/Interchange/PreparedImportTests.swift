import Testing
@testable import TallyEngine
import TallyDomain
import TallySQLite
import TallyTestSupport
@testable import TallyEssentials

/// Imports whose lines come decoded and chained ahead (`PreparedEvent`), as `tally import` gives them
/// from its reading thread: the log must end exactly as an import that decodes and chains every line itself.
@Suite("Import of lines prepared ahead")
struct PreparedImportTests {
    let directory = TemporaryDirectory()

    /// `count` events over a few todos: creations, then completions and reopenings of random todos.
    func lines(count: Int, seed: UInt64) -> [String] {
        var random = SplitMix64(seed: seed)
        var versions: [Int] = []
        var lines: [String] = []
        for index in 0..<count {
            let todo: Int
            let type: String
            let data: String
            if versions.count < 5 || random.next() % 4 == 0 {
                todo = versions.count
                versions.append(0)
                type = "todo.created"
                data = #"{"due":null,"note":null,"priority":null,"series":null,"tags":["t"],"title":"todo \#(index)","wait":null}"#
            } else {
                todo = Int(random.next() % UInt64(versions.count))
                type = versions[todo] % 2 == 1 ? "todo.completed" : "todo.reopened"
                data = "{}"
            }
            versions[todo] += 1
            let schema = type == "todo.created" ? 4 : 1
            let event = EventEnvelope(
                seq: Int64(index + 1), id: uuid(0xE, index), stream: uuid(0x5, todo), version: versions[todo], type: type,
                schema: schema, data: data, recordedAt: 1_795_000_000_000 + Int64(index), actor: "test", command: uuid(0xC, index), hash: ""
            )
            lines.append(EventLines.encode(event))
        }
        return lines
    }

    func uuid(_ kind: Int, _ number: Int) -> String {
        let digits = String(number, radix: 16)
        return "0000000" + String(kind, radix: 16) + "-0000-4000-8000-" + String(repeating: "0", count: 12 - digits.count) + digits
    }

    /// Imports `lines`, preparing each one ahead from `head` (nil: not prepared) the way `DecodedLineReader` does.
    func importPrepared(_ lines: [String], into log: EventLog, chainFrom head: LogHead?) throws -> ImportSummary {
        var chain = head.map { PreparedEvent.Chain(from: $0) }
        return try Importer.run(into: log, decodedLines: { add in
            for (index, line) in lines.enumerated() {
                let bytes = Array(line.utf8)
                try bytes.withUnsafeBufferPointer { buffer in
                    let prepared = (try? EventLines.decode(buffer)).flatMap { event in chain?.prepare(event) }
                    try add(buffer, index + 1, prepared)
                }
            }
        })
    }

    /// The log an import that decodes and chains every line itself makes of `lines`, exported.
    func plainExport(_ lines: [String]) throws -> [String] {
        let plain = try SQLiteEventLog.openForWriting(path: directory.path("plain.db"), now: 0)
        _ = try importPrepared(lines, into: plain, chainFrom: nil)
        return try export(plain)
    }

    func export(_ log: EventLog) throws -> [String] {
        var lines: [String] = []
        try log.scan(after: 0, through: nil) { lines.append(EventLines.encode($0)) }
        return lines
    }

    @Test("into an empty log: the same events, seq and hashes as an import that chains each line itself")
    func empty() throws {
        let lines = lines(count: 300, seed: 1)
        let plain = try plainExport(lines)
        let prepared = try SQLiteEventLog.openForWriting(path: directory.path("prepared.db"), now: 0)
        let summary = try importPrepared(lines, into: prepared, chainFrom: try prepared.head())
        #expect(summary == ImportSummary(read: 300, appended: 300, skipped: 0))
        #expect(try export(prepared) == plain)
        #expect(try Verifier.run(prepared).isIntact)
    }

    @Test("a chain prepared from a wrong head is not taken: the importer links each event to the log's real head")
    func wrongHead() throws {
        let lines = lines(count: 50, seed: 2)
        let plain = try plainExport(lines)
        for head in [LogHead(seq: 0, hash: String(repeating: "1", count: 64)), LogHead(seq: 7, hash: EventHash.genesis)] {
            let log = try SQLiteEventLog.openForWriting(path: directory.path("wrong-\(head.seq).db"), now: 0)
            _ = try importPrepared(lines, into: log, chainFrom: head)
            #expect(try export(log) == plain)
            #expect(try Verifier.run(log).isIntact)
        }
    }

    @Test("after skipped events the rest is chained by the importer: a half-imported file completes with an intact chain")
    func skippedThenAppended() throws {
        let lines = lines(count: 200, seed: 3)
        let plain = try plainExport(lines)
        let log = try SQLiteEventLog.openForWriting(path: directory.path("half.db"), now: 0)
        _ = try importPrepared(Array(lines.prefix(120)), into: log, chainFrom: try log.head())
        let summary = try importPrepared(lines, into: log, chainFrom: try log.head())
        #expect(summary == ImportSummary(read: 200, appended: 80, skipped: 120))
        #expect(try export(log) == plain)
        #expect(try Verifier.run(log).isIntact)
    }

    @Test("a line that does not decode comes unprepared and fails at its number, with nothing appended")
    func malformedLine() throws {
        var lines = lines(count: 40, seed: 4)
        lines[29] = #"{"seq":30,"id":"#
        let log = try SQLiteEventLog.openForWriting(path: directory.path("bad.db"), now: 0)
        do {
            _ = try importPrepared(lines, into: log, chainFrom: try log.head())
            Issue.record("a malformed line was imported")
        } catch let ImportError.malformed(line, _) {
            #expect(line == 30)
        }
        #expect(try log.head().seq == 0)
    }
}
