import Foundation
import Testing
import TallyDomain
import TallyTestSupport

/// The read side of sync: a sync with nothing to do, a clone cut short, and what a clone stores.
@Suite("sync's read path: empty syncs, interrupted and byte-exact clones")
struct SyncReadPathTests {
    /// A file's bytes and modification time, to tell that nothing wrote to it.
    static func stamp(_ path: String) -> (Data?, Date?) {
        let attributes = try? FileManager.default.attributesOfItem(atPath: path)
        return (FileManager.default.contents(atPath: path), attributes?[.modificationDate] as? Date)
    }

    static func lastSync(_ runner: TallyRunner) -> String? {
        runner.run("--json", "remote", "show").json?.objectValue?["lastSync"]?.stringValue
    }

    /// A shared log of `events` generated events, imported by device 0 and pushed.
    static func fleet(_ kind: SharedLogKind, devices: [String], events: Int, seed: UInt64) throws -> Fleet {
        let fleet = Fleet(devices, kind: kind)
        var random = SeededRandom(seed: seed)
        let file = fleet[0].directory.path("history.jsonl")
        _ = try GeneratedExport(events: events, path: file, random: &random)
        let imported = fleet.run(0, at: "2026-11-21T09:00:00Z", "import", file)
        #expect(imported.status == 0, "\(imported.stderr)")
        let pushed = fleet.sync(0, at: "2026-11-21T09:01:00Z")
        #expect(pushed.status == 0, "\(pushed.stderr)")
        return fleet
    }

    @Test("a sync with nothing to do writes nothing on either side; its time is recorded at most once a minute", arguments: SharedLogKind.available)
    func emptySync(kind: SharedLogKind) throws {
        let fleet = Fleet(["laptop", "desktop"], kind: kind)
        fleet.run(0, at: "2026-11-21T09:00:00Z", "add", "Buy milk")
        fleet.run(0, at: "2026-11-21T09:00:01Z", "add", "Bread", "--tag", "shop")
        #expect(fleet.sync(0, at: "2026-11-21T09:01:00Z").stdout == "Pushed 2 events, pulled 0.\n")
        #expect(fleet.sync(1, at: "2026-11-21T09:01:10Z").stdout == "Pushed 0 events, pulled 2.\n")
        let recorded = Self.lastSync(fleet[0])
        #expect(recorded?.hasPrefix("2026-11-21T09:01:00") == true, "\(recorded ?? "nil")")
        let serverExport = fleet.export(fleet.server)
        for device in 0..<2 {
            let local = Self.stamp(fleet[device].databasePath)
            let shared = kind == .sqlite ? Self.stamp(fleet.shared) : (nil, nil)
            let result = fleet.sync(device, at: "2026-11-21T09:01:30Z")
            #expect(result.status == 0 && result.stdout == "Pushed 0 events, pulled 0.\n", "\(result.stdout)\(result.stderr)")
            #expect(result.stderr.isEmpty, "\(result.stderr)")
            let after = Self.stamp(fleet[device].databasePath)
            #expect(after.0 == local.0 && after.1 == local.1, "device \(device): the local file was written")
            if kind == .sqlite {
                let sharedAfter = Self.stamp(fleet.shared)
                #expect(sharedAfter.0 == shared.0 && sharedAfter.1 == shared.1, "the shared file was written")
            }
            #expect(fleet[device].eventCount == 2)
        }
        #expect(Self.lastSync(fleet[0]) == recorded, "a sync within the minute keeps the recorded time")
        #expect(fleet.export(fleet.server) == serverExport && fleet.server.eventCount == 2)
        // Two minutes later the time is recorded again, and nothing else changes.
        let later = fleet.sync(0, at: "2026-11-21T09:03:30Z")
        #expect(later.status == 0 && later.stdout == "Pushed 0 events, pulled 0.\n")
        #expect(Self.lastSync(fleet[0])?.hasPrefix("2026-11-21T09:03:30") == true, "\(Self.lastSync(fleet[0]) ?? "nil")")
        #expect(fleet.export(fleet[0]) == serverExport && fleet.export(fleet[1]) == serverExport)
        #expect(fleet[0].run("verify").status == 0 && fleet[1].run("verify").status == 0)
        // An unpushed event makes it a sync with something to do again.
        fleet.run(1, at: "2026-11-21T09:04:00Z", "add", "Eggs")
        #expect(fleet.sync(1, at: "2026-11-21T09:04:10Z").stdout == "Pushed 1 event, pulled 0.\n")
        #expect(fleet.sync(0, at: "2026-11-21T09:04:20Z").stdout == "Pushed 0 events, pulled 1.\n")
    }

