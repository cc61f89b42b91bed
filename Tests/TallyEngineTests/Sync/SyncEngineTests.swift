import Foundation
import Testing
@testable import TallyEngine
import TallyDomain
@testable import TallySQLite
import TallyStores
import TallyTestSupport
@testable import TallyEssentials

/// One device: its own SQLite file, actor and clock; every command starts from a fresh load, as the CLI does.
final class Replica {
    let log: SQLiteEventLog
    let environment: AppEnvironment
    let clock: TestClock

    init(_ directory: TemporaryDirectory, _ name: String, clock: TestClock) throws {
        self.clock = clock
        log = try SQLiteEventLog.openForWriting(path: directory.path("\(name).db"), now: clock.now)
        // Lowercase UUIDs, as every door of tally writes (a PostgreSQL log refuses other ids), one series per device.
        let ids = SequentialIDs(prefix: String(SHA256.hex(SHA256.digest(Array(name.utf8))).prefix(8)) + "-0000-4000-8000-")
        environment = AppEnvironment(now: { clock.now }, makeID: { ids.make() }, actor: "\(name)@device", zone: Fixtures.utc)
    }

    func dispatcher() throws -> Dispatcher {
        Dispatcher(log: log, environment: environment, loaded: try StateLoader.load(log: log, snapshots: log), snapshots: log)
    }

    @discardableResult
    func run(_ command: Command) throws -> CommandOutcome {
        clock.advance(seconds: 60)
        return try dispatcher().execute(command)
    }

    @discardableResult
    func sync(_ remote: any EventStore, afterStep: ((String) throws -> Void)? = nil) throws -> SyncReport {
        clock.advance(seconds: 1)
        let engine = SyncEngine(local: log, remote: remote, now: { [clock] in clock.now })
        engine.afterStep = afterStep
        return try engine.run()
    }

    var state: ReadModel { get throws { try StateLoader.load(log: log, snapshots: log).model } }
}

/// Every event of a log, in order, without the role a server records (a replica does not keep it).
func allEvents(_ log: EventLog) throws -> [EventEnvelope] {
    var events: [EventEnvelope] = []
    try log.scan(after: 0, through: nil) { event in
        var event = event
        event.role = nil
        events.append(event)
    }
    return events
}

/// Problems `verify` would report for a log.
func chainProblems(_ log: EventLog) throws -> [LogProblem] {
    var verifier = LogVerifier()
    try log.scan(after: 0, through: nil) { verifier.check($0) }
    return verifier.problems
}

/// A crash stand-in: thrown from a step hook after that step committed.
struct Crash: Error {}

/// Where a test's shared log lives: a SQLite file, or a database on the test PostgreSQL cluster.
enum SharedBackend: String, CustomStringConvertible, CaseIterable, Sendable {
    case sqlite, postgres

    var description: String { rawValue }

    /// The backends this machine can run: PostgreSQL when the test cluster is up (always under CI).
    static var available: [SharedBackend] { PostgresTestServer.isEnabled ? [.sqlite, .postgres] : [.sqlite] }

    /// A fresh, empty shared log.
    func open(in directory: TemporaryDirectory, now: Int64) throws -> any EventStore {
        switch self {
        case .sqlite: try SQLiteEventLog.openForWriting(path: directory.path("shared-\(UUID().uuidString).db"), now: now)
        case .postgres: try StoreFactory.openForWriting(.postgres(uri: PostgresTestServer.shared().makeDatabase("engine")), now: now)
        }
    }
}

@Suite("Sync engine on real files and a real PostgreSQL")
struct SyncEngineTests {
    let directory = TemporaryDirectory("tally-sync")
    let clock = TestClock()

    func sharedLog(_ backend: SharedBackend = .sqlite) throws -> any EventStore {
        try backend.open(in: directory, now: clock.now)
    }

    func expectConverged(_ shared: EventLog, _ replicas: [Replica], sourceLocation: SourceLocation = #_sourceLocation) throws {
        let expected = try allEvents(shared)
        #expect(try chainProblems(shared).isEmpty, sourceLocation: sourceLocation)
        for replica in replicas {
            #expect(try allEvents(replica.log) == expected, "\(replica.environment.actor)", sourceLocation: sourceLocation)
            #expect(try chainProblems(replica.log).isEmpty, sourceLocation: sourceLocation)
            let (synced, head) = (try replica.log.replicaState().synced, try shared.head())
            #expect(synced == head, sourceLocation: sourceLocation)
        }
    }

