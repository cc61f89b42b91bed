#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import TallyDomain
import TallyArguments

/// `tally edit REF [--title T] [--tag +T|-T]... [--priority P|none] [--due WHEN|none] [--note TEXT|none]`
enum EditCommand: CommandHandler {
    static let spec = CommandSpec(
        name: "edit",
        abstract: "Change a todo's fields.",
        discussion: """
            Only the fields named change. 'none' clears the priority, due date or note.

            Without options, the todo opens as a text form in $VISUAL or $EDITOR (vi on a terminal when neither is \
            set): what you change there is applied as one edit when you save and close it. An unchanged or emptied \
            file changes nothing; a form that cannot be applied is reopened with the error on top (or, without a \
            terminal, kept in a file the message names).
            """,
        arguments: [ArgumentSpec(name: "REF", help: "A todo number or a unique id prefix.")],
        options: [
            OptionSpec(name: "title", valueName: "TITLE", help: "The new title."),
            OptionSpec(name: "tag", valueName: "+TAG|-TAG", repeatable: true, help: "Add (+tag or tag) or remove (-tag) a tag. Repeat for several."),
            OptionSpec(name: "priority", valueName: "PRIORITY", help: "low, medium, high, or none."),
            OptionSpec(name: "due", valueName: "WHEN", help: "A new due date, or none."),
            OptionSpec(name: "note", valueName: "TEXT", help: "A new note, or none."),
            OptionSpec(name: "project", valueName: "PROJECT", help: "A new project (home.garden), or none."),
            OptionSpec(name: "after", valueName: "REF[,REF]", repeatable: true, help: "Also wait for these todos."),
            OptionSpec(name: "no-after", valueName: "REF[,REF]", repeatable: true, help: "No longer wait for these todos."),
        ] + RecurrenceOptions.edit,
        examples: [
            CommandExample(command: "tally edit 3 --title \"Buy oat milk\"", explanation: "Rename todo 3."),
            CommandExample(command: "tally edit 3", explanation: "Change todo 3 in your editor ($VISUAL or $EDITOR)."),
            CommandExample(command: "tally edit 3 --tag +urgent --tag -someday --due none", explanation: "Change tags and clear the due date."),
            CommandExample(command: "tally edit 3 --series --recur 2w --title \"Clean windows\"", explanation: "Change the series of todo 3 for the instances to come."),
        ]
    )

    static func run(_ command: ParsedCommand, _ context: CLIContext) throws {
        var input = TodoEditInput(
            title: command.value("title"),
            tagChanges: command.values("tag"),
            priority: command.value("priority"),
            due: command.value("due"),
            note: command.value("note"),
            wait: command.value("wait"),
            series: command.has("series"),
            recurrence: RecurrenceOptions.input(command) ?? RecurrenceInput(),
            project: command.value("project")
        )
        input.addAfter = TodoOptions.refs(command, "after")
        input.removeAfter = TodoOptions.refs(command, "no-after")
        guard !input.isEmpty else {
            let terminal = EditorSession.hasTerminal
            if let editor = EditorSession.editor(environment: ProcessInfo.processInfo.environment, terminal: terminal) {
                return try EditorSession.run(ref: command.arguments[0], editor: editor, context)
            }
            // Every option that changes something (all but --series, which says what to change).
            let options = spec.options.map(\.name).filter { $0 != "series" }.map { "--" + $0 }.joined(separator: ", ")
            throw UsageError(kind: .custom(context.catalog.text(.usageEditNeedsChange, ["options": options])), commandPath: command.path)
        }
        let ref = command.arguments[0]
        MutationPrinter(context: context).print(try context.dispatcher().execute(.editTodo(ref, input)))
    }
}
