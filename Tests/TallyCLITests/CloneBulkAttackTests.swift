import Foundation
import Testing
import TallyDomain
@testable import TallySQLite
import TallyTestSupport

/// A clone into an empty replica appends with the replica's uniqueness indexes dropped and builds
/// them before it commits (migration 0009). A shared log that repeats an event id, or a stream's
/// version, inside the one bulk batch is refused as the row-by-row path refused it, and a clone
/// killed at any moment leaves no replica that looks complete and none without its indexes.
@Suite("clones with deferred indexes: duplicates in the bulk batch, kills", .serialized)
struct CloneBulkAttackTests {
    /// Events in the shared log: above the size at which a pull defers the indexes.
    static let events = Int(SQLiteEventLog.deferredPullMinimum) + 500

    /// What the forged event repeats of an earlier one.
    enum Repeat: String, CaseIterable, CustomStringConvertible {
        case id, streamVersion, both
        var description: String { rawValue }
    }

    static func fleet(seed: UInt64) throws -> Fleet {
        let fleet = Fleet(["ada", "bob"])
        var random = SeededRandom(seed: seed)
        let file = fleet[0].directory.path("history.jsonl")
        _ = try GeneratedExport(events: events, path: file, random: &random)
        let imported = fleet.run(0, at: "2026-11-21T09:00:00Z", "import", file)
        #expect(imported.status == 0, "\(imported.stderr)")
        #expect(fleet.sync(0, at: "2026-11-21T09:01:00Z").status == 0)
        return fleet
    }

    static func indexes(_ path: String) throws -> [String] {
        let connection = try Connection(path: path, access: .readOnly)
        defer { connection.close() }
        let statement = try connection.statement("SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = 'events' ORDER BY name")
        var names: [String] = []
        while try statement.step() { names.append(statement.string(at: 0)) }
        statement.reset()
        return names
    }

    /// Appends to the shared file, with its indexes dropped as its owner can, a copy of an earlier
    /// event repeating what `kind` says, correctly chained; returns the error the clone must give.
    static func forge(_ shared: String, _ kind: Repeat, at position: Int64) throws -> String {
        let log = try SQLiteEventLog.openForWriting(path: shared, now: Fixtures.epoch)
        defer { log.close() }
        try log.connection.execute("DROP INDEX events_id; DROP INDEX events_stream_version")
        let head = try log.head()
        var earlier: EventEnvelope?
        try log.scan(after: position - 1, through: position) { earlier = $0 }
        var forged = try #require(earlier)
        let message: String
        switch kind {
        case .id:
            forged.stream = "0f0f0f0f-0000-4000-8000-000000000001"
            forged.version = 1
            message = "Error: An event with id \(forged.id) is already in the log.\n"
        case .streamVersion:
            forged.id = "0f0f0f0f-0000-4000-8000-000000000002"
            message = "Error: Another change to \(forged.stream) (version \(forged.version)) was written at the same time; nothing was changed. Try again.\n"
        case .both:
            message = "Error: Another change to \(forged.stream) (version \(forged.version)) was written at the same time; nothing was changed. Try again.\n"
        }
        forged.seq = head.seq + 1
        forged.hash = EventHash.link(previous: head.hash, forged)
        try log.write { try log.append([forged]) }
        return message
    }

