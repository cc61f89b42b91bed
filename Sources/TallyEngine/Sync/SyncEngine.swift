import Dispatch
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import TallyDomain
import TallyEssentials

/// Why a sync stopped. Nothing is changed on either side when one is thrown before a commit.
public enum SyncError: Error, Sendable, Equatable {
    /// The shared log does not extend this replica's synced prefix: it was rewritten, restored from
    /// an old backup, or is another log. `found` is the shared log's event at the prefix's end, if any;
    /// `first` the first position whose stored hash differs (or that the shared log lacks).
    case diverged(synced: LogHead, remoteHead: LogHead, found: String?, first: Int64)
    /// An event of the shared log does not continue its hash chain.
    case brokenRemote(seq: Int64)
    /// The shared log's copy of the synced prefix differs from this replica's: edited, removed or
    /// moved behind everyone's back with its stored hashes left as they were.
    case altered(PrefixMismatch)
    /// A shared event breaks the limits every other way in enforces (what `import` refuses).
    case invalidEvent(seq: Int64, type: String, reason: String)
    /// The shared head moved under every attempt to push (very busy teammates): try again.
    case kept(moving: Int)
}

/// What a sync did.
public struct SyncReport: Sendable {
    /// Local events that are now in the shared log (including those an interrupted run had pushed).
    public var pushed = 0
    /// Shared events this replica did not have.
    public var pulled = 0
    public var conflicts: [SyncConflict] = []
    /// Original activity files this run stored in the shared log, and in this replica.
    public var filesPushed = 0
    public var filesPulled = 0
    public var renumbered: [Renumbering] = []
    /// The shared head this replica now matches.
    public var head = LogHead.empty
    /// The local read models before the sync (for naming items as the user knew them); set when
    /// unpushed events were rebased, else empty.
    public var before = ReadModel()
    /// True when the sync moved no event and changed nothing but the time of the last sync.
    public var isNoOp: Bool { pushed == 0 && pulled == 0 && conflicts.isEmpty }
}

/// Pushes a replica's unpushed events to the shared log and pulls what it lacks, in one run.
///
/// The remote is any `EventLog` (PostgreSQL, or a SQLite file). Steps, each safe to kill:
/// 1. in one local transaction: check that the shared log extends the synced prefix, append the
///    shared events after it, rebase the unpushed events on top (`Rebase`), store the conflicts,
///    and record the shared head as synced;
/// 2. in one remote transaction: append the rebased events, only if the shared head is still the
///    one rebased on (otherwise go back to 1);
/// 3. in one local transaction: record the new shared head as synced.
/// A kill between 2 and 3 leaves the pushed events looking unpushed; the next run finds their
/// ids in the shared log and counts them as pushed, so nothing is stored twice.
///
/// The original activity files (blobs named by `record.logged` events) travel with their events:
/// step 2 stores in the shared log each one a pushed event names and it lacks, and step 1 stores
/// locally each one a pulled event names that the shared log has and this replica lacks, each in
/// that step's transaction. When either side does not offer `BlobStore`, events sync without files
/// (as an export without blob lines would); a missing file is no damage to a log.
public final class SyncEngine {
    public typealias LocalLog = EventStore & ReplicaStore

    private let local: LocalLog
    private let remote: EventLog
    /// Both sides' file stores, or nil when either lacks one.
    private let blobs: (local: BlobStore, remote: BlobStore)?
    private let now: () -> Int64
    /// How many times the push is retried when the shared head moved meanwhile.
    public var attempts = 5
    /// Called after each step commits (`"local"`, `"push"`, `"marked"`): a test hook for fault injection.
    public var afterStep: ((String) throws -> Void)?
    /// Told how many of the shared events to pull are stored, after each batch: (done, total). Runs
    /// inside step 1's transaction: what it throws (Ctrl-C) leaves the local log as it was.
    public var onPull: ((Int64, Int64) throws -> Void)?
    /// How many positions of the synced prefix each sync compares with the shared log, besides
    /// the last two (a prefix of up to twice as many events is compared whole).
    public var samples = 32
    /// Draws the compared positions; nil draws them from the clock and the synced head, so
    /// successive syncs look at different places.
    public var sampleSeed: UInt64?
    /// A sync with nothing to do records its time (`ReplicaState.lastSync`) only when the one
    /// recorded is at least this old (ms), so that most such syncs write nothing at all.
    public var lastSyncResolution: Int64 = 60_000

