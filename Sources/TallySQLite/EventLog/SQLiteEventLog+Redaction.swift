import TallyDomain
import TallyEssentials

extension SQLiteEventLog {
    /// Carries out the `history.redacted` events among `events`, just appended in the current
    /// transaction: every value of the field in the stream's earlier events is replaced by its
    /// commitment (`Redaction`), through the gate of migration 0008; the sync conflicts that
    /// recorded such a value lose it; every snapshot is dropped (they were folded from the values).
    /// Freed pages are overwritten as they are freed (`secure_delete`), and after the commit the
    /// file is vacuumed and the write-ahead log emptied (`scrubAfterCommit`).
    func applyRedactions(_ events: [EventEnvelope]) throws(EventLogError) {
        for event in events where event.type == "history.redacted" {
            let facts = try Redaction.facts(of: event)
            let earlier = try self.events(inStream: facts.stream).filter { $0.seq < event.seq }
            if facts.field == Redaction.fileField {
                try eraseFiles(Redaction.files(in: earlier).names)
                continue
            }
            let plan = Redaction.plan(field: facts.field, annotation: facts.annotation, in: earlier)
            guard !plan.erased.isEmpty else { continue }
            do {
                try connection.execute("PRAGMA secure_delete = ON")
                let pass = try connection.statement("INSERT OR IGNORE INTO redaction_pass(seq) VALUES (?)")
                let update = try connection.statement("UPDATE events SET data = ? WHERE seq = ?")
                for erased in plan.erased {
                    pass.reset()
                    try pass.bind(erased.seq, at: 1)
                    try pass.step()
                    update.reset()
                    try update.bind(erased.data, at: 1)
                    try update.bind(erased.seq, at: 2)
                    try update.step()
                }
                try connection.execute("DELETE FROM redaction_pass")
                if try hasTable("sync_conflicts") {
                    let conflicts = try connection.statement("""
                        UPDATE sync_conflicts SET
                          value = CASE WHEN value IS NULL OR value = 'null' THEN value ELSE ? END,
                          other = CASE WHEN other IS NULL OR other = 'null' THEN other ELSE ? END
                        WHERE stream = ? AND field = ?
                        """)
                    let marker = JSON.string(Commitment.placeholder).serialized(.canonical)
                    try conflicts.bind(marker, at: 1)
                    try conflicts.bind(marker, at: 2)
                    try conflicts.bind(facts.stream, at: 3)
                    try conflicts.bind(facts.field, at: 4)
                    try conflicts.step()
                }
                if try hasTable("snapshot_chunks") { try connection.execute("DELETE FROM snapshot_chunks") }
                if try hasTable("snapshots") { try connection.execute("DELETE FROM snapshots") }
            } catch let error as SQLiteError {
                throw StorageErrors.map(error)
            } catch let error as EventLogError {
                throw error
            } catch {
                throw .io(ErrorWords.text(error))
            }
            scrubPending = true
        }
    }

    /// Deletes kept activity files for good (`redact --file`), overwriting their pages as they are freed.
    private func eraseFiles(_ names: [String]) throws(EventLogError) {
        guard !names.isEmpty, try hasTable("blobs") else { return }
        do throws(SQLiteError) {
            try connection.execute("PRAGMA secure_delete = ON")
            let delete = try connection.statement("DELETE FROM blobs WHERE sha256 = ?")
            for name in names {
                delete.reset()
                try delete.bind(name, at: 1)
                try delete.step()
            }
        } catch {
            throw StorageErrors.map(error)
        }
        scrubPending = true
    }

    /// After a transaction that erased values: rewrites the file without free pages (`VACUUM`)
    /// and folds the write-ahead log back into it, truncating it to nothing, so no old page
    /// image of an erased value stays in either. Best effort: a reader that holds the log open
    /// keeps the WAL until the last connection closes, which checkpoints and removes it.
    func scrubAfterCommit() {
        guard scrubPending, !connection.isInTransaction else { return }
        scrubPending = false
        try? connection.execute("VACUUM")
        try? connection.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    }
}
