import Foundation
import Testing
@testable import TallyEngine
@testable import TallyDomain
@testable import TallySQLite
import TallyTestSupport
@testable import TallyEssentials

/// Start-up from a snapshot read chunk by chunk: what a command reads, the shortcut `list` takes,
/// and what happens when a chunk turns out damaged after start-up.
extension SnapshotTests {
    /// Todos created in order, then completed, reopened, deleted, restored and given wait dates at random.
    static func orderedModel(seed: UInt64, todos: Int) -> ReadModel {
        var state = seed
        func next(_ bound: Int) -> Int {
            state = state &* 6364136223846793005 &+ 1442695040888963407
            return Int((state >> 33) % UInt64(bound))
        }
        var model = ReadModel()
        var seq: Int64 = 0
        func apply(_ stream: Int, _ event: DomainEvent) {
            seq += 1
            let id = "s\(stream)"
            Reducer.evolve(&model, event, stream: id, version: model.version(of: id) + 1, seq: seq, at: Fixtures.epoch + seq * 1_000)
        }
        let day: Int64 = 86_400_000
        for stream in 0 ..< todos {
            let wait: Due? = next(4) == 0 ? .instant(Fixtures.epoch + Int64(next(40) - 10) * day) : nil
            apply(stream, .todoCreated(TodoFields(title: "todo \(stream)", wait: wait)))
        }
        let changes: [DomainEvent] = [.todoCompleted, .todoReopened, .todoDeleted, .todoRestored,
                                      .todoEdited(TodoChanges(wait: .some(.instant(Fixtures.epoch + 5 * day)))), .todoEdited(TodoChanges(wait: .some(nil)))]
        for _ in 0 ..< todos * 2 { apply(next(todos), changes[next(changes.count)]) }
        return model
    }

    @Test("a limited page in creation order gives exactly what the full scan gives, counts included")
    func firstPageEqualsScan() throws {
        for seed in UInt64(50)...55 {
            let replayed = Self.orderedModel(seed: seed, todos: 300)
            let body = SnapshotCodec.encode(replayed, latestRecordedAt: 0, logHash: EventHash.genesis)
            let sums = SnapshotChunks.sums(body, chunkSize: 128)
            let buffer = SnapshotBuffer(count: body.count, chunkSize: 128, sums: sums) { index, target in
                body.withUnsafeBytes { target.copyMemory(from: UnsafeRawBufferPointer(rebasing: $0[index * 128 ..< index * 128 + target.count])) }
                return true
            }
            var fromSnapshot = try SnapshotCodec.decode(buffer).model
            // A tail on top of the snapshot: the overlay's counts too.
            Reducer.evolve(&fromSnapshot, .todoCompleted, stream: "s3", version: fromSnapshot.version(of: "s3") + 1, seq: 10_000, at: Fixtures.epoch + 10_000_000)
            Reducer.evolve(&fromSnapshot, .todoCreated(TodoFields(title: "new")), stream: "new", version: 1, seq: 10_001, at: Fixtures.epoch + 10_001_000)
            for model in [replayed, fromSnapshot] {
                #expect(model.todos.counts.createdInOrder)
                for status in TodoStatus.allCases {
                    for waiting in [WaitingFilter.hide, .include] {
                        for limit in [1, 3, 20, 1_000] {
                            for now in [Fixtures.epoch - 86_400_000 * 30, Fixtures.epoch, Fixtures.epoch + 86_400_000 * 60] {
                                var query = TodoQuery(status: status, limit: limit)
                                query.waiting = waiting
                                let fast = try #require(TodoProjection.firstPageInCreationOrder(query, on: model, now: now, zone: Fixtures.utc))
                                let scanned = try TodoProjection.scan(query, on: model, now: now, zone: Fixtures.utc)
                                #expect(fast == scanned, "seed \(seed), \(status), \(waiting), limit \(limit)")
                            }
                        }
                    }
                }
            }
            #expect(!buffer.isPoisoned)
        }
    }

