import TallyDomain

/// Many writers (migration 0009): a writer that finds the append lock taken stages its command in
/// `events_staged` and commits that without the lock, so concurrent writers' commits share their
/// flushes; `tally_sequence` then moves every committed staged command into `events` under the
/// lock, in one transaction, with seq and the hash chain made on the server.
extension PostgresEventLog: StagedAppends {
    public var stagedAppends: (any StagedAppends)? { mayStage ? self : nil }

    public func writeOrStage<T>(_ body: (_ locked: Bool) throws -> T) throws -> T {
        if try open().isInTransaction { return try body(lockHeld) }
        return try transaction(waitForLock: false, body)
    }

    public func stage(_ events: [EventEnvelope]) throws(EventLogError) -> Bool {
        let connection = try open()
        precondition(connection.isInTransaction && !lockHeld, "stage must run inside writeOrStage without the lock")
        for event in events {
            do {
                try connection.run("""
                    INSERT INTO events_staged(id, stream, version, type, schema, data, recorded_at, actor, command)
                    VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)
                    """, [
                        .text(event.id), .text(event.stream), .int(event.version), .text(event.type), .int(event.schema),
                        .text(event.data), .int(event.recordedAt), .text(event.actor), .text(event.command),
                    ])
            } catch {
                if case .permissionDenied = fail(error) {
                    // A writer granted before migration 9 (or without the staging grants): lock instead.
                    mayStage = false
                    return false
                }
                throw fail(error)
            }
        }
        return true
    }

    /// Waits for the append lock up to the session's lock timeout; past it the command is taken back
    /// (nothing of it will be appended) and `busy` is thrown.
    public func sequence(_ events: [EventEnvelope]) throws(EventLogError) -> [EventEnvelope]? {
        let connection = try open()
        precondition(!connection.isInTransaction, "sequence runs after the staging transaction committed")
        committedHead = nil
        lastSeenHead = nil
        // Ids are lowercase UUIDs (the staging trigger refused anything else), so the array literal needs no quoting.
        let ids = "{" + events.map(\.id).joined(separator: ",") + "}"
        let placed: [String: LogHead]?
        do {
            placed = try connection.query("SELECT o_id, o_seq, o_hash FROM tally_sequence($1::text[])", [.text(ids)]) { rows in
                var placed: [String: LogHead] = [:]
                for row in 0 ..< rows.count {
                    // The lock stayed taken past lock_timeout and the command was taken back.
                    if rows.isNull(row, 0) { return nil }
                    placed[rows.string(row, 0)] = LogHead(seq: rows.int64(row, 1), hash: rows.string(row, 2))
                }
                return placed
            }
        } catch {
            throw fail(error)
        }
        guard let placed else { throw .busy }
        guard !placed.isEmpty else {
            stagingCounts.refused += 1
            return nil
        }
        var appended = events
        for index in appended.indices {
            guard let head = placed[appended[index].id] else {
                throw .corrupt("the log holds only part of command \(appended[index].command)")
            }
            appended[index].seq = head.seq
            appended[index].hash = head.hash
        }
        stagingCounts.sequenced += 1
        return appended
    }
}
