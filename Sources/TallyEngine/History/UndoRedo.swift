import TallyDomain

/// One command reverted or re-applied by undo or redo.
public struct HistoryStep: Sendable {
    /// The id of the command undone or redone.
    public var command: String
    /// Who ran, and when, the command whose events are shown: the undone command, or the undo a redo reverses.
    public var actor: String
    public var recordedAt: Int64
    /// For undo, the undone command's events; for redo, the compensations of the undo it reverses.
    public var events: [EventEnvelope]
}

/// What undo or redo did: the appended command, the state before it, and the steps it took.
public struct HistoryOutcome: Sendable {
    public var outcome: CommandOutcome
    /// The read models just before the undo or redo.
    public var before: ReadModel
    /// Newest first for undo; in re-application order for redo.
    public var steps: [HistoryStep]
}

extension Dispatcher {
    /// Reverts the `steps` newest commands that are not undone yet, as one command.
    ///
    /// Scans commands backwards from the end, keeping the ids undo markers name. Undo commands are
    /// skipped (redo reverses them); every other command, a redo included, is an undoable unit.
    /// With `actor` (on a shared log), only that actor's commands count: a teammate's are skipped.
    /// - Throws: `HistoryError.nothingToUndo` when no command is left to undo;
    ///   `HistoryError.noOwnCommands` when, with `actor`, every command in the log is a teammate's.
    public func undo(steps: Int = 1, actor: String? = nil) throws -> HistoryOutcome {
        var before = ReadModel()
        var taken: [HistoryStep] = []
        let outcome = try execute { state, context in
            before = state
            var undone = Set<String>()
            var targets: [LoggedCommand] = []
            var own = 0
            var others = 0
            try CommandScanner.newestFirst(log) { command in
                if let actor, command.actor != actor {
                    others += 1
                    return true
                }
                own += 1
                if command.isUndo {
                    undone.formUnion(command.undid)
                } else if !undone.contains(command.id) {
                    if command.events.contains(where: { $0.type == "history.redacted" }) {
                        throw HistoryError.redactionIrreversible(command: command.id)
                    }
                    targets.append(command)
                }
                return targets.count < steps
            }
            guard !targets.isEmpty else {
                if let actor, own == 0, others > 0 { throw HistoryError.noOwnCommands(actor: actor, commands: others) }
                throw HistoryError.nothingToUndo
            }
            var revert: [RevertStep] = []
            for target in targets {
                let effects = try target.effects()
                let prior = try CommandScanner.state(log, streams: effects.map(\.stream), before: target.firstSeq)
                revert.append(RevertStep(command: target.id, events: effects, before: prior))
                taken.append(HistoryStep(command: target.id, actor: target.actor, recordedAt: target.recordedAt, events: target.events))
            }
            return Compensation.undo(revert, current: state, now: context.now)
        }
        return HistoryOutcome(outcome: outcome, before: before, steps: taken)
    }

    /// Re-applies the `steps` most recently undone commands, as one command.
    ///
    /// Only the trailing run of undo and redo commands counts: replayed oldest first, an undo pushes
    /// the commands it undid and a redo pops them. Any other command ends the run, so after a new
    /// change there is nothing to redo.
    /// With `actor` (on a shared log), only that actor's commands count: a teammate's are skipped.
    /// - Throws: `HistoryError.nothingToRedo` when the stack is empty.
    public func redo(steps: Int = 1, actor: String? = nil) throws -> HistoryOutcome {
        var before = ReadModel()
        var taken: [HistoryStep] = []
        let outcome = try execute { state, context in
            before = state
            var run: [LoggedCommand] = []
            try CommandScanner.newestFirst(log) { command in
                if let actor, command.actor != actor { return true }
                guard command.isUndo || command.isRedo else { return false }
                run.append(command)
                return true
            }
            var stack: [(command: String, undo: LoggedCommand, segment: [EventEnvelope])] = []
            for command in run.reversed() {
                if command.isUndo {
                    var segment: [EventEnvelope] = []
                    for event in command.events {
                        guard event.stream == HistoryStream.name else {
                            segment.append(event)
                            continue
                        }
                        if case .historyUndone(let id) = try LoggedCommand.decode(event) {
                            stack.append((id, command, segment))
                        }
                        segment = []
                    }
                } else {
                    stack.removeLast(min(command.redid.count, stack.count))
                }
            }
            guard !stack.isEmpty else { throw HistoryError.nothingToRedo }
            var revert: [RevertStep] = []
            for entry in stack.suffix(steps).reversed() {
                let effects = try LoggedCommand.effects(entry.segment)
                let first = entry.segment.first?.seq ?? entry.undo.firstSeq
                let prior = try CommandScanner.state(log, streams: effects.map(\.stream), before: first)
                revert.append(RevertStep(command: entry.command, events: effects, before: prior))
                taken.append(HistoryStep(command: entry.command, actor: entry.undo.actor, recordedAt: entry.undo.recordedAt, events: entry.segment))
            }
            return Compensation.redo(revert, current: state, now: context.now)
        }
        return HistoryOutcome(outcome: outcome, before: before, steps: taken)
    }
}