    @Test("an empty replica clones the shared log; a second sync does nothing", arguments: SharedBackend.available)
    func clone(backend: SharedBackend) throws {
        let shared = try sharedLog(backend)
        let laptop = try Replica(directory, "laptop", clock: clock)
        for title in ["a", "b", "c"] { try laptop.run(.addTodo(TodoInput(title: title))) }
        let first = try laptop.sync(shared)
        #expect(first.pushed == 3 && first.pulled == 0)
        let desktop = try Replica(directory, "desktop", clock: clock)
        let clone = try desktop.sync(shared)
        let head = try shared.head()
        #expect(clone.pushed == 0 && clone.pulled == 3 && clone.head == head)
        let again = try desktop.sync(shared)
        #expect(again.pushed == 0 && again.pulled == 0 && again.conflicts.isEmpty)
        try expectConverged(shared, [laptop, desktop])
    }

    @Test("offline work on two devices: both sync twice and hold the same log, with conflicts named", arguments: SharedBackend.available)
    func twoDevices(backend: SharedBackend) throws {
        let shared = try sharedLog(backend)
        let laptop = try Replica(directory, "laptop", clock: clock)
        let desktop = try Replica(directory, "desktop", clock: clock)
        try laptop.run(.addTodo(TodoInput(title: "Milk", tags: ["shop"])))
        try laptop.sync(shared)
        try desktop.sync(shared)
        try laptop.run(.editTodo("1", TodoEditInput(title: "Oat milk")))
        try desktop.run(.editTodo("1", TodoEditInput(title: "Soy milk", priority: "high")))
        try laptop.run(.addTodo(TodoInput(title: "Eggs")))
        try desktop.run(.addTodo(TodoInput(title: "Bread")))
        try desktop.sync(shared)
        let report = try laptop.sync(shared)
        #expect(report.conflicts.map(\.kind) == [.overridden])
        let eggs = try #require(try laptop.state.todo(number: 3)?.id)
        #expect(report.renumbered == [Renumbering(kind: .todo, stream: eggs, from: 2, to: 3)])
        try desktop.sync(shared)
        try expectConverged(shared, [laptop, desktop])
        #expect(try laptop.state.todo(number: 1)?.title == "Soy milk")
        let (left, right) = (try laptop.state, try desktop.state)
        #expect(left == right)
    }

    @Test("a step cut short by a crash (after the local rebase, after the push, after the mark) is finished by the next sync", arguments: SharedBackend.available)
    func crashes(backend: SharedBackend) throws {
        for step in ["local", "push", "marked"] {
            let directory = TemporaryDirectory("tally-sync-crash")
            let shared = try backend.open(in: directory, now: clock.now)
            let laptop = try Replica(directory, "laptop", clock: clock)
            let desktop = try Replica(directory, "desktop", clock: clock)
            try desktop.run(.addTodo(TodoInput(title: "theirs")))
            try desktop.sync(shared)
            try laptop.run(.addTodo(TodoInput(title: "mine")))
            try laptop.run(.completeTodos(["1"]))
            #expect(throws: Crash.self) { try laptop.sync(shared) { if $0 == step { throw Crash() } } }
            // Only a finished sync counts as the last successful one.
            #expect((try laptop.log.replicaState().lastSync == nil) == (step != "marked"), "\(step)")
            let report = try laptop.sync(shared)
            #expect(report.pushed == (step == "marked" ? 0 : 2), "\(step)")
            try desktop.sync(shared)
            try expectConverged(shared, [laptop, desktop])
            #expect(try shared.head().seq == 3, "\(step): every event exactly once")
        }
    }

    @Test("the shared head moving between pull and push makes sync pull again, then push", arguments: SharedBackend.available)
    func headMoves(backend: SharedBackend) throws {
        let shared = try sharedLog(backend)
        let laptop = try Replica(directory, "laptop", clock: clock)
        let desktop = try Replica(directory, "desktop", clock: clock)
        try laptop.run(.addTodo(TodoInput(title: "mine")))
        try desktop.run(.addTodo(TodoInput(title: "theirs")))
        var raced = false
        let report = try laptop.sync(shared) { step in
            guard step == "local", !raced else { return }
            raced = true
            try desktop.sync(shared)
        }
        #expect(report.pushed == 1 && report.pulled == 1)
        try desktop.sync(shared)
        try expectConverged(shared, [laptop, desktop])
    }

