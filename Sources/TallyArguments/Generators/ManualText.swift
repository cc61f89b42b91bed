/// The parts of the manual that no command spec holds: environment, exit statuses, files.
/// The man page and the Markdown command reference render the same entries.
public enum ManualText {
    /// One labelled paragraph; `code` spans in backquotes are set in bold in the man page.
    public struct Entry: Sendable {
        let label: String
        let text: String
    }

    public static let environment: [Entry] = [
        Entry(label: "TALLY_DB", text: "The database file when `--db` is not given, or a `postgresql://` URI of a shared log on PostgreSQL (both accept either)."),
        Entry(label: "XDG_DATA_HOME", text: "Without TALLY_DB, the database is `$XDG_DATA_HOME/tally/tally.db`, else `~/.local/share/tally/tally.db`."),
        Entry(label: "TALLY_ACTOR", text: "Who is recorded on each event (default: user@host)."),
        Entry(label: "TALLY_NOW", text: "An ISO-8601 instant that replaces the clock, for tests and reproducible demos."),
        Entry(label: "TZ", text: "The local time zone for the dates you type and see; storage is UTC."),
        Entry(label: "NO_COLOR", text: "When set and not empty, output has no color."),
        Entry(label: "COLUMNS", text: "The width tables are fitted to when the terminal does not report its own, or when output goes to a pipe."),
        Entry(label: "TALLY_BUSY_TIMEOUT", text: "Milliseconds one wait for the database lock may take before tally retries or reports busy (default: 5000)."),
        Entry(label: "TALLY_LIBPQ", text: "The PostgreSQL client library to load for a postgresql:// log (default: libpq.so.5 through the system's loader). SQLite files never load it."),
        Entry(label: "LC_ALL, LC_MESSAGES, LANG", text: "The first one set decides the language of messages: a value starting with `cs` selects Czech. LC_ALL, LC_CTYPE and LANG decide whether output may use UTF-8 symbols."),
    ]

    public static let exitStatus: [Entry] = [
        Entry(label: "0", text: "Success, including a command that changed nothing and said so."),
        Entry(label: "1", text: "The operation failed: unknown or ambiguous REF, conflict, nothing to undo, problems found."),
        Entry(label: "64", text: "Usage error: unknown command or option, missing or extra argument."),
        Entry(label: "65", text: "Invalid data: bad date, duration or priority, empty title, malformed import."),
        Entry(label: "66", text: "An input file cannot be opened."),
        Entry(label: "74", text: "Database or I/O error."),
        Entry(label: "75", text: "The database stayed busy past the retry budget."),
    ]

    public static let files: [Entry] = [
        Entry(label: "~/.local/share/tally/tally.db", text: "The default database: one SQLite file holding the event log."),
    ]
}
