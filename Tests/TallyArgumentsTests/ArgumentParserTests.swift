import Testing
@testable import TallyEssentials
@testable import TallyArguments
@testable import TallyDomain

/// A group that runs `show` when given no subcommand, as `tally goal` does.
private let goal: CommandSpec = {
    var spec = CommandSpec(
        name: "goal", abstract: "Goals.",
        subcommands: [
            CommandSpec(name: "show", abstract: "Show goals.", options: [
                OptionSpec(name: "as-of", short: "a", valueName: "WHEN", help: "As of."),
                OptionSpec(name: "week", help: "This week."),
            ]),
            CommandSpec(name: "set", abstract: "Set a goal.", options: [OptionSpec(name: "per", valueName: "PERIOD", help: "Period.")]),
        ]
    )
    spec.defaultSubcommand = "show"
    return spec
}()

/// A command tree shaped like tally's, small enough to reason about.
private let parser = ArgumentParser(
    root: CommandSpec(
        name: "tally",
        abstract: "Todos.",
        subcommands: [
            CommandSpec(
                name: "add", abstract: "Add a todo.",
                arguments: [ArgumentSpec(name: "TITLE", help: "Title.", repeating: true)],
                options: [
                    OptionSpec(name: "tag", short: "t", valueName: "TAG", repeatable: true, help: "Tag."),
                    OptionSpec(name: "priority", short: "p", valueName: "PRIORITY", help: "Priority.",
                               allowedValues: ["low", "medium", "high"]),
                    OptionSpec(name: "due", valueName: "WHEN", help: "Due."),
                    OptionSpec(name: "note", valueName: "NOTE", help: "Note."),
                ]
            ),
            CommandSpec(
                name: "list", aliases: ["ls"], abstract: "List todos.",
                options: [
                    OptionSpec(name: "status", valueName: "STATUS", help: "Status.", defaultValue: "active",
                               allowedValues: ["active", "completed", "all"]),
                    OptionSpec(name: "tag", valueName: "TAG", repeatable: true, help: "Tag."),
                    OptionSpec(name: "limit", short: "n", valueName: "N", help: "Limit."),
                    OptionSpec(name: "sort", valueName: "KEY", help: "Sort.", allowedValues: ["created", "updated", "due"]),
                    OptionSpec(name: "all", short: "a", help: "All."),
                    OptionSpec(name: "debug-order", help: "Debug.", hidden: true),
                ]
            ),
            CommandSpec(name: "show", abstract: "Show one.", arguments: [ArgumentSpec(name: "REF", help: "Ref.")]),
            CommandSpec(name: "done", abstract: "Complete.", arguments: [ArgumentSpec(name: "REF", help: "Refs.", repeating: true)]),
            CommandSpec(
                name: "cp", abstract: "Copy.",
                arguments: [
                    ArgumentSpec(name: "SOURCE", help: "From.", optional: true),
                    ArgumentSpec(name: "DEST", help: "To."),
                ]
            ),
            CommandSpec(
                name: "record", abstract: "Recorded state.",
                subcommands: [
                    CommandSpec(
                        name: "filter", aliases: ["f"], abstract: "Saved filters.",
                        subcommands: [
                            CommandSpec(
                                name: "set", abstract: "Save a filter.",
                                arguments: [
                                    ArgumentSpec(name: "NAME", help: "Name."),
                                    ArgumentSpec(name: "QUERY", help: "Query.", repeating: true, optional: true),
                                ]
                            ),
                            CommandSpec(name: "clear", abstract: "Forget a filter."),
                        ]
                    ),
                    CommandSpec(name: "start", abstract: "Start."),
                ]
            ),
            CommandSpec(name: "debug-dump", abstract: "Dump.", hidden: true),
            goal,
        ]
    ),
    globalOptions: [
        OptionSpec(name: "db", valueName: "PATH", help: "Database."),
        OptionSpec(name: "json", help: "JSON output."),
        OptionSpec(name: "no-color", help: "No color."),
        OptionSpec(name: "color", valueName: "WHEN", help: "Color.", allowedValues: ["auto", "always", "never"]),
        OptionSpec(name: "quiet", short: "q", help: "Quiet."),
    ]
)

private let noGlobals = GlobalOptions()

/// Parses `line` split on spaces.
private func parse(_ line: String) throws(UsageError) -> Invocation {
    try parser.parse(line.split(separator: " ").map(String.init))
}

