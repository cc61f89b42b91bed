import TallyDomain
import TallyEssentials

/// One numbered schema change from `migrations/sqlite/`.
public struct Migration: Sendable, Equatable {
    public var version: Int
    public var name: String
    public var sql: String

    public init(version: Int, name: String, sql: String) {
        self.version = version
        self.name = name
        self.sql = sql
    }
}

/// Applies migrations in order, each in its own transaction together with its bookkeeping row.
struct Migrator {
    var migrations: [Migration]

    init(migrations: [Migration] = Migration.embedded) {
        self.migrations = migrations.sorted { $0.version < $1.version }
    }

    /// The newest schema version this binary knows.
    var latestVersion: Int { migrations.last?.version ?? 0 }

    /// The highest applied version in the file; 0 for a file with no bookkeeping table.
    static func appliedVersion(_ connection: Connection) throws(SQLiteError) -> Int {
        let exists = try connection.scalarInt(
            "SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name = 'schema_migrations'"
        ) ?? 0
        guard exists > 0 else { return 0 }
        return Int(try connection.scalarInt("SELECT max(version) FROM schema_migrations") ?? 0)
    }

    /// Brings the file up to `latestVersion`. Refuses a file that is newer than this binary.
    func migrate(_ connection: Connection, now: Int64) throws(EventLogError) {
        // The common case, an up-to-date file, needs no lock and no write.
        do {
            let applied = try Migrator.appliedVersion(connection)
            if applied > latestVersion { throw EventLogError.newerSchema(found: applied, known: latestVersion) }
            if applied == latestVersion { return }
        } catch let error as EventLogError {
            throw error
        } catch let error as SQLiteError {
            throw StorageErrors.map(error)
        } catch {
            throw .io(ErrorWords.text(error))
        }
        do {
            try connection.execute("""
                CREATE TABLE IF NOT EXISTS schema_migrations(
                  version    INTEGER PRIMARY KEY,
                  name       TEXT NOT NULL,
                  applied_at INTEGER NOT NULL
                )
                """)
        } catch {
            throw StorageErrors.map(error)
        }
        for migration in migrations {
            do {
                try connection.transaction(.immediate) {
                    // Re-read inside the lock: another process may have migrated meanwhile.
                    let applied = try Migrator.appliedVersion(connection)
                    if applied > latestVersion {
                        throw EventLogError.newerSchema(found: applied, known: latestVersion)
                    }
                    guard applied < migration.version else { return }
                    try connection.execute(migration.sql)
                    let insert = try connection.statement("INSERT INTO schema_migrations(version, name, applied_at) VALUES (?, ?, ?)")
                    try insert.bind(migration.version, at: 1)
                    try insert.bind(migration.name, at: 2)
                    try insert.bind(now, at: 3)
                    try insert.step()
                }
            } catch let error as EventLogError {
                throw error
            } catch let error as SQLiteError {
                throw StorageErrors.map(error)
            } catch {
                throw .io(ErrorWords.text(error))
            }
        }
    }
}
