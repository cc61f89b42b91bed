import TallyDomain

/// An export line decoded ahead of the import (on another thread), with the envelope it becomes
/// if every event before it is appended: the chain is computed ahead too, and the importer takes
/// the envelope only when its `seq` and `previous` link are the log's head at that moment.
public struct PreparedEvent: Sendable {
    public var event: ImportedEvent
    /// The link `envelope.hash` was computed after.
    public var previous: String
    public var envelope: EventEnvelope

    /// The envelope to append after `head`: the prepared one when it was chained from that head.
    func envelope(after head: LogHead) -> EventEnvelope {
        if envelope.seq == head.seq + 1, previous == head.hash { return envelope }
        return event.envelope(seq: head.seq + 1, previous: head.hash)
    }

    /// Chains decoded events ahead of the importer from the head the log had when the import began.
    /// An import into an empty log appends every event, so the guess holds for all of them; after an
    /// event is skipped as already present, the importer chains the rest itself.
    public struct Chain: Sendable {
        private var head: LogHead

        public init(from head: LogHead) {
            self.head = head
        }

        /// `event` as the next event of the chain.
        public mutating func prepare(_ event: ImportedEvent) -> PreparedEvent {
            let envelope = event.envelope(seq: head.seq + 1, previous: head.hash)
            defer { head = LogHead(seq: envelope.seq, hash: envelope.hash) }
            return PreparedEvent(event: event, previous: head.hash, envelope: envelope)
        }
    }
}
