import TallyArguments
import TallyEssentials

/// The whole command tree, declared once: the parser, help, man page, completions and the command
/// reference read the specs from it, and dispatch finds each handler by the path it derives.
enum CommandTree {
    /// Every command, in the order help lists them.
    static var nodes: [CommandNode] {
        [
        .command(AddCommand.self), .command(ToggleCommand.self), .command(DoneCommand.self), .command(ReopenCommand.self),
        .command(EditCommand.self), .command(DeleteCommand.self), .command(RestoreCommand.self), .command(ListCommand.self),
        .command(ShowCommand.self),
        .group(FilterGroup.spec, [.command(FilterSetCommand.self), .command(FilterShowCommand.self), .command(FilterResetCommand.self)]),
        .group(RecordGroup.spec, [
            .command(RecordAddCommand.self), .command(RecordEditCommand.self), .command(RecordDeleteCommand.self),
            .command(RecordRestoreCommand.self), .command(RecordShowCommand.self), .command(RecordListCommand.self),
            .group(RecordFilterGroup.spec, [
                .command(RecordFilterSetCommand.self), .command(RecordFilterShowCommand.self), .command(RecordFilterResetCommand.self),
            ]),
            .command(RecordExportCommand.self), .command(RecordImportCommand.self), .command(RecordBestsCommand.self),
            .command(RecordReanalyzeCommand.self),
        ]),
        .command(StatsCommand.self), .command(InfoCommand.self),
        .command(SnapshotCommand.self), .command(RebuildCommand.self),
        .command(LogCommand.self), .command(AnchorCommand.self), .command(BlameCommand.self), .command(DiffCommand.self),
        .command(RevertCommand.self), .command(RedactCommand.self), .command(UndoCommand.self), .command(RedoCommand.self), .command(VerifyCommand.self),
        .command(ExportCommand.self), .command(ImportCommand.self),
        .command(CompletionsCommand.self), .command(CompleteCommand.self), .command(ManCommand.self), .command(ReferenceCommand.self),
        .group(RemoteGroup.spec, [.command(RemoteSetCommand.self), .command(RemoteShowCommand.self), .command(RemoteRemoveCommand.self)]),
        .command(SyncCommand.self), .command(ConflictsCommand.self),
        .group(AthleteGroup.spec, [.command(AthleteSetCommand.self), .command(AthleteShowCommand.self)]), .command(LoadCommand.self),
        .group(GearGroup.spec, [.command(GearAddCommand.self), .command(GearListCommand.self), .command(GearShowCommand.self), .command(GearEditCommand.self), .command(GearRetireCommand.self)]),
        .group(GoalGroup.spec, [.command(GoalSetCommand.self), .command(GoalShowCommand.self), .command(GoalRemoveCommand.self)]),
        .command(ReportCommand.self),
        .command(ProjectsCommand.self),
        .command(AnnotateCommand.self), .command(DenotateCommand.self), .command(StartCommand.self), .command(StopCommand.self), .command(TimeCommand.self),
        .command(NextCommand.self),
        .command(ContextCommand.self),
        .command(CalendarCommand.self), .command(SummaryCommand.self), .command(BurndownCommand.self),
        ]
    }

    static let globalOptions: [OptionSpec] = [
        OptionSpec(name: "db", valueName: "PATH", help: "The database file.", defaultValue: "$TALLY_DB, else $XDG_DATA_HOME/tally/tally.db, else ~/.local/share/tally/tally.db"),
        OptionSpec(name: "json", help: "Print one JSON document on stdout instead of human output."),
        OptionSpec(name: "no-color", help: "Never use color."),
    ]

    static let root = CommandSpec(
        name: "tally",
        abstract: "An event-sourced store for todos and activity records.",
        discussion: "Every change is appended to a log that is never rewritten: see who changed what and when, look at the past, undo, and verify the history.",
        subcommands: nodes.map(\.spec)
    )

    /// Every command with its canonical path, derived from the tree.
    static var handlers: [(path: [String], handler: CommandHandler.Type)] { nodes.flatMap { $0.commands(under: []) } }

    /// The handler for a canonical command path.
    static func handler(for path: [String]) -> CommandHandler.Type? {
        handlers.first { $0.path == path }?.handler
    }
}
