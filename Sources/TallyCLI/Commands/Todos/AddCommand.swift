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
    }
}
