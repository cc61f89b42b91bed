import TallyDomain

/// The SQLite file as a backend-neutral store.
extension SQLiteEventLog: EventStore {
    public var displayLocation: String { path }

    public var appendingRole: String? { nil }

    public func storageSize() throws(EventLogError) -> Int64 {
        try fileSize()
    }
}
