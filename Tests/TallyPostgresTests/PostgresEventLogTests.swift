import Foundation
import Testing
import TallyEngine
import TallyDomain
@testable import TallyPostgres
import TallyTestSupport

@Suite("PostgreSQL migrations")
struct PostgresMigrationFileTests {
    @Test("the SQL compiled into the binary matches migrations/postgresql/*.sql exactly")
    func migrationsDoNotDrift() throws {
        let embedded = PostgresMigration.embedded.map { (version: $0.version, name: $0.name, sql: $0.sql) }
        #expect(try MigrationDrift.differences(folder: "migrations/postgresql", embedded: embedded) == [])
    }
}

@Suite("PostgreSQL event log", .enabled(if: PostgresTestServer.isEnabled))
struct PostgresEventLogTests {
    let server: PostgresTestServer

    init() throws {
        server = try PostgresTestServer.shared()
    }

    func open(_ uri: String) throws -> PostgresEventLog {
        try PostgresEventLog.openForWriting(conninfo: uri, now: 1, lockTimeout: 5_000)
    }

    @Test("migrating an empty database creates the schema once; reading one without it reads as absent")
    func migrateEmpty() throws {
        let uri = try server.makeDatabase()
        let database = PostgresTestServer.databaseName(uri)
        #expect(try PostgresEventLog.openForReading(conninfo: uri, lockTimeout: 1_000) == nil)
        let log = try open(uri)
        #expect(try log.schemaVersion() == PostgresMigration.embedded.last!.version)
        #expect(try log.head() == .empty)
        _ = try open(uri)
        #expect(try server.psql("SELECT count(*) FROM schema_migrations", database: database) == String(PostgresMigration.embedded.count))
        #expect(try PostgresEventLog.openForReading(conninfo: uri, lockTimeout: 1_000) != nil)
    }

    @Test("a streamed scan (binary COPY in chunks) gives what scan gives, the server's role included, for every range")
    func streamedScan() throws {
        let log = try open(try server.makeDatabase())
        var generator = LogGenerator(seed: 12)
        let events = generator.events(50)
        try log.write { try log.append(events) }
        var all: [EventEnvelope] = []
        try log.scan(after: 0, through: nil) { all.append($0) }
        #expect(all.count == 50 && all.allSatisfy { $0.role != nil })
        for (after, through, chunk) in [(0, 50, 7), (0, 50, 50), (0, 50, 100_000), (3, 49, 1), (10, 11, 3), (20, 20, 5), (45, 80, 4), (0, 0, 9)] as [(Int64, Int64, Int64)] {
            var streamed: [EventEnvelope] = []
            try log.scanStreamed(after: after, through: through, chunk: chunk) { streamed.append($0) }
            #expect(streamed == all.filter { $0.seq > after && $0.seq <= through }, "after \(after) through \(through) by \(chunk)")
        }
        // A body that stops early leaves the connection usable.
        struct Enough: Error {}
        #expect(throws: Enough.self) { try log.scanStreamed(after: 0, through: 50, chunk: 20) { if $0.seq == 25 { throw Enough() } } }
        #expect(try log.head().seq == 50)
        // Inside a transaction it reads by pages, the same events.
        var inside: [EventEnvelope] = []
        try log.write { try log.scanStreamed(after: 5, through: 9) { inside.append($0) } }
        #expect(inside == Array(all[5..<9]))
    }

    @Test("scans page through a log longer than one page without losing or repeating an event")
    func paging() throws {
        let log = try open(try server.makeDatabase())
        var generator = LogGenerator(seed: 11)
        let events = generator.events(PostgresEventLog.pageSize + 37)
        try log.write { try log.append(events) }
        var seqs: [Int64] = []
        try log.scanForFold(after: 0, through: nil) { seqs.append($0.seq) }
        #expect(seqs == Array(1 ... Int64(events.count)))
        var backward = 0
        try log.scanBackward(before: nil) { _ in backward += 1; return true }
        #expect(backward == events.count)
        // A reader that stops early (the next page already asked for) leaves the connection usable.
        struct Enough: Error {}
        #expect(throws: Enough.self) { try log.scanForFold(after: 0, through: nil) { if $0.seq == 3 { throw Enough() } } }
        #expect(try log.head().seq == Int64(events.count))
        var tail: [Int64] = []
        try log.scan(after: Int64(events.count - 2), through: nil) { tail.append($0.seq) }
        #expect(tail == [Int64(events.count - 1), Int64(events.count)])
    }

    @Test("the server rejects a seq out of order and keeps nothing of it (conflicts and duplicate ids: StoreContractTests)")
    func seqOutOfOrder() throws {
        let log = try open(try server.makeDatabase())
        var factory = EventFactory()
        let first = factory.make(.todoCreated(TodoFields(title: "a")), stream: "s1")
        try log.write { try log.append([first]) }
        var gap = factory.make(.todoCompleted, stream: "s3")
        gap.seq = 5
        #expect(throws: EventLogError.self) { try log.write { try log.append([gap]) } }
        #expect(try log.head().seq == 1)
    }