    @Test("the shortcut is not taken for queries that need every row, nor when creation order is not position order")
    func shortcutOnlyWhenExact() throws {
        let model = try fullReplay(generatedLog(seed: 56, count: 200)).model
        let now = Fixtures.epoch
        #expect(TodoProjection.firstPageInCreationOrder(TodoQuery(), on: model, now: now, zone: Fixtures.utc) == nil, "no limit")
        for query in [TodoQuery(tags: ["x"], limit: 5), TodoQuery(priority: .high, limit: 5), TodoQuery(search: "a", limit: 5),
                      TodoQuery(sort: .due, limit: 5), TodoQuery(reverse: true, limit: 5), TodoQuery(limit: 5, includeDeleted: true)] {
            #expect(TodoProjection.firstPageInCreationOrder(query, on: model, now: now, zone: Fixtures.utc) == nil)
        }
        var older = ReadModel()
        Reducer.evolve(&older, .todoCreated(TodoFields(title: "late")), stream: "a", version: 1, seq: 1, at: 2_000)
        Reducer.evolve(&older, .todoCreated(TodoFields(title: "imported earlier")), stream: "b", version: 1, seq: 2, at: 1_000)
        #expect(!older.todos.counts.createdInOrder)
        #expect(TodoProjection.firstPageInCreationOrder(TodoQuery(limit: 1), on: older, now: now, zone: Fixtures.utc) == nil)
        #expect(try TodoProjection.run(TodoQuery(limit: 1), on: older, now: now, zone: Fixtures.utc).todos.map(\.title) == ["imported earlier"])
    }

    /// A log of many todos with a snapshot at its head in small chunks, on a real file.
    func storeWithSnapshot(chunkSize: Int) throws -> (log: SQLiteEventLog, info: SnapshotInfo) {
        var generator = LogGenerator(seed: 57)
        let log = try SQLiteEventLog.openForWriting(path: directory.path("chunked-\(chunkSize).db"), now: 1)
        try log.write { try log.append(generator.events(1_200)) }
        let info = try SnapshotWriter.write(try fullReplay(log), log: log, to: log, now: 0, chunkSize: chunkSize)
        return (log, info)
    }

    @Test("on a real file: start-up reads a few chunks; verify's load reads them all; the models equal a replay")
    func sqliteChunks() throws {
        let (log, info) = try storeWithSnapshot(chunkSize: 512)
        #expect(info.chunkSize == 512 && info.size > 20 * 512)
        let loaded = try StateLoader.load(log: log, snapshots: log)
        let buffer = try #require(loaded.model.snapshotBuffer)
        // The read model's own sections (views, series, athlete settings, gear, goals) are read at
        // start-up; the item tables are not (17 of the 94 chunks of this log).
        #expect(buffer.chunksRead < 20, "start-up read \(buffer.chunksRead) chunks of \(info.size / 512)")
        #expect(loaded.folded == (try fullReplay(log)))
        #expect(try SnapshotCheck.run(log: log, snapshots: log).isEmpty)
        // Every chunk is stored once, and a new snapshot replaces them.
        let chunks = try log.snapshotBytes(info)
        #expect(chunks?.count == info.size)
        #expect(try log.snapshotChunkSums(info)?.count == SnapshotChunks.count(size: info.size, chunkSize: 512) * 8)
    }

    /// Flips one byte on disk in a chunk that opening the snapshot does not read; returns the chunk.
    func damageLateChunk(_ log: SQLiteEventLog, _ info: SnapshotInfo, avoiding position: Int? = nil) throws -> Int {
        let probe = try StateLoader.load(log: log, snapshots: log).model
        let buffer = try #require(probe.snapshotBuffer)
        if let position { _ = probe.todo(at: position) }
        let chunks = SnapshotChunks.count(size: info.size, chunkSize: info.chunkSize)
        let chunk = try #require((chunks / 3 ..< chunks).first { !buffer.isLoaded($0) })
        let connection = try Connection(path: log.path, access: .readWrite)
        let statement = try connection.statement("UPDATE snapshot_chunks SET data = CAST(? AS BLOB) WHERE chunk = ? AND seq = ?")
        var data = try #require(try log.snapshotBytes(info))
        data = Array(data[chunk * info.chunkSize ..< min(data.count, (chunk + 1) * info.chunkSize)])
        data[data.count / 2] ^= 0x08
        try statement.bind(data, at: 1)
        try statement.bind(chunk, at: 2)
        try statement.bind(info.seq, at: 3)
        try statement.step()
        return chunk
    }

