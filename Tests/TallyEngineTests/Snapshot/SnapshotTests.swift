import Testing
@testable import TallyEngine
@testable import TallyDomain
import TallySQLite
import TallyTestSupport

@Suite("Snapshots, start-up and rebuild")
struct SnapshotTests {
    let directory = TemporaryDirectory()

    func generatedLog(seed: UInt64, count: Int) -> InMemoryStore {
        var generator = LogGenerator(seed: seed)
        return InMemoryStore(events: generator.events(count))
    }

    func fullReplay(_ log: EventLog, bound: Replayer.Bound? = nil) throws -> Replayer.Folded {
        var folded = Replayer.Folded()
        try Replayer.fold(log, into: &folded, bound: bound)
        return folded
    }

    @Test("for generated logs, a snapshot at every k-th position plus its tail equals a full replay", arguments: [1, 7, 50])
    func snapshotPlusTail(k: Int) throws {
        for seed in UInt64(1)...4 {
            let log = generatedLog(seed: seed, count: 160)
            let full = try fullReplay(log)
            for position in stride(from: Int64(k), through: 160, by: k) {
                let store = InMemorySnapshotStore()
                try SnapshotWriter.write(try fullReplay(log, bound: .position(position)), log: log, to: store, now: 0)
                let loaded = try StateLoader.load(log: log, snapshots: store)
                #expect(loaded.snapshot?.seq == position && loaded.problems.isEmpty)
                #expect(loaded.folded == full, "seed \(seed), snapshot at \(position): \(Diff.describe(full.model, loaded.model))")
            }
        }
    }

    @Test("a snapshot with one flipped byte is ignored with a problem, and the state is still right")
    func corruptSnapshot() throws {
        let log = generatedLog(seed: 11, count: 120)
        let store = InMemorySnapshotStore()
        try SnapshotWriter.write(try fullReplay(log, bound: .position(40)), log: log, to: store, now: 0)
        try SnapshotWriter.write(try fullReplay(log, bound: .position(100)), log: log, to: store, now: 0)
        let newest = store.rows.firstIndex { $0.info.seq == 100 }!
        store.mutateBody(at: newest) { $0[$0.count / 2] ^= 0x20 }
        let loaded = try StateLoader.load(log: log, snapshots: store)
        #expect(loaded.problems == [SnapshotProblem(seq: 100, kind: .checksumMismatch)])
        #expect(loaded.snapshot?.seq == 40)
        #expect(loaded.folded == (try fullReplay(log)))
    }

    @Test("a snapshot whose body was rewritten with a matching checksum is still caught by its content checks")
    func forgedSnapshot() throws {
        let log = generatedLog(seed: 12, count: 80)
        let store = InMemorySnapshotStore()
        var wrong = try fullReplay(log, bound: .position(60))
        wrong.model.position = 59
        let body = SnapshotCodec.encode(wrong.model, latestRecordedAt: wrong.latestRecordedAt, logHash: try Replayer.hash(at: 60, in: log)!)
        store.rows = [InMemorySnapshotStore.row(seq: 60, body: body)]
        let loaded = try StateLoader.load(log: log, snapshots: store)
        #expect(loaded.problems.count == 1 && loaded.snapshot == nil)
        #expect(loaded.folded == (try fullReplay(log)))
    }

