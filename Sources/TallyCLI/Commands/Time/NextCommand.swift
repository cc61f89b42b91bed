import TallyArguments
import TallyDomain
import TallyEngine
import TallyEssentials

/// `tally next [FILTER...] [--limit N] [--explain REF] [--as-of WHEN]`
enum NextCommand: CommandHandler {
    static let spec = CommandSpec(
        name: "next",
        abstract: "List the ready todos most worth doing now, by urgency.",
        discussion: "Urgency adds up terms: due date, priority, started, blocking others, age, tags, project, annotations, and coefficients per tag or project; the coefficients follow Taskwarrior 2.6 and TALLY_URGENCY changes them (see the guide). Only ready todos are listed: pending, waiting for nothing pending, not waiting.",
        arguments: [TodoOptions.filterArgument],
        options: [
            OptionSpec(name: "limit", valueName: "N", help: "Show at most N (default 10)."),
            OptionSpec(name: "explain", valueName: "REF", help: "Show how one todo's score was made, term by term."),
            TodoOptions.asOf,
        ],
        examples: [
            CommandExample(command: "tally next", explanation: "The ten ready todos with the highest urgency."),
            CommandExample(command: "tally next project:work --limit 3", explanation: "The three most urgent ready todos of the work project."),
            CommandExample(command: "tally next --explain 4", explanation: "Each term of todo 4's urgency: factor, coefficient, value."),
        ]
    )

    static let defaultLimit = 10

    static func run(_ command: ParsedCommand, _ context: CLIContext) throws {
        let coefficients = try Self.coefficients(context)
        let bound = try context.asOfBound(command.value("as-of"))
        let log = try context.readLog()
        let state = try context.readState(log, bound: bound)
        let graph = TodoDependencies(state)
        if let ref = command.value("explain") {
            guard command.arguments.isEmpty, command.value("limit") == nil else {
                throw UsageError(kind: .conflictingOptions("--explain", command.arguments.isEmpty ? "--limit" : "FILTER"), commandPath: command.path)
            }
            let todo = try TimeTravel.resolve(ref, kind: .todo, asOf: command.value("as-of"), in: state, log: log, context: context, ReferenceResolver.todo)
            explain(todo, terms: Urgency.terms(todo, blocking: !graph.blocking(todo).isEmpty, now: context.now, zone: context.zone, coefficients: coefficients), context)
            return
        }
        let limit = try context.positiveInt(command.value("limit"), option: "--limit") ?? defaultLimit
        var query = TodoQuery()
        let ready = FilterExpression.term(.flag(.ready))
        if let expression = try FilterExpressionText.parse(command.arguments, context) {
            query.expression = .and([expression, ready])
        } else {
            query.expression = ready
        }
        query = try Decider.validated(query, context: context.environment.decisionContext)
        let todos = try TodoProjection.run(query, on: state, now: context.now, zone: context.zone).todos
        let scored = todos.map { todo in
            (todo: todo, score: Urgency.score(Urgency.terms(todo, blocking: !graph.blocking(todo).isEmpty, now: context.now, zone: context.zone, coefficients: coefficients)))
        }
        // Highest first; equal scores in creation order.
        let ranked = scored.sorted { $0.score != $1.score ? $0.score > $1.score : $0.todo.number < $1.todo.number }.prefix(limit)
        if context.json {
            context.printJSON(.array(ranked.map { entry in
                var object = JSONShapes.todo(entry.todo).objectValue ?? JSONObject()
                object["urgency"] = .double(rounded(entry.score, 3))
                return .object(object)
            }))
            return
        }
        let catalog = context.catalog
        guard !ranked.isEmpty else {
            context.console.line(catalog.text(.nextEmpty))
            return
        }
        let renderer = TodoRenderer(context: context)
        let columns = [
            Table.Column(title: catalog.text(.columnNumber), alignRight: true),
            Table.Column(title: catalog.text(.columnUrgency), alignRight: true),
            Table.Column(title: catalog.text(.columnTitle), truncatable: true, minWidth: 10),
            Table.Column(title: catalog.text(.columnProject), truncatable: true, minWidth: 6),
            Table.Column(title: catalog.text(.columnTags), truncatable: true, minWidth: 4),
            Table.Column(title: catalog.text(.columnDue)),
        ]
        var cells: [String] = []
        for entry in ranked {
            let todo = entry.todo
            cells += [
                String(todo.number), decimal(entry.score, 1), TerminalText.escaped(todo.title), todo.project.map(TerminalText.escaped) ?? "",
                TerminalText.escaped(todo.tags.joined(separator: " ")), todo.due.map { renderer.due($0) } ?? "",
            ]
        }
        var text = Table(columns: columns, cells: cells, ellipsis: context.settings.unicode ? "…" : "...").render(maxWidth: context.settings.width)
        if scored.count > ranked.count {
            text += "\n\n" + catalog.text(.nextShowing, ["shown": String(ranked.count), "total": String(scored.count)])
        }
        context.console.line(text)
    }

