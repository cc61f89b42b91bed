/// `docs/reference/commands.md`: every command in Markdown, rendered from the same specs as `--help`
/// and the man page, so the reference cannot drift from the parser.
public enum CommandReference {
    /// The whole page.
    public static func render(root: CommandSpec, globalOptions: [OptionSpec], version: String) -> String {
        var out: [String] = [
            "# Command reference",
            "",
            "<!-- Generated from the command specs by `make docs` (`tally __reference`); a test keeps it in step. -->",
            "",
            "tally \(version): " + escape(root.abstract),
            "",
        ]
        if let discussion = root.discussion { out += discussionBlocks(discussion) }
        out += [
            "```",
            "tally [--db PATH] [--json] [--no-color] <command> [arguments]",
            "tally -h | --help | --version | help <command>",
            "```",
            "",
            "## Global options",
            "",
        ]
        out += optionTable(globalOptions)
        out += ["## Commands", ""]
        for (spec, path) in commands(under: root, path: []) {
            out.append("- [`" + (["tally"] + path).joined(separator: " ") + "`](#" + anchor(path) + "): " + escape(spec.abstract))
        }
        out.append("")
        for (spec, path) in commands(under: root, path: []) {
            out += section(spec, path: path)
        }
        out += ["## Environment", ""] + entryTable(ManualText.environment, heading: "variable")
        out += ["## Exit status", ""] + entryTable(ManualText.exitStatus, heading: "status")
        out += ["## Files", ""] + entryTable(ManualText.files, heading: "file")
        while out.last == "" { out.removeLast() }
        return out.joined(separator: "\n") + "\n"
    }

    /// Every visible command, depth first, with its canonical path.
    private static func commands(under spec: CommandSpec, path: [String]) -> [(CommandSpec, [String])] {
        spec.subcommands.filter { !$0.hidden }.flatMap { child -> [(CommandSpec, [String])] in
            [(child, path + [child.name])] + commands(under: child, path: path + [child.name])
        }
    }

    /// `### tally record import`: abstract, discussion, usage, arguments, options, examples.
    private static func section(_ spec: CommandSpec, path: [String]) -> [String] {
        var out = ["### tally " + path.joined(separator: " "), ""]
        out += [escape(spec.abstract) + (spec.aliases.isEmpty ? "" : " Alias: " + spec.aliases.map { "`\($0)`" }.joined(separator: ", ") + "."), ""]
        if let discussion = spec.discussion { out += discussionBlocks(discussion) }
        if spec.subcommands.isEmpty || !spec.arguments.isEmpty || !spec.options.isEmpty {
            out += ["```", HelpRenderer.usageLine(spec, path: path, programName: "tally"), "```", ""]
        }
        if !spec.arguments.isEmpty {
            out += ["| argument | meaning |", "|---|---|"]
            for argument in spec.arguments {
                out.append("| `" + argument.name + (argument.repeating ? " ..." : "") + "` | " + cell(argument.help) + " |")
            }
            out.append("")
        }
        out += optionTable(spec.options)
        if !spec.examples.isEmpty {
            out += ["Examples:", "", "```"]
            for example in spec.examples {
                out += ["$ " + example.command, "# " + example.explanation]
            }
            out += ["```", ""]
        }
        return out
    }

    /// A table of the visible options, with defaults and allowed values; nothing when there are none.
    private static func optionTable(_ options: [OptionSpec]) -> [String] {
        let visible = options.filter { !$0.hidden }
        guard !visible.isEmpty else { return [] }
        var out = ["| option | meaning |", "|---|---|"]
        for option in visible {
            var label = option.displayName
            if let short = option.short { label = "-\(short), " + label }
            if let valueName = option.valueName { label += " " + valueName }
            let help = option.documentedHelp
            out.append("| `" + label + "` | " + cell(help) + " |")
        }
        return out + [""]
    }

    private static func entryTable(_ entries: [ManualText.Entry], heading: String) -> [String] {
        ["| \(heading) | meaning |", "|---|---|"]
            + entries.map { "| `" + $0.label + "` | " + cell($0.text, keepingCode: true) + " |" } + [""]
    }

    /// Plain lines become paragraphs; indented lines stay as they are, in a code block.
    private static func discussionBlocks(_ text: String) -> [String] {
        var out: [String] = []
        var code: [String] = []
        func flushCode() {
            if !code.isEmpty { out += ["```"] + code + ["```", ""] }
            code = []
        }
        for line in text.split(separator: "\n", omittingEmptySubsequences: true).map(String.init) {
            if line.hasPrefix(" ") {
                code.append(line)
            } else {
                flushCode()
                out += [escape(line), ""]
            }
        }
        flushCode()
        return out
    }

    /// The heading anchor GitHub gives `### tally record import`.
    private static func anchor(_ path: [String]) -> String {
        (["tally"] + path).joined(separator: "-").filter { $0.isLetter || $0.isNumber || $0 == "-" || $0 == "_" }
    }

    /// Text that Markdown shows as typed: the characters it would read as markup are escaped.
    public static func escape(_ text: String) -> String {
        var result = ""
        for character in text {
            if "\\`*_<>[]|#".contains(character) { result.append("\\") }
            result.append(character)
        }
        return result
    }

    /// A table cell; with `keepingCode`, backquoted spans stay code.
    private static func cell(_ text: String, keepingCode: Bool = false) -> String {
        guard keepingCode else { return escape(text) }
        var result = ""
        for (index, part) in text.split(separator: "`", omittingEmptySubsequences: false).enumerated() {
            result += index % 2 == 1 ? "`" + String(part).replacingAll("|", with: "\\|") + "`" : escape(String(part))
        }
        return result
    }
}
