import TallyDomain
import TallyEssentials

/// One numbered schema change from `migrations/postgresql/`.
public struct PostgresMigration: Sendable, Equatable {
    public var version: Int
    public var name: String
    public var sql: String

    public init(version: Int, name: String, sql: String) {
        self.version = version
        self.name = name
        self.sql = sql
    }

    /// Every migration compiled into this binary, in order.
    public static var all: [PostgresMigration] { embedded }
}

/// What a database holds before tally touches it.
enum SchemaState: Equatable {
    /// No tally tables (and none of their names): a write creates the schema.
    case empty
    /// A tally schema at this version.
    case tally(version: Int)
}

/// Reads the schema state and applies migrations forward, all in one transaction under a lock.
struct PostgresMigrator {
    /// Serialises migrations of one database between clients.
    static let lockKey: Int64 = 7_283_945_502
    /// The columns tally's `events` table has (later migrations may add more).
    static let eventColumns: Set<String> = ["seq", "id", "stream", "version", "type", "schema", "data", "recorded_at", "actor", "command", "hash", "role"]
    static let bookkeepingColumns: Set<String> = ["version", "name", "applied_at"]

    var migrations: [PostgresMigration] = PostgresMigration.embedded.sorted { $0.version < $1.version }

    var latestVersion: Int { migrations.last?.version ?? 0 }

    /// What the database holds; a table of tally's names that tally did not create is refused.
    static func state(_ connection: PGConnection) throws(EventLogError) -> SchemaState {
        let columns: (events: Set<String>?, bookkeeping: Set<String>?)
        do {
            columns = try connection.query("""
                SELECT (SELECT string_agg(attname::text, ',') FROM pg_attribute
                          WHERE attrelid = to_regclass('events') AND attnum > 0 AND NOT attisdropped),
                       (SELECT string_agg(attname::text, ',') FROM pg_attribute
                          WHERE attrelid = to_regclass('schema_migrations') AND attnum > 0 AND NOT attisdropped)
                """) { rows in
                (rows.optionalString(0, 0).map { Set($0.split(separator: ",").map(String.init)) },
                 rows.optionalString(0, 1).map { Set($0.split(separator: ",").map(String.init)) })
            }
        } catch let error as PGError {
            throw PostgresErrors.map(error, server: connection.server)
        } catch {
            throw .io(ErrorWords.text(error))
        }
        switch columns {
        case (nil, nil):
            return .empty
        case (let events?, nil):
            throw .foreignSchema(events.isSuperset(of: eventColumns)
                ? "the table events exists but the database has no tally schema_migrations table"
                : "the table events has other columns than tally's (\(events.sorted().joined(separator: ", ")))")
        case (let events, let bookkeeping?):
            guard bookkeeping.isSuperset(of: bookkeepingColumns) else {
                throw .foreignSchema("the table schema_migrations has other columns than tally's")
            }
            let version: Int
            do {
                version = Int(try connection.scalarInt("SELECT max(version) FROM schema_migrations") ?? 0)
            } catch {
                throw PostgresErrors.map(error, server: connection.server)
            }
            if version > 0, !(events ?? []).isSuperset(of: eventColumns) {
                throw .foreignSchema("the table events has other columns than tally's")
            }
            return .tally(version: version)
        }
    }

    /// Brings the database up to `latestVersion` in one transaction; refuses one newer than this binary.
    func migrate(_ connection: PGConnection, now: Int64) throws(EventLogError) {
        if case .tally(let version) = try Self.state(connection) {
            if version > latestVersion { throw .newerSchema(found: version, known: latestVersion) }
            if version == latestVersion { return }
        }
        do {
            try connection.execute("BEGIN")
            try connection.run("SELECT pg_advisory_xact_lock($1)", [.int(Self.lockKey)])
            try connection.execute("""
                CREATE TABLE IF NOT EXISTS schema_migrations(
                  version    INTEGER PRIMARY KEY,
                  name       TEXT NOT NULL,
                  applied_at BIGINT NOT NULL
                )
                """)
            // Re-read inside the lock: another client may have migrated meanwhile.
            let applied = Int(try connection.scalarInt("SELECT max(version) FROM schema_migrations") ?? 0)
            if applied > latestVersion {
                try? connection.execute("ROLLBACK")
                throw EventLogError.newerSchema(found: applied, known: latestVersion)
            }
            for migration in migrations where migration.version > applied {
                try connection.execute(migration.sql)
                try connection.run("INSERT INTO schema_migrations(version, name, applied_at) VALUES ($1, $2, $3)", [
                    .int(migration.version), .text(migration.name), .int(now),
                ])
            }
            try connection.execute("COMMIT")
        } catch let error as EventLogError {
            throw error
        } catch let error as PGError {
            try? connection.execute("ROLLBACK")
            if error.sqlState == "42501" {
                // Only the owner of the tables may change them: a writer or reader cannot migrate.
                throw EventLogError.permissionDenied(
                    "the tally schema needs migrating to version \(latestVersion), which only the owner of its tables may do (\(PostgresErrors.reason(error.message))); "
                        + "run one tally command as that role first")
            }
            throw PostgresErrors.map(error, server: connection.server)
        } catch {
            throw .io(ErrorWords.text(error))
        }
    }
}
