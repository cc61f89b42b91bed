import TallyDomain

/// An event log held in memory: a deterministic stand-in for tests and for reading a database that does not exist.
public final class InMemoryEventLog: EventLog {
    public private(set) var events: [EventEnvelope]
    private var pending: [EventEnvelope]? = nil

    public init(events: [EventEnvelope] = []) {
        self.events = events
    }

    public func head() throws(EventLogError) -> LogHead {
        let all = pending ?? events
        guard let last = all.last else { return .empty }
        return LogHead(seq: last.seq, hash: last.hash)
    }

    public func scan(after: Int64, through: Int64?, _ body: (EventEnvelope) throws -> Void) throws {
        for event in pending ?? events where event.seq > after && event.seq <= (through ?? .max) {
            try body(event)
        }
    }

    public func events(inStream stream: String) throws(EventLogError) -> [EventEnvelope] {
        (pending ?? events).filter { $0.stream == stream }.sorted { $0.version < $1.version }
    }

    public func scanBackward(before: Int64?, _ body: (EventEnvelope) throws -> Bool) throws {
        for event in (pending ?? events).reversed() where event.seq < (before ?? .max) {
            guard try body(event) else { return }
        }
    }

    public func event(id: String) throws(EventLogError) -> EventEnvelope? {
        (pending ?? events).first { $0.id == id }
    }

    public func lastVersion(ofStream stream: String) throws(EventLogError) -> Int {
        (pending ?? events).last { $0.stream == stream }?.version ?? 0
    }

    public func write<T>(_ body: () throws -> T) throws -> T {
        precondition(pending == nil, "nested write")
        pending = events
        defer { pending = nil }
        let result = try body()
        events = pending ?? events
        return result
    }

    public func append(_ newEvents: [EventEnvelope]) throws(EventLogError) {
        guard var staged = pending else { preconditionFailure("append must run inside write") }
        for event in newEvents {
            if staged.contains(where: { $0.stream == event.stream && $0.version == event.version }) {
                throw .conflict(stream: event.stream, version: event.version)
            }
            if staged.contains(where: { $0.id == event.id }) {
                throw .duplicateEventID(event.id)
            }
            staged.append(event)
        }
        pending = staged
    }
}
