import TallyDomain
import TallyArguments

/// `tally annotate REF TEXT...`
enum AnnotateCommand: CommandHandler {
    static let spec = CommandSpec(
        name: "annotate",
        abstract: "Add a dated note to a todo.",
        discussion: "Annotations accumulate: each is its own event, dated and attributed, shown by 'show' and found by filter words. 'denotate' or 'undo' takes one off; the log keeps it.",
        arguments: [
            ArgumentSpec(name: "REF", help: "A todo number or a unique id prefix."),
            ArgumentSpec(name: "TEXT", help: "The annotation: the words given, joined by spaces (one line, at most 1000 characters).", repeating: true),
        ],
        examples: [
            CommandExample(command: "tally annotate 3 Called the shop, they open at 9", explanation: "Note what happened on todo 3, dated now."),
            CommandExample(command: "tally show 3", explanation: "Its annotations, numbered, with who wrote them and when."),
        ]
    )

    static func run(_ command: ParsedCommand, _ context: CLIContext) throws {
        guard command.arguments.count >= 2 else { throw UsageError(kind: .missingArgument("TEXT"), commandPath: command.path) }
        let text = command.arguments.dropFirst().joined(separator: " ")
        MutationPrinter(context: context).print(try context.dispatcher().execute(.annotateTodo(command.arguments[0], text: text)), single: true)
    }
}

/// `tally denotate REF N`
enum DenotateCommand: CommandHandler {
    static let spec = CommandSpec(
        name: "denotate",
        abstract: "Take an annotation off a todo.",
        discussion: "N is the annotation's number as 'show' lists them. The removal is an event: the annotation stays in the log and 'undo' brings it back.",
        arguments: [
            ArgumentSpec(name: "REF", help: "A todo number or a unique id prefix."),
            ArgumentSpec(name: "N", help: "The annotation's number in 'tally show REF'."),
        ],
        examples: [
            CommandExample(command: "tally show 3", explanation: "See the annotations of todo 3, numbered."),
            CommandExample(command: "tally denotate 3 2", explanation: "Take the second annotation off todo 3 ('tally undo' puts it back)."),
        ]
    )

    static func run(_ command: ParsedCommand, _ context: CLIContext) throws {
        MutationPrinter(context: context).print(try context.dispatcher().execute(.denotateTodo(command.arguments[0], index: command.arguments[1])), single: true)
    }
}
