#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import TallyEngine
import TallyStores
import TallyDomain
import TallyEssentials

/// What every command handler gets: settings, the catalog, the console and access to the store.
final class CLIContext {
    let settings: Settings
    let catalog: Catalog
    let console: Console
    let environment: AppEnvironment

    init(settings: Settings, catalog: Catalog, console: Console) {
        self.settings = settings
        self.catalog = catalog
        self.console = console
        self.environment = .live(actor: settings.actor, zone: settings.zone, fixedNow: settings.fixedNow)
    }

    /// Every database this command opened, closed by `closeDatabases()` before the process exits.
    private var openedLogs: [any EventStore] = []

    var json: Bool { settings.json }

    /// The database for reading, without creating it; nil when there is none yet (no file, or a
    /// server database without the tally schema).
    func openForReading(_ location: StoreLocation? = nil) throws -> (any EventStore)? {
        let log = try StoreFactory.openForReading(location ?? settings.storeLocation, lockTimeout: settings.busyTimeout)
        if let log { openedLogs.append(log) }
        return log
    }

    /// The database for writing (another store, such as a sync's shared log, when `location` is
    /// given), created and migrated when needed.
    /// With `create` false a missing file is an error, never created.
    func openForWriting(_ location: StoreLocation? = nil, create: Bool = true) throws -> any EventStore {
        let existed = location != nil || StoreFactory.exists(settings.storeLocation)
        let log = try StoreFactory.openForWriting(location ?? settings.storeLocation, now: now, lockTimeout: settings.busyTimeout, create: create)
        openedLogs.append(log)
        if !existed { createdLog = log }
        return log
    }

    /// The database this command created, if it did.
    private var createdLog: (any EventStore)?

    /// Removes the database file this command created when it holds no event after all (a failed
    /// write rolled back, or the command changed nothing), so a typo in `--db`, a refused first
    /// command or a first `toggle --all` on nothing leaves no file behind. A file that was only
    /// given a remote (`tally remote set` on a new database) keeps it: that is its configuration.
    func removeDatabaseLeftEmpty() {
        guard let log = createdLog, (try? log.head().seq) == 0 else { return }
        if let replica = log.replica, (try? replica.replicaState().remote) != nil { return }
        createdLog = nil
        closeDatabases()
        StoreFactory.removeCreated(settings.storeLocation)
    }

    /// Closes every database the command opened. Read models stay alive (see `keptUntilExit`), but
    /// connections do not: closing lets SQLite fold the write-ahead log back into the file, so the
    /// database is one self-contained file whenever no tally is running.
    func closeDatabases() {
        for log in openedLogs { log.close() }
        openedLogs.removeAll()
    }
    var zone: Zone { settings.zone }
    var now: Int64 { environment.now() }

    /// The log for a read-only command: never creates the file; an absent database reads as empty.
    func readLog() throws -> any EventStore {
        guard let log = try openForReading() else {
            return InMemoryStore()
        }
        if log.needsMigration, try log.schemaVersion() > 0 {
            // An older tally wrote this file: bring it forward once, then read.
            return try openForWriting()
        }
        return log
    }

    /// The current read models for a read-only command.
    func readState(_ log: any EventStore, bound: Replayer.Bound? = nil) throws -> ReadModel {
        try loadReadOnlyState(log, bound: bound).model
    }

    /// Values deliberately never freed: the process ends right after its one command, and
    /// releasing every string of a large read model one by one measured at about a sixth of
    /// `list` on a 10k-todo store. Only read-only state goes here (a kept copy of state that is
    /// later mutated would force a copy of all of it).
    private var keptUntilExit: [Any] = []

