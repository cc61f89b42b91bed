import TallyArguments
import TallyEngine
import TallyDomain

/// The todos a report command looks at: the active context's filter and the command's own
/// expression, and'ed (`tally projects project:home`, `tally summary tag:work`).
enum ReportScope {
    /// The positional filter expression of the reports.
    static let filterArgument = ArgumentSpec(
        name: "FILTER", help: "A filter expression: only the todos it matches are counted (with the active context's). See the guide.",
        repeating: true, optional: true
    )

    static func expression(_ command: ParsedCommand, _ context: CLIContext, state: ReadModel) throws -> FilterExpression? {
        let own = try FilterExpressionText.parse(command.arguments, context)
        return FilterExpression.all([TodoContexts(json: state.filters[.todos]).narrowing, own].compactMap { $0 })
    }

    static func selection(_ command: ParsedCommand, _ context: CLIContext, state: ReadModel) throws -> TodoSelection {
        try TodoSelection(try expression(command, context, state: state), model: state, now: context.now, zone: context.zone)
    }
}
