import TallyDomain

/// The shared log as a backend-neutral store: its schema, size and the role that appends.
extension PostgresEventLog: EventStore {
    public func close() {
        connection = nil
    }

    /// The role this connection appends as (the server records it on every event).
    public var appendingRole: String? { connection?.sessionUser }

    /// The version read when the connection opened (the same session: no second look-up).
    public func schemaVersion() throws(EventLogError) -> Int {
        if let knownSchemaVersion { return knownSchemaVersion }
        if case .tally(let version) = try PostgresMigrator.state(try open()) { return version }
        return 0
    }

    public var latestSchemaVersion: Int { migrator.latestVersion }

    public var needsMigration: Bool { ((try? schemaVersion()) ?? 0) < latestSchemaVersion }

    public func storageSize() throws(EventLogError) -> Int64 {
        let connection = try open()
        do {
            return try connection.scalarInt("""
                SELECT COALESCE(sum(pg_total_relation_size(t)), 0)::bigint
                FROM unnest(ARRAY[to_regclass('events'), to_regclass('snapshots'), to_regclass('schema_migrations')]) AS t
                """) ?? 0
        } catch {
            throw fail(error)
        }
    }
}
