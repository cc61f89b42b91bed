import TallyEngine
import TallyDomain
import TallyArguments

/// `tally undo [--steps N]`
enum UndoCommand: CommandHandler {
    static let spec = CommandSpec(
        name: "undo",
        abstract: "Revert the most recent commands by appending compensating events.",
        discussion: """
            History is never rewritten: undo appends events that put back what the command changed, \
            plus a history.undone marker, as one new command. A command on several todos is undone as a whole. \
            Undo commands themselves are reverted with 'tally redo'.
            """,
        options: [steps],
        examples: [
            CommandExample(command: "tally undo", explanation: "Revert the last command."),
            CommandExample(command: "tally undo --steps 3", explanation: "Revert the last three commands, as one undo."),
        ]
    )

    static let steps = OptionSpec(name: "steps", valueName: "N", help: "How many commands to revert.", defaultValue: "1")

    static func run(_ command: ParsedCommand, _ context: CLIContext) throws {
        let steps = try context.positiveInt(command.value("steps"), option: "--steps") ?? 1
        let (store, dispatcher) = try context.writing()
        let actor = try SyncCommand.undoActor(store, context)
        HistoryPrinter(context: context).print(try dispatcher.undo(steps: steps, actor: actor), header: .auditUndid)
    }
}

/// `tally redo [--steps N]`
enum RedoCommand: CommandHandler {
    static let spec = CommandSpec(
        name: "redo",
        abstract: "Re-apply the most recently undone commands.",
        discussion: "Works while nothing new has happened since the undo: any other change ends the chance to redo. Appends the command's effect again plus a history.redone marker.",
        options: [OptionSpec(name: "steps", valueName: "N", help: "How many undone commands to re-apply.", defaultValue: "1")],
        examples: [
            CommandExample(command: "tally undo && tally redo", explanation: "Revert the last command, then bring it back."),
            CommandExample(command: "tally redo --steps 2", explanation: "Re-apply the two most recently undone commands."),
        ]
    )

    static func run(_ command: ParsedCommand, _ context: CLIContext) throws {
        let steps = try context.positiveInt(command.value("steps"), option: "--steps") ?? 1
        let (store, dispatcher) = try context.writing()
        let actor = try SyncCommand.undoActor(store, context)
        HistoryPrinter(context: context).print(try dispatcher.redo(steps: steps, actor: actor), header: .auditRedid)
    }
}

/// Prints what undo or redo did: per command a header, then before → after for each item it changed.
struct HistoryPrinter {
    let context: CLIContext

    /// Prints `result`; `header` is the line template for each step (undid or redid).
    func print(_ result: HistoryOutcome, header: MessageID) {
        let outcome = result.outcome
        // Todos first, then records, each by number.
        let number = { (stream: String) -> Int in
            if let todo = outcome.state.todo(id: stream) { return todo.number }
            if let record = outcome.state.record(id: stream) { return Int(Int32.max) + record.number }
            return .max
        }
        if context.json {
            var seen = Set<String>()
            let streams = (outcome.decision.affected + outcome.appended.map(\.stream)).sorted { number($0) < number($1) }
            let items = streams.filter { seen.insert($0).inserted }.compactMap { MutationPrinter.json($0, in: outcome.state) }
            context.printJSON(.array(items))
            return
        }
        let describer = ChangeDescriber(context: context)
        var state = result.before
        var pending = outcome.appended[...]
        for step in result.steps {
            context.console.line(context.catalog.text(header, [
                "command": String(step.command.prefix(8)), "actor": step.actor,
                "time": Timestamp.formatLocal(step.recordedAt, in: context.zone, withTime: true),
                "events": eventCounts(step.events),
            ]))
            // Each step's compensations end with its marker; fold them to show this step's own change.
            let end = pending.firstIndex { $0.stream == HistoryStream.name } ?? pending.endIndex
            let segment = pending[..<end]
            pending = pending[min(end + 1, pending.endIndex)...]
            var next = state
            for event in segment { try? Reducer.evolve(&next, event) }
            let lines = describer.lines(from: state, to: next, streams: segment.map(\.stream).sorted { number($0) < number($1) })
            if lines.isEmpty { context.console.line(context.catalog.text(.auditNothingLeft)) }
            for line in lines { context.console.line(line) }
            state = next
        }
    }

    /// The types of a command's events with their counts, in first-seen order: "todo.completed ×2, todo.created ×1".
    private func eventCounts(_ events: [EventEnvelope]) -> String {
        var order: [String] = []
        var counts: [String: Int] = [:]
        for event in events where event.stream != HistoryStream.name {
            if counts[event.type] == nil { order.append(event.type) }
            counts[event.type, default: 0] += 1
        }
        return order.map { context.catalog.text(.auditEventCount, ["type": $0, "count": String(counts[$0] ?? 0)]) }.joined(separator: ", ")
    }
}
