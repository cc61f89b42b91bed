extension EventLog {
    /// By default the head, then one scan per range: a local file answers each without a round trip.
    ///
    /// `ranges` are sorted and do not overlap; the events come in log order. Meant for a few
    /// short ranges (a sync's sampled prefix positions), not for reading the log.
    public func headAndRanges(_ ranges: [ClosedRange<Int64>]) throws -> (head: LogHead, events: [EventEnvelope]) {
        try headAndRangesByScans(ranges)
    }

    /// `headAndRanges` as the head and one `scan` per range (what a store without a better way does).
    public func headAndRangesByScans(_ ranges: [ClosedRange<Int64>]) throws -> (head: LogHead, events: [EventEnvelope]) {
        let head = try head()
        var events: [EventEnvelope] = []
        for range in ranges {
            try scan(after: range.lowerBound - 1, through: range.upperBound) { events.append($0) }
        }
        return (head, events)
    }
}