    @Test("snapshots of another reducer version or format, past the head, or of another history are ignored")
    func staleSnapshots() throws {
        let log = generatedLog(seed: 13, count: 90)
        let other = generatedLog(seed: 14, count: 90)
        let store = InMemorySnapshotStore()
        let state = try fullReplay(log, bound: .position(50))
        let body = SnapshotCodec.encode(state.model, latestRecordedAt: state.latestRecordedAt, logHash: try Replayer.hash(at: 50, in: log)!)
        let foreign = try fullReplay(other, bound: .position(30))
        let foreignBody = SnapshotCodec.encode(foreign.model, latestRecordedAt: foreign.latestRecordedAt, logHash: try Replayer.hash(at: 30, in: other)!)
        store.rows = [
            InMemorySnapshotStore.row(seq: 50, reducer: Reducer.version + 1, body: body),
            InMemorySnapshotStore.row(seq: 50, format: SnapshotCodec.format + 1, body: body),
            InMemorySnapshotStore.row(seq: 95, body: body),
            InMemorySnapshotStore.row(seq: 30, body: foreignBody),
        ]
        let loaded = try StateLoader.load(log: log, snapshots: store)
        #expect(loaded.snapshot == nil)
        #expect(Set(loaded.problems.map(\.kind)) == [
            .otherReducerVersion(Reducer.version + 1), .otherFormat(SnapshotCodec.format + 1), .aheadOfLog(head: 90), .otherHistory,
        ])
        #expect(loaded.folded == (try fullReplay(log)))
        let problems = try SnapshotCheck.run(log: log, snapshots: store)
        #expect(problems.map(\.kind) == [.otherHistory, .aheadOfLog(head: 90)], "stale versions are not verify problems")
    }

    @Test("time travel starts from the nearest snapshot at or before a position, and from one for an instant only when safe")
    func timeTravel() throws {
        var generator = LogGenerator(seed: 15)
        var events = generator.events(60)
        generator.setClock(Fixtures.epoch - 3_600_000)
        events += generator.events(20)
        let log = InMemoryStore(events: events)
        let store = InMemorySnapshotStore()
        for position: Int64 in [30, 70] {
            try SnapshotWriter.write(try fullReplay(log, bound: .position(position)), log: log, to: store, now: 0)
        }
        let atPosition = try StateLoader.load(log: log, snapshots: store, bound: .position(50))
        let expectedAt50 = try fullReplay(log, bound: .position(50))
        #expect(atPosition.snapshot?.seq == 30 && atPosition.folded == expectedAt50)
        // Events 61-80 were recorded an hour before event 1 (an import): at an instant between
        // them, snapshot 70 holds later events and must not be used; snapshot 30 must not either.
        let early = Fixtures.epoch - 3_600_000 + 10_500
        let atEarly = try StateLoader.load(log: log, snapshots: store, bound: .instant(early))
        #expect(atEarly.snapshot == nil && atEarly.problems.isEmpty)
        #expect(atEarly.folded.model == (try fullReplay(log, bound: .instant(early))).model)
        let late = Fixtures.epoch + 45_500
        let atLate = try StateLoader.load(log: log, snapshots: store, bound: .instant(late))
        #expect(atLate.snapshot?.seq == 30)
        #expect(atLate.folded.model == (try fullReplay(log, bound: .instant(late))).model)
    }

    @Test("rebuild leaves the same read models as the incremental path with snapshots by policy", arguments: [3, 25])
    func rebuildMatchesIncremental(threshold: Int64) throws {
        let ids = SequentialIDs()
        let clock = TestClock()
        let environment = AppEnvironment(now: { clock.now }, makeID: { ids.make() }, actor: "a@b", zone: Fixtures.utc)
        let path = directory.path("incremental-\(threshold).db")
        var random = SeededRandom(seed: UInt64(threshold))
        for step in 0..<120 {
            let log = try SQLiteEventLog.openForWriting(path: path, now: clock.now)
            let policy = SnapshotPolicy(tailThreshold: threshold)
            let dispatcher = Dispatcher(log: log, environment: environment, loaded: try StateLoader.load(log: log, snapshots: log), snapshots: log, policy: policy)
            let count = dispatcher.state.todos.count
            let ref = String(Int.random(in: 1...max(1, count), using: &random))
            let command: Command = switch step % 5 {
            case 0, 1: .addTodo(TodoInput(title: "todo \(step)", tags: step % 3 == 0 ? ["home"] : []))
            case 2: .toggleTodos([ref])
            case 3: .editTodo(ref, TodoEditInput(title: "edited \(step)"))
            default: .deleteTodos([ref])
            }
            _ = try? dispatcher.execute(command)
            clock.advance(seconds: 5)
            let kept = try log.snapshots().count
            #expect(kept <= 2)
        }
        let log = try SQLiteEventLog.openForWriting(path: path, now: clock.now)
        let incremental = try StateLoader.load(log: log, snapshots: log)
        #expect(incremental.snapshot != nil && incremental.problems.isEmpty)
        let problems = try SnapshotCheck.run(log: log, snapshots: log)
        #expect(problems.isEmpty)
        let rebuilt = try Rebuild.run(log: log, snapshots: log, now: clock.now)
        #expect(rebuilt.folded == incremental.folded, "\(Diff.describe(rebuilt.folded.model, incremental.folded.model))")
        let afterRebuild = try log.snapshots().map(\.seq)
        #expect(afterRebuild == [rebuilt.folded.model.position])
        let reloaded = try StateLoader.load(log: log, snapshots: log)
        #expect(reloaded.folded == incremental.folded)
    }

    @Test("SnapshotCheck reports a snapshot whose models differ from the replay at its position")
    func checkFindsDifferences() throws {
        let log = generatedLog(seed: 16, count: 70)
        let store = InMemorySnapshotStore()
        var wrong = try fullReplay(log, bound: .position(40))
        wrong.model.todos[0].title += " (changed)"
        try SnapshotWriter.write(wrong, log: log, to: store, now: 0)
        try SnapshotWriter.write(try fullReplay(log, bound: .position(60)), log: log, to: store, now: 0)
        let problems = try SnapshotCheck.run(log: log, snapshots: store)
        #expect(problems == [SnapshotProblem(seq: 40, kind: .differsFromReplay("todo 1: title"))])
    }

    @Test("the SQLite store keeps the newest snapshots of the current versions and drops the rest")
    func sqliteStoreKeepsNewest() throws {
        let log = try SQLiteEventLog.openForWriting(path: directory.path("keep.db"), now: 0)
        var generator = LogGenerator(seed: 17)
        let events = generator.events(30)
        try log.write { try log.append(events) }
        for position: Int64 in [5, 10, 20, 30] {
            try SnapshotWriter.write(try fullReplay(log, bound: .position(position)), log: log, to: log, now: position)
        }
        let kept = try log.snapshots().map(\.seq)
        #expect(kept == [30, 20])
        let loaded = try StateLoader.load(log: log, snapshots: log)
        let expected = try fullReplay(log)
        #expect(loaded.snapshot?.seq == 30 && loaded.folded == expected)
        try log.deleteAllSnapshots()
        let remaining = try log.snapshots()
        #expect(remaining.isEmpty)
    }
}
