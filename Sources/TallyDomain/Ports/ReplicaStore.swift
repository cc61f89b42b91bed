
/// Where this replica syncs to and how far it matches the shared log. Local configuration, never events.
public struct ReplicaState: Sendable, Equatable {
    /// The shared log's address as the user gave it (it may hold a password: mask it before printing).
    public var remote: String?
    /// Events 1...synced.seq are identical to the shared log's (same ids and hashes); later ones are unpushed.
    public var synced: LogHead
    /// When a sync last finished, ms since the Unix epoch; nil before the first.
    public var lastSync: Int64?

    public init(remote: String? = nil, synced: LogHead = .empty, lastSync: Int64? = nil) {
        self.remote = remote
        self.synced = synced
        self.lastSync = lastSync
    }
}

/// A conflict as a past sync stored it, so it stays visible after the sync output has scrolled away.
public struct StoredConflict: Sendable, Equatable {
    /// When the sync that decided it ran, ms since the Unix epoch.
    public var syncedAt: Int64
    public var conflict: SyncConflict

    public init(syncedAt: Int64, conflict: SyncConflict) {
        self.syncedAt = syncedAt
        self.conflict = conflict
    }
}

/// The local side of sync: the replica's configuration, and the one rewrite an event log allows,
/// replacing the unpushed events after the synced prefix.
///
/// Not thread-safe: one instance per thread.
public protocol ReplicaStore: AnyObject {
    func replicaState() throws(EventLogError) -> ReplicaState

    /// Sets (or with nil removes) the remote. The synced prefix is kept: it belongs to the log, not to an address.
    func setRemote(_ remote: String?) throws(EventLogError)

    /// Only inside `EventLog.write`: deletes every event after `seq` (the unpushed ones) and every
    /// snapshot taken after it. Events at or before the synced prefix can never be deleted.
    func discardEvents(after seq: Int64) throws(EventLogError)

    /// Only inside `EventLog.write`: records that events up to `head` match the shared log, and,
    /// when the sync is complete, that it finished at `time` (nil keeps the last finished sync).
    func markSynced(_ head: LogHead, at time: Int64?) throws(EventLogError)

    /// Only inside `EventLog.write`: keeps the conflicts a sync decided.
    func storeConflicts(_ conflicts: [SyncConflict], at time: Int64) throws(EventLogError)

    /// Every stored conflict, oldest first.
    func storedConflicts() throws(EventLogError) -> [StoredConflict]

    /// Lets this connection use more memory for a long pull (a clone inserts many rows at once).
    func prepareForPull() throws(EventLogError)

    /// Only inside `EventLog.write`, before appending `count` pulled events in seq order: the store
    /// may stop maintaining its uniqueness indexes until `endPull` (a clone then costs no random
    /// index insert per event). Every rule still holds when the transaction commits.
    func beginPull(of count: Int64) throws(EventLogError)

    /// Only inside `EventLog.write`, after the events announced by `beginPull`: builds what it
    /// deferred, refusing a duplicate id or stream version as `append` would have
    /// (`EventLogError.duplicateEventID` or `.conflict` naming the first event in seq order that
    /// repeats an earlier one). `write` calls it before committing when the body did not.
    func endPull() throws(EventLogError)
}

extension ReplicaStore {
    /// By default appends maintain every index as they go.
    public func beginPull(of count: Int64) throws(EventLogError) {}

    public func endPull() throws(EventLogError) {}
}