/// The command a successful `.run` parse produced.
private func run(_ arguments: [String]) throws -> ParsedCommand {
    guard case .run(let command, _) = try parser.parse(arguments) else {
        Issue.record("expected .run for \(arguments)")
        throw UsageError(.custom("not run"))
    }
    return command
}

/// The error a failing parse threw.
private func failure(_ line: String) -> UsageError? {
    do {
        let invocation = try parse(line)
        Issue.record("expected an error for '\(line)', got \(invocation)")
        return nil
    } catch {
        return error
    }
}

@Suite("ArgumentParser")
struct ArgumentParserTests {
    @Test func runsCommandWithArgumentsAndOptions() throws {
        let invocation = try parse("add Buy milk --tag home -p high")
        #expect(invocation == .run(
            ParsedCommand(path: ["add"], options: ["tag": ["home"], "priority": ["high"]], arguments: ["Buy", "milk"]),
            noGlobals
        ))
    }

    @Test func optionValueIsTakenEvenWhenItStartsWithADash() throws {
        let command = try run(["add", "x", "--due", "-2w", "--tag", "-home", "--note", "--"])
        #expect(command.value("due") == "-2w")
        #expect(command.values("tag") == ["-home"])
        #expect(command.value("note") == "--")
        #expect(command.arguments == ["x"])
    }

    @Test func helpShapedValueIsAValueNotAHelpRequest() {
        #expect(failure("add --tag -h")?.kind == .missingArgument("TITLE"))
    }

    @Test func inlineValues() throws {
        let command = try run(["add", "x", "--tag=home", "--note=a=b", "--due="])
        #expect(command.values("tag") == ["home"])
        #expect(command.value("note") == "a=b")
        #expect(command.value("due") == "")
    }

    @Test func repeatableOptionCollectsValuesInOrder() throws {
        let command = try run(["add", "x", "-t", "a", "--tag", "b", "--tag=c"])
        #expect(command.values("tag") == ["a", "b", "c"])
        #expect(command.value("tag") == "c")
        #expect(command.values("priority") == [])
        #expect(command.value("priority") == nil)
    }

    @Test func flagsAndShortOptions() throws {
        let command = try run(["ls", "-a", "-n", "5"])
        #expect(command.has("all"))
        #expect(!command.has("json"))
        #expect(command.value("limit") == "5")
        #expect(command.path == ["list"])
    }

    @Test func hiddenOptionsStillParse() throws {
        #expect(try run(["list", "--debug-order"]).has("debug-order"))
    }

    @Test func globalsBeforeAndAfterTheCommand() throws {
        let expected = GlobalOptions(values: ["db": "/tmp/t.db", "color": "never"], flags: ["json", "quiet"])
        let list = ParsedCommand(path: ["list"], flags: ["all"])
        #expect(try parse("--db /tmp/t.db -q list --json --all --color never") == .run(list, expected))
        #expect(try parse("list --all --db=/tmp/t.db --json -q --color=never") == .run(list, expected))
        #expect(try parse("--json --color never -q --db /tmp/t.db list --all") == .run(list, expected))
    }

    @Test func globalsInsideSubcommandPaths() throws {
        let invocation = try parse("record --json filter --db x set work")
        #expect(invocation == .run(
            ParsedCommand(path: ["record", "filter", "set"], arguments: ["work"]),
            GlobalOptions(values: ["db": "x"], flags: ["json"])
        ))
    }

    @Test func doubleDashEndsOptions() throws {
        #expect(try run(["add", "--", "-5"]).arguments == ["-5"])
        #expect(try run(["add", "x", "--", "--tag", "y", "-h", "--version", "--"]).arguments
            == ["x", "--tag", "y", "-h", "--version", "--"])
        let command = try run(["add", "--tag", "a", "--", "--json"])
        #expect(command.values("tag") == ["a"])
        #expect(command.arguments == ["--json"])
    }

    @Test func loneDashIsAPositional() throws {
        #expect(try run(["add", "-"]).arguments == ["-"])
        #expect(try run(["done", "1", "-", "2"]).arguments == ["1", "-", "2"])
    }

    @Test func repeatedOptionsAreRejected() {
        #expect(failure("list --limit 5 --limit 6") == UsageError(.repeatedOption("--limit"), commandPath: ["list"]))
        #expect(failure("list -n 5 --limit=6")?.kind == .repeatedOption("--limit"))
        #expect(failure("list --all -a")?.kind == .repeatedOption("--all"))
        #expect(failure("--json list --json")?.kind == .repeatedOption("--json"))
        #expect(failure("--db a list --db b")?.kind == .repeatedOption("--db"))
    }

    @Test func unknownOptionSuggestsTheClosestName() {
        #expect(failure("list --stauts active") == UsageError(.unknownOption("--stauts", suggestion: "--status"), commandPath: ["list"]))
        #expect(failure("list --stauts=active")?.kind == .unknownOption("--stauts", suggestion: "--status"))
        #expect(failure("list --jsn")?.kind == .unknownOption("--jsn", suggestion: "--json"))
        #expect(failure("--jsno list")?.kind == .unknownOption("--jsno", suggestion: "--json"))
        #expect(failure("add x --prio high")?.kind == .unknownOption("--prio", suggestion: "--priority"))
        #expect(failure("add x --tags a")?.kind == .unknownOption("--tags", suggestion: "--tag"))
        #expect(failure("add x -tag a")?.kind == .unknownOption("-tag", suggestion: "--tag"))
        #expect(failure("list --verison")?.kind == .unknownOption("--verison", suggestion: "--version"))
        #expect(failure("list --xyzzy")?.kind == .unknownOption("--xyzzy", suggestion: nil))
        #expect(failure("list -x")?.kind == .unknownOption("-x", suggestion: nil))
    }

    @Test func hiddenOptionsAreNotSuggested() {
        #expect(failure("list --debug-ordr")?.kind == .unknownOption("--debug-ordr", suggestion: nil))
    }

    @Test func negativeNumberWithoutDoubleDashIsAnUnknownOption() {
        #expect(failure("done -5")?.kind == .unknownOption("-5", suggestion: nil))
    }

    @Test func flagGivenAValueIsRejected() {
        #expect(failure("list --all=yes")?.kind == .custom("Option '--all' does not take a value."))
    }

    @Test func missingValueAtTheEnd() {
        #expect(failure("list --limit") == UsageError(.missingValue(option: "--limit"), commandPath: ["list"]))
        #expect(failure("add x -t")?.kind == .missingValue(option: "-t"))
        #expect(failure("list --db")?.kind == .missingValue(option: "--db"))
    }

    @Test func unknownCommandSuggestsNamesAndAliases() {
        #expect(failure("lsit") == UsageError(.unknownCommand("lsit", suggestion: "list"), commandPath: []))
        #expect(failure("ad milk")?.kind == .unknownCommand("ad", suggestion: "add"))
        #expect(failure("hlep")?.kind == .unknownCommand("hlep", suggestion: "help"))
        #expect(failure("xyzzy")?.kind == .unknownCommand("xyzzy", suggestion: nil))
        #expect(failure("record filtr set x") == UsageError(.unknownCommand("filtr", suggestion: "filter"), commandPath: ["record"]))
        #expect(failure("record filter st x")?.kind == .unknownCommand("st", suggestion: "set"))
    }

    @Test func hiddenCommandsRunButAreNotSuggested() throws {
        #expect(try run(["debug-dump"]).path == ["debug-dump"])
        #expect(failure("debug-dum")?.kind == .unknownCommand("debug-dum", suggestion: nil))
    }

    @Test func subcommandPathsResolveAliasesToCanonicalNames() throws {
        let invocation = try parse("record f set work status:active tag:home")
        #expect(invocation == .run(
            ParsedCommand(path: ["record", "filter", "set"], arguments: ["work", "status:active", "tag:home"]),
            noGlobals
        ))
        #expect(try run(["record", "filter", "clear"]).path == ["record", "filter", "clear"])
    }

    @Test func commandGroupWithoutSubcommandShowsHelp() throws {
        #expect(try parse("record") == .help(path: ["record"], noGlobals))
        #expect(try parse("record f --json") == .help(path: ["record", "filter"], GlobalOptions(flags: ["json"])))
        #expect(failure("record --bogus")?.kind == .unknownOption("--bogus", suggestion: nil))
        #expect(failure("record -- x") == UsageError(.unexpectedArgument("x"), commandPath: ["record"]))
    }

    @Test func helpFlagAnywhereGivesHelpForThePathSeenSoFar() throws {
        #expect(try parse("-h") == .help(path: [], noGlobals))
        #expect(try parse("--help") == .help(path: [], noGlobals))
        #expect(try parse("list -h") == .help(path: ["list"], noGlobals))
        #expect(try parse("ls --help --json") == .help(path: ["list"], GlobalOptions(flags: ["json"])))
        #expect(try parse("record filter --help set") == .help(path: ["record", "filter", "set"], noGlobals))
        #expect(try parse("add -h x") == .help(path: ["add"], noGlobals))
    }

    @Test func helpFlagWinsOverOtherErrors() throws {
        #expect(try parse("list --bogus -h") == .help(path: ["list"], noGlobals))
        #expect(try parse("list -h --limit") == .help(path: ["list"], noGlobals))
        #expect(try parse("list --sort name --sort x -h") == .help(path: ["list"], noGlobals))
        #expect(try parse("show -h") == .help(path: ["show"], noGlobals))
        #expect(try parse("lsit -h") == .help(path: [], noGlobals))
        #expect(try parse("record nosuch --help") == .help(path: ["record"], noGlobals))
    }

    @Test func helpAfterDoubleDashIsAnArgument() throws {
        #expect(try run(["add", "--", "-h"]).arguments == ["-h"])
    }

    @Test func helpCommand() throws {
        #expect(try parse("help") == .help(path: [], noGlobals))
        #expect(try parse("help list") == .help(path: ["list"], noGlobals))
        #expect(try parse("help ls") == .help(path: ["list"], noGlobals))
        #expect(try parse("help record filter") == .help(path: ["record", "filter"], noGlobals))
        #expect(try parse("help record f set") == .help(path: ["record", "filter", "set"], noGlobals))
        #expect(try parse("--json help list") == .help(path: ["list"], GlobalOptions(flags: ["json"])))
        #expect(try parse("help list -h") == .help(path: ["list"], noGlobals))
        #expect(failure("help nosuch") == UsageError(.unknownCommand("nosuch", suggestion: nil), commandPath: []))
        #expect(failure("help lsit")?.kind == .unknownCommand("lsit", suggestion: "list"))
        #expect(failure("help record nosuch") == UsageError(.unknownCommand("nosuch", suggestion: nil), commandPath: ["record"]))
        #expect(failure("help list extra")?.kind == .unexpectedArgument("extra"))
    }

    @Test func helpIsOnlyACommandInFirstPosition() throws {
        #expect(try run(["add", "help"]).arguments == ["help"])
        #expect(failure("record help")?.kind == .unknownCommand("help", suggestion: nil))
    }

    @Test func version() throws {
        #expect(try parse("--version") == .version(noGlobals))
        #expect(try parse("list --all --version") == .version(noGlobals))
        #expect(try parse("--json --version") == .version(GlobalOptions(flags: ["json"])))
        #expect(try parse("--version --bogus") == .version(noGlobals))
        #expect(try parse("--version -h") == .help(path: [], noGlobals))
    }

    @Test func overviewWhenNoCommandIsGiven() throws {
        #expect(try parser.parse([]) == .overview(noGlobals))
        #expect(try parse("--json --db x") == .overview(GlobalOptions(values: ["db": "x"], flags: ["json"])))
        #expect(failure("-- list") == UsageError(.unexpectedArgument("list"), commandPath: []))
    }

    @Test func positionalsAreMatchedToArgumentSpecs() throws {
        #expect(failure("add") == UsageError(.missingArgument("TITLE"), commandPath: ["add"]))
        #expect(failure("add --tag x")?.kind == .missingArgument("TITLE"))
        #expect(failure("show")?.kind == .missingArgument("REF"))
        #expect(failure("show 1 2") == UsageError(.unexpectedArgument("2"), commandPath: ["show"]))
        #expect(failure("list foo")?.kind == .unexpectedArgument("foo"))
        #expect(failure("record filter set")?.kind == .missingArgument("NAME"))
        #expect(try run(["record", "filter", "set", "work"]).arguments == ["work"])
        #expect(try run(["done", "1", "2", "3"]).arguments == ["1", "2", "3"])
    }

    @Test func optionalArgumentBeforeARequiredOne() throws {
        #expect(try run(["cp", "a"]).arguments == ["a"])
        #expect(try run(["cp", "a", "b"]).arguments == ["a", "b"])
        #expect(failure("cp")?.kind == .missingArgument("DEST"))
        #expect(failure("cp a b c")?.kind == .unexpectedArgument("c"))
    }

    @Test func allowedValuesAreChecked() throws {
        #expect(failure("list --sort name") == UsageError(
            .invalidValue(option: "--sort", value: "name", allowed: ["created", "updated", "due"]),
            commandPath: ["list"]
        ))
        #expect(failure("add x -p urgent")?.kind == .invalidValue(option: "--priority", value: "urgent", allowed: ["low", "medium", "high"]))
        #expect(failure("--color sometimes list")?.kind == .invalidValue(option: "--color", value: "sometimes", allowed: ["auto", "always", "never"]))
        #expect(try run(["list", "--status=all"]).value("status") == "all")
    }

    @Test func firstErrorInCommandLineOrderWins() {
        #expect(failure("list --bogus --limit")?.kind == .unknownOption("--bogus", suggestion: nil))
        #expect(failure("list --limit 1 --limit 2 --bogus")?.kind == .repeatedOption("--limit"))
    }

    @Test func englishDescriptions() {
        let cases: [(UsageError.Kind, String)] = [
            (.unknownOption("--stauts", suggestion: "--status"), "Unknown option '--stauts'. Did you mean '--status'?"),
            (.unknownOption("-x", suggestion: nil), "Unknown option '-x'."),
            (.unknownCommand("lsit", suggestion: "list"), "Unknown command 'lsit'. Did you mean 'list'?"),
            (.unknownCommand("xyzzy", suggestion: nil), "Unknown command 'xyzzy'."),
            (.missingValue(option: "--tag"), "Missing value for option '--tag'."),
            (.missingArgument("TITLE"), "Missing expected argument 'TITLE'."),
            (.unexpectedArgument("x"), "Unexpected argument 'x'."),
            (.repeatedOption("--limit"), "Option '--limit' given more than once."),
            (.invalidValue(option: "--sort", value: "x", allowed: ["created", "updated", "due"]),
             "Invalid value 'x' for '--sort': expected one of created, updated, due."),
            (.conflictingOptions("--all", "REF"), "Options '--all' and 'REF' cannot be used together."),
            (.custom("Nothing to undo."), "Nothing to undo."),
        ]
        for (kind, text) in cases {
            #expect(UsageError(kind).englishDescription == text)
        }
    }

    @Test func helpHintNamesTheCommand() {
        #expect(UsageError(.missingArgument("REF"), commandPath: ["record", "filter"]).englishHelpHint()
            == "See 'tally record filter --help' for more information.")
        #expect(UsageError(.unknownCommand("x", suggestion: nil)).englishHelpHint(programName: "t")
            == "See 't --help' for more information.")
    }

    @Test func editDistance() {
        #expect(EditDistance.distance("", "abc") == 3)
        #expect(EditDistance.distance("abc", "abc") == 0)
        #expect(EditDistance.distance("kitten", "sitting") == 3)
        #expect(EditDistance.distance("lsit", "list") == 1)
        #expect(EditDistance.distance("stauts", "status") == 1)
        #expect(EditDistance.suggestion(for: "ls", among: ["rm"]) == nil)
        #expect(EditDistance.suggestion(for: "lst", among: ["ls", "list"]) == "ls")
        #expect(EditDistance.suggestion(for: "pri", among: ["priority", "print-all"]) == "priority")
        #expect(EditDistance.suggestion(for: "", among: ["a"]) == nil)
    }

    @Test("a group's default subcommand takes the options only it knows: goal --as-of X is goal show --as-of X")
    func defaultSubcommandOptions() throws {
        #expect(try run(["goal"]) == ParsedCommand(path: ["goal", "show"]))
        #expect(try run(["goal", "--as-of", "monday"]) == ParsedCommand(path: ["goal", "show"], options: ["as-of": ["monday"]]))
        #expect(try run(["goal", "-a", "monday", "--week"]) == ParsedCommand(path: ["goal", "show"], options: ["as-of": ["monday"]], flags: ["week"]))
        #expect(try run(["goal", "--week", "--json"]).path == ["goal", "show"])
        // An option neither knows is the group's unknown option; another subcommand's option is not borrowed.
        #expect(failure("goal --bogus")?.kind == .unknownOption("--bogus", suggestion: nil))
        #expect(failure("goal --per week")?.kind == .unknownOption("--per", suggestion: nil))
        // Once in the default subcommand, a later word is its positional, not a subcommand.
        #expect(failure("goal --week set")?.kind == .unexpectedArgument("set"))
        #expect(try run(["goal", "set", "--per", "week"]) == ParsedCommand(path: ["goal", "set"], options: ["per": ["week"]]))
        // A group without a default keeps refusing options it does not know.
        #expect(failure("record --status x")?.kind == .unknownOption("--status", suggestion: nil))
    }

}
