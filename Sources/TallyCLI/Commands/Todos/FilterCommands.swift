import TallyEngine
import TallyDomain
import TallyEssentials
import TallyArguments

/// `tally filter` — the group of saved-view commands.
enum FilterGroup {
    static let spec = CommandSpec(
        name: "filter",
        abstract: "Save, show or reset the default view of 'tally list'.",
        discussion: "The saved view is an event like any other: it is audited and undoable.",
        examples: [
            CommandExample("tally filter set --status active --sort priority", "Make a bare 'tally list' show active todos, most urgent first."),
            CommandExample("tally filter reset", "Go back to all todos in creation order."),
        ]
    )
}

/// `tally filter set [view options]`
enum FilterSetCommand: CommandHandler {
    static let spec = CommandSpec(
        name: "set",
        abstract: "Save the view a bare 'tally list' shows.",
        arguments: [TodoOptions.filterArgument],
        options: TodoOptions.view,
        examples: [
            CommandExample(command: "tally filter set --status active --sort due", explanation: "Make 'tally list' show active todos, soonest due first."),
            CommandExample(command: "tally filter set --tag work --limit 10", explanation: "Show at most ten work todos by default."),
            CommandExample(command: "tally filter set 'status:pending -tag:someday'", explanation: "Save a filter expression as the default view."),
        ]
    )

    static func run(_ command: ParsedCommand, _ context: CLIContext) throws {
        guard TodoOptions.hasViewOptions(command) else {
            throw UsageError(kind: .custom(context.catalog.text(.usageFilterNeedsOption)), commandPath: command.path)
        }
        let query = try TodoOptions.query(command, context)
        let outcome = try context.dispatcher().execute(.saveTodoFilter(query))
        FilterPrinter.print(.todos, after: outcome, context: context)
    }
}

/// `tally filter show`
enum FilterShowCommand: CommandHandler {
    static let spec = CommandSpec(
        name: "show",
        abstract: "Show the saved default view.",
        examples: [
            CommandExample(command: "tally filter show", explanation: "Print the saved view as list options."),
            CommandExample(command: "tally --json filter show", explanation: "The saved view as a JSON object."),
        ]
    )

    static func run(_ command: ParsedCommand, _ context: CLIContext) throws {
        let state = try context.readState(try context.readLog())
        FilterPrinter.print(.todos, state.filters[.todos], context: context, notices: [], changed: false)
    }
}

/// `tally filter reset`
enum FilterResetCommand: CommandHandler {
    static let spec = CommandSpec(
        name: "reset",
        abstract: "Forget the saved view: a bare 'tally list' shows all todos again.",
        examples: [
            CommandExample(command: "tally filter reset", explanation: "Go back to the standard view."),
            CommandExample(command: "tally list --status all", explanation: "Or override the saved view for one listing."),
        ]
    )

    static func run(_ command: ParsedCommand, _ context: CLIContext) throws {
        let outcome = try context.dispatcher().execute(.resetFilter(.todos))
        FilterPrinter.print(.todos, after: outcome, context: context)
    }
}

/// Prints a saved view of either scope.
enum FilterPrinter {
    /// The view of `scope` after a command that saved or reset it, with the command's notices.
    static func print(_ scope: FilterScope, after outcome: CommandOutcome, context: CLIContext) {
        print(scope, outcome.state.filters[scope], context: context, notices: outcome.decision.notices, changed: !outcome.appended.isEmpty)
    }

    static func print(_ scope: FilterScope, _ filter: JSONObject?, context: CLIContext, notices: [Notice], changed: Bool) {
        // The todos' saved view is the context `default` among the others (`TodoContexts`).
        let filter = scope == .todos ? TodoContexts(json: filter).views[TodoContexts.defaultName]?.json : filter
        if context.json {
            context.printJSON(.object(["scope": .string(scope.rawValue), "filter": filter.map { .object($0) } ?? .null]))
            for notice in notices { context.console.errorLine(NoticeText.text(notice, context.catalog)) }
            return
        }
        for notice in notices { context.console.line(NoticeText.text(notice, context.catalog)) }
        if let filter {
            let options = switch scope {
            case .todos: TodoOptions.describe(TodoQuery(json: filter))
            case .records: RecordOptions.describe(RecordQuery(json: filter))
            }
            context.console.line(context.catalog.text(changed ? .filterSaved : .filterCurrent, ["options": options]))
        } else {
            let id: MessageID = switch (scope, changed) {
            case (.todos, false): .filterNone
            case (.todos, true): .filterWasReset
            case (.records, false): .recordFilterNone
            case (.records, true): .recordFilterWasReset
            }
            context.console.line(context.catalog.text(id))
        }
    }
}
