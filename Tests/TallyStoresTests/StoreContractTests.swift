import Foundation
import Testing
import TallyDomain
import TallyEngine
import TallyPostgres
import TallySQLite
import TallyTestSupport

// The contract lives in this one target rather than as shared cases in TallyTestSupport: this is the
// test target of TallyStores, the module that knows which backends exist, so it is the one place that
// may depend on all of them (and on TallyEngine's InMemoryStore). One parameterised suite then runs
// every case against every backend and reports each pair on its own line; shared cases in the support
// library would need Swift Testing in a library target and a wrapper suite per backend target.

/// A backend of the ports, opened empty for each case.
enum ContractBackend: String, CustomStringConvertible, CaseIterable, Sendable {
    case memory, sqlite, postgresql

    var description: String { rawValue }

    /// The backends this machine can run: PostgreSQL when the throw-away cluster is up, and always under
    /// `CI=true` (where a cluster that cannot start fails the run instead of skipping it).
    static var available: [ContractBackend] {
        PostgresTestServer.isEnabled ? [.memory, .sqlite, .postgresql] : [.memory, .sqlite]
    }

    /// A fresh, empty store.
    func open(in directory: TemporaryDirectory) throws -> any EventStore {
        switch self {
        case .memory: InMemoryStore()
        case .sqlite: try SQLiteEventLog.openForWriting(path: directory.path("contract-\(UUID().uuidString).db"), now: 1)
        case .postgresql:
            try PostgresEventLog.openForWriting(conninfo: PostgresTestServer.shared().makeDatabase("contract"), now: 1, lockTimeout: 5_000)
        }
    }
}

/// The rules of the ports (EventLog, SnapshotStore, BlobStore) every store keeps, whatever holds it.
/// Backend-specific behaviour (files, WAL, locks, roles, URIs) is tested beside each backend.
@Suite("Store contract: every backend keeps the rules of the ports")
struct StoreContractTests {
    let directory = TemporaryDirectory("tally-contract")

    /// What the store reads back for events it was given: the same, with the role it records as appender.
    static func stored(_ events: [EventEnvelope], by store: any EventStore) -> [EventEnvelope] {
        events.map { event in
            var event = event
            event.role = store.appendingRole
            return event
        }
    }

    static func all(_ store: any EventStore) throws -> [EventEnvelope] {
        var events: [EventEnvelope] = []
        try store.scan(after: 0, through: nil) { events.append($0) }
        return events
    }

    static func blob(_ text: String, encoding: BlobEncoding = .identity) -> Blob {
        Blob(sha256: String(repeating: text.first.map { String($0) } ?? "0", count: 64), encoding: encoding, bytes: Array(text.utf8))
    }

    @Test("an empty store has the empty head and nothing to read", arguments: ContractBackend.available)
    func empty(backend: ContractBackend) throws {
        let store = try backend.open(in: directory)
        defer { store.close() }
        #expect(try store.head() == .empty)
        #expect(try Self.all(store).isEmpty)
        #expect(try store.events(inStream: "s1").isEmpty)
        #expect(try store.lastVersion(ofStream: "s1") == 0)
        #expect(try store.event(id: "e0000000-0000-4000-8000-000000000001") == nil)
        var backward = 0
        try store.scanBackward(before: nil) { _ in backward += 1; return true }
        #expect(backward == 0)
        #expect(try store.snapshots().isEmpty)
        #expect(try store.blobNames().isEmpty)
    }

    @Test("appended events read back identically: in order, by range, per stream, by id, backwards", arguments: ContractBackend.available)
    func appendAndRead(backend: ContractBackend) throws {
        let store = try backend.open(in: directory)
        defer { store.close() }
        var factory = EventFactory()
        let given = [
            factory.make(.todoCreated(TodoFields(title: "Buy milk", tags: ["shop"], note: "é ✓ \"quoted\" \\ back\tslash")), stream: "s1"),
            factory.make(.todoCreated(TodoFields(title: "Other")), stream: "s2"),
            factory.make(.todoCompleted, stream: "s1"),
        ]
        try store.write { try store.append(given) }
        let events = Self.stored(given, by: store)
        #expect(try Self.all(store) == events)
        #expect(try store.head() == LogHead(seq: 3, hash: events[2].hash))
        var range: [Int64] = []
        try store.scan(after: 1, through: 2) { range.append($0.seq) }
        #expect(range == [2])
        #expect(try store.events(inStream: "s1") == [events[0], events[2]])
        #expect(try store.events(inStream: "nobody").isEmpty)
        #expect(try store.event(id: events[1].id) == events[1])
        #expect(try store.event(id: "e0000000-0000-4000-8000-0000000000ff") == nil)
        #expect(try store.lastVersion(ofStream: "s1") == 2)
        #expect(try store.lastVersion(ofStream: "s2") == 1)
        var backward: [Int64] = []
        try store.scanBackward(before: 3) { backward.append($0.seq); return true }
        #expect(backward == [2, 1])
        var newest: [Int64] = []
        try store.scanBackward(before: nil) { newest.append($0.seq); return false }
        #expect(newest == [3], "scanBackward stops when its body returns false")
        var folded: [String] = []
        try store.scanForFold(after: 1, through: nil) { folded.append(String(decoding: $0.data, as: UTF8.self)) }
        #expect(folded == [events[1].data, events[2].data])
        // Appended later, in a second write: the log continues.
        let more = factory.make(.todoCompleted, stream: "s2")
        try store.write { try store.append([more]) }
        #expect(try store.head() == LogHead(seq: 4, hash: more.hash))
        #expect(try store.lastVersion(ofStream: "s2") == 2)
    }

