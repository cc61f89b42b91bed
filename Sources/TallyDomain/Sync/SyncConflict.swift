import TallyEssentials

/// A local change that sync could not apply as typed, named so nothing disappears silently.
///
/// Decided by `Rebase` from the events alone, so every replica decides it the same way.
public struct SyncConflict: Sendable, Equatable {
    /// Why the change was dropped or what it replaced.
    public enum Kind: String, Sendable, CaseIterable {
        /// The shared log changed the same field later (recorded later, or at the same instant with
        /// a greater event id): the local change of that field was dropped.
        case overridden
        /// The shared log changed the same field earlier: the local change was kept and replaced it.
        case overrides
        /// The item was deleted in the shared log: the local change was dropped, the item stays deleted.
        case deleted
        /// The shared log already had this value (a todo completed on both devices): dropped.
        case redundant
        /// The shared log already has an item with this id (the same recurring occurrence made on two
        /// devices): the local creation was dropped and later local changes apply to that item.
        case duplicate
        /// The change is not possible on the merged state (the item is missing, or tags would pass
        /// the limit): dropped.
        case impossible
        /// The local change would let todos wait for each other in a circle once merged with the shared
        /// log's changes (`after`): dropped; the conflict's value is the local `after`.
        case cycle
    }

    public var kind: Kind
    /// The local event the conflict is about.
    public var event: String
    public var command: String
    public var stream: String
    public var type: String
    public var actor: String
    public var recordedAt: Int64
    /// The field concerned (`title`, `completed`, `deleted`, `filter`, ...); nil for the whole event.
    public var field: String?
    /// The value the local change set, as JSON (nil when the whole event is meant).
    public var value: JSON?
    /// The shared event that decided it, when one did: its id, actor, time and value.
    public var other: Stamp?

    /// True when the local change (or this field of it) is not in the shared log.
    public var dropped: Bool { kind != .overrides }

    public init(
        kind: Kind, event: String, command: String, stream: String, type: String, actor: String, recordedAt: Int64,
        field: String? = nil, value: JSON? = nil, other: Stamp? = nil
    ) {
        self.kind = kind
        self.event = event
        self.command = command
        self.stream = stream
        self.type = type
        self.actor = actor
        self.recordedAt = recordedAt
        self.field = field
        self.value = value
        self.other = other
    }
}

/// When and by whom a field was changed in the shared log, and to what; ordered by time, then event id.
public struct Stamp: Sendable, Equatable, Comparable {
    public var recordedAt: Int64
    public var event: String
    public var actor: String
    public var value: JSON

    public init(recordedAt: Int64, event: String, actor: String, value: JSON) {
        self.recordedAt = recordedAt
        self.event = event
        self.actor = actor
        self.value = value
    }

    /// Later recorded wins; at the same instant the greater event id wins.
    public static func < (lhs: Stamp, rhs: Stamp) -> Bool {
        (lhs.recordedAt, lhs.event) < (rhs.recordedAt, rhs.event)
    }
}

/// A todo or record created offline whose number changed because the shared order put others first.
public struct Renumbering: Sendable, Equatable {
    public enum Kind: String, Sendable { case todo, record }
    public var kind: Kind
    public var stream: String
    public var from: Int
    public var to: Int

    public init(kind: Kind, stream: String, from: Int, to: Int) {
        self.kind = kind
        self.stream = stream
        self.from = from
        self.to = to
    }
}