    @Test("a damaged chunk read after start-up: the dispatcher appends nothing and says so; verify reports it")
    func lateDamageBeforeCommit() throws {
        let (log, info) = try storeWithSnapshot(chunkSize: 512)
        let chunk = try damageLateChunk(log, info)
        let loaded = try StateLoader.load(log: log, snapshots: log)
        #expect(loaded.problems.isEmpty, "the damage is not in a chunk start-up reads")
        let head = try log.head()
        let dispatcher = Dispatcher(log: log, environment: .live(actor: "t", zone: .utc), loaded: loaded, snapshots: log)
        // A decision that reads every todo reaches the damaged chunk.
        #expect(throws: LateSnapshotDamage.self) {
            _ = try dispatcher.execute { state, _ in
                _ = state.todos.map(\.title)
                return try Decider.decide(.addTodo(TodoInput(title: "x")), state: state, context: Fixtures.context(ids: SequentialIDs()))
            }
        }
        #expect(try log.head() == head && !dispatcher.hasCommitted)
        #expect(loaded.model.snapshotBuffer?.damagedChunk == chunk)
        #expect(try SnapshotCheck.run(log: log, snapshots: log).map(\.kind) == [.checksumMismatch])
        // A fresh start that reads everything up front never uses the damaged snapshot.
        let eager = try StateLoader.load(log: log, snapshots: log, readAll: true)
        #expect(eager.snapshot == nil && eager.problems.map(\.kind) == [.checksumMismatch])
        #expect(eager.folded == (try fullReplay(log)))
    }

    @Test("a damaged chunk met while storing the next snapshot after a commit: the command stands, the snapshot comes from a replay")
    func lateDamageAfterCommit() throws {
        let (log, info) = try storeWithSnapshot(chunkSize: 512)
        _ = try damageLateChunk(log, info)
        let loaded = try StateLoader.load(log: log, snapshots: log)
        let dispatcher = Dispatcher(log: log, environment: .live(actor: "t", zone: .utc), loaded: loaded, snapshots: log, policy: SnapshotPolicy(tailThreshold: 1))
        var problems: [SnapshotProblem] = []
        dispatcher.onSnapshotProblem = { problems.append($0) }
        let outcome = try dispatcher.execute(.addTodo(TodoInput(title: "after the damage")))
        #expect(outcome.appended.count == 1 && dispatcher.hasCommitted && problems.isEmpty)
        let replayed = try fullReplay(log).model
        #expect(!outcome.state.isPoisoned && outcome.state == replayed)
        #expect(try log.snapshots().first?.seq == (try log.head()).seq)
        #expect(try log.snapshots().count == 1, "the damaged one is gone")
        #expect(try SnapshotCheck.run(log: log, snapshots: log).isEmpty)
    }

    @Test("a snapshot another process replaced or pruned after start-up is superseded, not damaged: no forged reason, and start-up passes over it")
    func supersededWhileRead() throws {
        for replace in [true, false] {
            let (log, _) = try storeWithSnapshot(chunkSize: replace ? 512 : 256)
            let replayed = try fullReplay(log).model
            let loaded = try StateLoader.load(log: log, snapshots: log)
            let buffer = try #require(loaded.model.snapshotBuffer)
            // Another process on the same file: stores a snapshot at the same position in other chunks
            // (what two commands at the same head do), or deletes them (what pruning to the newest two does).
            let other = try SQLiteEventLog.openForWriting(path: log.path, now: 1)
            if replace {
                try SnapshotWriter.write(try fullReplay(other), log: other, to: other, now: 5, chunkSize: 1024)
            } else {
                try other.deleteAllSnapshots()
            }
            other.close()
            // Lookups by id and reads of items reach the chunks that are gone.
            for todo in replayed.todos { _ = loaded.model.todos.position(of: todo.id) }
            _ = loaded.model.todos.map(\.title)
            #expect(buffer.isPoisoned, "the bytes are not there any more")
            #expect(buffer.superseded, replace ? "replaced" : "pruned")
            #expect(buffer.forgery == nil, "zeros read in place of a missing chunk are not a forgery: \(buffer.forgery ?? "")")
            #expect(SnapshotProblem.damage(of: buffer) == .checksumMismatch)
            // Start-up now reads the newer snapshot (or replays), with nothing to report.
            let again = try StateLoader.load(log: log, snapshots: log)
            #expect(again.problems.isEmpty && again.folded.model == replayed)
            #expect(again.snapshot?.chunkSize == (replace ? 1024 : nil))
        }
    }
}
