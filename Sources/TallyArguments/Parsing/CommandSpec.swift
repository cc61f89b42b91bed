/// A named option such as `--tag TAG` or the flag `--json`.
///
/// The same value drives parsing, help text, the man page and shell completions,
/// so it stays plain data.
public struct OptionSpec: Sendable, Equatable {
    /// Long name without dashes: `tag` for `--tag`.
    public var name: String
    /// Single-letter form: `h` for `-h`.
    public var short: Character? = nil
    /// Placeholder for the value, e.g. `TAG`; nil makes the option a flag.
    public var valueName: String? = nil
    /// Whether the option may be given several times; values are collected in order.
    public var repeatable: Bool = false
    public var help: String
    /// Shown in help as `(default: x)`; the parser does not apply it.
    public var defaultValue: String? = nil
    /// When set, the parser rejects other values and help shows `(values: a, b)`.
    public var allowedValues: [String]? = nil
    public var hidden: Bool = false
    /// The command cannot run without it: usage lines show it outside brackets.
    public var required: Bool = false

    /// Whether the option takes a value (as opposed to being a flag).
    public var takesValue: Bool { valueName != nil }

    /// `--name`, the form used in messages.
    public var displayName: String { "--" + name }

    public init(name: String, short: Character? = nil, valueName: String? = nil, repeatable: Bool = false, help: String, defaultValue: String? = nil, allowedValues: [String]? = nil, hidden: Bool = false, required: Bool = false) {
        self.name = name
        self.short = short
        self.valueName = valueName
        self.repeatable = repeatable
        self.help = help
        self.defaultValue = defaultValue
        self.allowedValues = allowedValues
        self.hidden = hidden
        self.required = required
    }
}

/// A positional argument such as `TITLE` or `REF...`.
extension OptionSpec {
    /// The help text as a manual page or reference prints it: with "May be repeated.", the default
    /// and the allowed values.
    public var documentedHelp: String {
        var help = self.help
        if repeatable, !help.contains("Repeat") { help += " May be repeated." }
        if let defaultValue { help += " (default: \(defaultValue))" }
        if let allowedValues { help += " (values: \(allowedValues.joined(separator: ", ")))" }
        return help
    }
}

public struct ArgumentSpec: Sendable, Equatable {
    /// Upper-case placeholder: `TITLE`, `REF`.
    public var name: String
    public var help: String
    /// Takes all remaining positionals (at least one unless `optional`).
    public var repeating: Bool = false
    public var optional: Bool = false

    public init(name: String, help: String, repeating: Bool = false, optional: Bool = false) {
        self.name = name
        self.help = help
        self.repeating = repeating
        self.optional = optional
    }
}

/// One illustrative invocation shown under EXAMPLES.
public struct CommandExample: Sendable, Equatable {
    /// The full command line as a user would type it, program name included.
    public var command: String
    public var explanation: String

    public init(command: String, explanation: String) {
        self.command = command
        self.explanation = explanation
    }
}

extension CommandExample {
    /// `CommandExample("tally list --tag home", "Show todos tagged home.")`.
    public init(_ command: String, _ explanation: String) {
        self.command = command
        self.explanation = explanation
    }
}

/// A command, or a command group, in the command tree.
public struct CommandSpec: Sendable, Equatable {
    /// Canonical name: `list`.
    public var name: String
    /// Alternative names accepted by the parser: `ls`.
    public var aliases: [String] = []
    /// One line.
    public var abstract: String
    /// Wrapped by the help renderer line by line, keeping blank lines and leading indentation.
    public var discussion: String? = nil
    public var arguments: [ArgumentSpec] = []
    public var options: [OptionSpec] = []
    public var examples: [CommandExample] = []
    /// A command with subcommands takes no positionals of its own; given none it shows help.
    public var subcommands: [CommandSpec] = []
    /// The subcommand a group runs when given none (`tally goal` is `tally goal show`); nil shows help.
    public var defaultSubcommand: String? = nil
    /// Hidden commands still parse but are left out of help and suggestions.
    public var hidden: Bool = false
    /// Heading under which the overview lists this command; nil means `COMMANDS`.
    public var group: String? = nil

    /// Whether `word` is this command's name or one of its aliases.
    public func isNamed(_ word: String) -> Bool {
        name == word || aliases.contains(word)
    }

    /// The direct subcommand called `word` (by name or alias).
    public func subcommand(named word: String) -> CommandSpec? {
        subcommands.first { $0.isNamed(word) }
    }

    /// The descendant reached by following canonical names or aliases; `[]` is `self`.
    public func descendant(at path: [String]) -> CommandSpec? {
        var current = self
        for word in path {
            guard let next = current.subcommand(named: word) else { return nil }
            current = next
        }
        return current
    }

    public init(name: String, aliases: [String] = [], abstract: String, discussion: String? = nil, arguments: [ArgumentSpec] = [], options: [OptionSpec] = [], examples: [CommandExample] = [], subcommands: [CommandSpec] = [], hidden: Bool = false, group: String? = nil) {
        self.name = name
        self.aliases = aliases
        self.abstract = abstract
        self.discussion = discussion
        self.arguments = arguments
        self.options = options
        self.examples = examples
        self.subcommands = subcommands
        self.hidden = hidden
        self.group = group
    }
}
