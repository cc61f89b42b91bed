import TallyDomain
import TallyArguments

/// `tally toggle REF...` / `tally toggle --all`
enum ToggleCommand: CommandHandler {
    static let spec = CommandSpec(
        name: "toggle",
        abstract: "Flip todos between active and completed.",
        discussion: "With --all: complete every active todo, or reopen them all when none is active. One command, one undo step.",
        arguments: [ArgumentSpec(name: "REF", help: "A todo number or a unique id prefix (at least 4 hex digits).", repeating: true, optional: true)],
        options: [OptionSpec(name: "all", help: "Toggle every todo.")],
        examples: [
            CommandExample(command: "tally toggle 3", explanation: "Complete todo 3 (or reopen it if it is completed)."),
            CommandExample(command: "tally toggle 1 2 5", explanation: "Toggle three todos as one command."),
            CommandExample(command: "tally toggle --all", explanation: "Complete everything that is active."),
        ]
    )

    static func run(_ command: ParsedCommand, _ context: CLIContext) throws {
        let domainCommand: Command
        if command.has("all") {
            guard command.arguments.isEmpty else {
                throw UsageError(kind: .conflictingOptions("--all", "REF"), commandPath: command.path)
            }
            domainCommand = .toggleAllTodos
        } else {
            guard !command.arguments.isEmpty else { throw UsageError(kind: .missingArgument("REF"), commandPath: command.path) }
            domainCommand = .toggleTodos(command.arguments)
        }
        MutationPrinter(context: context).print(try context.dispatcher().execute(domainCommand))
    }
}

/// `tally done REF...`
enum DoneCommand: CommandHandler {
    static let spec = CommandSpec(
        name: "done",
        abstract: "Mark todos as completed.",
        discussion: "Completing a todo that is already completed changes nothing and says so.",
        arguments: [ArgumentSpec(name: "REF", help: "A todo number or a unique id prefix.", repeating: true)],
        examples: [
            CommandExample(command: "tally done 2 4", explanation: "Complete todos 2 and 4, as one command (one undo step)."),
            CommandExample(command: "tally done 3f9b", explanation: "Complete the todo whose id starts with 3f9b."),
        ]
    )

    static func run(_ command: ParsedCommand, _ context: CLIContext) throws {
        MutationPrinter(context: context).print(try context.dispatcher().execute(.completeTodos(command.arguments)))
    }
}

/// `tally reopen REF...`
enum ReopenCommand: CommandHandler {
    static let spec = CommandSpec(
        name: "reopen",
        abstract: "Mark completed todos as active again.",
        discussion: "Reopening a todo that is already active changes nothing and says so.",
        arguments: [ArgumentSpec(name: "REF", help: "A todo number or a unique id prefix.", repeating: true)],
        examples: [
            CommandExample(command: "tally reopen 2", explanation: "Reopen todo 2."),
            CommandExample(command: "tally list --status completed", explanation: "Find the numbers of completed todos first."),
        ]
    )

    static func run(_ command: ParsedCommand, _ context: CLIContext) throws {
        MutationPrinter(context: context).print(try context.dispatcher().execute(.reopenTodos(command.arguments)))
    }
}
