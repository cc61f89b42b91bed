import TallyDomain

extension PostgresEventLog {
    /// Carries out the `history.redacted` events among `events`, just sent in the current
    /// transaction: each value of the field in the stream's earlier events is replaced by its
    /// commitment through `tally_redact` (migration 0008), which checks that the committed form
    /// stays the same, logs the erasure in `redactions` and drops every snapshot. Only the owner
    /// of the log may execute it: a writer's redaction is refused (permission denied), nothing
    /// appended. After the commit the tables are rewritten (`vacuumAfterCommit`).
    func applyRedactions(_ events: [EventEnvelope]) throws(EventLogError) {
        for event in events where event.type == "history.redacted" {
            let facts = try Redaction.facts(of: event)
            let earlier = try self.events(inStream: facts.stream).filter { $0.seq < event.seq }
            let connection = try open()
            if facts.field == Redaction.fileField {
                // The owner's alone: writers have no DELETE on blobs. Logged like every erasure.
                for name in Redaction.files(in: earlier).names {
                    do {
                        try connection.run("DELETE FROM blobs WHERE sha256 = $1", [.text(name)])
                        try connection.run("INSERT INTO redactions(seq, redaction, field) VALUES ($1, $1, 'file')", [.int(event.seq)])
                    } catch {
                        throw fail(error)
                    }
                }
                vacuumPending = true
                continue
            }
            for erased in Redaction.plan(field: facts.field, annotation: facts.annotation, in: earlier).erased {
                do {
                    try connection.run("SELECT tally_redact($1, $2, $3)", [.int(erased.seq), .text(erased.data), .int(event.seq)])
                } catch {
                    throw fail(error)
                }
            }
            vacuumPending = true
        }
    }

    /// After a transaction that erased values: `VACUUM FULL` rewrites the tables the old row
    /// versions were in (an UPDATE or DELETE leaves the old tuple's bytes in its page until then).
    /// Best effort: it needs the tables' owner, which the redacting role is.
    func vacuumAfterCommit() {
        guard vacuumPending, let connection = try? open(), !connection.isInTransaction else { return }
        vacuumPending = false
        try? connection.execute("VACUUM FULL events")
        try? connection.execute("VACUUM FULL snapshot_chunks")
        try? connection.execute("VACUUM FULL snapshots")
        try? connection.execute("VACUUM FULL blobs")
    }
}