    public init(local: any LocalLog, remote: any EventStore, now: @escaping () -> Int64) {
        self.local = local
        self.remote = remote
        blobs = (local, remote)
        self.now = now
    }

    public func run() throws -> SyncReport {
        var prefetched: SharedRead? = try readShared(synced: try local.replicaState().synced)
        if let report = try nothingToDo(prefetched) { return report }
        var report = SyncReport()
        for attempt in 1...attempts {
            let step = try pullAndRebase(&report, prefetched: prefetched)
            prefetched = nil
            try afterStep?("local")
            guard !step.toPush.isEmpty else {
                report.head = step.head
                return merged(report)
            }
            let expected = step.head
            let pushed: Bool
            var filesPushed = 0
            do {
                pushed = try remote.write { () throws -> Bool in
                    guard try remote.head() == expected else { return false }
                    try remote.append(step.toPush)
                    if let blobs {
                        filesPushed = try Self.copyFiles(named: step.toPush, from: blobs.local, to: blobs.remote)
                    }
                    return true
                }
            } catch EventLogError.duplicateEventID, EventLogError.conflict {
                pushed = false
            }
            guard pushed else {
                if attempt == attempts { throw SyncError.kept(moving: attempts) }
                continue
            }
            try afterStep?("push")
            let last = step.toPush[step.toPush.count - 1]
            let head = LogHead(seq: last.seq, hash: last.hash)
            try local.write {
                guard try local.replicaState().synced == expected else { return }
                try local.markSynced(head, at: now())
            }
            try afterStep?("marked")
            report.pushed += step.toPush.count
            report.filesPushed += filesPushed
            report.head = head
            return merged(report)
        }
        throw SyncError.kept(moving: attempts)
    }

    /// Folds renumberings of several attempts into one from → to per item.
    private func merged(_ report: SyncReport) -> SyncReport {
        var result = report
        var seen: [String: Renumbering] = [:]
        var order: [String] = []
        for item in report.renumbered {
            if var known = seen[item.stream] {
                known.to = item.to
                seen[item.stream] = known
            } else {
                seen[item.stream] = item
                order.append(item.stream)
            }
        }
        result.renumbered = order.compactMap { seen[$0] }.filter { $0.from != $0.to }
        return result
    }

    private struct Step {
        /// The shared head the local log now matches.
        var head: LogHead
        /// Local events to append at that head.
        var toPush: [EventEnvelope]
    }

    /// What one read of the shared log told: its head, and its events at the positions of the
    /// synced prefix the check compares (`ranges`), for the replica's synced head `synced`.
    private struct SharedRead {
        var synced: LogHead
        var head: LogHead
        var ranges: [ClosedRange<Int64>]
        var theirs: [EventEnvelope]
    }

    /// The shared head and the sampled prefix positions: one query on a server.
    private func readShared(synced: LogHead) throws -> SharedRead {
        let seed = sampleSeed ?? (UInt64(bitPattern: now()) ^ UInt64(bitPattern: synced.seq) &* 0x9E37_79B9_7F4A_7C15)
        let ranges = PrefixCheck.samples(synced: synced.seq, count: samples, seed: seed)
        let (head, theirs) = try remote.headAndRanges(ranges)
        return SharedRead(synced: synced, head: head, ranges: ranges, theirs: theirs)
    }

    /// The report of a sync with nothing to do, told without a local transaction: no unpushed
    /// event, and the shared head is the synced head, its prefix checked as every sync checks it.
    /// Costs one read of each side (one query on a server); the local file is written only to
    /// record the sync's time, at most once per `lastSyncResolution`. Nil when there is something to do.
    private func nothingToDo(_ read: SharedRead?) throws -> SyncReport? {
        guard let read, read.head == read.synced, try local.head() == read.synced else { return nil }
        try checkPrefix(read)
        let state = try local.replicaState()
        let time = now()
        if state.lastSync.map({ time < $0 || time - $0 >= lastSyncResolution }) ?? true {
            try local.write {
                guard try local.replicaState().synced == read.synced else { return }
                try local.markSynced(read.synced, at: time)
            }
        }
        var report = SyncReport()
        report.head = read.synced
        return report
    }

