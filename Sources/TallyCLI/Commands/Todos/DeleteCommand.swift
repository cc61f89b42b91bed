import TallyDomain
import TallyArguments

/// `tally delete REF...` / `tally delete --completed`
enum DeleteCommand: CommandHandler {
    static let spec = CommandSpec(
        name: "delete",
        aliases: ["rm"],
        abstract: "Delete todos ('tally restore' brings them back).",
        discussion: "Deleting appends an event; nothing is erased. Deleted todos keep their number and show with 'list --deleted'.",
        arguments: [ArgumentSpec(name: "REF", help: "A todo number or a unique id prefix.", repeating: true, optional: true)],
        options: [
            OptionSpec(name: "completed", help: "Delete every completed todo, as one command."),
            OptionSpec(name: "series", help: "End the series of each recurring todo named, and delete it: no further instances."),
        ],
        examples: [
            CommandExample(command: "tally delete 4", explanation: "Delete todo 4."),
            CommandExample(command: "tally rm --completed", explanation: "Clear all completed todos."),
            CommandExample(command: "tally delete 7 --series", explanation: "Stop the recurring todo 7 for good."),
        ]
    )

    static func run(_ command: ParsedCommand, _ context: CLIContext) throws {
        let domainCommand: Command
        if command.has("completed") {
            guard command.arguments.isEmpty else {
                throw UsageError(kind: .conflictingOptions("--completed", "REF"), commandPath: command.path)
            }
            domainCommand = .deleteCompletedTodos
        } else if command.has("series") {
            guard !command.arguments.isEmpty else { throw UsageError(kind: .missingArgument("REF"), commandPath: command.path) }
            domainCommand = .endSeries(command.arguments)
        } else {
            guard !command.arguments.isEmpty else { throw UsageError(kind: .missingArgument("REF"), commandPath: command.path) }
            domainCommand = .deleteTodos(command.arguments)
        }
        MutationPrinter(context: context).print(try context.dispatcher().execute(domainCommand))
    }
}
