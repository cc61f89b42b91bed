import TallyEngine
import TallyDomain
import TallyEssentials
import TallyArguments

/// `tally list [view options] [--as-of WHEN]`
enum ListCommand: CommandHandler {
    static let spec = CommandSpec(
        name: "list",
        aliases: ["ls"],
        abstract: "Show todos, filtered and sorted.",
        discussion: "Without view options, the saved default view ('tally filter set') is used, or all todos in creation order.",
        arguments: [TodoOptions.filterArgument],
        options: TodoOptions.view + [TodoOptions.asOf],
        examples: [
            CommandExample(command: "tally list --status active --sort due", explanation: "Active todos, soonest due first."),
            CommandExample(command: "tally ls --tag home --search milk", explanation: "Todos tagged home that mention milk."),
            CommandExample(command: "tally list 'tag:shop or (project:home due.before:fri)'", explanation: "A filter expression: or, not (or -), parentheses, field terms and words."),
            CommandExample(command: "tally list --as-of yesterday", explanation: "The list as it was at the end of yesterday."),
        ]
    )

    static func run(_ command: ParsedCommand, _ context: CLIContext) throws {
        let bound = try context.asOfBound(command.value("as-of"))
        let explicit = TodoOptions.hasViewOptions(command)
        let query = explicit ? try TodoOptions.query(command, context) : nil
        let log = try context.readLog()
        let state = try context.readState(log, bound: bound)
        // The active context narrows what is asked; a bare list shows the context's own view.
        let contexts = TodoContexts(json: state.filters[.todos])
        var effective = query ?? contexts.activeView ?? .standard
        if query != nil, let filter = contexts.narrowing {
            effective.expression = FilterExpression.all([filter] + (effective.expression.map { [$0] } ?? []))
        }
        let view = try TodoProjection.run(effective, on: state, now: context.now, zone: context.zone)
        if context.json {
            context.printJSON(.array(view.todos.map(JSONShapes.todo)))
        } else {
            context.console.line(TodoRenderer(context: context).table(view))
            if let name = contexts.active, contexts.narrowing != nil { context.console.line(context.catalog.text(.contextFooter, ["name": TerminalText.escaped(name)])) }
        }
    }
}

/// `tally show REF [--as-of WHEN]`
enum ShowCommand: CommandHandler {
    static let spec = CommandSpec(
        name: "show",
        abstract: "Show all fields of a todo and its history.",
        arguments: [ArgumentSpec(name: "REF", help: "A todo number or a unique id prefix.")],
        options: [TodoOptions.asOf],
        examples: [
            CommandExample(command: "tally show 3", explanation: "Everything about todo 3, with who changed what and when."),
            CommandExample(command: "tally show 3 --as-of @120", explanation: "Todo 3 as it was at log position 120."),
        ]
    )

    static func run(_ command: ParsedCommand, _ context: CLIContext) throws {
        let bound = try context.asOfBound(command.value("as-of"))
        let log = try context.readLog()
        let state = try context.readState(log, bound: bound)
        let todo = try TimeTravel.resolve(command.arguments[0], kind: .todo, asOf: command.value("as-of"), in: state, log: log, context: context, ReferenceResolver.todo)
        var history = try log.events(inStream: todo.id).filter { Replayer.includes($0, bound: bound) }
        let series = todo.series.flatMap { state.series[$0] }.map { SeriesDetail(series: $0, state: state, now: context.now, zone: context.zone) }
        if let series {
            history += try log.events(inStream: series.series.id).filter { Replayer.includes($0, bound: bound) }
            history.sort { $0.seq < $1.seq }
        }
        if context.json {
            var object: JSONObject = ["todo": JSONShapes.todo(todo), "history": .array(history.map(JSONShapes.event))]
            if let series { object["series"] = series.json }
            context.printJSON(.object(object))
        } else {
            let clock = try context.asOfClock(bound, in: log)
            context.console.line(TodoRenderer(context: context).detail(
                todo, history: history, series: series, graph: TodoDependencies(state), clock: clock, numbers: TodoNumbers(state)
            ))
        }
    }
}
