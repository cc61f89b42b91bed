import Foundation
import Testing
import TallyStores
@testable import TallyEngine
@testable import TallyDomain
@testable import TallySQLite
import TallyTestSupport

/// One forged snapshot: a real one with one value made hostile, sealed with valid checksums.
struct SnapshotForgeryCase: Sendable, CustomTestStringConvertible {
    let name: String
    let forge: @Sendable (String) throws -> Void
    /// Commands that read the forged value, so they must warn (the others may not read it at all).
    let reads: [[String]]

    var testDescription: String { name }
}

/// A snapshot is a cache, never the truth: a body with valid checksums but forged content makes
/// every command answer from the events, exactly as without a snapshot, with one warning, no trap,
/// and nothing appended beyond the command's own events; `verify` reports the snapshot.
@Suite("Forged snapshots with valid checksums, end to end", .tags(.postgresql))
struct SnapshotForgeryAttackTests {
    /// The title of the todo the forgeries aim at (number 3, open, shown by `list`).
    static let marker = "PRIO-MARK"

    static let todoReads = [["list"], ["show", "3"], ["log"]]
    static let recordReads = [["record", "export"], ["stats"]]
    static let allRead = commands

    /// Every command run on each forged store (reads first, then one write).
    static let commands: [[String]] = [
        ["list"], ["--json", "list"], ["list", "--limit", "2"], ["list", "--sort", "due"], ["list", "--waiting"], ["show", "1"], ["show", "3"], ["show", "2"], ["log"], ["stats"],
        ["record", "list"], ["record", "bests"], ["record", "export"], ["info"],
    ]

    static let cases: [SnapshotForgeryCase] = [
        SnapshotForgeryCase(name: "an item that does not decode", forge: { path in
            try SnapshotForgery.bytes(path) { body, _ in
                let at = try #require(SnapshotForgery.find(marker, in: body)) + marker.utf8.count
                body[at + 1] = 5 // the priority's presence byte
            }
        }, reads: todoReads),
        SnapshotForgeryCase(name: "a priority rank of 9 in the item", forge: { path in
            try SnapshotForgery.bytes(path) { body, _ in
                let at = try #require(SnapshotForgery.find(marker, in: body)) + marker.utf8.count
                body[at + 2] = 9
            }
        }, reads: todoReads),
        SnapshotForgeryCase(name: "a priority rank of 9 in the summary row", forge: { path in
            try SnapshotForgery.bytes(path) { body, layout in body[layout.summaries + 2 * 26 + 1] = 9 }
        }, reads: [["list"], ["list", "--limit", "2"], ["list", "--sort", "due"]]),
        SnapshotForgeryCase(name: "a due time of Int64.min", forge: { path in
            try SnapshotForgery.model(path) { $0.todos[2].due = .instant(.min) }
        }, reads: todoReads),
        SnapshotForgeryCase(name: "a due time of Int64.max", forge: { path in
            try SnapshotForgery.model(path) { $0.todos[2].due = .instant(.max) }
        }, reads: todoReads),
        SnapshotForgeryCase(name: "a creation time of Int64.max", forge: { path in
            try SnapshotForgery.model(path) { $0.todos[2].createdAt = .max }
        }, reads: todoReads),
        SnapshotForgeryCase(name: "a completion time of Int64.min", forge: { path in
            try SnapshotForgery.model(path) { $0.todos[0].completedAt = .min }
        }, reads: [["list"], ["show", "1"]]),
        SnapshotForgeryCase(name: "a stream version of Int.max", forge: { path in
            try SnapshotForgery.model(path) { $0.todos[2].version = .max }
        }, reads: todoReads),
        SnapshotForgeryCase(name: "a title containing ESC and NUL", forge: { path in
            try SnapshotForgery.model(path) { $0.todos[2].title = "PRIO\u{1B}[2J\u{0}MARK" }
        }, reads: todoReads),
        SnapshotForgeryCase(name: "a 600-character title", forge: { path in
            try SnapshotForgery.model(path) { $0.todos[2].title = String(repeating: "x", count: 600) }
        }, reads: todoReads),
        SnapshotForgeryCase(name: "a todo number that is not its place", forge: { path in
            try SnapshotForgery.model(path) { $0.todos[2].number = 9 }
        }, reads: todoReads),
        SnapshotForgeryCase(name: "a settings stream version of Int.max", forge: { path in
            try SnapshotForgery.model(path) { $0.settingsVersions["view.todos"] = .max }
        }, reads: allRead),
        SnapshotForgeryCase(name: "a waiting position out of range", forge: { path in
            try SnapshotForgery.bytes(path) { body, layout in
                #expect(layout.waiting == 1)
                body[layout.counts + 21] = 99
            }
        }, reads: allRead),
        SnapshotForgeryCase(name: "counts that exceed the items", forge: { path in
            try SnapshotForgery.bytes(path) { body, layout in body[layout.counts] = 200 }
        }, reads: allRead),
        SnapshotForgeryCase(name: "a record duration of Int.max", forge: { path in
            try SnapshotForgery.model(path) { $0.records[0].durationSeconds = .max }
        }, reads: recordReads),
        SnapshotForgeryCase(name: "a record date of Int64.min", forge: { path in
            try SnapshotForgery.model(path) { $0.records[0].date = .min }
        }, reads: recordReads),
        SnapshotForgeryCase(name: "a distance of NaN", forge: { path in
            try SnapshotForgery.model(path) { $0.records[0].distanceMeters = .nan }
        }, reads: recordReads),
        SnapshotForgeryCase(name: "a track climb of infinity", forge: { path in
            try SnapshotForgery.model(path) { $0.records[1].track?.elevationGainMeters = .infinity }
        }, reads: [["record", "export"]]),
        SnapshotForgeryCase(name: "a best effort of -1 seconds", forge: { path in
            try SnapshotForgery.model(path) { $0.records[1].track?.bestEfforts = [TrackEffort(meters: 100, seconds: -1)] }
        }, reads: [["record", "export"]]),
        SnapshotForgeryCase(name: "a row claiming a 64 TB body in one chunk", forge: { path in
            try SnapshotForgery.claim(path, size: 64 << 40, chunkSize: 64 << 40)
        }, reads: allRead),
        SnapshotForgeryCase(name: "a row claiming a 1 TB body in 16 MiB chunks", forge: { path in
            try SnapshotForgery.claim(path, size: 1 << 40, chunkSize: 1 << 24)
        }, reads: allRead),
    ]

