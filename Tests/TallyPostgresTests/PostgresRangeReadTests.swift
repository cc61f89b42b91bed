import Foundation
import Testing
import TallyEngine
import TallyDomain
@testable import TallyPostgres
import TallyTestSupport

@Suite("PostgreSQL: the head and sampled positions in one query", .enabled(if: PostgresTestServer.isEnabled))
struct PostgresRangeReadTests {
    @Test("headAndRanges returns what the head and one scan per range return, in log order; past its limit it reads range by range")
    func sameAsScans() throws {
        let server = try PostgresTestServer.shared()
        let log = try PostgresEventLog.openForWriting(conninfo: try server.makeDatabase(), now: 1, lockTimeout: 30_000)
        defer { log.close() }
        // An empty log: no head, no events, for any positions.
        let empty = try log.headAndRanges([1...3])
        #expect(empty.head == .empty && empty.events.isEmpty)
        var factory = EventFactory()
        let made = (0 ..< 3_000).map { factory.make(.todoCreated(TodoFields(title: "todo \($0)")), stream: "s\($0)") }
        try log.write { try log.append(made) }
        let head = LogHead(seq: 3_000, hash: made[2_999].hash)
        let cases: [[ClosedRange<Int64>]] = [
            [], [1...1], [1...66], [5...6, 900...901, 2_999...3_000], [2_999...3_005], [3_001...3_002],
            // More positions than one query takes: the same answer, range by range.
            [1...2_500, 2_900...2_901],
        ]
        for ranges in cases {
            let read = try log.headAndRanges(ranges)
            var scanned: [EventEnvelope] = []
            for range in ranges { try log.scan(after: range.lowerBound - 1, through: range.upperBound) { scanned.append($0) } }
            #expect(read.head == head, "\(ranges)")
            #expect(read.events.map(\.seq) == scanned.map(\.seq), "\(ranges)")
            #expect(read.events == scanned, "\(ranges): the same rows, every column")
        }
    }
}
