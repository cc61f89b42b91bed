import TallyDomain
@testable import TallyEssentials

/// Builds chained envelopes for storage and replay tests.
public struct EventFactory {
    public private(set) var head = LogHead.empty
    public var command = "c0000000-0000-4000-8000-000000000000"
    public var actor = "tester@host"
    public var clock = Fixtures.epoch
    private var versions: [String: Int] = [:]
    private var ids = SequentialIDs(prefix: "e0000000-0000-4000-8000-")

    public init() {}

    /// A factory that continues after `events`: the next seq, versions, chain link, clock and ids follow them.
    public init(continuing events: [EventEnvelope]) {
        for event in events {
            versions[event.stream] = event.version
            clock = max(clock, event.recordedAt)
            head = LogHead(seq: event.seq, hash: event.hash)
        }
        ids = SequentialIDs(prefix: "e0000000-0000-4000-8000-", after: events.count)
    }

    /// The next envelope for `event` on `stream`, with the next seq, version and chain link.
    public mutating func make(_ event: DomainEvent, stream: String) -> EventEnvelope {
        let version = (versions[stream] ?? 0) + 1
        versions[stream] = version
        clock += 1000
        let type = EventCatalog.typeName(of: event)
        var envelope = EventEnvelope(
            seq: head.seq + 1, id: ids.make(), stream: stream, version: version, type: type,
            schema: EventCatalog.currentSchemas[type] ?? 1,
            data: JSON.object(EventCatalog.payload(of: event)).serialized(.canonical),
            recordedAt: clock, actor: actor, command: command, hash: ""
        )
        envelope.hash = EventHash.link(previous: head.hash, envelope)
        head = LogHead(seq: envelope.seq, hash: envelope.hash)
        return envelope
    }
}
