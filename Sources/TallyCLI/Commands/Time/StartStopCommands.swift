import TallyDomain
import TallyArguments

/// `tally start REF... [--also] [--at WHEN]`
enum StartCommand: CommandHandler {
    static let spec = CommandSpec(
        name: "start",
        abstract: "Start the clock on todos.",
        discussion: "One todo runs at a time: starting one stops any other, in the same command, unless --also is given. Starting a running todo changes nothing and says so.",
        arguments: [ArgumentSpec(name: "REF", help: "A todo number or a unique id prefix.", repeating: true)],
        options: [
            OptionSpec(name: "also", help: "Keep the todos that are running running."),
            OptionSpec(name: "at", valueName: "WHEN", help: "When you started (not later than now); now when absent."),
        ],
        examples: [
            CommandExample(command: "tally start 3", explanation: "Start working on todo 3 (stopping whatever ran)."),
            CommandExample(command: "tally start 4 --also --at 9:15", explanation: "Todo 4 ran since 9:15 too, beside the others."),
        ]
    )

    static func run(_ command: ParsedCommand, _ context: CLIContext) throws {
        let outcome = try context.dispatcher().execute(.startTodos(command.arguments, also: command.has("also"), at: command.value("at")))
        MutationPrinter(context: context).print(outcome)
    }
}

/// `tally stop [REF...] [--at WHEN]`
enum StopCommand: CommandHandler {
    static let spec = CommandSpec(
        name: "stop",
        abstract: "Stop the clock on todos.",
        discussion: "Without REF, every running todo stops. Completing or deleting a running todo stops it too.",
        arguments: [ArgumentSpec(name: "REF", help: "A todo number or a unique id prefix.", repeating: true, optional: true)],
        options: [OptionSpec(name: "at", valueName: "WHEN", help: "When you stopped (not before the start, not later than now); now when absent.")],
        examples: [
            CommandExample(command: "tally stop", explanation: "Stop whatever runs."),
            CommandExample(command: "tally stop 3 --at 17:30", explanation: "Todo 3 stopped at 17:30 (left running by mistake)."),
        ]
    )

    static func run(_ command: ParsedCommand, _ context: CLIContext) throws {
        MutationPrinter(context: context).print(try context.dispatcher().execute(.stopTodos(command.arguments, at: command.value("at"))))
    }
}
