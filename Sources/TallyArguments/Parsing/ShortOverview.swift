import TallyEssentials

/// What a bare `tally` prints: the few commands most people need, not the whole tree.
public enum ShortOverview {
    /// The commands shown, by path; those missing from the tree are left out.
    public static let commonPaths: [[String]] = [
        ["add"], ["list"], ["done"], ["edit"], ["delete"], ["show"],
        ["record", "add"], ["record", "list"], ["stats"], ["log"], ["undo"],
    ]

    public static func render(root: CommandSpec, programName: String = "tally") -> String {
        let rows = commonPaths.compactMap { path -> (String, String)? in
            guard let spec = root.descendant(at: path), !spec.hidden else { return nil }
            return ((path.dropLast() + [([spec.name] + spec.aliases).joined(separator: ", ")]).joined(separator: " "), spec.abstract)
        }
        let labelWidth = (rows.map { TextWidth.of($0.0) }.max() ?? 0) + 2
        var lines = [
            "\(programName): \(root.abstract)",
            "",
            "USAGE: \(programName) <command> [<arguments>] [<options>]",
            "",
            "COMMON COMMANDS:",
        ]
        lines += rows.map { "  " + TextWidth.pad($0.0, to: labelWidth, alignRight: false) + $0.1 }
        lines += [
            "",
            "  Run '\(programName) --help' for every command, '\(programName) help <command>' for one.",
        ]
        return lines.joined(separator: "\n") + "\n"
    }
}
