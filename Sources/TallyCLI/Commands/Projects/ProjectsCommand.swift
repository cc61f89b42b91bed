import TallyArguments
import TallyEssentials
import TallyEngine
import TallyDomain

/// `tally projects [--as-of WHEN]`
enum ProjectsCommand: CommandHandler {
    static let path = ["projects"]
    static let spec = CommandSpec(
        name: "projects",
        abstract: "Show the projects as a tree, with open and done todos and the share done.",
        discussion: "A project's counts include its sub-projects. Deleted todos are not counted. With a filter expression, or a context active, only the todos it matches are counted.",
        arguments: [ReportScope.filterArgument],
        options: [TodoOptions.asOf],
        examples: [
            CommandExample(command: "tally projects", explanation: "Every project and sub-project with its counts."),
            CommandExample(command: "tally list --project home", explanation: "The todos of home and its sub-projects."),
        ]
    )

    static func run(_ command: ParsedCommand, _ context: CLIContext) throws {
        let bound = try context.asOfBound(command.value("as-of"))
        let state = try context.readState(try context.readLog(), bound: bound)
        let tree = ProjectTree.run(on: state, selection: try ReportScope.selection(command, context, state: state))
        if context.json {
            context.printJSON(.object([
                "projects": .array(tree.nodes.map { node in
                    .object([
                        "project": .string(node.project), "depth": .int(Int64(node.depth)),
                        "open": .int(Int64(node.open)), "done": .int(Int64(node.done)),
                        "shareDone": node.shareDone.map { .double(($0 * 1000).rounded() / 1000) } ?? .null,
                    ])
                }),
                "withoutProject": .object(["open": .int(Int64(tree.unfiled.open)), "done": .int(Int64(tree.unfiled.done))]),
            ]))
            return
        }
        let catalog = context.catalog
        guard !tree.nodes.isEmpty else {
            context.console.line(catalog.text(.projectsEmpty))
            return
        }
        let columns = [
            Table.Column(title: catalog.text(.columnProject), truncatable: true, minWidth: 8),
            Table.Column(title: catalog.text(.columnOpen), alignRight: true),
            Table.Column(title: catalog.text(.columnDoneCount), alignRight: true),
            Table.Column(title: catalog.text(.columnShareDone), alignRight: true),
        ]
        var cells: [String] = []
        for node in tree.nodes {
            let name = node.project.split(separator: ".").last.map(String.init) ?? node.project
            cells += [String(repeating: "  ", count: node.depth) + TerminalText.escaped(name), String(node.open), String(node.done), percent(node.shareDone)]
        }
        if tree.unfiled.open + tree.unfiled.done > 0 {
            let share = Double(tree.unfiled.done) / Double(tree.unfiled.open + tree.unfiled.done)
            cells += [catalog.text(.projectsNone), String(tree.unfiled.open), String(tree.unfiled.done), percent(share)]
        }
        context.console.line(Table(columns: columns, cells: cells, ellipsis: context.settings.unicode ? "…" : "...").render(maxWidth: context.settings.width))
    }

    static func percent(_ share: Double?) -> String {
        share.map { String(Int(($0 * 100).rounded())) + "%" } ?? "-"
    }
}
