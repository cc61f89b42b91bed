import TallyDomain

/// Builds chained envelopes for storage and replay tests.
public struct EventFactory {
    public private(set) var head = LogHead.empty
    public var command = "c0000000-0000-4000-8000-000000000000"
    public var actor = "tester@host"
    public var clock = Fixtures.epoch
    private var versions: [String: Int] = [:]
    private let ids = SequentialIDs(prefix: "e0000000-0000-4000-8000-")

    public init() {}

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
