import TallyDomain
import TallyEssentials

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
    public var state: ReadModel { folded.model }
    /// The read models with the latest time folded into them, as snapshots store them.
    public private(set) var folded: Replayer.Folded
    /// Where snapshots go after a command; nil to never take one.
    public let snapshots: SnapshotStore?
    public let snapshotPolicy: SnapshotPolicy
    /// The position of the newest usable snapshot (0 for none): the tail starts after it.
    public private(set) var snapshotBase: Int64
    /// True when start-up skipped a stored snapshot: the next command replaces it whatever the tail.
    private var replaceSkippedSnapshot: Bool
    /// Told when a snapshot could not be stored; the command itself has succeeded by then.
    public var onSnapshotProblem: ((SnapshotProblem) -> Void)?
    /// Runs inside the write lock with a command's events, fully formed, before they are appended;
    /// throwing refuses the command and nothing is appended (the `pre-command` hook).
    public var beforeAppend: (([EventEnvelope]) throws -> Void)?
    /// Runs after a command's events were committed (the `post-commit` hook).
    public var afterCommit: (([EventEnvelope]) -> Void)?
    /// True once a command of this dispatcher has committed events: from then on it must not be run again.
    public private(set) var hasCommitted = false

    public init(log: EventLog, environment: AppEnvironment, state: ReadModel = ReadModel()) {
        self.log = log
        self.environment = environment
        self.folded = Replayer.Folded(model: state)
        self.snapshots = nil
        self.snapshotPolicy = .standard
        self.snapshotBase = 0
        self.replaceSkippedSnapshot = false
    }

    /// A dispatcher that starts from loaded state and stores snapshots by `policy`.
    public init(log: EventLog, environment: AppEnvironment, loaded: LoadedState, snapshots: SnapshotStore?, policy: SnapshotPolicy = .standard) {
        self.log = log
        self.environment = environment
        self.folded = loaded.folded
        self.snapshots = snapshots
        self.snapshotPolicy = policy
        self.snapshotBase = loaded.base
        self.replaceSkippedSnapshot = !loaded.problems.isEmpty
    }

    /// Folds every event after the current position.
    public func catchUp() throws {
        try Replayer.fold(log, into: &folded)
    }

    /// Runs one user command as one write transaction with one command id.
    ///
    /// Inside the write lock the state is brought up to date first, so concurrent
    /// writers queue behind each other instead of deciding on stale state.
    public func execute(_ command: Command) throws -> CommandOutcome {
        try run({ state, context in try Decider.decide(command, state: state, context: context) }, mayStage: command.decidesOnItsOwnStreams)
    }

    /// Runs any decision function as one command, exactly like `execute(_:)`.
    ///
    /// `decide` runs inside the write lock on up-to-date state, so it may also read the log
    /// (undo and redo do); whatever it returns is appended atomically with one command id.
    ///
    /// When the snapshot the state was read from turns out to have a damaged chunk before the events
    /// are appended, nothing is appended and `LateSnapshotDamage` is thrown: the caller starts over
    /// from a full replay.
    public func execute(deciding decide: (ReadModel, DecisionContext) throws -> Decision) throws -> CommandOutcome {
        try run(decide, mayStage: nil)
    }

    /// `mayStage` says whether a decision may be staged (`StagedAppends`) when the log offers it
    /// and no `beforeAppend` hook must see the final envelopes; nil for never.
    private func run(
        _ decide: (ReadModel, DecisionContext) throws -> Decision, mayStage: ((Decision, ReadModel) -> Bool)?
    ) throws -> CommandOutcome {
        var staged: CommandOutcome?
        if let mayStage, beforeAppend == nil, let staging = log.stagedAppends {
            staged = try decideAndStage(decide, mayStage: mayStage, staging)
        }
        var outcome = try staged ?? decideAndAppend(decide)
        if !outcome.appended.isEmpty {
            hasCommitted = true
            afterCommit?(outcome.appended)
            snapshotIfDue()
            outcome.state = state
        }
        return outcome
    }

    /// Folds what was appended to the log outside `execute` (an import) and, like after any
    /// command, stores a snapshot when the policy says the tail has grown long enough.
    public func settle() throws {
        try catchUp()
        snapshotIfDue()
    }

    /// Stores a snapshot when the policy says the tail has grown long enough.
    ///
    /// Runs after the command's transaction has committed, in its own: a snapshot that cannot
    /// be written (busy, disk full) is reported and skipped, and never undoes the command.
    func snapshotIfDue() {
        guard let snapshots else { return }
        guard replaceSkippedSnapshot || snapshotPolicy.shouldSnapshot(position: folded.model.position, base: snapshotBase) else { return }
        replaceSkippedSnapshot = false
        do {
            let info: SnapshotInfo
            do {
                info = try SnapshotWriter.write(folded, log: log, to: snapshots, now: environment.now(), keep: snapshotPolicy.keep)
            } catch is LateSnapshotDamage {
                // The command has committed; its state came from a snapshot with a damaged chunk.
                // Replay the log instead, and store the replay's snapshot in place of the damaged one
                // (keeping only the new one: the one before it is the damaged one). A snapshot another
                // process pruned or replaced meanwhile is not damaged: the usual number are kept.
                let superseded = folded.model.snapshotBuffer?.superseded ?? false
                var replayed = Replayer.Folded()
                try Replayer.fold(log, into: &replayed, bound: .position(folded.model.position))
                folded = replayed
                info = try SnapshotWriter.write(folded, log: log, to: snapshots, now: environment.now(), keep: superseded ? snapshotPolicy.keep : 1)
            }
            snapshotBase = info.seq
        } catch let problem as SnapshotProblem {
            onSnapshotProblem?(problem)
        } catch let error as EventLogError {
            onSnapshotProblem?(SnapshotProblem(seq: folded.model.position, kind: .notStored(error)))
        } catch {
            onSnapshotProblem?(SnapshotProblem(seq: folded.model.position, kind: .storage(ErrorWords.text(error))))
        }
    }

    private func decideAndAppend(_ decide: (ReadModel, DecisionContext) throws -> Decision) throws -> CommandOutcome {
        try log.write {
            let (decision, now, commandID) = try decideOnCurrentState(decide)
            guard let commandID else { return CommandOutcome(decision: decision, appended: [], state: state, commandID: nil) }
            return try appendLocked(decision, at: now, commandID: commandID)
        }
    }

    /// Inside a transaction: folds the log's tail and decides; the decision's time, and the command
    /// id when there are events to append.
    private func decideOnCurrentState(_ decide: (ReadModel, DecisionContext) throws -> Decision) throws -> (Decision, Int64, String?) {
        try catchUp()
        let context = environment.decisionContext
        let decision = try decide(state, context)
        // The decision may rest on bytes of a damaged snapshot chunk: append nothing.
        guard !state.isPoisoned else { throw LateSnapshotDamage() }
        return (decision, context.now, decision.events.isEmpty ? nil : environment.makeID())
    }

    /// Holding the write lock: appends the decision's events after the head and folds them.
    private func appendLocked(_ decision: Decision, at now: Int64, commandID: String) throws -> CommandOutcome {
        let envelopes = try envelopes(for: decision, at: now, commandID: commandID, after: try log.head())
        try beforeAppend?(envelopes)
        try log.append(envelopes)
        for (pending, envelope) in zip(decision.events, envelopes) {
            Reducer.evolve(&folded.model, pending.event, stream: envelope.stream, version: envelope.version, seq: envelope.seq, at: envelope.recordedAt)
            folded.latestRecordedAt = max(folded.latestRecordedAt, envelope.recordedAt)
        }
        return CommandOutcome(decision: decision, appended: envelopes, state: state, commandID: commandID)
    }

    private func envelopes(for decision: Decision, at now: Int64, commandID: String, after head: LogHead) throws -> [EventEnvelope] {
        try Self.envelopes(
            for: decision.events, after: head, commandID: commandID,
            recordedAt: now, actor: environment.actor, makeID: environment.makeID
        )
    }

    /// The append lock free: as `decideAndAppend`. Taken: decides on the state read without it
    /// and, when `mayStage` allows, stages the events and has the log order them; then folds the
    /// log up to the command's last event. Nil when the command must be decided again under the lock (a stream it
    /// appends to moved on, the decision may not be staged, or this role may not stage).
    private func decideAndStage(
        _ decide: (ReadModel, DecisionContext) throws -> Decision, mayStage: (Decision, ReadModel) -> Bool, _ staging: StagedAppends
    ) throws -> CommandOutcome? {
        enum Step {
            case done(CommandOutcome)
            case staged(Decision, [EventEnvelope], commandID: String)
            case retryLocked
        }
        struct NotStaged: Error {}
        let step: Step
        do {
            step = try staging.writeOrStage { locked in
                let (decision, now, commandID) = try decideOnCurrentState(decide)
                guard let commandID else { return .done(CommandOutcome(decision: decision, appended: [], state: state, commandID: nil)) }
                if locked { return .done(try appendLocked(decision, at: now, commandID: commandID)) }
                guard mayStage(decision, state) else { throw NotStaged() }
                // Provisional positions: the log gives the real ones when it orders the command.
                let provisional = try envelopes(for: decision, at: now, commandID: commandID, after: LogHead(seq: folded.model.position, hash: EventHash.genesis))
                guard try staging.stage(provisional) else { throw NotStaged() }
                return .staged(decision, provisional, commandID: commandID)
            }
        } catch is NotStaged {
            // Only read so far; rolled back.
            step = .retryLocked
        }
        switch step {
        case .done(let outcome):
            return outcome
        case .retryLocked:
            return nil
        case .staged(let decision, let provisional, let commandID):
            guard let appended = try staging.sequence(provisional), let last = appended.last else { return nil }
            // Up to the command's own last event, not past it: the position a command ends at is
            // its own, as under the lock, so two writers never store a snapshot at one position.
            try Replayer.fold(log, into: &folded, bound: .position(last.seq))
            return CommandOutcome(decision: decision, appended: appended, state: state, commandID: commandID)
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
            let payload = Commitment.salted(EventCatalog.payload(of: pending.event), type: type, salt: Salt.fresh)
            var envelope = EventEnvelope(
                seq: previous.seq + 1, id: pending.id ?? makeID(), stream: pending.stream, version: pending.version,
                type: type, schema: EventCatalog.currentSchemas[type] ?? 1,
                data: JSON.object(payload).serialized(.canonical),
                recordedAt: pending.recordedAt ?? recordedAt, actor: actor, command: commandID, hash: ""
            )
            let committed = payload[Commitment.saltsKey] == nil ? nil : Commitment.committedForm(payload).serialized(.canonical)
            envelope.hash = EventHash.link(previous: previous.hash, envelope, committed: committed)
            previous = LogHead(seq: envelope.seq, hash: envelope.hash)
            result.append(envelope)
        }
        return result
    }
}

/// Fresh salts for the commitments of new events (`Commitment`).
enum Salt {
    /// `Commitment.saltBytes` bytes from the system's random source, as lowercase hex.
    static func fresh() -> String {
        var generator = SystemRandomNumberGenerator()
        let high = generator.next() as UInt64
        let low = generator.next() as UInt64
        return hex(high) + hex(low)
    }

    private static func hex(_ value: UInt64) -> String {
        let digits = String(value, radix: 16)
        return String(repeating: "0", count: 16 - digits.utf8.count) + digits
    }
}
