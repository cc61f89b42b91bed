import TallyDomain
import TallyArguments

/// Option specs and readers for recurring and waiting todos (`add`, `edit`, `list`).
enum RecurrenceOptions {
    static let wait = OptionSpec(name: "wait", valueName: "WHEN", help: "Hide the todo from 'list' until WHEN ('list --waiting' shows it).")
    static let recur = OptionSpec(name: "recur", valueName: "PERIOD", help: "Repeat: daily, weekdays, weekly, monthly, yearly, or Nd, Nw, Nm, Ny.")
    static let recurFrom = OptionSpec(
        name: "recur-from", valueName: "FROM", help: "Count the next due date from the previous due date or from the completion.",
        defaultValue: "due", allowedValues: RecurrenceAnchor.allCases.map(\.rawValue)
    )
    static let until = OptionSpec(name: "until", valueName: "WHEN", help: "The last day an occurrence may fall on.")

    static let add = [wait, recur, recurFrom, until]
    static let edit = [
        OptionSpec(name: "wait", valueName: "WHEN", help: "Hide the todo from 'list' until WHEN, or none."),
        OptionSpec(name: "series", help: "Apply --title, --tag, --priority and --note to the series (the instances to come), not this instance."),
        recur, recurFrom,
        OptionSpec(name: "until", valueName: "WHEN", help: "The last day an occurrence may fall on, or none."),
    ]

    /// The recurrence options as typed; nil when none was given.
    static func input(_ command: ParsedCommand) -> RecurrenceInput? {
        let input = RecurrenceInput(period: command.value("recur"), from: command.value("recur-from"), until: command.value("until"))
        return input.isEmpty ? nil : input
    }

    /// `--waiting` shows only waiting todos; a typed-out `--status all` shows them with the rest.
    static func waitingFilter(_ command: ParsedCommand) -> WaitingFilter {
        if command.has("waiting") { return .only }
        return command.value("status") == TodoStatus.all.rawValue ? .include : .hide
    }
}