    /// The read models from the newest valid snapshot plus its tail; skipped snapshots get one warning line.
    func loadState(_ log: any EventStore, bound: Replayer.Bound? = nil) throws -> LoadedState {
        try TimeTravel.check(bound, against: log)
        if supersededRuns > Self.supersededRetries {
            // Other processes kept pruning the snapshots this command read: replay, with nothing to warn about.
            let loaded = try StateLoader.load(log: log, snapshots: nil, bound: bound)
            warnAboutUnreadable(loaded.folded.unreadable, in: log)
            return loaded
        }
        if let ignored = ignoredSnapshot {
            // Starting over after a late damaged chunk: replay everything, and say so.
            var loaded = try StateLoader.load(log: log, snapshots: nil, bound: bound)
            loaded.problems = [ignored]
            warnAboutSnapshots(loaded.problems, replayedFrom: 0)
            warnAboutUnreadable(loaded.folded.unreadable, in: log)
            return loaded
        }
        let loaded = try StateLoader.load(log: log, snapshots: log, bound: bound)
        warnAboutSnapshots(loaded.problems, replayedFrom: loaded.base)
        warnAboutUnreadable(loaded.folded.unreadable, in: log)
        if let snapshot = loaded.snapshot, let buffer = loaded.model.snapshotBuffer {
            snapshotBuffers.append((buffer, snapshot.seq))
            console.holdOutput = true
        }
        return loaded
    }

    // MARK: Starting over after a late damaged snapshot chunk

    /// The buffers of the snapshots this command's models read from, chunk by chunk.
    private var snapshotBuffers: [(buffer: SnapshotBuffer, seq: Int64)] = []
    /// The dispatchers this command made.
    private var dispatchers: [Dispatcher] = []
    /// Set when the command started over: loads then replay the log instead of reading snapshots.
    private var ignoredSnapshot: SnapshotProblem?
    /// How often the command started over because a snapshot it read was pruned or replaced by
    /// another process meanwhile (`SnapshotBuffer.superseded`).
    private var supersededRuns = 0
    /// Starting over after that reads the newest snapshot again this many times, then replays.
    static let supersededRetries = 3

    /// Runs a command; when a snapshot chunk it read turned out damaged (whether the command then
    /// failed or not), and it has committed nothing, drops its output and runs it once more from a
    /// full replay, with the usual warning. When the chunk was gone because another process pruned
    /// or replaced that snapshot meanwhile, it runs it again from the newest snapshot, silently.
    func runStartingOverOnDamage(_ body: () throws -> Void) throws {
        do {
            try body()
        } catch {
            guard let problem = lateSnapshotDamage() else { throw error }
            try startOver(problem, body)
            return
        }
        if let problem = lateSnapshotDamage() { try startOver(problem, body) }
    }

    /// The damaged snapshot, when a model of this command read a bad chunk and nothing was committed;
    /// nil for its problem when the snapshot was only superseded.
    private func lateSnapshotDamage() -> SnapshotProblem?? {
        guard ignoredSnapshot == nil, !dispatchers.contains(where: \.hasCommitted) else { return nil }
        guard let damaged = snapshotBuffers.first(where: { $0.buffer.isPoisoned }) else { return nil }
        if damaged.buffer.superseded { return .some(nil) }
        return SnapshotProblem(seq: damaged.seq, kind: SnapshotProblem.damage(of: damaged.buffer))
    }

    private func startOver(_ problem: SnapshotProblem?, _ body: () throws -> Void) throws {
        console.discardOutput()
        if let problem { ignoredSnapshot = problem } else { supersededRuns += 1 }
        snapshotBuffers.removeAll()
        dispatchers.removeAll()
        try runStartingOverOnDamage(body)
    }

    /// `loadState` for commands that only read the state; it is kept until the process exits.
    func loadReadOnlyState(_ log: any EventStore, bound: Replayer.Bound? = nil) throws -> LoadedState {
        let loaded = try loadState(log, bound: bound)
        keepUntilExit(loaded.folded.model)
        return loaded
    }

    /// Keeps a value that will not be changed any more alive until the process exits (see `keptUntilExit`).
    func keepUntilExit(_ value: Any) {
        keptUntilExit.append(value)
    }

    /// A dispatcher over the database, created and migrated when needed, that stores snapshots by policy.
    func dispatcher() throws -> Dispatcher {
        try writing().dispatcher
    }

