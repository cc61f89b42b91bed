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

    /// A log whose payloads hold what COPY's text format would have to escape (backslashes, `\N`,
    /// quotes), long and non-ASCII titles, and more than one type.
    func filledLog() throws -> (PostgresEventLog, [EventEnvelope]) {
        let (log, made, _) = try filledStore()
        return (log, made)
    }

    func filledStore() throws -> (PostgresEventLog, [EventEnvelope], String) {
        let uri = try server.makeDatabase()
        let log = try PostgresEventLog.openForWriting(conninfo: uri, now: 1, lockTimeout: 30_000)
        var factory = EventFactory()
        var made: [EventEnvelope] = []
        let titles = ["plain", "back\\slash \\N \\t", "quote \" and ü ň 🚲", "\\\\.", String(repeating: "long ", count: 90)]
        for index in 0 ..< 60 {
            let stream = "s\(index % 7)"
            let title = titles[index % titles.count] + " \(index)"
            made.append(index < 7
                ? factory.make(.todoCreated(TodoFields(title: title)), stream: stream)
                : index % 5 == 0 ? factory.make(.todoCompleted, stream: stream) : factory.make(.todoEdited(TodoChanges(title: title)), stream: stream))
        }
        try log.write { try log.append(made) }
        return (log, made, uri)
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

    @Test("a catch-up after a stored snapshot, which reads the snapshot's chunks while it folds, loads the same state")
    func catchUpFromSnapshot() throws {
        let (log, made, uri) = try filledStore()
        _ = try Rebuild.run(log: log, snapshots: log, now: 2)
        var factory = EventFactory(continuing: made)
        let more = (0 ..< 5).map { factory.make(.todoEdited(TodoChanges(title: "after the snapshot \($0)")), stream: "s\($0)") }
        try log.write { try log.append(more) }
        // A fresh connection, so the snapshot's chunks are read lazily during the fold.
        let fresh = try PostgresEventLog.openForWriting(conninfo: uri, now: 3, lockTimeout: 30_000)
        let loaded = try StateLoader.load(log: fresh, snapshots: fresh)
        #expect(loaded.snapshot?.seq == 60)
        #expect(loaded.folded.model == (try Replayer.fold(InMemoryStore(events: made + more), into: ReadModel())))
    }
}