    /// Step 1, in one local transaction. `prefetched` is used when it was read for the synced head
    /// the transaction finds (the shared head may have moved since: the push checks it again).
    private func pullAndRebase(_ report: inout SyncReport, prefetched: SharedRead?) throws -> Step {
        try local.write {
            let synced = try local.replicaState().synced
            let read = try prefetched.flatMap { $0.synced == synced ? $0 : nil } ?? readShared(synced: synced)
            let remoteHead = read.head
            try checkPrefix(read)
            var unpushed: [EventEnvelope] = []
            try local.scan(after: synced.seq, through: nil) { unpushed.append($0) }
            guard remoteHead.seq > synced.seq else {

                try local.markSynced(synced, at: unpushed.isEmpty ? now() : nil)
                return Step(head: synced, toPush: unpushed)
            }
            var rebase: Rebase? = nil
            if !unpushed.isEmpty {
                let base = try StateLoader.load(log: local, snapshots: local, bound: .position(synced.seq), readAll: true).model
                rebase = Rebase(base: base, synced: synced, local: unpushed, salt: Salt.fresh)
                try local.discardEvents(after: synced.seq)
            }
            var previous = synced
            var batch: [EventEnvelope] = []
            batch.reserveCapacity(Self.batchSize)
            var flushed = synced
            var pulledFiles: [String] = []
            // Each batch is checked on the other cores while it is stored and the next one is read;
            // the last one before it is stored. Nothing commits before every check has passed, and
            // a refusal of an earlier batch is told before any later error, as when each batch was
            // checked before the next was read.
            var checking: PendingCheck?
            let flush = { (last: Bool) throws in
                try checking?.wait()
                checking = nil
                if last { try Self.checkPulled(batch, after: flushed) } else { checking = PendingCheck(batch, after: flushed) }
                try self.local.append(batch)
                flushed = previous
                try self.onPull?(flushed.seq - synced.seq, remoteHead.seq - synced.seq)
                batch.removeAll(keepingCapacity: true)
            }
            do {
                // A clone or a long pull: the local log may build its indexes once at the end (endPull).
                try local.beginPull(of: remoteHead.seq - synced.seq)
                try remote.scanStreamed(after: synced.seq, through: remoteHead.seq) { event in
                    guard event.seq == previous.seq + 1 else { throw SyncError.brokenRemote(seq: event.seq) }
                    previous = LogHead(seq: event.seq, hash: event.hash)
                    do throws(EventDecodingError) {
                        try rebase?.absorb(event)
                    } catch {
                        if let problem = Self.invalid(event) { throw problem }
                        throw ReplayError(seq: event.seq, type: event.type, reason: error.reason)
                    }
                    batch.append(event)
                    if let sha = BlobLines.trackHash(of: event) { pulledFiles.append(sha) }
                    if batch.count == Self.batchSize { try flush(false) }
                }
                try flush(true)
            } catch {
                try checking?.wait()
                throw error
            }
            guard previous == remoteHead else { throw SyncError.brokenRemote(seq: previous.seq + 1) }
            try local.endPull()
            if let blobs {
                // After the scan: a PostgreSQL connection serves one query at a time.
                report.filesPulled += try Self.copyFiles(pulledFiles, from: blobs.remote, to: blobs.local)
            }
            var toPush: [EventEnvelope] = []
            if let rebase {
                let outcome: RebaseOutcome
                do throws(EventDecodingError) {
                    outcome = try rebase.finish()
                } catch {
                    throw ReplayError(seq: synced.seq, type: error.type, reason: error.reason)
                }
                try local.append(outcome.events)
                try local.storeConflicts(outcome.conflicts, at: now())
                report.pulled += rebase.pulled
                report.pushed += outcome.alreadyShared
                report.conflicts += outcome.conflicts
                report.renumbered += outcome.renumbered
                if report.before.position == 0 { report.before = outcome.localState }
                toPush = outcome.events
            } else {
                report.pulled += Int(remoteHead.seq - synced.seq)
            }
            try local.markSynced(remoteHead, at: toPush.isEmpty ? now() : nil)
            return Step(head: remoteHead, toPush: toPush)
        }
    }

    /// Stores in `target` each file the events name that `source` has and `target` lacks, each once;
    /// returns how many were stored.
    static func copyFiles(named events: [EventEnvelope], from source: BlobStore, to target: BlobStore) throws -> Int {
        try copyFiles(events.compactMap(BlobLines.trackHash), from: source, to: target)
    }

    static func copyFiles(_ names: [String], from source: BlobStore, to target: BlobStore) throws -> Int {
        var seen: Set<String> = []
        var stored = 0
        for sha in names where seen.insert(sha).inserted {
            guard try !target.containsBlob(sha), let blob = try source.blob(sha) else { continue }
            try target.putBlob(blob)
            stored += 1
        }
        return stored
    }

