import TallyEssentials

/// Renders help text from `CommandSpec`s in swift-argument-parser's layout.
///
/// Sections are separated by one blank line; item help starts at column `helpColumn` and
/// wraps there. Full help texts end with one newline; no line has trailing spaces.
public struct HelpRenderer {
    /// Column (0-based) where option, argument and command descriptions start.
    public static let helpColumn = 26
    /// Past this many visible options the usage line says `[<options>]` instead of listing them.
    public static let maxUsageOptions = 5

    private static let itemIndent = "  "
    private static let exampleIndent = "      "
    private static let narrowestHelp = 20

    /// Help for the command at `path` (canonical names); an empty path renders the overview of `spec`.
    public static func render(
        _ spec: CommandSpec, path: [String], globalOptions: [OptionSpec],
        programName: String = "tally", width: Int = 80
    ) -> String {
        if path.isEmpty {
            return overview(root: spec, globalOptions: globalOptions, programName: programName, width: width)
        }
        var sections = header(spec, path: path, programName: programName, width: width)

        let arguments = spec.arguments.map { item(label: placeholder($0.name), help: $0.help, width: width) }
        if !arguments.isEmpty { sections.append(section("ARGUMENTS", arguments)) }

        let options = spec.options.filter { !$0.hidden } + [ArgumentParser.helpOption]
        sections.append(section("OPTIONS", options.map { optionItem($0, width: width) }))

        let globals = globalOptions.filter { !$0.hidden }
        if !globals.isEmpty {
            sections.append(section("GLOBAL OPTIONS", globals.map { optionItem($0, width: width) }))
        }

        if !spec.examples.isEmpty {
            sections.append(section("EXAMPLES", spec.examples.map { example($0, width: width) }))
        }

        let subcommands = spec.subcommands.filter { !$0.hidden }
        if !subcommands.isEmpty {
            sections.append(section("SUBCOMMANDS", subcommands.map { commandItem($0, width: width) }))
            let hint = ([programName, "help"] + path + ["<subcommand>"]).joined(separator: " ")
            sections.append(itemIndent + "See '\(hint)' for details.")
        }
        return sections.joined(separator: "\n\n") + "\n"
    }

    /// The top-level help: visible commands with their abstracts under their groups, in spec order.
    public static func overview(
        root: CommandSpec, globalOptions: [OptionSpec],
        programName: String = "tally", width: Int = 80
    ) -> String {
        var sections = header(root, path: [], programName: programName, width: width)

        var groups: [(heading: String, items: [String])] = []
        for command in root.subcommands where !command.hidden {
            let heading = command.group?.uppercased() ?? "COMMANDS"
            let rendered = commandItem(command, width: width)
            if let index = groups.firstIndex(where: { $0.heading == heading }) {
                groups[index].items.append(rendered)
            } else {
                groups.append((heading, [rendered]))
            }
        }
        sections += groups.map { section($0.heading, $0.items) }

        let rootOptions = root.options.filter { !$0.hidden }
        if !rootOptions.isEmpty {
            sections.append(section("OPTIONS", rootOptions.map { optionItem($0, width: width) }))
        }
        let globals = globalOptions.filter { !$0.hidden }
            + [ArgumentParser.versionOption, ArgumentParser.helpOption]
        sections.append(section("GLOBAL OPTIONS", globals.map { optionItem($0, width: width) }))

        sections.append(itemIndent + "See '\(programName) help <command>' for details.")
        return sections.joined(separator: "\n\n") + "\n"
    }

    /// `tally add <title> ... [--tag <tag> ...] [--priority <priority>]`, without the `USAGE: ` prefix.
    public static func usageLine(_ spec: CommandSpec, path: [String], programName: String) -> String {
        ([programName] + path + usageParts(spec, isRoot: path.isEmpty)).joined(separator: " ")
    }

    /// OVERVIEW, discussion and USAGE, the sections every help text starts with.
    private static func header(_ spec: CommandSpec, path: [String], programName: String, width: Int) -> [String] {
        var sections: [String] = []
        if !spec.abstract.isEmpty {
            sections.append(wrap("OVERVIEW: " + spec.abstract, width: width, continuationIndent: 10).joined(separator: "\n"))
        }
        if let discussion = spec.discussion, !discussion.isEmpty {
            sections.append(wrapParagraphs(discussion, width: width).joined(separator: "\n"))
        }
        sections.append(usageSection(spec, path: path, programName: programName, width: width))
        return sections
    }

