#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// `tally.1` in roff (man(7) macros), rendered from the same specs as `--help`.
public enum ManPage {
    /// The whole page; `date` is the footer's date (`2026-11-21`).
    public static func render(root: CommandSpec, globalOptions: [OptionSpec], version: String, date: String) -> String {
        var out: [String] = [
            ".TH TALLY 1 \(quoted(date)) \(quoted("tally " + version)) \(quoted("User Commands"))",
            // Paths, option values and field names must read as typed: no hyphenation at line ends.
            ".nh",
            ".SH NAME",
            "tally \\- " + escape(root.abstract),
            ".SH SYNOPSIS",
            ".B tally",
            "[\\fB\\-\\-db\\fR \\fIPATH\\fR] [\\fB\\-\\-json\\fR] [\\fB\\-\\-no\\-color\\fR] \\fIcommand\\fR [\\fIarguments\\fR]",
            ".br",
            ".B tally",
            "\\fB\\-h\\fR | \\fB\\-\\-help\\fR | \\fB\\-\\-version\\fR | \\fBhelp\\fR \\fIcommand\\fR",
            ".SH DESCRIPTION",
        ]
        out += paragraphs(root.discussion ?? "")
        out.append(".SH GLOBAL OPTIONS")
        for option in globalOptions where !option.hidden { out += optionItem(option) }
        out.append(".SH COMMANDS")
        for command in root.subcommands where !command.hidden {
            out += commandSection(command, path: [command.name])
        }
        out.append(".SH ENVIRONMENT")
        out += ManualText.environment.map(entry)
        out.append(".SH EXIT STATUS")
        out += ManualText.exitStatus.map(entry)
        out.append(".SH FILES")
        out += ManualText.files.map(entry)
        out += [
            ".SH SEE ALSO",
            ".BR task (1),",
            ".BR todo\\-txt (1),",
            ".BR sqlite3 (1)",
        ]
        return out.joined(separator: "\n") + "\n"
    }

    /// `.SS tally add`: abstract, discussion, usage, arguments, options and examples, then any subcommands.
    private static func commandSection(_ spec: CommandSpec, path: [String]) -> [String] {
        var out = [".SS " + quoted((["tally"] + path).joined(separator: " "))]
        out += paragraphs(spec.abstract + (spec.aliases.isEmpty ? "" : " (alias: \(spec.aliases.joined(separator: ", ")))"))
        if let discussion = spec.discussion { out += paragraphs(discussion) }
        if spec.subcommands.isEmpty || !spec.arguments.isEmpty || !spec.options.isEmpty {
            out += [".PP", "Usage: \\fB" + escape(HelpRenderer.usageLine(spec, path: path, programName: "tally")) + "\\fR"]
        }
        for argument in spec.arguments {
            out.append(item(argument.name + (argument.repeating ? " ..." : ""), escape(argument.help)))
        }
        for option in spec.options where !option.hidden { out += optionItem(option) }
        if !spec.examples.isEmpty {
            out += [".PP", "Examples:"]
            for example in spec.examples {
                out += [".PP", ".RS 4", ".nf", "\\fB" + escape(example.command) + "\\fR", ".fi", escape(example.explanation), ".RE"]
            }
        }
        for child in spec.subcommands where !child.hidden {
            out += commandSection(child, path: path + [child.name])
        }
        return out
    }

    /// `.TP` with the option's label, then its help, default and allowed values.
    private static func optionItem(_ option: OptionSpec) -> [String] {
        var label = "\\fB" + escape(option.displayName) + "\\fR"
        if let short = option.short { label = "\\fB\\-\(short)\\fR, " + label }
        if let valueName = option.valueName { label += " \\fI" + escape(valueName) + "\\fR" }
        let help = option.documentedHelp
        return [".TP", label, escape(help)]
    }

    /// `.TP` with a bold label and the entry's text, its `code` spans in bold.
    private static func entry(_ entry: ManualText.Entry) -> String {
        var text = ""
        for (index, part) in entry.text.split(separator: "`", omittingEmptySubsequences: false).enumerated() {
            text += index % 2 == 1 ? "\\fB" + escape(String(part)) + "\\fR" : escape(String(part))
        }
        return item(entry.label, text)
    }

    /// `.TP` with a bold label and already escaped text.
    private static func item(_ label: String, _ text: String) -> String {
        ".TP\n\\fB" + escape(label) + "\\fR\n" + text
    }

    /// One `.PP` per non-empty line of `text`.
    private static func paragraphs(_ text: String) -> [String] {
        text.split(separator: "\n", omittingEmptySubsequences: true).flatMap { [".PP", escape(String($0).trimming(.whitespaces))] }
    }

    /// Each comma directly followed by something other than a space becomes `,\:`.
    public static func breakableCommas(_ text: String) -> String {
        var result = ""
        var characters = text.makeIterator()
        var next = characters.next()
        while let character = next {
            next = characters.next()
            result.append(character)
            if character == ",", let following = next, following != " " { result += "\\:" }
        }
        return result
    }

    /// Text safe for a roff text line: backslashes and dashes escaped, no leading control character.
    /// With hyphenation off, a comma directly followed by more text is a place the line may break
    /// (`\:`), so long lists such as a JSON field list still fit the page.
    public static func escape(_ text: String) -> String {
        var result = text.replacingAll("\\", with: "\\e").replacingAll("-", with: "\\-")
        result = breakableCommas(result)
        if result.hasPrefix(".") || result.hasPrefix("'") { result = "\\&" + result }
        return result
    }

    /// A macro argument in double quotes.
    private static func quoted(_ text: String) -> String {
        "\"" + text.replacingAll("\"", with: "'") + "\""
    }
}
