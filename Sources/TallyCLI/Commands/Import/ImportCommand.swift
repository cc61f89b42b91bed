/// `tally import --from taskwarrior|todotxt FILE`
enum ImportCommand: CommandHandler {
    static let path = ["import"]
    static let spec = CommandSpec(
        name: "import",
        abstract: "Import todos from Taskwarrior or todo.txt.",
        discussion: """
            The whole file is one command: everything is imported or nothing is, and one 'tally undo' takes it back. \
            Importing the same file again skips the items already imported. Items that cannot be imported, and \
            fields tally has no place for, are reported with their line or task.
            """,
        arguments: [ArgumentSpec(name: "FILE", help: "The file to read, or - for standard input.")],
        options: [
            OptionSpec(name: "from", valueName: "FORMAT", help: "The format of FILE: a 'task export' JSON file, or a todo.txt file.", allowedValues: ForeignImport.formats),
        ],
        examples: [
            CommandExample("task export > tasks.json && tally import --from taskwarrior tasks.json", "Bring every Taskwarrior task over, with its tags, priority, due date and annotations."),
            CommandExample("tally import --from todotxt ~/todo.txt", "Import a todo.txt file; +projects and @contexts become tags."),
            CommandExample("tally --json import --from todotxt todo.txt", "Report the imported todos, and what was skipped, as JSON."),
        ]
    )

    static func run(_ command: ParsedCommand, _ context: CLIContext) throws {
        guard let format = command.value("from") else {
            throw UsageError(kind: .custom(context.catalog.text(.usageImportNeedsFormat)), commandPath: path)
        }
        try ForeignImport.run(format: format, path: command.arguments[0], context)
    }
}
