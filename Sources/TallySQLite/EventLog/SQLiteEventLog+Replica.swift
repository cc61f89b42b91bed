import TallyDomain
import TallyEssentials

/// The replica's sync state and stored conflicts in the same file (migration 0004).
extension SQLiteEventLog: ReplicaStore {
    public func replicaState() throws(EventLogError) -> ReplicaState {
        guard try hasTable("sync_state") else { return ReplicaState() }
        do {
            let statement = try connection.statement("SELECT remote, synced_seq, synced_hash, last_sync FROM sync_state WHERE slot = 1")
            defer { statement.reset() }
            guard try statement.step() else { return ReplicaState() }
            return ReplicaState(
                remote: statement.isNull(at: 0) ? nil : statement.string(at: 0),
                synced: LogHead(seq: statement.int64(at: 1), hash: statement.string(at: 2)),
                lastSync: statement.isNull(at: 3) ? nil : statement.int64(at: 3)
            )
        } catch {
            throw StorageErrors.map(error)
        }
    }

    public func setRemote(_ remote: String?) throws(EventLogError) {
        do {
            try connection.transaction(.immediate) {
                let statement = try connection.statement("UPDATE sync_state SET remote = ? WHERE slot = 1")
                defer { statement.reset() }
                try statement.bind(remote, at: 1)
                _ = try statement.step()
            }
        } catch let error as SQLiteError {
            throw StorageErrors.map(error)
        } catch {
            throw .io(ErrorWords.text(error))
        }
    }

    public func discardEvents(after seq: Int64) throws(EventLogError) {
        precondition(connection.isInTransaction, "discardEvents must run inside write")
        do {
            try connection.execute("INSERT INTO sync_rebase(slot) VALUES (1)")
            let events = try connection.statement("DELETE FROM events WHERE seq > ?")
            try events.bind(seq, at: 1)
            _ = try events.step()
            events.reset()
            try connection.execute("DELETE FROM sync_rebase")
            let snapshots = try connection.statement("DELETE FROM snapshots WHERE seq > ?")
            try snapshots.bind(seq, at: 1)
            _ = try snapshots.step()
            snapshots.reset()
        } catch {
            throw StorageErrors.map(error)
        }
    }

    public func markSynced(_ head: LogHead, at time: Int64?) throws(EventLogError) {
        precondition(connection.isInTransaction, "markSynced must run inside write")
        do {
            let statement = try connection.statement("UPDATE sync_state SET synced_seq = ?, synced_hash = ?, last_sync = coalesce(?, last_sync) WHERE slot = 1")
            defer { statement.reset() }
            try statement.bind(head.seq, at: 1)
            try statement.bind(head.hash, at: 2)
            try statement.bind(time, at: 3)
            _ = try statement.step()
        } catch {
            throw StorageErrors.map(error)
        }
    }

    public func storeConflicts(_ conflicts: [SyncConflict], at time: Int64) throws(EventLogError) {
        precondition(connection.isInTransaction, "storeConflicts must run inside write")
        do {
            let insert = try connection.statement("""
                INSERT INTO sync_conflicts(synced_at, kind, event, command, stream, type, actor, recorded_at, field, value, other)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                """)
            for conflict in conflicts {
                insert.reset()
                try insert.bind(time, at: 1)
                try insert.bind(conflict.kind.rawValue, at: 2)
                try insert.bind(conflict.event, at: 3)
                try insert.bind(conflict.command, at: 4)
                try insert.bind(conflict.stream, at: 5)
                try insert.bind(conflict.type, at: 6)
                try insert.bind(conflict.actor, at: 7)
                try insert.bind(conflict.recordedAt, at: 8)
                try insert.bind(conflict.field, at: 9)
                try insert.bind(conflict.value.map { $0.serialized(.canonical) }, at: 10)
                try insert.bind(conflict.other.map(Self.encode), at: 11)
                _ = try insert.step()
            }
            insert.reset()
        } catch {
            throw StorageErrors.map(error)
        }
    }

    public func storedConflicts() throws(EventLogError) -> [StoredConflict] {
        guard try hasTable("sync_conflicts") else { return [] }
        do {
            let statement = try connection.statement("""
                SELECT synced_at, kind, event, command, stream, type, actor, recorded_at, field, value, other
                FROM sync_conflicts ORDER BY id
                """)
            defer { statement.reset() }
            var result: [StoredConflict] = []
            while try statement.step() {
                let conflict = SyncConflict(
                    kind: SyncConflict.Kind(rawValue: statement.string(at: 1)) ?? .impossible,
                    event: statement.string(at: 2), command: statement.string(at: 3), stream: statement.string(at: 4),
                    type: statement.string(at: 5), actor: statement.string(at: 6), recordedAt: statement.int64(at: 7),
                    field: statement.isNull(at: 8) ? nil : statement.string(at: 8),
                    value: statement.isNull(at: 9) ? nil : try? JSON.parse(statement.string(at: 9)),
                    other: statement.isNull(at: 10) ? nil : Self.decodeStamp(statement.string(at: 10))
                )
                result.append(StoredConflict(syncedAt: statement.int64(at: 0), conflict: conflict))
            }
            return result
        } catch {
            throw StorageErrors.map(error)
        }
    }

    /// Lets this connection cache up to 128 MB of pages (SQLite's default is 2 MB): the index of
    /// random event ids then stays in memory while a clone fills it.
    public func prepareForPull() throws(EventLogError) {
        do {
            try connection.execute("PRAGMA cache_size = -131072")
        } catch {
            throw StorageErrors.map(error)
        }
    }

    private static func encode(_ stamp: Stamp) -> String {
        JSON.object([
            "recordedAt": .int(stamp.recordedAt), "event": .string(stamp.event), "actor": .string(stamp.actor), "value": stamp.value,
        ]).serialized(.canonical)
    }

    private static func decodeStamp(_ text: String) -> Stamp? {
        guard case .object(let object)? = try? JSON.parse(text), let time = object["recordedAt"]?.intValue,
              let event = object["event"]?.stringValue, let actor = object["actor"]?.stringValue
        else { return nil }
        return Stamp(recordedAt: time, event: event, actor: actor, value: object["value"] ?? .null)
    }
}
