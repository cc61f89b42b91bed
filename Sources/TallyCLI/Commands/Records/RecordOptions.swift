import TallyDomain
import TallyArguments

/// Option specs and readers shared by the record commands.
enum RecordOptions {
    /// `--gear` with `--no-gear`, or `--effort` with `--no-effort`, is a usage error.
    static func refuseConflicts(_ command: ParsedCommand, _ context: CLIContext) throws {
        for option in ["gear", "effort"] where command.value(option) != nil && command.has("no-" + option) {
            throw UsageError(kind: .conflictingOptions("--" + option, "--no-" + option), commandPath: command.path)
        }
    }

    static let category = OptionSpec(name: "category", valueName: "CATEGORY", help: "A lowercase word: running, cycling, swimming, walking, gym, ...")
    static let duration = OptionSpec(name: "duration", valueName: "DURATION", help: "How long: 45m, 1h30m, 90s, 1:30:00, 27:30 (m:ss) or minutes.")
    /// `--category` and `--duration` as `record add` needs them.
    static let requiredCategory = with(category) { $0.required = true }
    static let requiredDuration = with(duration) { $0.required = true }
    static let distance = OptionSpec(name: "distance", valueName: "DISTANCE", help: "How far: 5km, 800m, 3.1mi.")
    static let place = OptionSpec(name: "place", valueName: "PLACE", help: "Where.")
    static let date = OptionSpec(name: "date", valueName: "WHEN", help: "When it happened (default: now). A day means its local midnight.")
    static let note = OptionSpec(name: "note", valueName: "TEXT", help: "A free-text note.")
    static let gear = OptionSpec(name: "gear", valueName: "NAME", help: "The gear it was done with (any case); without it, its category's default gear.")
    static let noGear = OptionSpec(name: "no-gear", help: "No gear, not even the category's default.")
    static let effort = OptionSpec(name: "effort", valueName: "1-10", help: "How hard it felt, 1 (very easy) to 10 (maximal): its training load without heart rate or power.")
    static let noEffort = OptionSpec(name: "no-effort", help: "Clears the effort.")

    /// The options of `record list` that make up a view (also accepted by `record filter set` and `record export`).
    static let view: [OptionSpec] = [
        OptionSpec(name: "category", valueName: "CATEGORY", repeatable: true, help: "Only this category. Repeat for several."),
        OptionSpec(name: "source", valueName: "SOURCE", repeatable: true, help: "Only records from this source. Repeat for several.", allowedValues: RecordSource.allCases.map(\.rawValue)),
        OptionSpec(name: "since", valueName: "WHEN", help: "Only records on or after WHEN."),
        OptionSpec(name: "until", valueName: "WHEN", help: "Only records up to WHEN (a day includes the whole day)."),
        OptionSpec(name: "search", valueName: "TEXT", help: "Only records whose name, category, place or note contain TEXT, ignoring case."),
        OptionSpec(name: "sort", valueName: "KEY", help: "Sort order.", defaultValue: "date", allowedValues: RecordSortKey.allCases.map(\.rawValue)),
        OptionSpec(name: "reverse", help: "Reverse the sort order."),
        OptionSpec(name: "limit", valueName: "N", help: "Show at most N records."),
        OptionSpec(name: "deleted", help: "Include deleted records."),
    ]

    private static func with(_ option: OptionSpec, _ change: (inout OptionSpec) -> Void) -> OptionSpec {
        var option = option
        change(&option)
        return option
    }

    /// The positional filter expression of `record list`, `record filter set` and `record export`.
    static let filterArgument = ArgumentSpec(
        name: "FILTER", help: "A filter expression of records: category:running date.after:-4w, words, -source:import, not, or, ( ). See the guide.",
        repeating: true, optional: true
    )

    /// True when the command line names any view option or a filter expression.
    static func hasViewOptions(_ command: ParsedCommand) -> Bool {
        !command.arguments.isEmpty || view.contains { option in
            option.valueName == nil ? command.has(option.name) : !command.values(option.name).isEmpty
        }
    }

    /// Reads the view options into a validated query.
    static func query(_ command: ParsedCommand, _ context: CLIContext) throws -> RecordQuery {
        var query = RecordQuery()
        query.categories = command.values("category")
        query.sources = command.values("source").compactMap(RecordSource.init(rawValue:))
        query.since = command.value("since")
        query.until = command.value("until")
        query.search = command.value("search")
        if let raw = command.value("sort"), let sort = RecordSortKey(rawValue: raw) { query.sort = sort }
        query.reverse = command.has("reverse")
        query.limit = try context.positiveInt(command.value("limit"), option: "--limit")
        query.includeDeleted = command.has("deleted")
        query.expression = try FilterExpressionText.parse(command.arguments, context, subject: .records)
        return try Decider.validated(query, context: context.environment.decisionContext)
    }

    /// The explicit view, else the saved one, else the standard view.
    static func effectiveQuery(_ command: ParsedCommand, _ context: CLIContext, state: ReadModel) throws -> RecordQuery {
        if hasViewOptions(command) { return try query(command, context) }
        return state.filters[.records].map(RecordQuery.init(json:)) ?? .standard
    }

    /// The query written back as command-line options, for `record filter show`.
    static func describe(_ query: RecordQuery) -> String {
        var parts: [String] = []
        for category in query.categories { parts.append("--category \(category)") }
        for source in query.sources { parts.append("--source \(source.rawValue)") }
        if let value = query.since { parts.append("--since \(TodoOptions.shellQuoted(value))") }
        if let value = query.until { parts.append("--until \(TodoOptions.shellQuoted(value))") }
        if let value = query.search { parts.append("--search \(TodoOptions.shellQuoted(value))") }
        if query.sort != .date { parts.append("--sort \(query.sort.rawValue)") }
        if query.reverse { parts.append("--reverse") }
        if let limit = query.limit { parts.append("--limit \(limit)") }
        if query.includeDeleted { parts.append("--deleted") }
        if let expression = query.expression { parts.append(TodoOptions.shellQuoted(expression.canonical)) }
        return parts.joined(separator: " ")
    }
}