    @Test("triggers reject UPDATE, DELETE and TRUNCATE of events, even for the owner; the role cannot be forged")
    func appendOnly() throws {
        let uri = try server.makeDatabase()
        let database = PostgresTestServer.databaseName(uri)
        let log = try open(uri)
        var factory = EventFactory()
        try log.write { try log.append([factory.make(.todoCreated(TodoFields(title: "a")), stream: "s1")]) }
        for statement in ["UPDATE events SET data = '{}'", "DELETE FROM events", "TRUNCATE events"] {
            #expect { try server.psql(statement, database: database) } throws: { "\($0)".contains("append-only") }
        }
        let next = factory.make(.todoCompleted, stream: "s1")
        try server.psql("""
            INSERT INTO events(seq, id, stream, version, type, schema, data, recorded_at, actor, command, hash, role)
            VALUES (2, '\(next.id)', 's1', 2, '\(next.type)', 1, '\(next.data)', \(next.recordedAt), '\(next.actor)', '\(next.command)', '\(next.hash)', 'somebody-else')
            """, database: database)
        #expect(try server.psql("SELECT role FROM events WHERE seq = 2", database: database) == PostgresTestServer.superuser)
        #expect(try server.psql("SELECT count(*) FROM events", database: database) == "2")
    }

    @Test("a write that throws rolls back everything it appended and releases the lock")
    func rollback() throws {
        struct Boom: Error {}
        let uri = try server.makeDatabase()
        let log = try open(uri)
        var factory = EventFactory()
        let event = factory.make(.todoCreated(TodoFields(title: "a")), stream: "s1")
        #expect(throws: Boom.self) {
            try log.write {
                try log.append([event])
                throw Boom()
            }
        }
        #expect(try log.head() == .empty)
        let other = try open(uri)
        try other.write { try other.append([event]) }
        #expect(try log.head().seq == 1)
    }

    @Test("a writer waiting for the append lock past its budget gets busy, not a hang")
    func lockTimeout() throws {
        let uri = try server.makeDatabase()
        let holder = try open(uri)
        let waiter = try PostgresEventLog.openForWriting(conninfo: uri, now: 1, lockTimeout: 200)
        _ = try holder.write {
            #expect(throws: EventLogError.busy) { try waiter.write { _ = try waiter.head() } }
        }
        try waiter.write { _ = try waiter.head() }
    }

    @Test("a database from a newer tally is refused, for reading and writing")
    func newerSchema() throws {
        let uri = try server.makeDatabase()
        _ = try open(uri)
        try server.psql("INSERT INTO schema_migrations(version, name, applied_at) VALUES (999, '0999_future', 0)", database: PostgresTestServer.databaseName(uri))
        let known = PostgresMigration.embedded.last!.version
        #expect(throws: EventLogError.newerSchema(found: 999, known: known)) { _ = try open(uri) }
        #expect(throws: EventLogError.newerSchema(found: 999, known: known)) {
            _ = try PostgresEventLog.openForReading(conninfo: uri, lockTimeout: 1_000)
        }
    }

    @Test("a database with an events table of another shape is refused and left untouched")
    func foreignSchema() throws {
        let uri = try server.makeDatabase()
        let database = PostgresTestServer.databaseName(uri)
        try server.psql("CREATE TABLE events(id serial PRIMARY KEY, payload jsonb)", database: database)
        #expect { _ = try open(uri) } throws: { error in
            guard case .foreignSchema(let reason)? = error as? EventLogError else { return false }
            return reason.contains("payload")
        }
        #expect { _ = try PostgresEventLog.openForReading(conninfo: uri, lockTimeout: 1_000) } throws: { ($0 as? EventLogError).map { if case .foreignSchema = $0 { true } else { false } } ?? false }
        #expect(try server.psql("SELECT to_regclass('schema_migrations') IS NULL", database: database) == "t")
    }

    @Test("connection failures name the server without the password, each with its own kind")
    func connectionFailures() throws {
        let uri = try server.makeDatabase()
        let database = PostgresTestServer.databaseName(uri)
        func kind(_ uri: String) -> (ServerFailure.Kind, String)? {
            do {
                _ = try PostgresEventLog.openForReading(conninfo: uri, lockTimeout: 1_000)
                return nil
            } catch {
                if case .unavailable(let failure) = error { return (failure.kind, failure.server + " " + failure.detail) }
                return nil
            }
        }
        let wrongPassword = kind(server.uri(database: database, password: "not-the-password"))
        #expect(wrongPassword?.0 == .authentication)
        #expect(wrongPassword.map { !$0.1.contains("not-the-password") && $0.1.contains("***") } == true)
        #expect(kind(server.uri(database: "no_such_database"))?.0 == .unknownDatabase)
        #expect(kind("postgresql://tally:secret@127.0.0.1:1/x?connect_timeout=2")?.0 == .refused)
        #expect(kind(server.uri(database: database, user: "nobody"))?.0 == .authentication)
    }

    @Test("two dispatchers on two connections take turns: each catches up under the lock, the chain stays one")
    func alternatingDispatchers() throws {
        let uri = try server.makeDatabase()
        let first = Dispatcher(log: try open(uri), environment: .live(actor: "one", zone: .utc))
        let second = Dispatcher(log: try open(uri), environment: .live(actor: "two", zone: .utc))
        for index in 0 ..< 12 {
            let dispatcher = index % 3 == 0 ? first : second
            _ = try dispatcher.execute(.addTodo(TodoInput(title: "todo \(index)")))
        }
        _ = try first.execute(.addTodo(TodoInput(title: "last")))
        #expect(first.state.todos.count == 13)
        var previous = LogHead.empty
        var seqs: [Int64] = []
        try open(uri).scan(after: 0, through: nil) { event in
            #expect(EventHash.link(previous: previous.hash, event) == event.hash, "broken link at \(event.seq)")
            previous = LogHead(seq: event.seq, hash: event.hash)
            seqs.append(event.seq)
        }
        #expect(seqs == Array(1 ... 13))
    }
}