    /// A store with todos (completed, waiting, with priorities), records (one with a track file)
    /// and a snapshot at its head; built once and copied for every case.
    static let template: String = {
        let tally = TallyRunner()
        tally.run("add", "Buy milk", "--tag", "shop", "--due", "2026-12-01", "--priority", "high")
        tally.run("add", "Dentist", "--wait", "2026-12-24")
        tally.run("add", marker, "--priority", "low")
        tally.run("done", "1")
        tally.run("record", "add", "Morning", "run", "--category", "running", "--duration", "27:30", "--distance", "5km")
        tally.run("record", "import", PackageFiles.url("Tests/Fixtures/activities/fenix5-run.fit").path)
        tally.run("snapshot")
        let kept = FileManager.default.temporaryDirectory.appendingPathComponent("tally-forgery-\(UUID().uuidString).db").path
        try? FileManager.default.copyItem(atPath: tally.databasePath, toPath: kept)
        return kept
    }()

    /// A fresh copy of the template; without `snapshots`, its snapshots deleted.
    static func copy(snapshots: Bool = true) throws -> TallyRunner {
        let tally = TallyRunner()
        try FileManager.default.copyItem(atPath: template, toPath: tally.databasePath)
        if !snapshots {
            let connection = try Connection(path: tally.databasePath, access: .readWrite)
            try connection.statement("DELETE FROM snapshot_chunks").step()
            try connection.statement("DELETE FROM snapshots").step()
        }
        return tally
    }

    static func head(_ tally: TallyRunner) throws -> Int64 {
        let log = try #require(try SQLiteEventLog.openForReading(path: tally.databasePath))
        defer { log.close() }
        return try log.head().seq
    }

