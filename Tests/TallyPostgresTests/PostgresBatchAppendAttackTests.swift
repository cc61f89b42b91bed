import Foundation
import Testing
import TallyEngine
import TallyDomain
@testable import TallyPostgres
import TallyTestSupport

/// Hostile callers of the batch path (migration 11): roles that may not append, writers trying to
/// skip the row trigger, malformed arrays, and batches with one corrupted row among valid ones.
@Suite("PostgreSQL batch append attacks", .enabled(if: PostgresTestServer.isEnabled))
struct PostgresBatchAppendAttackTests {
    let server: PostgresTestServer

    init() throws {
        server = try PostgresTestServer.shared()
    }

    func open(_ uri: String) throws -> PostgresEventLog {
        try PostgresEventLog.openForWriting(conninfo: uri, now: 1, lockTimeout: 30_000)
    }

    static let signature = "tally_append_batch(BIGINT[], TEXT[], TEXT[], INTEGER[], TEXT[], INTEGER[], TEXT[], BIGINT[], TEXT[], TEXT[], TEXT[])"

    /// A call of the batch function with `events` written out as SQL array literals.
    static func call(_ events: [EventEnvelope]) -> String {
        func texts(_ values: [String]) -> String { "ARRAY[" + values.map { "'" + $0.replacingOccurrences(of: "'", with: "''") + "'" }.joined(separator: ",") + "]::text[]" }
        func numbers(_ values: [Int64], _ type: String) -> String { "ARRAY[" + values.map(String.init).joined(separator: ",") + "]::\(type)[]" }
        return "SELECT tally_append_batch(" + [
            numbers(events.map(\.seq), "bigint"), texts(events.map(\.id)), texts(events.map(\.stream)),
            numbers(events.map { Int64($0.version) }, "integer"), texts(events.map(\.type)), numbers(events.map { Int64($0.schema) }, "integer"),
            texts(events.map(\.data)), numbers(events.map(\.recordedAt), "bigint"), texts(events.map(\.actor)), texts(events.map(\.command)),
            texts(events.map(\.hash)),
        ].joined(separator: ", ") + ")"
    }

