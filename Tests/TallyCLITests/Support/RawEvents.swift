import Foundation
import TallyDomain
import TallySQLite
import TallyTestSupport

/// Appends events to a runner's SQLite log as their stored text, past every door, with the hash
/// chain linked as tally links it: how a log written by an earlier version looks to this one.
enum RawEvents {
    struct Event {
        var stream: String
        var version: Int
        var type: String
        var schema: Int
        var data: String
    }

    static func append(_ events: [Event], to tally: TallyRunner, actor: String = "old@tally") throws {
        let log = try SQLiteEventLog.openForWriting(path: tally.databasePath, now: Fixtures.epoch)
        defer { log.close() }
        var head = try log.head()
        var envelopes: [EventEnvelope] = []
        for event in events {
            let seq = head.seq + 1
            var envelope = EventEnvelope(
                seq: seq, id: "e0000000-0000-4000-8000-\(String(format: "%012d", seq))", stream: event.stream, version: event.version,
                type: event.type, schema: event.schema, data: event.data, recordedAt: Fixtures.epoch + seq * 1000, actor: actor,
                command: "c0000000-0000-4000-8000-\(String(format: "%012d", seq))", hash: ""
            )
            envelope.hash = EventHash.link(previous: head.hash, envelope)
            envelopes.append(envelope)
            head = LogHead(seq: envelope.seq, hash: envelope.hash)
        }
        try log.write { try log.append(envelopes) }
    }

    /// A lowercase UUID for stream `index` of a raw batch.
    static func stream(_ index: Int) -> String {
        "1e6ac700-0000-4000-8000-\(String(format: "%012d", index))"
    }

    /// Generated events as an earlier version could have stored them: records and todos on new
    /// streams `first...`, each maybe edited once, with figures and instants past today's limits.
    static func legacy(_ payloads: inout LegacyPayloads, count: Int, first: Int) -> [Event] {
        var events: [Event] = []
        for index in 0..<count {
            let stream = stream(first + index)
            if payloads.random.next() % 2 == 0 {
                let logged = payloads.recordLogged()
                events.append(Event(stream: stream, version: 1, type: "record.logged", schema: logged.schema, data: logged.data))
                if payloads.random.next() % 2 == 0 {
                    events.append(Event(stream: stream, version: 2, type: "record.edited", schema: 1, data: payloads.recordEdited()))
                }
            } else {
                events.append(Event(stream: stream, version: 1, type: "todo.created", schema: 4, data: payloads.todoCreated()))
                if payloads.random.next() % 2 == 0 {
                    events.append(Event(stream: stream, version: 2, type: "todo.edited", schema: 3, data: payloads.todoEdited()))
                }
            }
        }
        return events
    }
}