    /// The store opened for writing and the dispatcher on it, for a command that also uses the
    /// store's other ports (its kept files).
    func writing() throws -> (store: any EventStore, dispatcher: Dispatcher) {
        let log = try openForWriting()
        let dispatcher = Dispatcher(log: log, environment: environment, loaded: try loadState(log), snapshots: log)
        keptUntilExit.append(dispatcher)
        dispatchers.append(dispatcher)
        try Hooks.forContext(self)?.attach(to: dispatcher, self)
        dispatcher.onSnapshotProblem = { [weak self] problem in
            guard let self else { return }
            self.warn(code: "snapshot_not_written", self.catalog.text(.snapshotWriteFailed, [
                "seq": String(problem.seq), "reason": SnapshotMessages.reason(problem.kind, catalog: self.catalog),
            ]))
        }
        return (log, dispatcher)
    }

    /// One line on stderr saying which snapshots were ignored and why; nothing when there are none.
    func warnAboutSnapshots(_ problems: [SnapshotProblem], replayedFrom base: Int64) {
        guard let newest = problems.first else { return }
        let start = base == 0 ? catalog.text(.snapshotFromStart) : "@\(base)"
        let reason = SnapshotMessages.reason(newest.kind, catalog: catalog)
        let message = problems.count == 1
            ? catalog.text(.snapshotIgnored, ["seq": String(newest.seq), "reason": reason, "start": start])
            : catalog.text(.snapshotIgnoredMany, ["count": String(problems.count), "seq": String(newest.seq), "reason": reason, "start": start])
        warn(code: newest.isStale ? "stale_snapshot" : "corrupt_snapshot", message)
    }

    /// Whether this command has warned about an event it could not read (it warns once).
    private var warnedUnreadable = false

    /// One line on stderr naming the first event the fold could not read (its seq, id, type and, on
    /// a server, the role that appended it) and pointing to `tally verify`; nothing when there is none.
    func warnAboutUnreadable(_ unreadable: ReplayError?, in log: EventLog) {
        guard let unreadable, !warnedUnreadable else { return }
        warnedUnreadable = true
        var envelope: EventEnvelope?
        try? log.scan(after: unreadable.seq - 1, through: unreadable.seq) { envelope = $0 }
        var values = [
            "seq": String(unreadable.seq), "id": envelope?.id ?? "?", "type": unreadable.type, "reason": unreadable.reason,
        ]
        if let role = envelope?.role { values["role"] = role }
        warn(code: "unreadable_event", catalog.text(values["role"] == nil ? .warningUnreadableEvent : .warningUnreadableEventRole, values))
    }

    /// A warning on stderr: `Warning: ...`, or a JSON object with `--json`.
    func warn(code: String, _ message: String) {
        if json {
            console.errorLine(JSON.object(["warning": .object(["code": .string(code), "message": .string(message)])]).serialized(.compact))
        } else {
            console.errorLine(catalog.text(.warningPrefix, ["message": message]))
        }
    }

    /// Parses `--as-of WHEN|@SEQ` into a replay bound.
    func asOfBound(_ raw: String?) throws -> Replayer.Bound? {
        guard let raw else { return nil }
        let when: When
        do {
            when = try When.parse(raw, now: now, zone: zone, allowLogPosition: true, lookingBack: true)
        } catch {
            throw DomainError.invalid(.value(error))
        }
        switch when {
        case .logPosition(let seq): return .position(seq)
        case .instant(let ms): return .instant(ms)
        case .date: return .instant(when.endInstant(in: zone) - 1)
        }
    }

    /// The instant an `--as-of` bound stands for, for what runs on a clock (a running interval's
    /// length, this week): WHEN itself; for `@SEQ` the time that event was recorded (never later
    /// than now); now without a bound.
    func asOfClock(_ bound: Replayer.Bound?, in log: any EventStore) throws -> Int64 {
        switch bound {
        case nil: return now
        case .instant(let ms)?: return min(ms, now)
        case .position(let seq)?:
            var recorded: Int64?
            if seq > 0 { try log.scan(after: seq - 1, through: seq) { recorded = $0.recordedAt } }
            return min(recorded ?? now, now)
        }
    }

    /// Parses a positive integer option such as `--limit`.
    func positiveInt(_ raw: String?, option: String) throws -> Int? {
        guard let raw else { return nil }
        guard let value = Int(raw), value > 0 else {
            throw DomainError.invalid(.invalidLimit(raw))
        }
        return value
    }

    /// Prints a JSON document on standard output.
    func printJSON(_ value: JSON) {
        console.line(value.serialized(.pretty))
    }
}
