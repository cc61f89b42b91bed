import TallyArguments

/// One subcommand: its declarative spec and what it does.
protocol CommandHandler {
    /// The path under `tally`, e.g. `["filter", "set"]`.
    static var path: [String] { get }
    static var spec: CommandSpec { get }
    static func run(_ command: ParsedCommand, _ context: CLIContext) throws
}
