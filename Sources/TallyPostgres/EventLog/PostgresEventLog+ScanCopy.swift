import TallyDomain
import TallyEssentials

/// A clone's read of the shared log: one binary `COPY ... TO STDOUT`, streamed, instead of pages
/// of text rows (as `rebuild` reads, see PostgresEventLog+FoldCopy). The integers arrive as
/// stored, nothing waits for a page's round trip, and the rows come from one snapshot of the table.
extension PostgresEventLog {
    /// The columns, in the order the rows are read.
    static let streamedColumns = "seq, id, stream, version, type, schema, data, recorded_at, actor, command, hash, coalesce(role, '')"

    /// Positions per COPY. When `body` throws (a refused event, Ctrl-C), the rest of the current
    /// COPY is read and dropped before the error is told, so at most this many.
    static let streamedChunk: Int64 = 100_000

    /// `scan` of a bounded range by COPYs of `streamedChunk` positions when no transaction is open
    /// on this connection (a COPY cannot run beside other statements of it); otherwise by pages.
    /// `body` must not use this log.
    public func scanStreamed(after: Int64, through: Int64?, _ body: (EventEnvelope) throws -> Void) throws {
        try scanStreamed(after: after, through: through, chunk: Self.streamedChunk, body)
    }

    /// `scanStreamed` by COPYs of `chunk` positions.
    func scanStreamed(after: Int64, through: Int64?, chunk: Int64, _ body: (EventEnvelope) throws -> Void) throws {
        precondition(chunk > 0, "a COPY covers at least one position")
        guard let through, let connection, !connection.isInTransaction, pending.isEmpty else {
            return try scan(after: after, through: through, body)
        }
        guard schemaKnown else { return }
        var start = after
        while start < through {
            let end = through - start > chunk ? start + chunk : through
            try copyEvents(after: start, through: end, body)
            start = end
        }
    }

    /// One COPY of the events after `after` through `through`.
    private func copyEvents(after: Int64, through: Int64, _ body: (EventEnvelope) throws -> Void) throws {
        let sql = "COPY (SELECT \(Self.streamedColumns) FROM events WHERE seq > \(after) AND seq <= \(through) ORDER BY seq) TO STDOUT (FORMAT binary)"
        func text(_ bytes: UnsafeBufferPointer<UInt8>) -> String { String(decoding: bytes, as: UTF8.self) }
        try copyRows(sql, fields: 12) { rows in
            guard let seq = rows.int64Field(), let id = rows.bytesField(), let stream = rows.bytesField(),
                  let version = rows.int32Field(), let type = rows.bytesField(), let schema = rows.int32Field(),
                  let data = rows.bytesField(), let recordedAt = rows.int64Field(), let actor = rows.bytesField(),
                  let command = rows.bytesField(), let hash = rows.bytesField(), let role = rows.bytesField()
            else { return false }
            try body(EventEnvelope(
                seq: seq, id: text(id), stream: text(stream), version: Int(version), type: text(type), schema: Int(schema),
                data: text(data), recordedAt: recordedAt, actor: text(actor), command: text(command), hash: text(hash),
                role: role.isEmpty ? nil : text(role)
            ))
            return true
        }
    }
}
