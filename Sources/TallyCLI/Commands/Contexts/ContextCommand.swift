import TallyArguments
import TallyEssentials
import TallyEngine
import TallyDomain

/// Options the context commands share.
enum ContextOptions {
    static let noContext = OptionSpec(name: "no-context", help: "Do not take the tags and project the active context determines.")
}

/// `tally context [NAME | none | list | define NAME FILTER... | delete NAME]`
enum ContextCommand: CommandHandler {
    static let spec = CommandSpec(
        name: "context",
        abstract: "Define named filters of todos and make one active: it narrows every list and report, and new todos take its tags and project.",
        discussion: "'tally context' says which context is active; 'tally context NAME' makes one active and 'tally context none' none. 'define NAME FILTER...' takes a filter expression and the view options of 'list' (they shape a bare 'tally list'). The saved view of 'tally filter set' is the context 'default', which shapes only a bare 'tally list'. Contexts and the active one are events: undone, synced and seen by --as-of like everything else.",
        arguments: [ArgumentSpec(name: "WORDS", help: "NAME, none, list, define NAME FILTER..., delete NAME, or nothing.", repeating: true, optional: true)],
        options: TodoOptions.view,
        examples: [
            CommandExample(command: "tally context define work 'project:work or tag:urgent'", explanation: "Define the context work."),
            CommandExample(command: "tally context define home project:home --sort due", explanation: "New todos get project home; a bare list is sorted by due date."),
            CommandExample(command: "tally context work", explanation: "Make work active: lists show only its todos."),
            CommandExample(command: "tally context none", explanation: "Show every todo again."),
            CommandExample(command: "tally context list", explanation: "Every context, the active one marked."),
        ]
    )

    static func run(_ command: ParsedCommand, _ context: CLIContext) throws {
        let words = command.arguments
        let usage = UsageError(kind: .custom(context.catalog.text(.usageContextAction)), commandPath: command.path)
        let viewOptions = TodoOptions.view.contains { $0.valueName == nil ? command.has($0.name) : !command.values($0.name).isEmpty }
        if viewOptions, words.first != "define" { throw usage }
        switch words.first {
        case nil:
            try show(context, listing: false)
        case "list", "ls":
            guard words.count == 1 else { throw usage }
            try show(context, listing: true)
        case "define":
            guard words.count >= 2, words.count > 2 || viewOptions else { throw usage }
            let view = try TodoOptions.query(command, context, words: Array(words.dropFirst(2)))
            let outcome = try context.dispatcher().execute(.defineContext(name: words[1], view: view))
            report(outcome, context: context, name: TodoContexts.validName(words[1]) ?? words[1], id: .contextDefined)
        case "delete", "rm":
            guard words.count == 2 else { throw usage }
            let outcome = try context.dispatcher().execute(.deleteContext(words[1]))
            report(outcome, context: context, name: TodoContexts.validName(words[1]) ?? words[1], id: .contextDeleted)
        case "none":
            guard words.count == 1 else { throw usage }
            let outcome = try context.dispatcher().execute(.useContext(nil))
            report(outcome, context: context, name: nil, id: .contextOff)
        case let name?:
            guard words.count == 1 else { throw usage }
            let outcome = try context.dispatcher().execute(.useContext(name))
            report(outcome, context: context, name: TodoContexts.validName(name) ?? name, id: .contextSwitched)
        }
    }

    /// The todos' stored view object in words, for history and sync lines: the options of the
    /// view as before while it holds only the active context `default` (a saved view), else each
    /// context with its view, the active one marked `*`.
    static func describe(stored filter: JSONObject, _ catalog: Catalog) -> String {
        let contexts = TodoContexts(json: filter)
        if contexts.names == [TodoContexts.defaultName], contexts.active == TodoContexts.defaultName, let view = contexts.activeView {
            return TodoOptions.describe(view)
        }
        return contexts.names.map { name in
            (name == contexts.active ? "*" : "") + name + " " + describe(contexts.views[name]!, catalog)
        }.joined(separator: "; ")
    }

    /// The context's view as `list` options and expression.
    static func describe(_ view: TodoQuery, _ catalog: Catalog) -> String {
        let text = TodoOptions.describe(view)
        return text.isEmpty ? catalog.text(.contextEverything) : text
    }

    private static func report(_ outcome: CommandOutcome, context: CLIContext, name: String?, id: MessageID) {
        let contexts = TodoContexts(json: outcome.state.filters[.todos])
        if context.json {
            context.printJSON(json(contexts))
            for notice in outcome.decision.notices { context.console.errorLine(NoticeText.text(notice, context.catalog)) }
            return
        }
        for notice in outcome.decision.notices { context.console.line(NoticeText.text(notice, context.catalog)) }
        guard !outcome.appended.isEmpty else { return }
        var arguments = ["name": name ?? ""]
        if let name, let view = contexts.views[name] { arguments["view"] = describe(view, context.catalog) }
        context.console.line(context.catalog.text(id, arguments))
    }

    private static func show(_ context: CLIContext, listing: Bool) throws {
        let state = try context.readState(try context.readLog())
        let contexts = TodoContexts(json: state.filters[.todos])
        let catalog = context.catalog
        if context.json { return context.printJSON(json(contexts)) }
        guard listing else {
            if let name = contexts.active, let view = contexts.activeView {
                context.console.line(catalog.text(.contextActive, ["name": TerminalText.escaped(name), "view": describe(view, catalog)]))
            } else {
                context.console.line(catalog.text(.contextNone))
            }
            return
        }
        guard !contexts.views.isEmpty else { return context.console.line(catalog.text(.contextListEmpty)) }
        let columns = [
            Table.Column(title: " "),
            Table.Column(title: catalog.text(.columnContext)),
            Table.Column(title: catalog.text(.columnView), truncatable: true, minWidth: 10),
        ]
        var cells: [String] = []
        for name in contexts.names {
            cells += [name == contexts.active ? "*" : "", TerminalText.escaped(name), TerminalText.escaped(describe(contexts.views[name]!, catalog))]
        }
        context.console.line(Table(columns: columns, cells: cells, ellipsis: context.settings.unicode ? "…" : "...").render(maxWidth: context.settings.width))
    }

    /// `{"active": NAME|null, "contexts": [{"name","filter","view"}]}`: the filter as one expression, the view as stored.
    static func json(_ contexts: TodoContexts) -> JSON {
        .object([
            "active": contexts.active.map(JSON.string) ?? .null,
            "contexts": .array(contexts.names.map { name in
                let view = contexts.views[name]!
                return .object([
                    "name": .string(name),
                    "filter": view.filterExpression.map { .string($0.canonical) } ?? .null,
                    "view": .object(view.json),
                ])
            }),
        ])
    }
}