    /// True when `stderr` is exactly one warning that the snapshot at @6 was ignored and why.
    static func isOneWarning(_ stderr: String, json: Bool) -> Bool {
        let lines = stderr.split(separator: "\n", omittingEmptySubsequences: false)
        guard lines.count == 2, lines[1].isEmpty else { return false }
        if json { return lines[0].contains(#""code":"corrupt_snapshot""#) && lines[0].contains("@6") }
        return lines[0].hasPrefix("Warning: Ignoring the snapshot at @6: ")
            && lines[0].hasSuffix("Replaying from the first event instead; 'tally rebuild' writes a fresh snapshot.")
    }

    @Test("every command answers from the events with one warning, and the write appends once", arguments: cases)
    func forged(_ forgery: SnapshotForgeryCase) throws {
        guard !TallyRunner.onPostgres else { return }
        let plain = try Self.copy(snapshots: false)
        let forged = try Self.copy()
        try forgery.forge(forged.databasePath)

        for arguments in Self.commands {
            let expected = plain.run(arguments)
            #expect(expected.status == 0 && expected.stderr == "", "\(arguments): \(expected.stderr)")
            let result = forged.run(arguments)
            #expect(result.status == 0, "\(forgery.name), \(arguments): exit \(result.status) \(result.stderr)")
            if arguments != ["info"] {
                #expect(result.stdout == expected.stdout, "\(forgery.name), \(arguments): \(result.stdout)")
            }
            let json = arguments.first == "--json"
            let warned = Self.isOneWarning(result.stderr, json: json)
            #expect(warned || result.stderr == "", "\(forgery.name), \(arguments): \(result.stderr)")
            if forgery.reads.contains(arguments) {
                #expect(warned, "\(forgery.name), \(arguments) reads the forged value: \(result.stderr)")
            }
        }
        #expect(try Self.head(forged) == 6, "read commands appended nothing")

        let verify = forged.run("verify")
        #expect(verify.status == 1 && verify.stdout.contains("snapshot"), "\(forgery.name): \(verify.stdout)")

        let expected = plain.run("done", "3")
        let done = forged.run("done", "3")
        #expect(done.status == 0 && done.stdout == expected.stdout, "\(forgery.name): \(done.stdout) \(done.stderr)")
        #expect(done.stderr == "" || Self.isOneWarning(done.stderr, json: false), "\(forgery.name): \(done.stderr)")
        #expect(try Self.head(forged) == 7, "the write appended its one event")
        #expect(forged.run("list", "--all").stdout == plain.run("list", "--all").stdout)
        #expect(forged.run("record", "export").stdout == plain.run("record", "export").stdout)
    }

    /// The store a runner's commands use, opened through the library (a file, or a PostgreSQL database).
    static func open(_ tally: TallyRunner) throws -> any EventStore {
        let location: StoreLocation = TallyRunner.onPostgres ? .postgres(uri: tally.databasePath) : .file(path: tally.databasePath)
        return try StoreFactory.openForWriting(location, now: 1)
    }

    @Test("a snapshot of another history (copied from another database) is never used, on SQLite and PostgreSQL")
    func otherHistory() throws {
        let source = TallyRunner()
        let target = TallyRunner()
        for title in ["src-one", "src-two", "src-three"] { source.run("add", title) }
        for title in ["uno", "dos", "tres"] { target.run("add", title) }
        #expect(source.run("snapshot").status == 0)
        let expected = target.run("list")
        #expect(expected.status == 0 && expected.stderr == "")

        // The other database's snapshot, stored here as it is: same position, valid checksums.
        let from = try Self.open(source)
        let info = try #require(try from.snapshots().first)
        let body = try #require(try from.snapshotBytes(info))
        let sums = try #require(try from.snapshotChunkSums(info))
        from.close()
        let into = try Self.open(target)
        try into.saveSnapshot(info, body: body, chunkSums: sums, keep: 2)
        #expect(try into.snapshots().first?.seq == 3)
        into.close()

        for arguments in [["list"], ["show", "2"], ["--json", "list"]] {
            let result = target.run(arguments)
            #expect(result.status == 0 && result.stdout == target.run(arguments).stdout)
            #expect(!result.stdout.contains("src-") && result.stdout.contains("dos"), "\(result.stdout)")
            #expect(result.stderr.split(separator: "\n").count == 1, "\(result.stderr)")
        }
        #expect(target.run("list").stderr == "Warning: Ignoring the snapshot at @3: the log's event at its position is not the one it was taken after. Replaying from the first event instead; 'tally rebuild' writes a fresh snapshot.\n")
        #expect(target.run("list").stdout == expected.stdout)
        let verify = target.run("verify")
        #expect(verify.status == 1 && verify.stdout.contains("not the one it was taken after"), "\(verify.stdout)")
        #expect(target.eventCount == 3, "nothing was appended")
    }
}
