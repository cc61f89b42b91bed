import TallyDomain

extension PostgresEventLog {
    /// Positions read by one `headAndRanges` query at most; more go range by range.
    static let rangeQueryLimit = 2_048

    /// The head and the events at the given positions in one query (one round trip, one snapshot
    /// of the log): what a sync needs to tell whether there is anything to do and whether the
    /// shared log still holds its synced prefix. The positions travel as one array, so the server
    /// probes the primary key once per position.
    public func headAndRanges(_ ranges: [ClosedRange<Int64>]) throws -> (head: LogHead, events: [EventEnvelope]) {
        guard schemaKnown else { return (.empty, []) }
        var positions: [Int64] = []
        for range in ranges {
            guard range.lowerBound >= 1, positions.count + Int(clamping: range.upperBound - range.lowerBound) < Self.rangeQueryLimit else {
                return try headAndRangesByScans(ranges)
            }
            positions.append(contentsOf: range)
        }
        try flushPending()
        let connection = try open()
        let list = "{" + positions.map(String.init).joined(separator: ",") + "}"
        // Part 0: the sampled positions in order; part 1: the last event, the head.
        let sql = """
            SELECT * FROM (SELECT 0 AS part, \(Self.selectColumns) FROM events WHERE seq = ANY($1::bigint[])
            UNION ALL (SELECT 1, \(Self.selectColumns) FROM events ORDER BY seq DESC LIMIT 1)) AS found ORDER BY part, seq
            """
        do {
            return try connection.query(sql, [.text(list)]) { rows in
                var events: [EventEnvelope] = []
                var head = LogHead.empty
                events.reserveCapacity(rows.count)
                for row in 0 ..< rows.count {
                    let event = Self.envelope(rows, row, offset: 1)
                    if rows.int(row, 0) == 1 { head = LogHead(seq: event.seq, hash: event.hash) } else { events.append(event) }
                }
                return (head, events)
            }
        } catch {
            throw fail(error)
        }
    }
}
