import TallyDomain
import TallyEssentials

/// The todos a report looks at: those a filter expression (the active context's and the command's,
/// and'ed) matches; every todo without one.
public struct TodoSelection: Sendable {
    let program: FilterProgram?
    let graph: TodoDependencies?

    /// Reads the expression's dates against `now` in `zone`.
    public init(_ expression: FilterExpression?, model: ReadModel, now: Int64, zone: Zone) throws(DomainError) {
        program = try expression.map { expression throws(DomainError) in try FilterProgram(expression, now: now, zone: zone) }
        graph = program == nil || model.todos.counts.linked.isEmpty ? nil : TodoDependencies(model)
    }

    /// Everything.
    public static let all = TodoSelection()

    private init() {
        program = nil
        graph = nil
    }

    /// True when the selection holds nothing back.
    public var isEverything: Bool { program == nil }

    public func contains(_ todo: Todo) -> Bool {
        guard let program else { return true }
        return program.matches(todo, facts: FilterFacts(blocked: graph?.isBlocked(todo) ?? false))
    }
}
