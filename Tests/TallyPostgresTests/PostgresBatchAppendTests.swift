import Foundation
import Testing
import TallyEngine
import TallyDomain
@testable import TallyPostgres
import TallyTestSupport

/// Events for the batch tests: todos over `streams` streams, chained after `head`.
enum BatchEvents {
    static func make(_ count: Int, streams: Int, after head: LogHead = .empty, prefix: String = "s") -> [EventEnvelope] {
        var factory = EventFactory()
        var made: [EventEnvelope] = []
        for index in 0 ..< count {
            let stream = "\(prefix)\(index % streams)"
            made.append(index < streams
                ? factory.make(.todoCreated(TodoFields(title: "todo \(index)")), stream: stream)
                : factory.make(.todoEdited(TodoChanges(title: "todo \(index)")), stream: stream))
        }
        return rechained(made, after: head)
    }

    /// `events` with seq and hash made again from `head` on (ids made unique to the head).
    static func rechained(_ events: [EventEnvelope], after head: LogHead) -> [EventEnvelope] {
        var previous = head
        return events.map { event in
            var event = event
            event.seq = previous.seq + 1
            if head.seq > 0 { event.id = UUID().uuidString.lowercased() }
            event.hash = EventHash.link(previous: previous.hash, event)
            previous = LogHead(seq: event.seq, hash: event.hash)
            return event
        }
    }

    /// Every event of the log at `uri`, checking that seq runs 1, 2, 3, ... and each links to the one before.
    static func readChecked(_ uri: String) throws -> (events: [EventEnvelope], gapFree: Bool, linked: Bool) {
        var read: [EventEnvelope] = []
        var previous = LogHead.empty
        var gapFree = true
        var linked = true
        try PostgresEventLog.openForWriting(conninfo: uri, now: 1, lockTimeout: 30_000).scan(after: 0, through: nil) { event in
            if event.seq != previous.seq + 1 { gapFree = false }
            if EventHash.link(previous: previous.hash, event) != event.hash { linked = false }
            previous = LogHead(seq: event.seq, hash: event.hash)
            read.append(event)
        }
        return (read, gapFree, linked)
    }
}

@Suite("PostgreSQL batch appends", .enabled(if: PostgresTestServer.isEnabled))
struct PostgresBatchAppendTests {
    let server: PostgresTestServer

    init() throws {
        server = try PostgresTestServer.shared()
    }

    func open(_ uri: String) throws -> PostgresEventLog {
        try PostgresEventLog.openForWriting(conninfo: uri, now: 1, lockTimeout: 30_000)
    }

    @Test("batches of 1, exactly the batch size and the batch size + 1 go in whole, chained, each through the batch function", arguments: [1, 8, 9])
    func boundaries(count: Int) throws {
        let uri = try server.makeDatabase()
        let log = try open(uri)
        log.copyBatch = 8
        let made = BatchEvents.make(count, streams: 3)
        try log.bulkWrite {
            for event in made { try log.append([event]) }
        }
        #expect(log.mayBatch)
        let read = try BatchEvents.readChecked(uri)
        #expect(read.events.map(\.id) == made.map(\.id))
        #expect(read.gapFree && read.linked)
        // One INSERT per batch: the batch function's rows carry the session's role, as the trigger's would.
        let roles = try server.psql("SELECT DISTINCT role FROM events", database: PostgresTestServer.databaseName(uri))
        #expect(roles == PostgresTestServer.superuser)
        // The next append continues the chain through the row trigger.
        var next = EventFactory(continuing: made)
        let single = next.make(.todoEdited(TodoChanges(title: "after")), stream: "s0")
        try log.write { try log.append([single]) }
        #expect(try BatchEvents.readChecked(uri).events.count == count + 1)
    }

