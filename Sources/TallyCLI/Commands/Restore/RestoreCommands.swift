import TallyDomain
import TallyArguments

/// `tally restore REF...`
enum RestoreCommand: CommandHandler {
    static let spec = CommandSpec(
        name: "restore",
        abstract: "Bring deleted todos back, keeping their number.",
        discussion: "Restoring appends an event, as one command (one undo step); later commands stay as they are, unlike 'tally undo'. 'list --deleted' shows what can be restored.",
        arguments: [ArgumentSpec(name: "REF", help: "A todo number or a unique id prefix.", repeating: true)],
        examples: [
            CommandExample(command: "tally restore 4", explanation: "Bring todo 4 back."),
            CommandExample(command: "tally list --deleted --search milk", explanation: "Find a deleted todo to restore."),
        ]
    )

    static func run(_ command: ParsedCommand, _ context: CLIContext) throws {
        MutationPrinter(context: context).print(try context.dispatcher().execute(.restoreTodos(command.arguments)))
    }
}

/// `tally record restore REF...`
enum RecordRestoreCommand: CommandHandler {
    static let spec = CommandSpec(
        name: "restore",
        abstract: "Bring deleted records back, keeping their number.",
        discussion: "Restoring appends an event, as one command (one undo step); later commands stay as they are, unlike 'tally undo'. 'record list --deleted' shows what can be restored.",
        arguments: [ArgumentSpec(name: "REF", help: "A record number or a unique id prefix.", repeating: true)],
        examples: [
            CommandExample(command: "tally record restore 4", explanation: "Bring record 4 back."),
            CommandExample(command: "tally record list --deleted", explanation: "Records, deleted ones included."),
        ]
    )

    static func run(_ command: ParsedCommand, _ context: CLIContext) throws {
        MutationPrinter(context: context).print(try context.dispatcher().execute(.restoreRecords(command.arguments)))
    }
}
