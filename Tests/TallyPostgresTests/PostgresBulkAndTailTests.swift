import Foundation
import Testing
import TallyEngine
import TallyDomain
@testable import TallyPostgres
import TallyTestSupport

@Suite("PostgreSQL bulk appends and tailing readers", .enabled(if: PostgresTestServer.isEnabled))
struct PostgresBulkAndTailTests {
    let server: PostgresTestServer

    init() throws {
        server = try PostgresTestServer.shared()
    }

    func open(_ uri: String) throws -> PostgresEventLog {
        try PostgresEventLog.openForWriting(conninfo: uri, now: 1, lockTimeout: 30_000)
    }

    /// `count` todos over `streams` streams, chained from the empty log.
    func events(_ count: Int, streams: Int) -> [EventEnvelope] {
        var factory = EventFactory()
        var made: [EventEnvelope] = []
        for index in 0 ..< count {
            let stream = "s\(index % streams)"
            made.append(index < streams
                ? factory.make(.todoCreated(TodoFields(title: "todo \(index)")), stream: stream)
                : factory.make(.todoEdited(TodoChanges(title: "todo \(index)")), stream: stream))
        }
        return made
    }

    @Test("a bulk write sends its events in batches; reads inside it see every event appended before them")
    func bulkWriteReadsItsOwnAppends() throws {
        let uri = try server.makeDatabase()
        let log = try open(uri)
        log.copyBatch = 7
        let made = events(40, streams: 3)
        try log.bulkWrite {
            for (index, event) in made.enumerated() {
                try log.append([event])
                if index == 9 {
                    // Nine buffered: the last version of a stream counts them, a lookup by id sends them.
                    #expect(try log.lastVersion(ofStream: "s0") == 4)
                    #expect(try log.event(id: made[8].id)?.seq == 9)
                }
            }
            #expect(try log.head() == LogHead(seq: 40, hash: made[39].hash))
        }
        var read: [Int64] = []
        var previous = LogHead.empty
        try open(uri).scan(after: 0, through: nil) { event in
            #expect(EventHash.link(previous: previous.hash, event) == event.hash)
            previous = LogHead(seq: event.seq, hash: event.hash)
            read.append(event.seq)
        }
        #expect(read == Array(1 ... 40))
    }

