import TallyEngine
import TallyDomain
import TallyEssentials
import TallyArguments

/// `tally revert --to WHEN [--dry-run]`: make the present equal to the list at WHEN, as one undoable command.
enum RevertCommand: CommandHandler {
    static let spec = CommandSpec(
        name: "revert",
        abstract: "Put every todo, record, series and saved view back as it was at WHEN, as one command undo takes back.",
        discussion: "Appends the compensating events (the ones undo appends: edits, completed/reopened, deleted/restored, saved views) that make the present equal to what 'list --as-of WHEN' shows; history is not rewritten. A todo or record created after WHEN cannot be taken out of the log: it is deleted (its number and events stay), and is listed first. With --dry-run nothing is appended.",
        options: [
            OptionSpec(name: "to", valueName: "WHEN", help: "The point to go back to: a WHEN (a day means its end) or @SEQ."),
            OptionSpec(name: "dry-run", help: "Show what would change; append nothing."),
        ],
        examples: [
            CommandExample(command: "tally revert --to friday --dry-run", explanation: "What putting everything back as it was at the end of Friday would change."),
            CommandExample(command: "tally revert --to @120", explanation: "Back to the state after event 120; 'tally undo' takes it back."),
        ]
    )

    static func run(_ command: ParsedCommand, _ context: CLIContext) throws {
        if let extra = command.arguments.first { throw UsageError(kind: .unexpectedArgument(extra), commandPath: command.path) }
        guard let when = command.value("to") else { throw UsageError(kind: .missingValue(option: "--to"), commandPath: command.path) }
        guard let bound = try context.asOfBound(when) else { throw UsageError(kind: .missingValue(option: "--to"), commandPath: command.path) }
        let dryRun = command.has("dry-run")
        let current: ReadModel
        let plan: RevertTo.Plan
        var outcome: CommandOutcome?
        if dryRun {
            let log = try context.readLog()
            try TimeTravel.check(bound, against: log)
            current = try context.readState(log)
            plan = RevertTo.plan(target: try Replayer.fold(log, into: ReadModel(), bound: bound), current: current)
        } else {
            let dispatcher = try context.dispatcher()
            try TimeTravel.check(bound, against: dispatcher.log)
            var decided: (ReadModel, RevertTo.Plan)?
            outcome = try dispatcher.execute { state, _ in
                let made = RevertTo.plan(target: try Replayer.fold(dispatcher.log, into: ReadModel(), bound: bound), current: state)
                decided = (state, made)
                return made.decision
            }
            guard let decided else { return }
            (current, plan) = decided
        }
        var after = current
        for pending in plan.decision.events {
            Reducer.evolve(&after, pending.event, stream: pending.stream, version: pending.version, seq: after.position + 1, at: context.now)
        }
        print(plan, current: current, after: after, when: when, outcome: outcome, context)
    }

    static func print(_ plan: RevertTo.Plan, current: ReadModel, after: ReadModel, when: String, outcome: CommandOutcome?, _ context: CLIContext) {
        let catalog = context.catalog
        var streams = plan.createdSince
        var seen = Set(streams)
        for pending in plan.decision.events where seen.insert(pending.stream).inserted { streams.append(pending.stream) }
        var rows: [(stream: String, field: String, now: JSON, then: JSON)] = []
        for stream in streams {
            guard let now = ItemFields.values(in: current, stream: stream), let then = ItemFields.values(in: after, stream: stream) else { continue }
            for (index, entry) in now.enumerated() where entry.value != then[index].value {
                rows.append((stream, entry.field, entry.value, then[index].value))
            }
        }
        let count = plan.decision.events.count
        if context.json {
            var object: JSONObject = [
                "dryRun": .bool(outcome == nil), "events": .int(Int64(count)),
                "createdSince": .array(plan.createdSince.compactMap { MutationPrinter.json($0, in: current) }),
                "changes": .array(rows.map { row in
                    .object(["id": .string(row.stream), "field": .string(row.field), "before": row.now, "after": row.then])
                }),
            ]
            if let id = outcome?.commandID { object["command"] = .string(id) }
            context.printJSON(.object(object))
            return
        }
        for stream in plan.createdSince {
            context.console.line(catalog.text(.revertCreatedSince, ["item": label(stream, current, context), "when": when]))
        }
        guard count > 0 else {
            context.console.line(catalog.text(.revertNothing, ["when": when]))
            return
        }
        if let id = outcome?.commandID {
            context.console.line(catalog.plural(.revertDone, count: count, ["when": when, "command": String(id.prefix(8))]))
        } else {
            context.console.line(catalog.plural(.revertDryRun, count: count, ["when": when]))
        }
        guard !rows.isEmpty else { return }
        let columns = [
            Table.Column(title: catalog.text(.auditColumnItem), truncatable: true, minWidth: 8),
            Table.Column(title: catalog.text(.blameColumnField)),
            Table.Column(title: catalog.text(.revertColumnNow), truncatable: true, minWidth: 6),
            Table.Column(title: catalog.text(.revertColumnReverted), truncatable: true, minWidth: 6),
        ]
        var previous: String?
        let numbers = TodoNumbers(current, after)
        let cells = rows.map { row -> [String] in
            defer { previous = row.stream }
            return [
                previous == row.stream ? "" : label(row.stream, current, context), row.field,
                FieldText.human(row.now, field: row.field, catalog, numbers: numbers), FieldText.human(row.then, field: row.field, catalog, numbers: numbers),
            ]
        }
        context.console.line(Table(columns: columns, rows: cells).render(maxWidth: context.settings.width))
    }

    /// "3: Buy milk" (a todo) or the record's label, as the item is now.
    static func label(_ stream: String, _ model: ReadModel, _ context: CLIContext) -> String {
        if let todo = model.todo(id: stream) { return TodoRenderer(context: context).label(todo) }
        if let record = model.record(id: stream) { return RecordRenderer(context: context).label(record) }
        return stream
    }
}