    @Test("a role that may not append is refused by the batch function even when granted EXECUTE on it; nothing is appended")
    func readerGrantedExecuteIsRefused() throws {
        let uri = try server.makeDatabase()
        try open(uri).close()
        let database = PostgresTestServer.databaseName(uri)
        let reader = try server.makeRole("batchreader", grants: PostgresTestServer.Grants.reader + ["GRANT EXECUTE ON FUNCTION \(Self.signature) TO ROLE"], database: database)
        let made = BatchEvents.make(3, streams: 1)
        #expect {
            try server.psql(Self.call(made), database: database, user: reader.name, password: reader.password)
        } throws: { error in
            "\(error)".contains("permission denied for table events")
        }
        // Through tally: the same refusal as before batches existed.
        let log = try open(server.uri(database: database, user: reader.name, password: reader.password))
        #expect {
            try log.write { try log.append(made) }
        } throws: { error in
            if case EventLogError.permissionDenied = error { return true }
            return false
        }
        #expect(try server.psql("SELECT count(*) FROM events", database: database) == "0")
        // A reader without the grant cannot call it at all.
        let plain = try server.makeRole("plainreader", grants: PostgresTestServer.Grants.reader, database: database)
        #expect {
            try server.psql(Self.call(made), database: database, user: plain.name, password: plain.password)
        } throws: { error in
            "\(error)".contains("permission denied for function tally_append_batch")
        }
    }

    @Test("a writer setting tally.batch itself still goes through the row trigger: a forged hash or seq is refused")
    func settingTheFlagSkipsNothing() throws {
        let uri = try server.makeDatabase()
        try open(uri).close()
        let database = PostgresTestServer.databaseName(uri)
        let writer = try server.makeRole("flagwriter", grants: PostgresTestServer.Grants.writer, database: database)
        var made = BatchEvents.make(2, streams: 1)
        made[0].hash = String(repeating: "c", count: 64)
        func insert(_ event: EventEnvelope) -> String {
            "SET tally.batch = 'on'; BEGIN; SELECT set_config('tally.batch', 'on', true); INSERT INTO events(seq, id, stream, version, type, schema, data, recorded_at, actor, command, hash) VALUES ("
                + "\(event.seq), '\(event.id)', '\(event.stream)', \(event.version), '\(event.type)', \(event.schema), '\(event.data.replacingOccurrences(of: "'", with: "''"))', "
                + "\(event.recordedAt), '\(event.actor)', '\(event.command)', '\(event.hash)'); COMMIT"
        }
        #expect {
            try server.psql(insert(made[0]), database: database, user: writer.name, password: writer.password)
        } throws: { error in
            "\(error)".contains("event 1: the hash does not link to the event before it")
        }
        #expect {
            try server.psql(insert(made[1]), database: database, user: writer.name, password: writer.password)
        } throws: { error in
            "\(error)".contains("events must be appended in order: seq 2 after 0")
        }
        #expect(try server.psql("SELECT count(*) FROM events", database: database) == "0")
    }

    @Test("a temporary table named events does not stand in for the log inside the batch function")
    func temporaryEventsTableIgnored() throws {
        let uri = try server.makeDatabase()
        try open(uri).close()
        let database = PostgresTestServer.databaseName(uri)
        let writer = try server.makeRole("tempwriter", grants: PostgresTestServer.Grants.writer, database: database)
        let made = BatchEvents.make(2, streams: 1)
        // The temporary table claims a head at seq 40; the real log is empty, so seq 1 is right.
        let sql = "CREATE TEMP TABLE events(seq BIGINT, hash TEXT, stream TEXT, version INTEGER, id TEXT); INSERT INTO events VALUES (40, 'x', 's0', 9, 'y'); " + Self.call(made)
        #expect(try server.psql(sql, database: database, user: writer.name, password: writer.password) == "2")
        let read = try BatchEvents.readChecked(uri)
        #expect(read.events.count == 2 && read.gapFree && read.linked)
    }

    @Test("malformed arrays are refused before the lock: unequal lengths, NULLs, two dimensions, more than 100,000 events")
    func malformedArrays() throws {
        let uri = try server.makeDatabase()
        try open(uri).close()
        let database = PostgresTestServer.databaseName(uri)
        let made = BatchEvents.make(2, streams: 1)
        let good = Self.call(made)
        let cases: [(String, String)] = [
            (good.replacingOccurrences(of: "ARRAY[1,2]::bigint[]", with: "ARRAY[1]::bigint[]"), "are not 1 values each"),
            (good.replacingOccurrences(of: "ARRAY[1,2]::bigint[]", with: "ARRAY[1,NULL]::bigint[]"), "the batch holds a null value"),
            (good.replacingOccurrences(of: "ARRAY[1,2]::bigint[]", with: "ARRAY[[1],[2]]::bigint[]"), "are not 2 values each"),
            ("SELECT tally_append_batch(" + Array(repeating: "", count: 11).enumerated().map { index, _ in
                let type = ["bigint", "text", "text", "integer", "text", "integer", "text", "bigint", "text", "text", "text"][index]
                return "array_fill(NULL::\(type), ARRAY[100001])"
            }.joined(separator: ", ") + ")", "a batch holds at most 100000 events"),
        ]
        for (sql, message) in cases {
            #expect {
                try server.psql(sql, database: database)
            } throws: { error in
                "\(error)".contains(message)
            }
        }
        #expect(try server.psql("SELECT count(*) FROM events", database: database) == "0")
    }

    @Test("one corrupted row among valid ones refuses the whole batch, whatever the corruption and wherever the row")
    func oneCorruptRowRefusesTheBatch() throws {
        let uri = try server.makeDatabase()
        let log = try open(uri)
        let rounds = AttackScale.count(short: 24, full: 300)
        var generator = SystemRandomNumberGenerator()
        let corruptions: [(inout EventEnvelope) -> Void] = [
            { $0.hash = String($0.hash.reversed()) },
            { $0.seq += 1 },
            { $0.version = 0 },
            { $0.type = "Todo.Created" },
            { $0.actor = "" },
            { $0.actor = "bad\u{1}actor" },
            { $0.data = "[]" },
            { $0.data = "{\"title\":" },
            { $0.stream = "" },
            { $0.id = $0.id.uppercased() },
            { $0.command = "not-a-uuid" },
            { $0.schema = 0 },
            { $0.recordedAt = Int64.max },
            { $0.data = $0.data.replacingOccurrences(of: "\"todo ", with: "\"\u{7f}") },
        ]
        for round in 0 ..< rounds {
            var made = BatchEvents.make(Int.random(in: 2 ... 40, using: &generator), streams: 5)
            let index = Int.random(in: 0 ..< made.count, using: &generator)
            corruptions[round % corruptions.count](&made[index])
            // Only the corrupted field is wrong: the hash is made again over it (except for the hash's own corruption).
            if round % corruptions.count != 0 {
                var previous = index == 0 ? LogHead.empty : LogHead(seq: made[index - 1].seq, hash: made[index - 1].hash)
                for later in index ..< made.count {
                    made[later].hash = EventHash.link(previous: previous.hash, made[later])
                    previous = LogHead(seq: made[later].seq, hash: made[later].hash)
                }
            }
            #expect(throws: (any Error).self, "round \(round), row \(index)") { try log.appendBatch(made[...]) }
            #expect(try log.head() == .empty, "round \(round)")
        }
        // The connection is still usable, and a good batch goes in.
        let good = BatchEvents.make(10, streams: 5)
        try log.appendBatch(good[...])
        #expect(try BatchEvents.readChecked(uri).events.count == 10)
    }
}
