import Foundation
import Testing
import TallyEngine
import TallyDomain
@testable import TallyPostgres
import TallyTestSupport

/// The fold's scan by binary COPY (outside a transaction) reads what the paged scan reads.
@Suite("PostgreSQL fold scan by binary COPY", .enabled(if: PostgresTestServer.isEnabled))
struct PostgresFoldCopyTests {
    let server: PostgresTestServer

    init() throws {
        server = try PostgresTestServer.shared()
    }

    struct Row: Equatable {
        var seq: Int64
        var stream: String
        var version: Int
        var type: String
        var schema: Int
        var recordedAt: Int64
        var data: String

        init(_ row: FoldRow) {
            seq = row.seq
            stream = String(decoding: row.stream, as: UTF8.self)
            version = row.version
            type = row.type
            schema = row.schema
            recordedAt = row.recordedAt
            data = String(decoding: row.data, as: UTF8.self)
        }

        init(_ event: EventEnvelope) {
            seq = event.seq
            stream = event.stream
            version = event.version
            type = event.type
            schema = event.schema
            recordedAt = event.recordedAt
            data = event.data
        }
    }

    /// A log whose titles hold what COPY's text format would have to escape, and more than one type.
    func filledLog() throws -> (PostgresEventLog, [EventEnvelope]) {
        let log = try PostgresEventLog.openForWriting(conninfo: try server.makeDatabase(), now: 1, lockTimeout: 30_000)
        var factory = EventFactory()
        var made: [EventEnvelope] = []
        let titles = ["plain", "tab\there", "line\nbreak", "back\\slash \\N", "quote \" and ü ň 🚲", String(repeating: "long ", count: 400)]
        for index in 0 ..< 60 {
            let stream = "s\(index % 7)"
            let title = titles[index % titles.count] + " \(index)"
            made.append(index < 7
                ? factory.make(.todoCreated(TodoFields(title: title)), stream: stream)
                : index % 5 == 0 ? factory.make(.todoCompleted, stream: stream) : factory.make(.todoEdited(TodoChanges(title: title)), stream: stream))
        }
        try log.write { try log.append(made) }
        return (log, made)
    }

    @Test("outside a transaction the fold rows equal the stored events, within any bounds")
    func foldRowsMatchTheLog() throws {
        let (log, made) = try filledLog()
        for (after, through) in [(Int64(0), Int64?.none), (0, 1), (5, 40), (59, nil), (60, nil), (10, 9)] {
            var rows: [Row] = []
            try log.scanForFold(after: after, through: through) { rows.append(Row($0)) }
            let expected = made.filter { $0.seq > after && $0.seq <= (through ?? .max) }.map(Row.init)
            #expect(rows == expected, "after \(after) through \(String(describing: through))")
        }
        // Inside a transaction (the paged scan) the rows are the same.
        var paged: [Row] = []
        try log.write { try log.scanForFold(after: 0, through: nil) { paged.append(Row($0)) } }
        #expect(paged == made.map(Row.init))
    }

    @Test("an error thrown while folding stops the scan, reaches the caller, and leaves the connection usable")
    func errorMidScan() throws {
        struct Stop: Error {}
        let (log, made) = try filledLog()
        var seen = 0
        #expect(throws: Stop.self) {
            try log.scanForFold(after: 0, through: nil) { _ in
                seen += 1
                if seen == 10 { throw Stop() }
            }
        }
        #expect(seen == 10)
        #expect(try log.head() == LogHead(seq: 60, hash: made[59].hash))
        var again = 0
        try log.scanForFold(after: 0, through: nil) { _ in again += 1 }
        #expect(again == 60)
    }

    @Test("rebuild folds the log read by COPY into the same model as a fold of the events in memory")
    func rebuildMatchesInMemoryFold() throws {
        let (log, made) = try filledLog()
        let result = try Rebuild.run(log: log, snapshots: log, now: 2)
        let memory = InMemoryStore(events: made)
        #expect(result.folded.model == (try Replayer.fold(memory, into: ReadModel())))
        #expect(result.folded.model.position == 60)
    }
}
