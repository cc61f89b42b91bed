import Testing
@testable import TallyEssentials
@testable import TallyArguments
@testable import TallyDomain

private let add = CommandSpec(
    name: "add",
    abstract: "Add a todo.",
    discussion: "Words after the options form the title. A todo starts active; use 'tally done' to complete it.\n\nExamples of due dates:\n  tomorrow, 2026-12-01, +3d",
    arguments: [ArgumentSpec(name: "TITLE", help: "The todo's title.", repeating: true)],
    options: [
        OptionSpec(name: "tag", short: "t", valueName: "TAG", repeatable: true, help: "Attach a tag; give it several times for several tags."),
        OptionSpec(name: "priority", short: "p", valueName: "PRIORITY", help: "How urgent it is.",
                   defaultValue: "medium", allowedValues: ["low", "medium", "high"]),
        OptionSpec(name: "due", valueName: "WHEN", help: "When it is due."),
        OptionSpec(name: "created-at-for-import-only", valueName: "TIMESTAMP", help: "Backdate the creation."),
        OptionSpec(name: "trace", help: "Internal.", hidden: true),
    ],
    examples: [
        CommandExample(command: "tally add Buy milk --tag home", explanation: "Add a todo tagged home."),
        CommandExample("tally add --due tomorrow -- -5 push-ups", "A title that starts with a dash needs '--'."),
    ]
)

private let list = CommandSpec(
    name: "list", aliases: ["ls"], abstract: "List todos.",
    arguments: [ArgumentSpec(name: "REF", help: "Only these todos.", repeating: true, optional: true)],
    options: (1...6).map { OptionSpec(name: "opt\($0)", help: "Option \($0).") }
)

private let record = CommandSpec(
    name: "record", abstract: "Work with recorded state.",
    subcommands: [
        CommandSpec(name: "filter", aliases: ["f"], abstract: "Manage saved filters."),
        CommandSpec(name: "secret", abstract: "Hidden.", hidden: true),
        CommandSpec(name: "start", abstract: "Start recording."),
    ]
)

private let root = CommandSpec(
    name: "tally",
    abstract: "A todo list that remembers everything.",
    subcommands: [
        add, list,
        CommandSpec(name: "undo", abstract: "Revert the last change.", group: "History"),
        record,
        CommandSpec(name: "log", abstract: "Show the event log.", group: "History"),
        CommandSpec(name: "debug-dump", abstract: "Dump.", hidden: true),
    ]
)

private let globals = [
    OptionSpec(name: "db", valueName: "PATH", help: "Database file.", defaultValue: "~/.tally.db"),
    OptionSpec(name: "json", help: "Print JSON."),
    OptionSpec(name: "internal", help: "Internal.", hidden: true),
]

@Suite("HelpRenderer")
struct HelpRendererTests {
    @Test func commandHelpGolden() {
        let expected = """
            OVERVIEW: Add a todo.

            Words after the options form the title. A todo starts active; use 'tally done'
            to complete it.

            Examples of due dates:
              tomorrow, 2026-12-01, +3d

            USAGE: tally add <title> ... [--tag <tag> ...] [--priority <priority>]
                             [--due <when>] [--created-at-for-import-only <timestamp>]

            ARGUMENTS:
              <title>                 The todo's title.

            OPTIONS:
              -t, --tag <tag>         Attach a tag; give it several times for several tags.
              -p, --priority <priority>
                                      How urgent it is. (default: medium) (values: low,
                                      medium, high)
              --due <when>            When it is due.
              --created-at-for-import-only <timestamp>
                                      Backdate the creation.
              -h, --help              Show help information.

            GLOBAL OPTIONS:
              --db <path>             Database file. (default: ~/.tally.db)
              --json                  Print JSON.

            EXAMPLES:
              tally add Buy milk --tag home
                  Add a todo tagged home.
              tally add --due tomorrow -- -5 push-ups
                  A title that starts with a dash needs '--'.

            """
        let text = HelpRenderer.render(add, path: ["add"], globalOptions: globals)
        #expect(text == expected)
    }

    @Test func groupHelpListsVisibleSubcommands() {
        let expected = """
            OVERVIEW: Work with recorded state.

            USAGE: tally record <subcommand>

            OPTIONS:
              -h, --help              Show help information.

            SUBCOMMANDS:
              filter, f               Manage saved filters.
              start                   Start recording.

              See 'tally help record <subcommand>' for details.

            """
        let text = HelpRenderer.render(record, path: ["record"], globalOptions: [])
        #expect(text == expected)
    }

    @Test func overviewGolden() {
        let expected = """
            OVERVIEW: A todo list that remembers everything.

            USAGE: tally <command>

            COMMANDS:
              add                     Add a todo.
              list, ls                List todos.
              record                  Work with recorded state.

            HISTORY:
              undo                    Revert the last change.
              log                     Show the event log.

            GLOBAL OPTIONS:
              --db <path>             Database file. (default: ~/.tally.db)
              --json                  Print JSON.
              --version               Show the version.
              -h, --help              Show help information.

              See 'tally help <command>' for details.

            """
        let text = HelpRenderer.overview(root: root, globalOptions: globals)
        #expect(text == expected)
        #expect(HelpRenderer.render(root, path: [], globalOptions: globals) == expected)
    }

    @Test func usageLines() {
        #expect(HelpRenderer.usageLine(add, path: ["add"], programName: "tally")
            == "tally add <title> ... [--tag <tag> ...] [--priority <priority>] [--due <when>] [--created-at-for-import-only <timestamp>]")
        #expect(HelpRenderer.usageLine(list, path: ["list"], programName: "tally") == "tally list [<ref> ...] [<options>]")
        #expect(HelpRenderer.usageLine(record, path: ["record"], programName: "td") == "td record <subcommand>")
        #expect(HelpRenderer.usageLine(root, path: [], programName: "tally") == "tally <command>")
        let show = CommandSpec(name: "show", abstract: "Show.", arguments: [ArgumentSpec(name: "REF", help: "R.", optional: true)])
        #expect(HelpRenderer.usageLine(show, path: ["show"], programName: "tally") == "tally show [<ref>]")
    }

    @Test func linesRespectTheWidthAndHaveNoTrailingSpaces() {
        for width in [46, 60, 80, 100] {
            let text = HelpRenderer.render(add, path: ["add"], globalOptions: globals, width: width)
            #expect(text.hasSuffix("'.\n") && !text.hasSuffix("\n\n"))
            for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
                #expect(!line.hasSuffix(" "), "trailing space at width \(width): \(line)")
                let isLongLabel = line.contains("--created-at-for-import-only")
                #expect(line.count <= width || isLongLabel, "too wide at \(width): \(line)")
            }
        }
    }

    @Test func hiddenItemsAreOmitted() {
        let text = HelpRenderer.render(add, path: ["add"], globalOptions: globals)
        #expect(!text.contains("--trace"))
        #expect(!text.contains("--internal"))
        let overview = HelpRenderer.overview(root: root, globalOptions: globals)
        #expect(!overview.contains("debug-dump"))
    }

    @Test func helpFollowsDescendantLookup() {
        #expect(root.descendant(at: ["record", "f"])?.name == "filter")
        #expect(root.descendant(at: ["ls"])?.name == "list")
        #expect(root.descendant(at: []) == root)
        #expect(root.descendant(at: ["nosuch"]) == nil)
    }
}
