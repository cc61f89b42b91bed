import Foundation
import Testing
@testable import TallyEngine
import TallyDomain
@testable import TallySQLite
import TallyStores
import TallyTestSupport
@testable import TallyEssentials
@testable import TallyInterchange

/// The original activity files travel with their `record.logged` events, both ways.
@Suite("Sync carries the original activity files")
struct SyncBlobTests {
    let directory = TemporaryDirectory("tally-sync-blobs")
    let clock = TestClock()

    static func fixture(_ name: String) -> String {
        PackageFiles.url("Tests/Fixtures/activities/\(name)").path
    }

    /// Imports uncompressed fixtures (no inflating needed) as one command.
    func importFiles(_ replica: Replica, _ names: [String]) throws {
        replica.clock.advance(seconds: 60)
        struct NoGzip: Error {}
        let importer = ActivityImport(blobs: replica.log, zone: Fixtures.utc, inflate: { _, _ in throw NoGzip() }, progress: { _, _ in })
        let report = try importer.run(names.map(Self.fixture), dispatcher: try replica.dispatcher())
        #expect(report.imported.count == names.count && report.skipped.isEmpty)
    }

    /// Every stored file of a store, by name.
    func files(_ store: BlobStore) throws -> [String: Blob] {
        var result: [String: Blob] = [:]
        for name in try store.blobNames() { result[name] = try store.blob(name) }
        return result
    }

    /// The SHA-256 of each fixture's bytes.
    func names(_ fixtures: [String]) throws -> Set<String> {
        Set(try fixtures.map { SHA256.hex(SHA256.digest(Array(try Data(contentsOf: URL(fileURLWithPath: Self.fixture($0)))))) })
    }

    @Test("files pushed by one replica reach the shared log and another replica; a second sync moves nothing", arguments: SharedBackend.available)
    func filesTravel(backend: SharedBackend) throws {
        let shared = try backend.open(in: directory, now: clock.now)
        let sharedFiles: any BlobStore = shared
        let laptop = try Replica(directory, "laptop", clock: clock)
        let desktop = try Replica(directory, "desktop", clock: clock)
        let laptopFixtures = ["cerknicko-jezero.gpx", "fenix5-run.fit"]
        let desktopFixtures = ["korita-zbevnica.gpx"]
        try importFiles(laptop, laptopFixtures)
        try desktop.run(.addTodo(TodoInput(title: "offline")))
        try importFiles(desktop, desktopFixtures)

        let first = try laptop.sync(shared)
        #expect(first.filesPushed == 2 && first.filesPulled == 0)
        #expect(Set(try sharedFiles.blobNames()) == (try names(laptopFixtures)))
        // The desktop pulls the laptop's files while rebasing its own import, then pushes its file.
        let second = try desktop.sync(shared)
        #expect(second.filesPulled == 2 && second.filesPushed == 1)
        let third = try laptop.sync(shared)
        #expect(third.filesPulled == 1 && third.filesPushed == 0)

        let all = try names(laptopFixtures + desktopFixtures)
        let expected = try files(sharedFiles)
        #expect(Set(expected.keys) == all)
        for (name, blob) in expected {
            #expect(blob.encoding == .identity && SHA256.hex(SHA256.digest(blob.bytes)) == name)
        }
        // Compared as flags: a failure would otherwise print every byte.
        for replica in [laptop, desktop] {
            let same = try files(replica.log) == expected
            #expect(same, "\(replica.environment.actor)")
        }
        let tracked = try desktop.state.records.compactMap { $0.track?.sha256 }
        #expect(Set(tracked) == all)

        for replica in [laptop, desktop] {
            let again = try replica.sync(shared)
            #expect(again.isNoOp && again.filesPushed == 0 && again.filesPulled == 0)
        }
        let unchanged = try files(sharedFiles) == expected
        #expect(unchanged)
        #expect(try chainProblems(shared).isEmpty)
        for replica in [laptop, desktop] {
            #expect(try allEvents(replica.log) == (try allEvents(shared)))
            #expect(try chainProblems(replica.log).isEmpty)
        }
    }

    @Test("a push that loses the race stores no file; the retry stores each once")
    func failedPushStoresNothing() throws {
        let shared = try SQLiteEventLog.openForWriting(path: directory.path("shared.db"), now: clock.now)
        let laptop = try Replica(directory, "laptop", clock: clock)
        let desktop = try Replica(directory, "desktop", clock: clock)
        try importFiles(laptop, ["fenix5-walk.fit"])
        try desktop.run(.addTodo(TodoInput(title: "first")))
        var raced = false
        let report = try laptop.sync(shared) { step in
            // Between the laptop's pull and its push, the desktop pushes.
            guard step == "local", !raced else { return }
            raced = true
            try desktop.sync(shared)
            #expect(try shared.blobNames().isEmpty)
        }
        #expect(raced && report.filesPushed == 1)
        #expect(Set(try shared.blobNames()) == (try names(["fenix5-walk.fit"])))
        let same = try files(shared) == (try files(laptop.log))
        #expect(same)
    }

    @Test("a file that cannot be stored undoes its step: the push appends no event, the pull stores no event")
    func fileAndEventsCommitTogether() throws {
        let shared = try SQLiteEventLog.openForWriting(path: directory.path("shared.db"), now: clock.now)
        let laptop = try Replica(directory, "laptop", clock: clock)
        let desktop = try Replica(directory, "desktop", clock: clock)
        try importFiles(laptop, ["fenix2-run.fit"])
        let refuse = "CREATE TRIGGER refuse_blobs BEFORE INSERT ON blobs BEGIN SELECT RAISE(ABORT, 'no room'); END"
        try shared.connection.execute(refuse)
        #expect(throws: (any Error).self) { try laptop.sync(shared) }
        #expect(try shared.head() == .empty && shared.blobNames().isEmpty)
        try shared.connection.execute("DROP TRIGGER refuse_blobs")
        #expect(try laptop.sync(shared).filesPushed == 1)

        try desktop.log.connection.execute(refuse)
        #expect(throws: (any Error).self) { try desktop.sync(shared) }
        #expect(try desktop.log.head() == .empty && desktop.log.replicaState().synced == .empty)
        try desktop.log.connection.execute("DROP TRIGGER refuse_blobs")
        let pulled = try desktop.sync(shared)
        #expect(pulled.pulled == 1 && pulled.filesPulled == 1)
        #expect(try desktop.log.blobNames() == shared.blobNames())
    }
}
