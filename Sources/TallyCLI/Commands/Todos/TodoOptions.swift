#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import TallyDomain
import TallyArguments

/// Option specs and readers shared by the todo commands.
enum TodoOptions {
    static let tag = OptionSpec(name: "tag", valueName: "TAG", repeatable: true, help: "A tag (letters, digits, _ and -; up to 32 characters). Repeat for several.")
    static let priority = OptionSpec(name: "priority", valueName: "PRIORITY", help: "low, medium or high.")
    static let due = OptionSpec(name: "due", valueName: "WHEN", help: "Due date: 2026-11-21, 2026-11-21T14:30, today, tomorrow, fri, eom, +3d, in 2 weeks, ...")
    static let note = OptionSpec(name: "note", valueName: "TEXT", help: "A free-text note.")
    static let project = OptionSpec(name: "project", valueName: "PROJECT", help: "A project; dots make sub-projects (home.garden). Names like tags; none for no project.")
    static let after = OptionSpec(name: "after", valueName: "REF[,REF]", repeatable: true, help: "Wait for these todos: blocked until they are done.")
    static let asOf = OptionSpec(name: "as-of", valueName: "WHEN", help: "Show the state as it was at WHEN, or at log position @SEQ.")

    /// The options of `list` that make up a view (also accepted by `filter set`).
    static let view: [OptionSpec] = [
        OptionSpec(name: "status", valueName: "STATUS", help: "Which todos to show.", defaultValue: "all", allowedValues: TodoStatus.allCases.map(\.rawValue)),
        OptionSpec(name: "tag", valueName: "TAG", repeatable: true, help: "Only todos with this tag. Repeat to require several."),
        OptionSpec(name: "priority", valueName: "PRIORITY", help: "Only todos with this priority (low, medium, high)."),
        OptionSpec(name: "due-before", valueName: "WHEN", help: "Only todos due before WHEN."),
        OptionSpec(name: "due-after", valueName: "WHEN", help: "Only todos due after WHEN (a date means after that whole day)."),
        OptionSpec(name: "project", valueName: "PROJECT", help: "Only todos in this project or its sub-projects; none: without a project."),
        OptionSpec(name: "search", valueName: "TEXT", help: "Only todos whose title, note or tags contain TEXT, ignoring case."),
        OptionSpec(name: "sort", valueName: "KEY", help: "Sort order.", defaultValue: "created", allowedValues: TodoSortKey.allCases.map(\.rawValue)),
        OptionSpec(name: "reverse", help: "Reverse the sort order."),
        OptionSpec(name: "limit", valueName: "N", help: "Show at most N todos."),
        OptionSpec(name: "deleted", help: "Include deleted todos."),
        OptionSpec(name: "waiting", help: "Only todos that wait (--wait) until a later day or time; hidden otherwise."),
        OptionSpec(name: "ready", help: "Only pending todos that wait for nothing pending (is:ready)."),
        OptionSpec(name: "blocked", help: "Only todos that wait for a pending todo (is:blocked)."),
    ]

    /// The REFs of a repeatable `REF[,REF]` option.
    static func refs(_ command: ParsedCommand, _ option: String) -> [String] {
        command.values(option).flatMap { $0.split(separator: ",").map { String($0).trimming(.whitespaces) } }.filter { !$0.isEmpty }
    }

    /// The positional filter expression of `list` and `filter set`.
    static let filterArgument = ArgumentSpec(
        name: "FILTER", help: "A filter expression: tag:shop project:home or due.before:fri, -tag:x, not, or, ( ). See the guide.",
        repeating: true, optional: true
    )

    /// True when the command line names any view option or a filter expression.
    static func hasViewOptions(_ command: ParsedCommand) -> Bool {
        !command.arguments.isEmpty || view.contains { option in
            option.valueName == nil ? command.has(option.name) : !command.values(option.name).isEmpty
        }
    }

    /// Reads the view options into a query.
    static func query(_ command: ParsedCommand, _ context: CLIContext, words: [String]? = nil) throws -> TodoQuery {
        var query = TodoQuery()
        if let raw = command.value("status"), let status = TodoStatus(rawValue: raw) { query.status = status }
        query.tags = command.values("tag")
        if let raw = command.value("priority") { query.priority = try Validation.priority(raw) }
        query.dueBefore = command.value("due-before")
        query.dueAfter = command.value("due-after")
        query.search = command.value("search")
        query.project = command.value("project")
        if let raw = command.value("sort"), let sort = TodoSortKey(rawValue: raw) { query.sort = sort }
        query.reverse = command.has("reverse")
        query.limit = try context.positiveInt(command.value("limit"), option: "--limit")
        query.includeDeleted = command.has("deleted")
        query.waiting = RecurrenceOptions.waitingFilter(command)
        query.expression = try FilterExpressionText.parse(words ?? command.arguments, context)
        // --ready and --blocked are the expression's terms, and'ed to it.
        var terms: [FilterExpression] = []
        if command.has("ready") { terms.append(.term(.flag(.ready))) }
        if command.has("blocked") { terms.append(.term(.flag(.blocked))) }
        if !terms.isEmpty {
            let all = (query.expression.map { [$0] } ?? []) + terms
            query.expression = all.count == 1 ? all[0] : .and(all.flatMap { if case .and(let inner) = $0 { inner } else { [$0] } })
        }
        let decisionContext = context.environment.decisionContext
        return try Decider.validated(query, context: decisionContext)
    }

    /// The query written back as command-line options, for `filter show`.
    static func describe(_ query: TodoQuery) -> String {
        var parts: [String] = []
        if query.status != .all { parts.append("--status \(query.status.rawValue)") }
        for tag in query.tags { parts.append("--tag \(tag)") }
        if let priority = query.priority { parts.append("--priority \(priority.rawValue)") }
        if let value = query.dueBefore { parts.append("--due-before \(shellQuoted(value))") }
        if let value = query.dueAfter { parts.append("--due-after \(shellQuoted(value))") }
        if let value = query.search { parts.append("--search \(shellQuoted(value))") }
        if let value = query.project { parts.append("--project \(shellQuoted(value))") }
        if query.sort != .created { parts.append("--sort \(query.sort.rawValue)") }
        if query.waiting == .only { parts.append("--waiting") }
        if query.reverse { parts.append("--reverse") }
        if let limit = query.limit { parts.append("--limit \(limit)") }
        if query.includeDeleted { parts.append("--deleted") }
        if let expression = query.expression { parts.append(shellQuoted(expression.canonical)) }
        return parts.joined(separator: " ")
    }

    static func shellQuoted(_ text: String) -> String {
        let safe = text.unicodeScalars.allSatisfy { $0.properties.isAlphabetic || ("0"..."9").contains($0) || "+-_.:@".unicodeScalars.contains($0) }
        return safe && !text.isEmpty ? text : "'" + text.replacingAll("'", with: "'\\''") + "'"
    }
}
