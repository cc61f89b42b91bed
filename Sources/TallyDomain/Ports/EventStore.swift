/// An opened store: the event log, its snapshots and its kept files together, whatever the backend.
///
/// What the command line needs beyond the ports (schema status, size, closing) without knowing
/// whether a file, a server or memory holds the log. Every store keeps snapshots and files, so a
/// command that needs them asks for an `EventStore`; the one optional capability, being a replica
/// that syncs with a shared log, is the typed `replica` (no cast decides what a store can do).
public protocol EventStore: EventLog, SnapshotStore, BlobStore {
    /// This store as a replica of a shared log (a local file), or nil for a store that is shared
    /// itself or cannot sync (a server database, memory).
    var replica: (any EventStore & ReplicaStore)? { get }
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
