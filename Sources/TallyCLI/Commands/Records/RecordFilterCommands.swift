import TallyDomain
import TallyEssentials
import TallyArguments

/// `tally record filter` — the saved default view of `record list`.
enum RecordFilterGroup {
    static let spec = CommandSpec(
        name: "filter",
        abstract: "Save, show or reset the default view of 'tally record list'.",
        discussion: "The saved view is an event like any other: it is audited and undoable.",
        examples: [
            CommandExample("tally record filter set --category running", "Make a bare 'tally record list' show runs only."),
            CommandExample("tally record filter reset", "Go back to all records, newest first."),
        ]
    )
}

/// `tally record filter set [view options]`
enum RecordFilterSetCommand: CommandHandler {
    static let spec = CommandSpec(
        name: "set",
        abstract: "Save the view a bare 'tally record list' shows.",
        arguments: [RecordOptions.filterArgument],
        options: RecordOptions.view,
        examples: [
            CommandExample(command: "tally record filter set --category running --since -4w", explanation: "Show the last four weeks of runs by default."),
            CommandExample(command: "tally record filter set --sort duration --limit 10", explanation: "Show the ten longest activities by default."),
        ]
    )

    static func run(_ command: ParsedCommand, _ context: CLIContext) throws {
        guard RecordOptions.hasViewOptions(command) else {
            throw UsageError(kind: .custom(context.catalog.text(.usageFilterNeedsOption)), commandPath: command.path)
        }
        let outcome = try context.dispatcher().execute(.saveRecordFilter(try RecordOptions.query(command, context)))
        FilterPrinter.print(.records, after: outcome, context: context)
    }
}

/// `tally record filter show`
enum RecordFilterShowCommand: CommandHandler {
    static let spec = CommandSpec(
        name: "show",
        abstract: "Show the saved default view of records.",
        examples: [
            CommandExample(command: "tally record filter show", explanation: "Print the saved view as list options."),
            CommandExample(command: "tally --json record filter show", explanation: "The saved view as a JSON object."),
        ]
    )

    static func run(_ command: ParsedCommand, _ context: CLIContext) throws {
        let state = try context.readState(try context.readLog())
        FilterPrinter.print(.records, state.filters[.records], context: context, notices: [], changed: false)
    }
}

/// `tally record filter reset`
enum RecordFilterResetCommand: CommandHandler {
    static let spec = CommandSpec(
        name: "reset",
        abstract: "Forget the saved view of records.",
        examples: [
            CommandExample(command: "tally record filter reset", explanation: "Go back to all records, newest first."),
            CommandExample(command: "tally record list --since -1w", explanation: "Or override the saved view for one listing."),
        ]
    )

    static func run(_ command: ParsedCommand, _ context: CLIContext) throws {
        let outcome = try context.dispatcher().execute(.resetFilter(.records))
        FilterPrinter.print(.records, after: outcome, context: context)
    }
}
