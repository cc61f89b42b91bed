import TallyDomain
import TallyEssentials

/// Where the shared log's copy of a replica's synced prefix first differs from the replica's own.
public struct PrefixMismatch: Sendable, Equatable {
    public enum Kind: Sendable, Equatable {
        /// The shared log has no event at this position.
        case missing
        /// The shared log's event differs from this replica's copy (its content, id, time or stored hash).
        case content
        /// The shared log's stored hash does not follow from the event and the link before it.
        case link
    }

    public var seq: Int64
    public var kind: Kind

    public init(seq: Int64, kind: Kind) {
        self.seq = seq
        self.kind = kind
    }
}

/// Compares the shared log's events with a replica's synced prefix, event by event, and recomputes
/// the shared log's hash links.
///
/// The synced prefix was checked link by link when it was pulled, so the replica's copy is the
/// reference: a shared event edited, removed, inserted or moved behind everyone's back (its stored
/// hashes left as they were) differs from it. `sync` compares a sample (`samples`), `verify --remote`
/// all of it (`compareAll`).
public enum PrefixCheck {
    /// Events read per query by `compareAll`.
    static let chunk: Int64 = 4096

    /// The ranges a sync compares: every position of a short prefix; of a longer one, `count`
    /// positions drawn from `seed` (each with the event before it, so its link is recomputed),
    /// plus the last two. Sorted and without overlaps.
    /// - Complexity: O(count log count).
    public static func samples(synced: Int64, count: Int, seed: UInt64) -> [ClosedRange<Int64>] {
        guard synced > 0 else { return [] }
        if synced <= Int64(count) * 2 + 2 { return [1...synced] }
        var generator = SplitMix64(seed: seed)
        var starts: [Int64] = [max(1, synced - 1)]
        for _ in 0..<count {
            starts.append(1 + Int64(generator.next() % UInt64(synced - 1)))
        }
        starts.sort()
        var ranges: [ClosedRange<Int64>] = []
        for start in starts {
            let range = start...min(start + 1, synced)
            if let last = ranges.last, last.upperBound >= range.lowerBound - 1 {
                ranges[ranges.count - 1] = last.lowerBound...max(last.upperBound, range.upperBound)
            } else {
                ranges.append(range)
            }
        }
        return ranges
    }

    /// Compares the events of `ranges` (all within the synced prefix) with the replica's copy and
    /// recomputes each link whose previous event is read too (the first of the log links to the
    /// genesis); returns the first mismatch.
    public static func compare(local: EventLog, remote: EventLog, ranges: [ClosedRange<Int64>]) throws -> PrefixMismatch? {
        for range in ranges {
            var previous: String? = range.lowerBound == 1 ? EventHash.genesis : nil
            if let mismatch = try compare(local: local, remote: remote, range: range, contentThrough: range.upperBound, previous: &previous) {
                return mismatch
            }
        }
        return nil
    }

    /// Compares every event of the synced prefix (`1...synced`) with the replica's copy and
    /// recomputes every link of the shared log up to `remoteHead`; returns the first mismatch.
    /// - Complexity: O(remoteHead) time, O(`chunk`) memory.
    public static func compareAll(local: EventLog, remote: EventLog, synced: Int64, remoteHead: Int64) throws -> PrefixMismatch? {
        var previous: String? = EventHash.genesis
        var start: Int64 = 1
        let end = max(synced, remoteHead)
        while start <= end {
            let upper = min(end, start + chunk - 1)
            if let mismatch = try compare(local: local, remote: remote, range: start...upper, contentThrough: synced, previous: &previous) {
                return mismatch
            }
            start = upper + 1
        }
        return nil
    }

    /// The first position of `1...synced` whose stored hash in the shared log differs from this
    /// replica's (or that the shared log lacks), found by bisection: a log rewritten, restored
    /// or shifted from some event on differs at every position after it, as each link depends on
    /// the one before. Nil when every stored hash matches.
    /// - Complexity: O(log synced) reads on each side.
    public static func firstDifferingHash(local: EventLog, remote: EventLog, synced: Int64) throws -> Int64? {
        func hash(_ log: EventLog, _ seq: Int64) throws -> String? {
            var found: String?
            try log.scan(after: seq - 1, through: seq) { found = $0.hash }
            return found
        }
        guard synced > 0, try hash(remote, synced) != hash(local, synced) else { return nil }
        var low: Int64 = 1
        var high = synced
        while low < high {
            let middle = low + (high - low) / 2
            if try hash(remote, middle) == hash(local, middle) { low = middle + 1 } else { high = middle }
        }
        return low
    }

    /// Like `compare(local:remote:ranges:)`, with the shared log's events of `ranges` already read
    /// (`EventLog.headAndRanges`, one query on a server), in log order.
    public static func compare(local: EventLog, theirs: [EventEnvelope], ranges: [ClosedRange<Int64>]) throws -> PrefixMismatch? {
        var index = 0
        for range in ranges {
            while index < theirs.count, theirs[index].seq < range.lowerBound { index += 1 }
            let start = index
            while index < theirs.count, theirs[index].seq <= range.upperBound { index += 1 }
            var previous: String? = range.lowerBound == 1 ? EventHash.genesis : nil
            if let mismatch = try compare(local: local, theirs: Array(theirs[start ..< index]), range: range, contentThrough: range.upperBound, previous: &previous) {
                return mismatch
            }
        }
        return nil
    }

    /// One range: content up to `contentThrough`, links where `previous` is known (and carried on).
    private static func compare(
        local: EventLog, remote: EventLog, range: ClosedRange<Int64>, contentThrough: Int64, previous: inout String?
    ) throws -> PrefixMismatch? {
        var theirs: [EventEnvelope] = []
        try remote.scan(after: range.lowerBound - 1, through: range.upperBound) { theirs.append($0) }
        return try compare(local: local, theirs: theirs, range: range, contentThrough: contentThrough, previous: &previous)
    }

    /// One range, with the shared log's events of it read.
    private static func compare(
        local: EventLog, theirs: [EventEnvelope], range: ClosedRange<Int64>, contentThrough: Int64, previous: inout String?
    ) throws -> PrefixMismatch? {
        var mine: [EventEnvelope] = []
        if range.lowerBound <= contentThrough {
            try local.scan(after: range.lowerBound - 1, through: min(range.upperBound, contentThrough)) { mine.append($0) }
        }
        var expected = range.lowerBound
        for event in theirs {
            guard event.seq == expected else { return PrefixMismatch(seq: expected, kind: .missing) }
            if event.seq <= contentThrough {
                let index = Int(event.seq - range.lowerBound)
                guard index < mine.count, same(mine[index], event) else { return PrefixMismatch(seq: event.seq, kind: .content) }
            }
            if let link = previous, EventHash.link(previous: link, event) != event.hash {
                return PrefixMismatch(seq: event.seq, kind: .link)
            }
            previous = event.hash
            expected += 1
        }
        if expected <= min(range.upperBound, contentThrough) { return PrefixMismatch(seq: expected, kind: .missing) }
        return nil
    }

    /// The same event at the same place: every stored field but the server's role. A payload one
    /// side has erased values from (`redact`) is the same as long as both commit to the same values:
    /// the redaction itself comes with the events after the prefix and erases them here too.
    static func same(_ a: EventEnvelope, _ b: EventEnvelope) -> Bool {
        a.seq == b.seq && a.hash == b.hash && a.id == b.id && a.stream == b.stream && a.version == b.version
            && a.type == b.type && a.schema == b.schema && Commitment.samePayload(a.data, b.data) && a.recordedAt == b.recordedAt
            && a.actor == b.actor && a.command == b.command
    }
}
