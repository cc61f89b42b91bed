import Foundation
import Testing
import TallyEngine
@testable import TallyCLI
import TallyDomain
import TallySQLite
import TallyTestSupport

@Suite("A full disk, end to end")
struct DiskFullCommandTests {
    static let english = "Error: The disk is full: there is no room to write the database or its journal, so nothing was added to the log. Free some space and try again.\n"
    static let czech = "Chyba: Disk je plný: pro databázi ani její žurnál není místo, takže se do logu nic nepřidalo. Uvolněte místo a zkuste to znovu.\n"

    @Test("a full disk is exit 74 with its own message and code; a snapshot it stops is reported as such, not as unreadable")
    func messages() {
        let failure = FailureMapper.failure(for: EventLogError.full, catalog: .english)
        #expect(failure.exit == .ioError && failure.code == "disk_full")
        #expect("Error: \(failure.message)\n" == Self.english)
        #expect("Chyba: \(FailureMapper.failure(for: EventLogError.full, catalog: Catalog(language: .czech)).message)\n" == Self.czech)
        #expect(SnapshotMessages.reason(.notStored(.full), catalog: .english) == "the disk is full")
        #expect(SnapshotMessages.reason(.notStored(.full), catalog: Catalog(language: .czech)) == "disk je plný")
        #expect(SnapshotMessages.reason(.notStored(.busy), catalog: .english) == "the database stayed busy")
        #expect(SnapshotMessages.reason(.notStored(.io("no permission")), catalog: .english) == "the database refused it (no permission)")
    }

    @Test(
        "on a real full disk: a command fails with exit 74 and appends nothing; with room for its event but not its snapshot it succeeds with a warning; with room again everything works",
        .enabled(if: SmallDisk.available, "mounting a tmpfs needs root")
    )
    func realDisk() throws {
        let disk = try SmallDisk(kilobytes: 4096)
        let tally = disk.runner()
        var random = SeededRandom(seed: 7)
        let seed = tally.directory.path("seed.jsonl")
        // One event short of the snapshot threshold, so the import stores none and the next add is due to.
        _ = try GeneratedExport(events: 999, path: seed, random: &random)
        #expect(tally.run("import", seed).status == 0)
        let events = tally.eventCount

        try disk.fill()
        let add = tally.run("add", "no room")
        #expect(add.status == 74 && add.stdout == "")
        #expect(add.stderr == Self.english)
        #expect(tally.run(["--json", "add", "no room"]).stderr.contains(#""code":"disk_full""#))
        #expect(tally.run(["add", "no room"], environment: ["LANG": "cs_CZ.UTF-8"]).stderr == Self.czech)
        #expect(tally.run("verify").status == 0)
        #expect(tally.eventCount == events)

        // Room for one event but not for a snapshot of the whole log: found by growing the room a page at a time.
        var warned = false
        for room in stride(from: 4096, through: 65_536, by: 4096) where !warned {
            try disk.fill(leaving: room)
            let result = tally.run("add", "room \(room)")
            if result.status == 0 {
                let seq = tally.eventCount
                #expect(result.stderr == "Warning: Could not store a snapshot at @\(seq): the disk is full. The command itself succeeded; a later one tries again.\n")
                warned = true
            } else {
                #expect(result.status == 74 && result.stderr == Self.english, "room \(room): \(result.stderr)")
            }
        }
        #expect(warned, "no room left space for the event and not for the snapshot")

        disk.free()
        let again = tally.run("add", "room again")
        #expect(again.status == 0 && again.stderr == "")
        let info = tally.run("info", "--json").json?.objectValue
        #expect(info?["snapshot"]?.objectValue?["seq"] == info?["events"])
        #expect(tally.run("verify").status == 0)
    }

    @Test(
        "on a full disk a read needs room for SQLite's index file when none is left over: it says the disk is full",
        .enabled(if: SmallDisk.available, "mounting a tmpfs needs root")
    )
    func readOnFullDisk() throws {
        let disk = try SmallDisk(kilobytes: 1024)
        let tally = disk.runner()
        tally.run("add", "first")
        // Closing the last connection checkpoints the log and removes its -wal and -shm files.
        _ = try SQLiteEventLog.openForWriting(path: disk.path("tally.db"), now: 0)
        #expect(!FileManager.default.fileExists(atPath: disk.path("tally.db-shm")))

        try disk.fill()
        let list = tally.run("list")
        #expect(list.status == 74 && list.stderr == Self.english)
        disk.free()
        #expect(tally.run("list").status == 0)
        #expect(tally.eventCount == 1)
    }
}
