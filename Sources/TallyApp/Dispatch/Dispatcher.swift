import TallyDomain

/// What a command did: the decision, the events it appended, and the state afterwards.
public struct CommandOutcome: Sendable {
    public var decision: Decision
    public var appended: [EventEnvelope]
    public var state: ReadModel
    /// The id shared by the command's events; nil when nothing was appended.
    public var commandID: String?
}

/// The one entry point from command to result: load state, decide, append atomically, fold.
public final class Dispatcher {
    public let log: EventLog
    public let environment: AppEnvironment
    /// The read models as of the last event this dispatcher has folded.
    public private(set) var state: ReadModel

    public init(log: EventLog, environment: AppEnvironment, state: ReadModel = ReadModel()) {
        self.log = log
        self.environment = environment
        self.state = state
    }

    /// Folds every event after the current position.
    public func catchUp() throws {
        state = try Replayer.fold(log, into: state)
    }

    /// Runs one user command as one write transaction with one command id.
    ///
    /// Inside the write lock the state is brought up to date first, so concurrent
    /// writers queue behind each other instead of deciding on stale state.
    public func execute(_ command: Command) throws -> CommandOutcome {
        try log.write {
            try catchUp()
            let context = environment.decisionContext
            let decision = try Decider.decide(command, state: state, context: context)
            guard !decision.events.isEmpty else {
                return CommandOutcome(decision: decision, appended: [], state: state, commandID: nil)
            }
            let commandID = environment.makeID()
            let envelopes = try Self.envelopes(
                for: decision.events, after: try log.head(), commandID: commandID,
                recordedAt: context.now, actor: environment.actor, makeID: environment.makeID
            )
            try log.append(envelopes)
            for (pending, envelope) in zip(decision.events, envelopes) {
                Reducer.evolve(&state, pending.event, stream: envelope.stream, version: envelope.version, seq: envelope.seq, at: envelope.recordedAt)
            }
            return CommandOutcome(decision: decision, appended: envelopes, state: state, commandID: commandID)
        }
    }

    /// Gives pending events their envelope: id, position, time, actor, command and chain link.
    static func envelopes(
        for events: [PendingEvent], after head: LogHead, commandID: String, recordedAt: Int64,
        actor: String, makeID: () -> String
    ) throws -> [EventEnvelope] {
        var previous = head
        var result: [EventEnvelope] = []
        result.reserveCapacity(events.count)
        for pending in events {
            let type = EventCatalog.typeName(of: pending.event)
            var envelope = EventEnvelope(
                seq: previous.seq + 1, id: pending.id ?? makeID(), stream: pending.stream, version: pending.version,
                type: type, schema: EventCatalog.currentSchemas[type] ?? 1,
                data: JSON.object(EventCatalog.payload(of: pending.event)).serialized(.canonical),
                recordedAt: pending.recordedAt ?? recordedAt, actor: actor, command: commandID, hash: ""
            )
            envelope.hash = EventHash.link(previous: previous.hash, envelope)
            previous = LogHead(seq: envelope.seq, hash: envelope.hash)
            result.append(envelope)
        }
        return result
    }
}