    @Test("a shared log repeating an id or a stream version is refused by the clone, which stores nothing", arguments: Repeat.allCases)
    func duplicateInBulkBatch(_ kind: Repeat) throws {
        let fleet = try Self.fleet(seed: 2801)
        let message = try Self.forge(fleet.shared, kind, at: 40)
        let shared = fleet.export(fleet.server)
        let clone = fleet.sync(1, at: "2026-11-21T10:00:00Z")
        #expect(clone.status == 1, "\(kind): \(clone.stdout)\(clone.stderr)")
        #expect(clone.stderr == message, "\(kind)")
        #expect(fleet[1].eventCount <= 0, "\(kind): the replica holds events")
        if FileManager.default.fileExists(atPath: fleet[1].databasePath) {
            #expect(try Self.indexes(fleet[1].databasePath) == ["events_id", "events_stream_version"])
            #expect(fleet[1].run("verify").status == 0)
        }
        #expect(fleet.export(fleet.server) == shared, "the shared log is left as it was")
        // The device that already holds the log refuses the same event on its next pull, row by row.
        let pull = fleet.sync(0, at: "2026-11-21T10:01:00Z")
        #expect(pull.status == 1 && pull.stderr == message, "\(kind): \(pull.stderr)")
    }

    @Test("a replica with unpushed work pulls a long log by the bulk path, rebases its work on top and pushes it")
    func longPullWithUnpushedWork() throws {
        let fleet = try Self.fleet(seed: 2803)
        let total = fleet.server.eventCount
        for index in 0..<3 { #expect(fleet.run(1, at: "2026-11-21T09:30:0\(index)Z", "add", "Offline \(index)").status == 0) }
        let sync = fleet.sync(1, at: "2026-11-21T10:00:00Z", json: true)
        #expect(sync.status == 0, "\(sync.stderr)")
        #expect(sync.json?.objectValue?["pulled"]?.intValue == total && sync.json?.objectValue?["pushed"]?.intValue == 3)
        #expect(fleet.export(fleet[1]) == fleet.export(fleet.server))
        #expect(fleet.server.eventCount == total + 3)
        #expect(try Self.indexes(fleet[1].databasePath) == ["events_id", "events_stream_version"])
        #expect(fleet[1].run("verify").status == 0 && fleet[1].run("verify", "--remote").status == 0)
        // The replica's own rules hold after the rebuild: a later pull of the three is stored once.
        #expect(fleet.sync(0, at: "2026-11-21T10:01:00Z").stdout == "Pushed 0 events, pulled 3.\n")
        #expect(fleet.export(fleet[0]) == fleet.export(fleet.server))
    }

    @Test("a clone killed at any moment leaves an empty replica with both indexes, or a whole one")
    func killedClone() throws {
        let fleet = try Self.fleet(seed: 2802)
        let total = fleet.server.eventCount
        let probe = TallyRunner()
        let whole = KillableRun.run(probe, ["sync", "--remote", fleet.shared], killAfter: nil)
        #expect(whole.end == .exited(0), "\(whole.stderr)")
        #expect(try Self.indexes(probe.databasePath) == ["events_id", "events_stream_version"])
        var killed = 0
        for fraction in [0.2, 0.4, 0.6, 0.8, 0.95] {
            let replica = TallyRunner()
            let run = KillableRun.run(replica, ["sync", "--remote", fleet.shared], killAfter: whole.seconds * fraction)
            if run.end == .killed { killed += 1 }
            guard FileManager.default.fileExists(atPath: replica.databasePath) else { continue }
            // Read before any tally command touches the file: what the kill left.
            let names = try Self.indexes(replica.databasePath)
            #expect(names.isEmpty || names == ["events_id", "events_stream_version"], "fraction \(fraction): \(names)")
            let count = replica.eventCount
            #expect(count <= 0 || count == total, "fraction \(fraction): \(count) of \(total) events stored")
            if count > 0 || names.count == 2 {
                #expect(names == ["events_id", "events_stream_version"], "fraction \(fraction): a replica with events lacks its indexes")
            }
            #expect(replica.run("verify").status == 0, "fraction \(fraction)")
            let again = replica.run(["sync", "--remote", fleet.shared])
            #expect(again.status == 0, "fraction \(fraction): \(again.stderr)")
            #expect(replica.eventCount == total)
            #expect(try Self.indexes(replica.databasePath) == ["events_id", "events_stream_version"])
        }
        #expect(killed > 0, "no clone was cut short")
    }
}
