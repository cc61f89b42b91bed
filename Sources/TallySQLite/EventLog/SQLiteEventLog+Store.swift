import TallyDomain

/// The SQLite file as a backend-neutral store.
extension SQLiteEventLog: EventStore {
    public var displayLocation: String { path }

    public var appendingRole: String? { nil }

    /// A local file is always a replica (it syncs once it has a remote).
    public var replica: (any EventStore & ReplicaStore)? { self }

    public func storageSize() throws(EventLogError) -> Int64 {
        try fileSize()
    }
}