    @Test("a taken (stream, version) is a typed conflict and nothing of the batch is appended", arguments: ContractBackend.available)
    func conflict(backend: ContractBackend) throws {
        let store = try backend.open(in: directory)
        defer { store.close() }
        var factory = EventFactory()
        let first = factory.make(.todoCreated(TodoFields(title: "a")), stream: "s1")
        try store.write { try store.append([first]) }
        let fine = factory.make(.todoCompleted, stream: "s2")
        var other = EventFactory()
        var clash = other.make(.todoCreated(TodoFields(title: "b")), stream: "s1")
        clash.seq = 3
        clash.id = "e0000000-0000-4000-8000-0000000000ff"
        clash.hash = EventHash.link(previous: fine.hash, clash)
        #expect(throws: EventLogError.conflict(stream: "s1", version: 1)) {
            try store.write { try store.append([fine, clash]) }
        }
        #expect(try store.head() == LogHead(seq: 1, hash: first.hash))
        #expect(try store.event(id: fine.id) == nil)
        #expect(try store.lastVersion(ofStream: "s2") == 0)
        // The store stays writable: the event that did not clash goes in on its own.
        try store.write { try store.append([fine]) }
        #expect(try store.head().seq == 2)
    }

    @Test("an id already in the log is refused with its own error and nothing is appended", arguments: ContractBackend.available)
    func duplicateID(backend: ContractBackend) throws {
        let store = try backend.open(in: directory)
        defer { store.close() }
        var factory = EventFactory()
        let first = factory.make(.todoCreated(TodoFields(title: "a")), stream: "s1")
        try store.write { try store.append([first]) }
        var sameID = factory.make(.todoCompleted, stream: "s1")
        sameID.id = first.id
        sameID.hash = EventHash.link(previous: first.hash, sameID)
        #expect(throws: EventLogError.duplicateEventID(first.id)) {
            try store.write { try store.append([sameID]) }
        }
        #expect(try Self.all(store) == Self.stored([first], by: store))
        #expect(try store.lastVersion(ofStream: "s1") == 1)
    }

    @Test("a write whose body throws keeps nothing of it: events, files or snapshots; the store stays writable", arguments: ContractBackend.available)
    func allOrNothing(backend: ContractBackend) throws {
        struct Boom: Error {}
        let store = try backend.open(in: directory)
        defer { store.close() }
        var factory = EventFactory()
        let events = [factory.make(.todoCreated(TodoFields(title: "a")), stream: "s1"), factory.make(.todoCompleted, stream: "s1")]
        #expect(throws: Boom.self) {
            try store.write {
                try store.append(events)
                try store.putBlob(Self.blob("a-file"))
                try store.saveSnapshot(SnapshotInfo(seq: 2, format: 1, reducerVersion: 1, createdAt: 0, checksum: "c", size: 2, chunkSize: 2),
                                       body: [1, 2], chunkSums: [], keep: 2)
                #expect(try store.head().seq == 2, "inside the write its own appends are visible")
                throw Boom()
            }
        }
        #expect(try store.head() == .empty)
        #expect(try store.event(id: events[0].id) == nil)
        #expect(try store.blobNames().isEmpty)
        #expect(try !store.containsBlob(Self.blob("a-file").sha256))
        #expect(try store.snapshots().isEmpty)
        let result = try store.write { () throws -> Int in
            try store.append(events)
            return 7
        }
        #expect(result == 7, "write returns its body's result")
        #expect(try Self.all(store) == Self.stored(events, by: store))
    }

    @Test("bulkWrite appends many events as one transaction: all of them, or none on a thrown error", arguments: ContractBackend.available)
    func bulkWrite(backend: ContractBackend) throws {
        struct Abort: Error {}
        let store = try backend.open(in: directory)
        defer { store.close() }
        var generator = LogGenerator(seed: 23)
        let events = generator.events(300)
        #expect(throws: Abort.self) {
            try store.bulkWrite {
                try store.append(Array(events[..<150]))
                try store.append(Array(events[150...]))
                throw Abort()
            }
        }
        #expect(try store.head() == .empty)
        let count = try store.bulkWrite { () throws -> Int in
            try store.append(Array(events[..<150]))
            try store.append(Array(events[150...]))
            return events.count
        }
        #expect(count == 300)
        #expect(try Self.all(store) == Self.stored(events, by: store))
        #expect(try store.head() == LogHead(seq: 300, hash: events[299].hash))
    }

    @Test("snapshots are saved in chunks, read chunk by chunk, replaced, pruned to the newest kept and deleted", arguments: ContractBackend.available)
    func snapshots(backend: ContractBackend) throws {
        let store = try backend.open(in: directory)
        defer { store.close() }
        func info(_ seq: Int64, format: Int = 1, size: Int = 5) -> SnapshotInfo {
            SnapshotInfo(seq: seq, format: format, reducerVersion: 3, createdAt: seq * 10, checksum: "c\(seq)", size: size, chunkSize: 2)
        }
        try store.saveSnapshot(info(1), body: [0, 1, 2, 255, 4], chunkSums: [1], keep: 2)
        try store.saveSnapshot(info(2), body: [9, 9, 9, 9, 9], chunkSums: [2], keep: 2)
        try store.saveSnapshot(info(3), body: [7, 0, 7, 0, 5], chunkSums: [3, 3], keep: 2)
        #expect(try store.snapshots() == [info(3), info(2)], "newest first, only the two newest kept")
        #expect(try store.snapshotBytes(info(3)) == [7, 0, 7, 0, 5])
        #expect(try store.snapshotChunkSums(info(3)) == [3, 3])
        #expect(try store.snapshotChunkSums(info(1)) == nil)
        // Each chunk on its own, the last one shorter; a wrong length or a missing chunk reads as false.
        var two = [UInt8](repeating: 0, count: 2)
        #expect(try two.withUnsafeMutableBytes { try store.readSnapshotChunk(info(3), index: 1, into: $0) })
        #expect(two == [7, 0])
        var one = [UInt8](repeating: 0, count: 1)
        #expect(try one.withUnsafeMutableBytes { try store.readSnapshotChunk(info(3), index: 2, into: $0) })
        #expect(one == [5])
        #expect(try !two.withUnsafeMutableBytes { try store.readSnapshotChunk(info(3), index: 2, into: $0) })
        #expect(try !two.withUnsafeMutableBytes { try store.readSnapshotChunk(info(3), index: 3, into: $0) })
        #expect(try store.snapshotBytes(info(1)) == nil)
        // Saving at the same position replaces the snapshot and its chunks.
        try store.saveSnapshot(info(3, size: 3), body: [1, 1, 1], chunkSums: [4], keep: 2)
        #expect(try store.snapshots() == [info(3, size: 3), info(2)])
        #expect(try store.snapshotBytes(info(3, size: 3)) == [1, 1, 1])
        // Another format (or reducer version) removes every snapshot of the old one.
        try store.saveSnapshot(info(4, format: 2, size: 4), body: [1, 2, 3, 4], chunkSums: [], keep: 2)
        #expect(try store.snapshots() == [info(4, format: 2, size: 4)])
        #expect(try !two.withUnsafeMutableBytes { try store.readSnapshotChunk(info(2), index: 0, into: $0) })
        try store.deleteAllSnapshots()
        #expect(try store.snapshots().isEmpty)
        #expect(try !two.withUnsafeMutableBytes { try store.readSnapshotChunk(info(4, format: 2, size: 4), index: 0, into: $0) })
    }

    @Test("blobs are stored once by name, listed sorted, and a second put of a name changes nothing", arguments: ContractBackend.available)
    func blobs(backend: ContractBackend) throws {
        let store = try backend.open(in: directory)
        defer { store.close() }
        let gpx = Self.blob("b<gpx/>"), fit = Self.blob("a.FIT", encoding: .gzip)
        try store.putBlob(gpx)
        try store.putBlob(fit)
        try store.putBlob(Blob(sha256: gpx.sha256, encoding: .gzip, bytes: [1, 2, 3]))
        #expect(try store.blob(gpx.sha256) == gpx, "the first copy stays: blobs are never replaced")
        #expect(try store.blob(fit.sha256) == fit)
        #expect(try store.containsBlob(fit.sha256) && !store.containsBlob(String(repeating: "0", count: 64)))
        #expect(try store.blob(String(repeating: "0", count: 64)) == nil)
        #expect(try store.blobNames() == [fit.sha256, gpx.sha256])
        // Inside a write that commits, the file is kept with the events.
        var factory = EventFactory()
        let event = factory.make(.todoCreated(TodoFields(title: "a")), stream: "s1")
        let kept = Self.blob("c-kept")
        try store.write {
            try store.append([event])
            try store.putBlob(kept)
            try store.putBlob(kept)
        }
        #expect(try store.blobNames() == [fit.sha256, gpx.sha256, kept.sha256])
        #expect(try store.blob(kept.sha256) == kept)
    }
}
