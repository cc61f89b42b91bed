import TallyDomain
import TallyPostgres

/// Where the event log lives, as `--db` or `TALLY_DB` name it: a SQLite file path, or a
/// PostgreSQL connection URI (`postgresql://...` or `postgres://...`).
public enum StoreLocation: Sendable, Equatable {
    case file(path: String)
    case postgres(uri: String)

    /// Reads a `--db` / `TALLY_DB` value.
    public init(_ text: String) {
        self = PostgresURI.matches(text) ? .postgres(uri: text) : .file(path: text)
    }

    /// The location fit to print: the path, or the URI without its password.
    public var display: String {
        switch self {
        case .file(let path): return path
        case .postgres(let uri): return PostgresURI.redacted(uri)
        }
    }

    /// True when the log is on a server several clients share.
    public var isShared: Bool {
        if case .postgres = self { return true }
        return false
    }
}
