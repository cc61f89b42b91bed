import TallyArguments

/// One subcommand: its declarative spec and what it does. Where it sits in the tree (its path)
/// is not restated here: `CommandTree` declares the tree once and derives every path from it.
protocol CommandHandler {
    static var spec: CommandSpec { get }
    static func run(_ command: ParsedCommand, _ context: CLIContext) throws
}

/// A place in the command tree: a command, or a group of commands under one name (`record`,
/// `filter`, `remote`), whose spec gets its subcommands from the tree.
indirect enum CommandNode {
    case command(CommandHandler.Type)
    case group(CommandSpec, [CommandNode])

    /// The spec of this node, a group's with its children's specs as subcommands.
    var spec: CommandSpec {
        switch self {
        case .command(let handler):
            return handler.spec
        case .group(var spec, let children):
            spec.subcommands = children.map(\.spec)
            return spec
        }
    }

    /// Every command under this node with its path (the names from the top, this node's included).
    func commands(under parent: [String]) -> [(path: [String], handler: CommandHandler.Type)] {
        switch self {
        case .command(let handler):
            return [(parent + [handler.spec.name], handler)]
        case .group(let spec, let children):
            return children.flatMap { $0.commands(under: parent + [spec.name]) }
        }
    }
}