    /// Pulled events are checked and stored this many at a time.
    static let batchSize = 4096

    /// Checks that each event of `batch` continues the hash chain from `head` and passes the
    /// checks `import` applies to an export line (`EventLines.decode`), so a replica's export
    /// always imports. The events are independent given the stored hashes, so they are checked
    /// on every core; the first bad one is named.
    static func checkPulled(_ batch: [EventEnvelope], after head: LogHead) throws {
        guard !batch.isEmpty else { return }
        let chunks = min(ProcessInfo.processInfo.activeProcessorCount, max(1, batch.count / 256))
        nonisolated(unsafe) let bad = UnsafeMutableBufferPointer<Int>.allocate(capacity: chunks)
        defer { bad.deallocate() }
        bad.initialize(repeating: -1)
        batch.withUnsafeBufferPointer { buffer in
            // Each chunk reads the shared batch and writes only its own slot of `bad`.
            nonisolated(unsafe) let events = buffer
            DispatchQueue.concurrentPerform(iterations: chunks) { chunk in
                let range = (events.count * chunk / chunks)..<(events.count * (chunk + 1) / chunks)
                for index in range {
                    let previous = index == 0 ? head.hash : events[index - 1].hash
                    if EventHash.link(previous: previous, events[index]) != events[index].hash || invalid(events[index]) != nil {
                        bad[chunk] = index
                        return
                    }
                }
            }
        }
        guard let index = bad.first(where: { $0 >= 0 }) else { return }
        let event = batch[index]
        let previous = index == 0 ? head.hash : batch[index - 1].hash
        if EventHash.link(previous: previous, event) != event.hash { throw SyncError.brokenRemote(seq: event.seq) }
        if let problem = invalid(event) { throw problem }
    }

    /// `checkPulled` of one batch on another thread; `wait` returns when it is done and throws
    /// what it threw (every time it is called).
    final class PendingCheck: @unchecked Sendable {
        private let done = DispatchGroup()
        /// Written by the checking thread before `done` is left; read only after waiting for it.
        private var failure: Error?

        init(_ batch: [EventEnvelope], after head: LogHead) {
            done.enter()
            DispatchQueue.global().async { [self] in
                do {
                    try SyncEngine.checkPulled(batch, after: head)
                } catch {
                    failure = error
                }
                done.leave()
            }
        }

        func wait() throws {
            done.wait()
            if let failure { throw failure }
        }
    }

    /// Why `import` would refuse `event` as an export line; nil when it would take it.
    static func invalid(_ event: EventEnvelope) -> SyncError? {
        if EventLines.accepts(event) { return nil }
        guard EventLines.writableTimes.contains(event.recordedAt) else {
            return .invalidEvent(seq: event.seq, type: event.type, reason: "field 'recordedAt' is not an ISO-8601 instant")
        }
        // Refused: the line, written and read back, says why.
        var line = EventLines.encode(event)
        do {
            _ = try line.withUTF8 { bytes in try EventLines.decode(bytes) }
            return .invalidEvent(seq: event.seq, type: event.type, reason: "field 'data' is not one JSON object")
        } catch let error as EventLineError {
            return .invalidEvent(seq: event.seq, type: event.type, reason: error.reason)
        } catch {
            return .invalidEvent(seq: event.seq, type: event.type, reason: ErrorWords.text(error))
        }
    }

    /// Refuses a shared log that does not hold this replica's synced prefix unchanged: its event at
    /// the synced head must have the same hash, and a sample of the prefix (`samples`) must equal
    /// this replica's copy and link. The sampled ranges always end at the synced head.
    private func checkPrefix(_ read: SharedRead) throws {
        let synced = read.synced
        guard synced.seq > 0 else { return }
        let found = read.head.seq >= synced.seq ? read.theirs.last(where: { $0.seq == synced.seq })?.hash : nil
        guard found == synced.hash else {
            let first = try PrefixCheck.firstDifferingHash(local: local, remote: remote, synced: synced.seq) ?? synced.seq
            throw SyncError.diverged(synced: synced, remoteHead: read.head, found: found, first: first)
        }
        if let mismatch = try PrefixCheck.compare(local: local, theirs: read.theirs, ranges: read.ranges) {
            throw SyncError.altered(mismatch)
        }
    }
}