    /// The parts after the command path: arguments then options, or the subcommand placeholder.
    private static func usageParts(_ spec: CommandSpec, isRoot: Bool) -> [String] {
        if !spec.subcommands.isEmpty { return [isRoot ? "<command>" : "<subcommand>"] }
        var parts = spec.arguments.map { argument -> String in
            let core = placeholder(argument.name) + (argument.repeating ? " ..." : "")
            return argument.optional ? "[\(core)]" : core
        }
        // Required options are spelled out, unbracketed, however many the others are.
        parts += spec.options.filter { $0.required && !$0.hidden }.map { option in
            option.displayName + (option.valueName.map { " " + placeholder($0) } ?? "")
        }
        let options = spec.options.filter { !$0.hidden && !$0.required }
        if options.count > maxUsageOptions {
            parts.append("[<options>]")
        } else {
            parts += options.map { option in
                var core = option.displayName
                if let valueName = option.valueName { core += " " + placeholder(valueName) }
                if option.repeatable { core += " ..." }
                return "[\(core)]"
            }
        }
        return parts
    }

    /// `USAGE: …`, wrapped between parts with continuation lines under the first argument.
    private static func usageSection(_ spec: CommandSpec, path: [String], programName: String, width: Int) -> String {
        let lead = (["USAGE:", programName] + path).joined(separator: " ")
        let parts = usageParts(spec, isRoot: path.isEmpty)
        let indentWidth = TextWidth.of(lead) + 1 <= width / 2 ? TextWidth.of(lead) + 1 : 9
        let indent = String(repeating: " ", count: indentWidth)
        var lines = [lead]
        for part in parts {
            let candidate = lines[lines.count - 1] + " " + part
            if TextWidth.of(candidate) <= width || lines.count == 1 && lines[0] == lead {
                lines[lines.count - 1] = candidate
            } else {
                lines.append(indent + part)
            }
        }
        return lines.joined(separator: "\n")
    }

    /// `<title>` from `TITLE`; underscores become dashes.
    private static func placeholder(_ name: String) -> String {
        "<" + String(name.lowercased().map { $0 == "_" ? "-" : $0 }) + ">"
    }

    /// `-t, --tag <tag>` with the help, default and allowed values.
    private static func optionItem(_ option: OptionSpec, width: Int) -> String {
        var label = option.displayName
        if let short = option.short { label = "-\(short), " + label }
        if let valueName = option.valueName { label += " " + placeholder(valueName) }
        var help = option.help
        if let defaultValue = option.defaultValue { help += " (default: \(defaultValue))" }
        if let allowed = option.allowedValues { help += " (values: \(allowed.joined(separator: ", ")))" }
        return item(label: label, help: help, width: width)
    }

    /// `list, ls` with the abstract.
    private static func commandItem(_ command: CommandSpec, width: Int) -> String {
        let label = ([command.name] + command.aliases).joined(separator: ", ")
        return item(label: label, help: command.abstract, width: width)
    }

    /// The command line, then its explanation indented below it.
    private static func example(_ example: CommandExample, width: Int) -> String {
        let explanation = wrapParagraphs(example.explanation, width: width - exampleIndent.count)
            .map { $0.isEmpty ? "" : exampleIndent + $0 }
        return ([itemIndent + example.command] + explanation).joined(separator: "\n")
    }

    /// A label with its help beside it, or below it when the label reaches the help column.
    private static func item(label: String, help: String, width: Int) -> String {
        let lead = itemIndent + label
        let helpLines = wrapParagraphs(help, width: max(width - helpColumn, narrowestHelp))
        guard let first = helpLines.first, !help.isEmpty else { return lead }
        let hanging = String(repeating: " ", count: helpColumn)
        let rest = helpLines.dropFirst().map { $0.isEmpty ? "" : hanging + $0 }
        if TextWidth.of(lead) + 2 <= helpColumn {
            return ([TextWidth.pad(lead, to: helpColumn, alignRight: false) + first] + rest).joined(separator: "\n")
        }
        return ([lead, hanging + first] + rest).joined(separator: "\n")
    }

    /// `HEADING:` followed by its items.
    private static func section(_ heading: String, _ items: [String]) -> String {
        ([heading + ":"] + items).joined(separator: "\n")
    }

    /// Wraps each line of `text` separately, keeping blank lines and each line's leading indentation.
    private static func wrapParagraphs(_ text: String, width: Int) -> [String] {
        text.split(separator: "\n", omittingEmptySubsequences: false).flatMap { line -> [String] in
            let indent = line.prefix { $0 == " " }.count
            let wrapped = wrap(String(line.dropFirst(indent)), width: max(width - indent, 1), continuationIndent: 0)
            return wrapped.map { $0.isEmpty ? "" : String(repeating: " ", count: indent) + $0 }
        }
    }

    /// Greedy word wrap by display width; a word longer than `width` gets a line of its own.
    private static func wrap(_ text: String, width: Int, continuationIndent: Int) -> [String] {
        let words = text.split(separator: " ")
        guard !words.isEmpty else { return [""] }
        let indent = String(repeating: " ", count: continuationIndent)
        var lines: [String] = []
        var current = ""
        for word in words {
            if current.isEmpty {
                current = (lines.isEmpty ? "" : indent) + word
            } else if TextWidth.of(current) + 1 + TextWidth.of(String(word)) <= width {
                current += " " + word
            } else {
                lines.append(current)
                current = indent + word
            }
        }
        lines.append(current)
        return lines
    }
}
