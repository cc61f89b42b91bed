import TallyArguments
import TallyEssentials
import TallyEngine
import TallyDomain

/// `tally summary [FILTER] [--as-of WHEN]`
enum SummaryCommand: CommandHandler {
    static let spec = CommandSpec(
        name: "summary",
        abstract: "Summarise the todos per project: open, done, the share done and a bar, with a total.",
        discussion: "A project's counts include its sub-projects. Deleted todos are not counted. With a filter expression, or a context active, only the todos it matches are counted.",
        arguments: [ReportScope.filterArgument],
        options: [TodoOptions.asOf],
        examples: [
            CommandExample(command: "tally summary", explanation: "Every project with its progress."),
            CommandExample(command: "tally summary tag:q4", explanation: "Only the todos tagged q4."),
        ]
    )

    static let barWidth = 20

    static func run(_ command: ParsedCommand, _ context: CLIContext) throws {
        let bound = try context.asOfBound(command.value("as-of"))
        let state = try context.readState(try context.readLog(), bound: bound)
        let tree = ProjectTree.run(on: state, selection: try ReportScope.selection(command, context, state: state))
        let top = tree.nodes.filter { $0.depth == 0 }
        let open = top.reduce(tree.unfiled.open) { $0 + $1.open }
        let done = top.reduce(tree.unfiled.done) { $0 + $1.done }
        let total = ProjectNode(project: "", depth: 0, open: open, done: done)
        if context.json {
            func counts(_ node: ProjectNode) -> JSONObject {
                ["open": .int(Int64(node.open)), "done": .int(Int64(node.done)), "shareDone": share(node.shareDone)]
            }
            context.printJSON(.object([
                "projects": .array(tree.nodes.map { node in
                    var object = counts(node)
                    object["project"] = .string(node.project)
                    object["depth"] = .int(Int64(node.depth))
                    return .object(object)
                }),
                "withoutProject": .object(counts(ProjectNode(project: "", depth: 0, open: tree.unfiled.open, done: tree.unfiled.done))),
                "total": .object(counts(total)),
            ]))
            return
        }
        let catalog = context.catalog
        guard open + done > 0 else { return context.console.line(catalog.text(.summaryEmpty)) }
        let chart = BarChart(unicode: context.settings.unicode)
        let columns = [
            Table.Column(title: catalog.text(.columnProject), truncatable: true, minWidth: 8),
            Table.Column(title: catalog.text(.columnOpen), alignRight: true),
            Table.Column(title: catalog.text(.columnDoneCount), alignRight: true),
            Table.Column(title: catalog.text(.columnShareDone), alignRight: true),
            Table.Column(title: catalog.text(.columnProgress), truncatable: true, minWidth: 5),
        ]
        var cells: [String] = []
        func row(_ name: String, _ node: ProjectNode) {
            cells += [name, String(node.open), String(node.done), ProjectsCommand.percent(node.shareDone),
                      chart.bar(Double(node.done), maximum: Double(node.open + node.done), width: barWidth)]
        }
        for node in tree.nodes {
            let name = node.project.split(separator: ".").last.map(String.init) ?? node.project
            row(String(repeating: "  ", count: node.depth) + TerminalText.escaped(name), node)
        }
        if tree.unfiled.open + tree.unfiled.done > 0 {
            row(catalog.text(.projectsNone), ProjectNode(project: "", depth: 0, open: tree.unfiled.open, done: tree.unfiled.done))
        }
        row(catalog.text(.columnTotal), total)
        context.console.line(Table(columns: columns, cells: cells, ellipsis: context.settings.unicode ? "…" : "...").render(maxWidth: context.settings.width))
    }

    private static func share(_ value: Double?) -> JSON {
        value.map { .double(($0 * 1000).rounded() / 1000) } ?? .null
    }
}
