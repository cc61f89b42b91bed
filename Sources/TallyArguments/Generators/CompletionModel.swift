/// What a shell may offer after an option or in an argument's place.
public enum ValueCompletion: Equatable {
    /// Nothing to offer: free text, numbers, dates.
    case none
    /// A fixed list.
    case words([String])
    /// Asked of `tally __complete KIND PREFIX` when the user presses tab.
    case dynamic(String)
    case files
}

/// The command tree flattened for completion scripts: each command path with its words.
///
/// Paths are spelled `tally`, `tally/record`, `tally/record/add`, so the scripts never compare empty strings.
public struct CompletionModel {
    /// One reachable command.
    public struct Node {
        var path: String
        var spec: CommandSpec
        /// Visible subcommands, then their aliases, as `(word, target path)`.
        var transitions: [(word: String, path: String)]
        /// Visible options of this command and the global ones.
        var options: [OptionSpec]
        /// What the first positional may be.
        var argument: ValueCompletion
    }

    public static let shells = ["bash", "zsh", "fish"]

    public let nodes: [Node]
    public let globals: [OptionSpec]

    /// Walks the visible tree from `root`, depth first.
    public init(root: CommandSpec, globalOptions: [OptionSpec]) {
        globals = globalOptions.filter { !$0.hidden }
        var nodes: [Node] = []
        func visit(_ spec: CommandSpec, path: String) {
            let visible = spec.subcommands.filter { !$0.hidden }
            let transitions = visible.flatMap { child in ([child.name] + child.aliases).map { ($0, path + "/" + child.name) } }
            let options = spec.options.filter { !$0.hidden } + globalOptions.filter { !$0.hidden }
            nodes.append(Node(
                path: path, spec: spec, transitions: transitions, options: options,
                argument: spec.arguments.first.map { Self.values(for: $0) } ?? .none
            ))
            for child in visible { visit(child, path: path + "/" + child.name) }
        }
        visit(root, path: root.name)
        self.nodes = nodes
    }

    /// Values for an option's argument, from its allowed values or what its name means.
    public static func values(for option: OptionSpec, path: String) -> ValueCompletion {
        if let allowed = option.allowedValues { return .words(allowed) }
        switch option.name {
        case "priority": return .words(["low", "medium", "high"] + (path.hasSuffix("/edit") ? ["none"] : []))
        case "tag": return .dynamic("tags")
        case "category": return .dynamic("categories")
        case "db", "output": return .files
        default: return option.valueName == "FILE" ? .files : .none
        }
    }

    /// Values for a positional argument.
    public static func values(for argument: ArgumentSpec) -> ValueCompletion {
        switch argument.name {
        case "FILE": .files
        case "SHELL": .words(shells)
        default: .none
        }
    }

    /// `items` without repeats, first occurrence kept.
    public static func unique(_ items: [String]) -> [String] {
        var seen: Set<String> = []
        return items.filter { seen.insert($0).inserted }
    }

    /// Every `(path, option)` whose option takes a value: the scripts skip the word after it.
    public var valueOptions: [(path: String, option: OptionSpec)] {
        nodes.flatMap { node in node.options.filter(\.takesValue).map { (node.path, $0) } }
    }
}