    @Test("a shared log that does not extend the synced prefix is refused, and nothing changes on either side", arguments: SharedBackend.available)
    func diverged(backend: SharedBackend) throws {
        let shared = try sharedLog(backend)
        let laptop = try Replica(directory, "laptop", clock: clock)
        try laptop.run(.addTodo(TodoInput(title: "a")))
        try laptop.sync(shared)
        try laptop.run(.addTodo(TodoInput(title: "b")))
        let other = try backend.open(in: directory, now: clock.now)
        let stranger = try Replica(directory, "stranger", clock: clock)
        try stranger.run(.addTodo(TodoInput(title: "x")))
        try stranger.run(.addTodo(TodoInput(title: "y")))
        try stranger.sync(other)
        let before = (try allEvents(laptop.log), try allEvents(other), try laptop.log.replicaState())
        #expect(throws: SyncError.self) { try laptop.sync(other) }
        let empty = try backend.open(in: directory, now: clock.now)
        #expect(throws: SyncError.diverged(synced: before.2.synced, remoteHead: .empty, found: nil, first: 1)) { try laptop.sync(empty) }
        let after = (try allEvents(laptop.log), try allEvents(other), try laptop.log.replicaState())
        #expect(after.0 == before.0 && after.1 == before.1 && after.2 == before.2)
        #expect(try allEvents(empty).isEmpty)
    }

    @Test("a shared log whose chain is broken is refused before anything is stored")
    func brokenRemote() throws {
        let shared = try SQLiteEventLog.openForWriting(path: directory.path("shared.db"), now: clock.now)
        let laptop = try Replica(directory, "laptop", clock: clock)
        for title in ["a", "b", "c"] { try laptop.run(.addTodo(TodoInput(title: title))) }
        try laptop.sync(shared)
        try shared.connection.execute("DROP TRIGGER events_reject_update")
        try shared.connection.execute(#"UPDATE events SET data = '{"due":null,"note":null,"priority":null,"series":null,"tags":[],"title":"forged","wait":null}' WHERE seq = 2"#)
        let desktop = try Replica(directory, "desktop", clock: clock)
        try desktop.run(.addTodo(TodoInput(title: "mine")))
        let before = try allEvents(desktop.log)
        #expect(throws: SyncError.brokenRemote(seq: 2)) { try desktop.sync(shared) }
        #expect(try allEvents(desktop.log) == before)
        #expect(try desktop.log.replicaState().synced == .empty)
    }

    @Test("synced events can never be deleted; only a sync may replace unpushed ones")
    func appendOnly() throws {
        let shared = try sharedLog()
        let laptop = try Replica(directory, "laptop", clock: clock)
        try laptop.run(.addTodo(TodoInput(title: "a")))
        try laptop.sync(shared)
        try laptop.run(.addTodo(TodoInput(title: "b")))
        #expect(throws: EventLogError.self) { try laptop.log.write { try laptop.log.discardEvents(after: 0) } }
        #expect(throws: (any Error).self) { try laptop.log.write { try laptop.log.connection.execute("DELETE FROM events WHERE seq = 2") } }
        try laptop.log.write { try laptop.log.discardEvents(after: 1) }
        #expect(try laptop.log.head().seq == 1)
    }

    @Test("on a shared log undo reverts your own latest command, not a teammate's", arguments: SharedBackend.available)
    func undoByActor(backend: SharedBackend) throws {
        let shared = try sharedLog(backend)
        let laptop = try Replica(directory, "laptop", clock: clock)
        let desktop = try Replica(directory, "desktop", clock: clock)
        try laptop.run(.addTodo(TodoInput(title: "mine")))
        try laptop.sync(shared)
        try desktop.sync(shared)
        try desktop.run(.addTodo(TodoInput(title: "theirs")))
        try desktop.sync(shared)
        try laptop.sync(shared)
        clock.advance(seconds: 60)
        let undo = try laptop.dispatcher().undo(actor: laptop.environment.actor)
        #expect(undo.steps.map(\.actor) == ["laptop@device"])
        let state = try laptop.state
        #expect(state.todo(number: 1)?.deleted == true && state.todo(number: 2)?.deleted == false)
        try laptop.sync(shared)
        try desktop.sync(shared)
        try expectConverged(shared, [laptop, desktop])
    }
}
