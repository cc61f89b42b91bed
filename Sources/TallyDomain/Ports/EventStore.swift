/// An opened store: the event log and its snapshots together, whatever the backend.
///
/// What the command line needs beyond the two ports (schema status, size, closing) without
/// knowing whether a file or a server holds the log.
public protocol EventStore: EventLog, SnapshotStore {
    /// Where the store is, fit to print: a file path, or a server URI without its password.
    var displayLocation: String { get }
    /// The schema version the store records; 0 when it has none yet.
    func schemaVersion() throws(EventLogError) -> Int
    /// The newest schema version this binary knows.
    var latestSchemaVersion: Int { get }
    /// True when the store is older than this binary (a write command migrates it).
    var needsMigration: Bool { get }
    /// Bytes the store takes on disk (the file, or the tally tables on the server).
    func storageSize() throws(EventLogError) -> Int64
    /// The identity the store itself records as the appender of each event (a server's database
    /// role); nil where it records none.
    var appendingRole: String? { get }
    /// Closes the connection; the store must not be used afterwards.
    func close()
}