    @Test("a batch with a forged hash in the middle is refused whole, naming the event; nothing is appended")
    func forgedChainRefusedWhole() throws {
        let uri = try server.makeDatabase()
        let log = try open(uri)
        var made = BatchEvents.make(20, streams: 4)
        made[11].hash = String(repeating: "a", count: 64)
        // Called directly (its own transaction): the server's own refusal.
        #expect {
            try log.appendBatch(made[...])
        } throws: { error in
            "\(error)".contains("event 12: the hash does not link to the event before it")
        }
        #expect(try open(uri).head() == .empty)
        // Through append: the batch is refused and the same message names the event.
        #expect {
            try log.write { try log.append(made) }
        } throws: { error in
            "\(error)".contains("event 12: the hash does not link")
        }
        #expect(try open(uri).head() == .empty)
    }

    @Test("a chain valid in itself but not linked to the log's head is refused whole")
    func chainNotLinkedToHead() throws {
        let uri = try server.makeDatabase()
        let log = try open(uri)
        let first = BatchEvents.make(5, streams: 2)
        try log.write { try log.append(first) }
        // Seq follows the head, every link inside the batch is right, the first links to a forged head.
        let forged = BatchEvents.make(6, streams: 2, after: LogHead(seq: 5, hash: String(repeating: "b", count: 64)), prefix: "t")
        #expect(throws: EventLogError.self) { try log.write { try log.append(forged) } }
        #expect(try open(uri).head() == LogHead(seq: 5, hash: first[4].hash))
    }

    @Test("a bad payload in the middle of a batch is refused whole with the row trigger's message; nothing is appended")
    func badPayloadRefusedWhole() throws {
        let uri = try server.makeDatabase()
        let log = try open(uri)
        var made = BatchEvents.make(30, streams: 30)
        // A title with a control character, rehashed so that only the payload is wrong.
        made[14].data = made[14].data.replacingOccurrences(of: "todo 14", with: "todo\\u000714")
        made = BatchEvents.rechained(made, after: .empty)
        #expect {
            try log.appendBatch(made[...])
        } throws: { error in
            "\(error)".contains("event 15 (todo.created): field 'title' is not 1-500 characters without control characters")
        }
        #expect {
            try log.write { try log.append(made) }
        } throws: { error in
            "\(error)".contains("event 15 (todo.created): field 'title'")
        }
        #expect(try open(uri).head() == .empty)
    }

    @Test("versions out of step inside a batch (a gap, a repeat) are refused whole")
    func versionsInsideTheBatch() throws {
        let uri = try server.makeDatabase()
        let log = try open(uri)
        var gap = BatchEvents.make(6, streams: 2)
        gap[4].version = 4 // stream s0 has versions 1, 2 before it: 4 leaves a gap
        gap = BatchEvents.rechained(gap, after: .empty)
        #expect {
            try log.appendBatch(gap[...])
        } throws: { error in
            "\(error)".contains("event 5: version 4 of stream s0 does not follow version 2")
        }
        var repeated = BatchEvents.make(6, streams: 2)
        repeated[4].version = 2
        repeated = BatchEvents.rechained(repeated, after: .empty)
        #expect(throws: EventLogError.conflict(stream: "s0", version: 2)) { try log.write { try log.append(repeated) } }
        #expect(try open(uri).head() == .empty)
    }

    @Test("a batch racing a writer of single events: seq stays gap-free, the chain one, a tailing reader misses nothing")
    func raceWithSingleWriter() throws {
        let uri = try server.makeDatabase()
        try open(uri).close()
        let singles = AttackScale.count(short: 20, full: 100)
        let rounds = AttackScale.count(short: 4, full: 20)
        let perBatch = 150
        let lock = NSLock()
        nonisolated(unsafe) var failure: Error?
        nonisolated(unsafe) var running = 2
        let group = DispatchGroup()
        group.enter()
        Thread {
            defer { lock.withLock { running -= 1 }; group.leave() }
            do {
                let dispatcher = Dispatcher(log: try open(uri), environment: .live(actor: "single", zone: .utc))
                for index in 0 ..< singles {
                    _ = try dispatcher.execute(.addTodo(TodoInput(title: "single \(index)")))
                }
            } catch {
                lock.withLock { failure = error }
            }
        }.start()
        group.enter()
        Thread {
            defer { lock.withLock { running -= 1 }; group.leave() }
            do {
                let log = try open(uri)
                log.copyBatch = 64
                for round in 0 ..< rounds {
                    try log.write {
                        // Under the append lock: the head cannot move until this commits.
                        let head = try log.head()
                        let batch = BatchEvents.make(perBatch, streams: 10, after: head, prefix: "r\(round)-")
                        try log.append(batch)
                    }
                }
            } catch {
                lock.withLock { failure = error }
            }
        }.start()
        let reader = try open(uri)
        var seen: [Int64] = []
        var cursor = LogHead.empty
        var broken = 0
        var lastRound = false
        while !lastRound {
            lastRound = lock.withLock { running == 0 }
            try reader.scan(after: cursor.seq, through: nil) { event in
                if EventHash.link(previous: cursor.hash, event) != event.hash { broken += 1 }
                cursor = LogHead(seq: event.seq, hash: event.hash)
                seen.append(event.seq)
            }
        }
        group.wait()
        #expect(failure == nil, "\(String(describing: failure))")
        #expect(broken == 0)
        let total = singles + rounds * perBatch
        #expect(seen == Array(1 ... Int64(total)))
        let read = try BatchEvents.readChecked(uri)
        #expect(read.events.count == total && read.gapFree && read.linked)
    }

    @Test("a batch whose seq the head has passed (a concurrent writer appended first) is refused whole, nothing of it stays")
    func staleBatchRefused() throws {
        let uri = try server.makeDatabase()
        let log = try open(uri)
        let other = try open(uri)
        let batch = BatchEvents.make(10, streams: 2)
        // Another writer appends first; the batch was chained from the empty log.
        try other.write { try other.append(BatchEvents.make(3, streams: 1, prefix: "o")) }
        #expect {
            try log.appendBatch(batch[...])
        } throws: { error in
            "\(error)".contains("events must be appended in order: seq 1 after 3")
        }
        #expect(try BatchEvents.readChecked(uri).events.count == 3)
    }

    @Test("a writer with the guide's grants appends through the batch function, recorded as itself; one granted before migration 11 falls back to COPY")
    func writerRoles() throws {
        let uri = try server.makeDatabase()
        try open(uri).close()
        let database = PostgresTestServer.databaseName(uri)
        let writer = try server.makeRole("batchwriter", grants: PostgresTestServer.Grants.writer, database: database)
        let log = try open(server.uri(database: database, user: writer.name, password: writer.password))
        let made = BatchEvents.make(12, streams: 3)
        try log.write { try log.append(made) }
        #expect(log.mayBatch)
        #expect(try server.psql("SELECT DISTINCT role FROM events", database: database) == writer.name)
        // Without EXECUTE on the batch function: COPY through the row trigger, the same result.
        let older = try server.makeRole("olderwriter", grants: PostgresTestServer.Grants.writer, database: database)
        try server.psql("REVOKE EXECUTE ON FUNCTION tally_append_batch(BIGINT[], TEXT[], TEXT[], INTEGER[], TEXT[], INTEGER[], TEXT[], BIGINT[], TEXT[], TEXT[], TEXT[]) FROM \(older.name)", database: database)
        let olderLog = try open(server.uri(database: database, user: older.name, password: older.password))
        let more = BatchEvents.make(12, streams: 3, after: LogHead(seq: 12, hash: made[11].hash), prefix: "o")
        try olderLog.write { try olderLog.append(more) }
        #expect(!olderLog.mayBatch)
        let read = try BatchEvents.readChecked(uri)
        #expect(read.events.count == 24 && read.gapFree && read.linked)
        #expect(try server.psql("SELECT count(*) FROM events WHERE role = '\(older.name)'", database: database) == "12")
    }
}
