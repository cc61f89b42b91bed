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
}
