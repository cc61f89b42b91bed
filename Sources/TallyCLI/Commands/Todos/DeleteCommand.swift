import TallyDomain

/// `tally delete REF...` / `tally delete --completed`
enum DeleteCommand: CommandHandler {
    static let path = ["delete"]
    static let spec = CommandSpec(
        name: "delete",
        aliases: ["rm"],
        abstract: "Delete todos ('tally restore' brings them back).",
        discussion: "Deleting appends an event; nothing is erased. Deleted todos keep their number and show with 'list --deleted'.",
        arguments: [ArgumentSpec(name: "REF", help: "A todo number or a unique id prefix.", repeating: true, optional: true)],
        options: [OptionSpec(name: "completed", help: "Delete every completed todo, as one command.")],
        examples: [
            CommandExample(command: "tally delete 4", explanation: "Delete todo 4."),
            CommandExample(command: "tally rm --completed", explanation: "Clear all completed todos."),
        ]
    )

    static func run(_ command: ParsedCommand, _ context: CLIContext) throws {
        let domainCommand: Command
        if command.has("completed") {
            guard command.arguments.isEmpty else {
                throw UsageError(kind: .conflictingOptions("--completed", "REF"), commandPath: path)
            }
            domainCommand = .deleteCompletedTodos
        } else {
            guard !command.arguments.isEmpty else { throw UsageError(kind: .missingArgument("REF"), commandPath: path) }
            domainCommand = .deleteTodos(command.arguments)
        }
        MutationPrinter(context: context).print(try context.dispatcher().execute(domainCommand))
    }
}
