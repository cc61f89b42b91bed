
/// One row of the event log: a fact plus where, when and by whom it was recorded.
///
/// `data` is the payload exactly as stored: canonical JSON text (see `CanonicalEvent`).
public struct EventEnvelope: Sendable, Equatable {
    /// Global position in the log, 1-based, never reused.
    public var seq: Int64
    /// The event's own UUID; importing the same id twice is a no-op.
    public var id: String
    /// The entity UUID, or a settings key such as `filter:todos`.
    public var stream: String
    /// 1-based position within the stream.
    public var version: Int
    public var type: String
    /// Payload schema version of `type`.
    public var schema: Int
    public var data: String
    /// Milliseconds since the Unix epoch, UTC.
    public var recordedAt: Int64
    public var actor: String
    /// UUID shared by all events of one user command.
    public var command: String
    /// Hex SHA-256 link of the hash chain.
    public var hash: String
    /// The database role that appended the event, recorded by a server log itself (so it cannot
    /// be forged by the client); nil where the store does not record one. Not part of the hash.
    public var role: String?

    public init(
        seq: Int64, id: String, stream: String, version: Int, type: String, schema: Int, data: String,
        recordedAt: Int64, actor: String, command: String, hash: String, role: String? = nil
    ) {
        self.seq = seq
        self.id = id
        self.stream = stream
        self.version = version
        self.type = type
        self.schema = schema
        self.data = data
        self.recordedAt = recordedAt
        self.actor = actor
        self.command = command
        self.hash = hash
        self.role = role
    }
}

/// An event the decider wants appended: the log assigns seq, hash and, unless fixed here, id and time.
public struct PendingEvent: Sendable, Equatable {
    public var stream: String
    public var version: Int
    public var event: DomainEvent
    /// A fixed event id (imports derive it from the source item); nil lets the dispatcher make one.
    public var id: String?
    /// A fixed recording time (imports keep the source's times); nil means the command's time.
    public var recordedAt: Int64?

    public init(stream: String, version: Int, event: DomainEvent, id: String? = nil, recordedAt: Int64? = nil) {
        self.stream = stream
        self.version = version
        self.event = event
        self.id = id
        self.recordedAt = recordedAt
    }
}