    @Test("a refused event of a buffered batch is reported by its position, as its own append would report it; nothing stays")
    func deferredRefusalNamesTheEvent() throws {
        let uri = try server.makeDatabase()
        let log = try open(uri)
        log.copyBatch = 5
        var made = events(12, streams: 12)
        // The ninth takes the id of the second: refused by the server's unique index.
        made[8].id = made[1].id
        made[8].hash = EventHash.link(previous: made[7].hash, made[8])
        for index in 9 ..< made.count {
            made[index].hash = EventHash.link(previous: made[index - 1].hash, made[index])
        }
        #expect(throws: EventLogError.deferred(.duplicateEventID(made[1].id), seq: 9)) {
            try log.bulkWrite {
                for event in made { try log.append([event]) }
            }
        }
        #expect(try open(uri).head() == .empty)
        // The same events in one append outside a bulk write: the plain error.
        #expect(throws: EventLogError.duplicateEventID(made[1].id)) {
            try log.write { try log.append(made) }
        }
    }

    @Test("a bad hash link inside a COPY batch is refused by the insert trigger for that row")
    func copyKeepsTheTriggerChecks() throws {
        let uri = try server.makeDatabase()
        let log = try open(uri)
        var made = events(30, streams: 4)
        made[17].hash = String(repeating: "0", count: 64)
        #expect(throws: EventLogError.self) { try log.write { try log.append(made) } }
        #expect(try open(uri).head() == .empty)
        made = events(30, streams: 4)
        try log.write { try log.append(made) }
        #expect(try open(uri).head() == LogHead(seq: 30, hash: made[29].hash))
    }

    @Test("a reader tailing `seq > cursor` while 4 writers append sees every event once, in order, none skipped")
    func tailingReaderMissesNothing() throws {
        let uri = try server.makeDatabase()
        try open(uri).close()
        let writers = 4
        let perWriter = AttackScale.count(short: 15, full: 100)
        let group = DispatchGroup()
        let lock = NSLock()
        nonisolated(unsafe) var failure: Error?
        nonisolated(unsafe) var running = writers
        for writer in 0 ..< writers {
            group.enter()
            Thread {
                defer {
                    lock.withLock { running -= 1 }
                    group.leave()
                }
                do {
                    let dispatcher = Dispatcher(log: try open(uri), environment: .live(actor: "writer-\(writer)", zone: .utc))
                    for index in 0 ..< perWriter {
                        _ = try dispatcher.execute(.addTodo(TodoInput(title: "w\(writer) \(index)")))
                    }
                } catch {
                    lock.withLock { failure = error }
                }
            }.start()
        }
        let reader = try open(uri)
        var seen: [Int64] = []
        var cursor = LogHead.empty
        var brokenLinks = 0
        var lastRound = false
        while !lastRound {
            lastRound = lock.withLock { running == 0 }
            try reader.scan(after: cursor.seq, through: nil) { event in
                if EventHash.link(previous: cursor.hash, event) != event.hash { brokenLinks += 1 }
                cursor = LogHead(seq: event.seq, hash: event.hash)
                seen.append(event.seq)
            }
        }
        group.wait()
        #expect(failure == nil, "\(String(describing: failure))")
        #expect(brokenLinks == 0)
        #expect(seen == Array(1 ... Int64(writers * perWriter)))
    }

    @Test("16 writers add todos and complete and reopen shared ones at once: commands that find the lock taken are staged and sequenced; the reader misses nothing, the chain and each outcome hold")
    func stagedWritersKeepTheOrder() throws {
        let uri = try server.makeDatabase()
        let shared = 8
        let setup = Dispatcher(log: try open(uri), environment: .live(actor: "setup", zone: .utc))
        for index in 1 ... shared {
            _ = try setup.execute(.addTodo(TodoInput(title: "shared \(index)")))
        }
        let writers = 16
        let perWriter = AttackScale.count(short: 8, full: 40)
        let group = DispatchGroup()
        let lock = NSLock()
        nonisolated(unsafe) var failure: Error?
        nonisolated(unsafe) var running = writers
        nonisolated(unsafe) var outcomes: [EventEnvelope] = []
        nonisolated(unsafe) var counts = (sequenced: 0, refused: 0)
        for writer in 0 ..< writers {
            group.enter()
            Thread {
                defer {
                    lock.withLock { running -= 1 }
                    group.leave()
                }
                do {
                    let log = try open(uri)
                    let dispatcher = Dispatcher(log: log, environment: .live(actor: "writer-\(writer)", zone: .utc))
                    var appended: [EventEnvelope] = []
                    for index in 0 ..< perWriter {
                        let target = String((writer + index) % shared + 1)
                        let command: Command = switch index % 3 {
                        case 0: .addTodo(TodoInput(title: "w\(writer) \(index)"))
                        case 1: .completeTodos([target])
                        default: .reopenTodos([target])
                        }
                        appended += try dispatcher.execute(command).appended
                    }
                    lock.withLock {
                        outcomes += appended
                        counts.sequenced += log.stagingCounts.sequenced
                        counts.refused += log.stagingCounts.refused
                    }
                } catch {
                    lock.withLock { failure = error }
                }
            }.start()
        }
        let reader = try open(uri)
        var seen: [EventEnvelope] = []
        var cursor = LogHead(seq: Int64(shared), hash: "")
        try reader.scan(after: 0, through: Int64(shared)) { cursor.hash = $0.hash }
        var brokenLinks = 0
        var lastRound = false
        while !lastRound {
            lastRound = lock.withLock { running == 0 }
            try reader.scan(after: cursor.seq, through: nil) { event in
                if EventHash.link(previous: cursor.hash, event) != event.hash { brokenLinks += 1 }
                cursor = LogHead(seq: event.seq, hash: event.hash)
                seen.append(event)
            }
        }
        group.wait()
        #expect(failure == nil, "\(String(describing: failure))")
        #expect(brokenLinks == 0)
        #expect(seen.map(\.seq) == Array(Int64(shared + 1) ... Int64(shared + seen.count)))
        // What each command was told it appended is what the log holds, once each.
        let logged = Dictionary(uniqueKeysWithValues: seen.map { ($0.id, $0) })
        #expect(outcomes.count == seen.count)
        for event in outcomes {
            #expect(logged[event.id]?.seq == event.seq && logged[event.id]?.hash == event.hash, "\(event.id)")
        }
        // Every add landed; the role the server recorded is the session's.
        #expect(seen.filter { $0.type == "todo.created" }.count == writers * ((perWriter + 2) / 3))
        #expect(seen.allSatisfy { $0.role == PostgresTestServer.superuser })
        // The lock was contended, so some commands went through the staging table.
        #expect(counts.sequenced > 0, "sequenced \(counts.sequenced), refused \(counts.refused)")
        #expect(try reader.open().scalarInt("SELECT count(*) FROM events_staged") == 0)
    }

    @Test("a writer whose role may not stage, finding the append lock taken, decides again under the lock once it is free")
    func writerWithoutStagingGrantsWaitsForTheLock() throws {
        let uri = try server.makeDatabase()
        let owner = try open(uri)
        let database = PostgresTestServer.databaseName(uri)
        let role = try server.makeRole("old", grants: PostgresTestServer.Grants.selectInsert, database: database)
        let mateLog = try open(server.uri(database: database, user: role.name, password: role.password))
        nonisolated(unsafe) let mate = Dispatcher(log: mateLog, environment: .live(actor: "mate", zone: .utc))
        nonisolated(unsafe) var result: Result<CommandOutcome, Error>?
        let finished = DispatchSemaphore(value: 0)
        let watcher = try open(uri)
        try owner.write {
            Thread {
                result = Result { try mate.execute(.addTodo(TodoInput(title: "waits"))) }
                finished.signal()
            }.start()
            // Until the mate, refused the staging table, waits for the append lock. (pg_locks holds every
            // database of the server, and other suites' writers wait on theirs: only this database's count.)
            while try watcher.open().scalarInt("""
                SELECT count(*) FROM pg_locks
                WHERE locktype = 'advisory' AND NOT granted AND database = (SELECT oid FROM pg_database WHERE datname = current_database())
                """) == 0 {
                usleep(10_000)
            }
        }
        finished.wait()
        let outcome = try #require(result).get()
        #expect(outcome.appended.map(\.seq) == [1])
        #expect(!mateLog.mayStage)
        #expect(try watcher.open().scalarInt("SELECT count(*) FROM events WHERE role = '\(role.name)'") == 1)
    }
}
