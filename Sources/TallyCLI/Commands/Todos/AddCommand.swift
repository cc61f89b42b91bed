import TallyEngine
import TallyDomain
import TallyArguments

/// `tally add TITLE... [--tag T]... [--priority P] [--due WHEN] [--note TEXT] [--wait WHEN] [--recur PERIOD [--recur-from due|completion] [--until WHEN]]`
enum AddCommand: CommandHandler {
    static let spec = CommandSpec(
        name: "add",
        abstract: "Add a todo.",
        discussion: "The title is the words given, joined by spaces and trimmed; it must not be empty.",
        arguments: [ArgumentSpec(name: "TITLE", help: "The todo's title.", repeating: true)],
        options: [TodoOptions.tag, TodoOptions.priority, TodoOptions.due, TodoOptions.note, TodoOptions.project, TodoOptions.after] + RecurrenceOptions.add + [ContextOptions.noContext],
        examples: [
            CommandExample(command: "tally add Buy oat milk --tag shop --due tomorrow", explanation: "Add a todo due tomorrow, tagged shop."),
            CommandExample(command: "tally add \"Call the dentist\" --priority high", explanation: "Add a high-priority todo."),
            CommandExample(command: "tally add Pay rent --due 2026-01-31 --recur monthly", explanation: "Due on the 31st, or the last day of shorter months."),
            CommandExample(command: "tally add Water plants --due today --recur 3d --recur-from completion", explanation: "Due again 3 days after each completion."),
        ]
    )

    static func run(_ command: ParsedCommand, _ context: CLIContext) throws {
        var input = TodoInput(
            title: command.arguments.joined(separator: " "),
            tags: command.values("tag"),
            priority: command.value("priority"),
            due: command.value("due"),
            note: command.value("note"),
            wait: command.value("wait"),
            recurrence: RecurrenceOptions.input(command),
            project: command.value("project")
        )
        input.after = TodoOptions.refs(command, "after")
        input.fromContext = !command.has("no-context")
        let outcome = try context.dispatcher().execute(.addTodo(input))
        MutationPrinter(context: context).print(outcome, single: true)
        for line in outsideContext(outcome, context) {
            if context.json { context.console.errorLine(line) } else { context.console.line(line) }
        }
    }

    /// A line for each new todo the active context's filter does not match, which every list
    /// would leave out without a word (a context that gives no project or tag, `--no-context`).
    static func outsideContext(_ outcome: CommandOutcome, _ context: CLIContext) -> [String] {
        let contexts = TodoContexts(json: outcome.state.filters[.todos])
        guard let name = contexts.active, let filter = contexts.narrowing,
              let selection = try? TodoSelection(filter, model: outcome.state, now: context.now, zone: context.zone)
        else { return [] }
        return outcome.decision.affected.compactMap { outcome.state.todo(id: $0) }.filter { !selection.contains($0) }.map { todo in
            context.catalog.text(.noteOutsideContext, ["number": String(todo.number), "name": TerminalText.escaped(name)])
        }
    }
}
