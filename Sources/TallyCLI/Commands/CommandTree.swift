/// The whole command tree: every handler, and the specs the parser, help, man page and completions share.
enum CommandTree {
    static var handlers: [CommandHandler.Type] {
        [
        AddCommand.self, ToggleCommand.self, DoneCommand.self, ReopenCommand.self, EditCommand.self,
        DeleteCommand.self, RestoreCommand.self, ListCommand.self, ShowCommand.self,
        FilterSetCommand.self, FilterShowCommand.self, FilterResetCommand.self,
        RecordAddCommand.self, RecordEditCommand.self, RecordDeleteCommand.self, RecordShowCommand.self,
        RecordListCommand.self, RecordFilterSetCommand.self, RecordFilterShowCommand.self, RecordFilterResetCommand.self,
        RecordExportCommand.self, RecordRestoreCommand.self, RecordImportCommand.self, RecordBestsCommand.self, StatsCommand.self,
        InfoCommand.self, SnapshotCommand.self, RebuildCommand.self,
        LogCommand.self, UndoCommand.self, RedoCommand.self, VerifyCommand.self, ExportCommand.self, ImportCommand.self,
                CompletionsCommand.self, CompleteCommand.self, ManCommand.self, ReferenceCommand.self,
        RemoteSetCommand.self, RemoteShowCommand.self, RemoteRemoveCommand.self, SyncCommand.self, ConflictsCommand.self,
        ProjectsCommand.self,
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
        subcommands: [
            AddCommand.spec, ToggleCommand.spec, DoneCommand.spec, ReopenCommand.spec, EditCommand.spec,
            DeleteCommand.spec, RestoreCommand.spec, ListCommand.spec, ShowCommand.spec, FilterGroup.spec,
            RecordGroup.spec, StatsCommand.spec, InfoCommand.spec,
            SnapshotCommand.spec, RebuildCommand.spec,
            LogCommand.spec, UndoCommand.spec, RedoCommand.spec, VerifyCommand.spec, ExportCommand.spec, ImportCommand.spec,
                        CompletionsCommand.spec, CompleteCommand.spec, ManCommand.spec, ReferenceCommand.spec,
            RemoteGroup.spec, SyncCommand.spec, ConflictsCommand.spec,
            ProjectsCommand.spec,
        ]
    )

    /// The handler for a canonical command path.
    static func handler(for path: [String]) -> CommandHandler.Type? {
        handlers.first { $0.path == path }
    }
}
