/// A named option such as `--tag TAG` or the flag `--json`.
///
/// The same value drives parsing, help text, the man page and shell completions,
/// so it stays plain data.
struct OptionSpec: Sendable, Equatable {
    /// Long name without dashes: `tag` for `--tag`.
    var name: String
    /// Single-letter form: `h` for `-h`.
    var short: Character? = nil
    /// Placeholder for the value, e.g. `TAG`; nil makes the option a flag.
    var valueName: String? = nil
    /// Whether the option may be given several times; values are collected in order.
    var repeatable: Bool = false
    var help: String
    /// Shown in help as `(default: x)`; the parser does not apply it.
    var defaultValue: String? = nil
    /// When set, the parser rejects other values and help shows `(values: a, b)`.
    var allowedValues: [String]? = nil
    var hidden: Bool = false
    /// The command cannot run without it: usage lines show it outside brackets.
    var required: Bool = false

    /// Whether the option takes a value (as opposed to being a flag).
    var takesValue: Bool { valueName != nil }

    /// `--name`, the form used in messages.
    var displayName: String { "--" + name }
}

/// A positional argument such as `TITLE` or `REF...`.
extension OptionSpec {
    /// The help text as a manual page or reference prints it: with "May be repeated.", the default
    /// and the allowed values.
    var documentedHelp: String {
        var help = self.help
        if repeatable, !help.contains("Repeat") { help += " May be repeated." }
        if let defaultValue { help += " (default: \(defaultValue))" }
        if let allowedValues { help += " (values: \(allowedValues.joined(separator: ", ")))" }
        return help
    }
}

struct ArgumentSpec: Sendable, Equatable {
    /// Upper-case placeholder: `TITLE`, `REF`.
    var name: String
    var help: String
    /// Takes all remaining positionals (at least one unless `optional`).
    var repeating: Bool = false
    var optional: Bool = false
}

/// One illustrative invocation shown under EXAMPLES.
struct CommandExample: Sendable, Equatable {
    /// The full command line as a user would type it, program name included.
    var command: String
    var explanation: String
}

extension CommandExample {
    /// `CommandExample("tally list --tag home", "Show todos tagged home.")`.
    init(_ command: String, _ explanation: String) {
        self.init(command: command, explanation: explanation)
    }
}

/// A command, or a command group, in the command tree.
struct CommandSpec: Sendable, Equatable {
    /// Canonical name: `list`.
    var name: String
    /// Alternative names accepted by the parser: `ls`.
    var aliases: [String] = []
    /// One line.
    var abstract: String
    /// Wrapped by the help renderer line by line, keeping blank lines and leading indentation.
    var discussion: String? = nil
    var arguments: [ArgumentSpec] = []
    var options: [OptionSpec] = []
    var examples: [CommandExample] = []
    /// A command with subcommands takes no positionals of its own; given none it shows help.
    var subcommands: [CommandSpec] = []
    /// Hidden commands still parse but are left out of help and suggestions.
    var hidden: Bool = false
    /// Heading under which the overview lists this command; nil means `COMMANDS`.
    var group: String? = nil

    /// Whether `word` is this command's name or one of its aliases.
    func isNamed(_ word: String) -> Bool {
        name == word || aliases.contains(word)
    }

    /// The direct subcommand called `word` (by name or alias).
    func subcommand(named word: String) -> CommandSpec? {
        subcommands.first { $0.isNamed(word) }
    }

    /// The descendant reached by following canonical names or aliases; `[]` is `self`.
    func descendant(at path: [String]) -> CommandSpec? {
        var current = self
        for word in path {
            guard let next = current.subcommand(named: word) else { return nil }
            current = next
        }
        return current
    }
}