    @Test("a clone stores the shared log's events byte for byte, and so does a later pull", arguments: SharedLogKind.available)
    func byteForByte(kind: SharedLogKind) throws {
        let fleet = try Self.fleet(kind, devices: ["ada", "bob"], events: 9_000, seed: 28)
        let clone = fleet.sync(1, at: "2026-11-21T09:02:00Z", json: true)
        #expect(clone.status == 0, "\(clone.stderr)")
        #expect(clone.json?.objectValue?["pulled"]?.intValue == fleet.server.eventCount)
        let shared = fleet.export(fleet.server)
        #expect(!shared.isEmpty && fleet.export(fleet[1]) == shared)
        // More on the shared log: the pull appends exactly those.
        for index in 0..<5 { fleet.run(0, at: "2026-11-21T09:03:0\(index)Z", "add", "More \(index)") }
        #expect(fleet.sync(0, at: "2026-11-21T09:04:00Z").stdout == "Pushed 5 events, pulled 0.\n")
        #expect(fleet.sync(1, at: "2026-11-21T09:05:00Z").stdout == "Pushed 0 events, pulled 5.\n")
        #expect(fleet.export(fleet[1]) == fleet.export(fleet.server))
        #expect(fleet[1].run("verify").status == 0 && fleet[1].run("verify", "--remote").status == 0)
    }

    @Test("a clone killed at any moment leaves an empty replica or a whole one; the next sync finishes it", arguments: SharedLogKind.available)
    func interruptedClone(kind: SharedLogKind) throws {
        let fleet = try Self.fleet(kind, devices: ["ada"], events: 6_000, seed: 29)
        let shared = fleet.export(fleet.server)
        let total = fleet.server.eventCount
        // How long a whole clone takes here, to kill others at fractions of it.
        let probe = TallyRunner()
        probe.environment["TALLY_NOW"] = "2026-11-21T10:00:00Z"
        let whole = KillableRun.run(probe, ["sync", "--remote", fleet.shared], killAfter: nil)
        #expect(whole.end == .exited(0), "\(whole.stderr)")
        #expect(probe.eventCount == total)
        var partial = 0
        // The fractions of a whole clone, then shorter ones until a kill lands before the clone ends: the
        // probe is the first run (cold caches), so on a quiet machine the later clones can be quicker
        // than every fraction of it.
        var fractions = [0.1, 0.3, 0.5, 0.7, 0.9]
        var shorter = 0.05
        while let fraction = fractions.first {
            fractions.removeFirst()
            if fractions.isEmpty, partial == 0, shorter > 0.001 {
                fractions.append(shorter)
                shorter /= 2
            }
            let replica = TallyRunner()
            replica.environment["TALLY_NOW"] = "2026-11-21T10:00:00Z"
            let run = KillableRun.run(replica, ["sync", "--remote", fleet.shared], killAfter: whole.seconds * fraction)
            let count = replica.eventCount
            #expect(count <= 0 || count == total, "fraction \(fraction): \(count) of \(total) events stored")
            if run.end == .killed, count <= 0 { partial += 1 }
            if FileManager.default.fileExists(atPath: replica.databasePath) {
                #expect(replica.run("verify").status == 0, "fraction \(fraction)")
                let state = replica.run("--json", "remote", "show").json?.objectValue
                let synced = state?["synced"]?.objectValue?["seq"]?.intValue ?? -1
                #expect(synced == 0 || synced == total, "fraction \(fraction): synced up to \(synced)")
            }
            let again = replica.run(["sync", "--remote", fleet.shared])
            #expect(again.status == 0, "fraction \(fraction): \(again.stderr)")
            #expect(replica.export() == shared, "fraction \(fraction)")
        }
        #expect(partial > 0, "no clone was cut short")
    }
}

extension TallyRunner {
    func export() -> String { run("export").stdout }
}