    /// One todo's terms as a table, then the total.
    static func explain(_ todo: Todo, terms: [Urgency.Term], _ context: CLIContext) {
        let score = Urgency.score(terms)
        if context.json {
            context.printJSON(.object([
                "id": .string(todo.id), "number": .int(Int64(todo.number)), "urgency": .double(rounded(score, 3)),
                "terms": .array(terms.map { term in
                    .object(["term": .string(term.name), "factor": .double(rounded(term.factor, 4)), "coefficient": .double(term.coefficient), "value": .double(rounded(term.value, 3))])
                }),
            ]))
            return
        }
        let catalog = context.catalog
        var lines = [catalog.text(.nextExplainHeader, ["label": TodoRenderer(context: context).label(todo)]), ""]
        let columns = [
            Table.Column(title: catalog.text(.columnTerm)),
            Table.Column(title: catalog.text(.columnFactor), alignRight: true),
            Table.Column(title: catalog.text(.columnCoefficient), alignRight: true),
            Table.Column(title: catalog.text(.columnValue), alignRight: true),
        ]
        var cells: [String] = []
        for term in terms { cells += [term.name, decimal(term.factor, 2), decimal(term.coefficient, 1), decimal(term.value, 2)] }
        cells += [catalog.text(.timeTotal), "", "", decimal(score, 2)]
        lines.append(Table(columns: columns, cells: cells, ellipsis: context.settings.unicode ? "…" : "...").render(maxWidth: context.settings.width))
        context.console.line(lines.joined(separator: "\n"))
    }

    /// The coefficients, with `TALLY_URGENCY` read over the defaults.
    static func coefficients(_ context: CLIContext) throws -> Urgency.Coefficients {
        guard let raw = ProcessEnvironment.current["TALLY_URGENCY"] else { return Urgency.Coefficients() }
        switch Urgency.Coefficients.parse(raw) {
        case .success(let coefficients): return coefficients
        case .failure(let error):
            throw CLIError.invalidOptionValue(option: "TALLY_URGENCY", value: error.pair, expected: context.catalog.text(.urgencyExpected))
        }
    }

    static func rounded(_ value: Double, _ digits: Int) -> Double {
        let scale = power(digits)
        return (value * scale).rounded() / scale
    }

    static func power(_ digits: Int) -> Double {
        (0..<digits).reduce(1.0) { value, _ in value * 10 }
    }

    /// `27.08`, with a leading minus for negative values, without locale or exponent.
    static func decimal(_ value: Double, _ digits: Int) -> String {
        let scale = Int64(power(digits))
        let scaled = Int64((abs(value) * Double(scale)).rounded())
        let sign = value < 0 && scaled != 0 ? "-" : ""
        let fraction = String(scaled % scale)
        return "\(sign)\(scaled / scale).\(String(repeating: "0", count: digits - fraction.count))\(fraction)"
    }
}
