import Foundation
import Testing
@testable import TallyEngine
@testable import TallyDomain
@testable import TallySQLite
import TallyTestSupport
@testable import TallyEssentials

/// A snapshot chunk damaged on disk where start-up does not look: commands that reach it start
/// over from a full replay, print what an intact store prints, warn once, and append once.
@Suite("A damaged snapshot chunk read late, end to end")
struct ChunkedSnapshotCommandTests {
    /// A store of many todos (a body of several chunks) with a snapshot at its head, and an intact copy.
    static func stores() throws -> (damaged: TallyRunner, intact: TallyRunner) {
        let damaged = TallyRunner()
        var generator = LogGenerator(seed: 77)
        let log = try SQLiteEventLog.openForWriting(path: damaged.databasePath, now: 1)
        try log.write { try log.append(generator.events(12_000)) }
        var folded = Replayer.Folded()
        try Replayer.fold(log, into: &folded)
        try SnapshotWriter.write(folded, log: log, to: log, now: 0)
        log.close()
        let intact = TallyRunner()
        try FileManager.default.copyItem(atPath: damaged.databasePath, toPath: intact.databasePath)
        return (damaged, intact)
    }

    /// Damages, on disk, the chunk holding a pending todo's item that start-up does not read; returns the todo's number.
    static func damageLateTodo(_ tally: TallyRunner) throws -> Int {
        let log = try SQLiteEventLog.openForWriting(path: tally.databasePath, now: 1)
        defer { log.close() }
        let info = try #require(try log.snapshots().first)
        #expect(SnapshotChunks.count(size: info.size, chunkSize: info.chunkSize) >= 4, "a body of \(info.size) bytes")
        // A pending todo whose item lies in a chunk of its own that opening the snapshot leaves unread.
        var found: (number: Int, chunk: Int)?
        let model = try StateLoader.load(log: log, snapshots: log).model
        for position in stride(from: model.todos.count - 1, through: 0, by: -7) where found == nil {
            let loaded = try StateLoader.load(log: log, snapshots: log).model
            let buffer = try #require(loaded.snapshotBuffer)
            let before = (0 ..< SnapshotChunks.count(size: info.size, chunkSize: info.chunkSize)).filter { buffer.isLoaded($0) }
            let todo = loaded.todo(at: position)
            guard !todo.completed, !todo.deleted, todo.wait == nil else { continue }
            let after = (0 ..< SnapshotChunks.count(size: info.size, chunkSize: info.chunkSize)).filter { buffer.isLoaded($0) }
            if let chunk = Set(after).subtracting(before).max() { found = (todo.number, chunk) }
        }
        let (number, chunk) = try #require(found)
        var body = try #require(try log.snapshotBytes(info))
        let range = chunk * info.chunkSize ..< min(body.count, (chunk + 1) * info.chunkSize)
        body[range.upperBound - 1] ^= 0x10
        let connection = try Connection(path: tally.databasePath, access: .readWrite)
        let statement = try connection.statement("UPDATE snapshot_chunks SET data = ? WHERE chunk = ?")
        try statement.bind(Array(body[range]), at: 1)
        try statement.bind(chunk, at: 2)
        try statement.step()
        return number
    }

    static let warning = "Warning: Ignoring the snapshot at @12000: its checksum does not match. Replaying from the first event instead; 'tally rebuild' writes a fresh snapshot.\n"

    @Test("list, --json list and done N give the intact store's output with one warning; nothing is appended twice")
    func lateDamage() throws {
        guard !TallyRunner.onPostgres else { return }
        let (damaged, intact) = try Self.stores()
        let number = try Self.damageLateTodo(damaged)

        // info reads the stored counts, not the items: no warning, the same counts.
        let info = damaged.run("--json", "info")
        #expect(info.status == 0 && info.stderr == "")
        #expect(info.json?.objectValue?["todos"] == intact.run("--json", "info").json?.objectValue?["todos"])
        // Whether a short page reaches the damaged chunk or not, it shows what the intact store shows.
        let page = damaged.run("list", "--limit", "5")
        #expect(page.status == 0 && [Self.warning, ""].contains(page.stderr) && page.stdout == intact.run("list", "--limit", "5").stdout)

        for arguments in [["list"], ["--json", "list"], ["show", String(number)]] {
            let expected = intact.run(arguments)
            let result = damaged.run(arguments)
            #expect(result.status == expected.status && result.stdout == expected.stdout, "\(arguments)")
            #expect(result.stderr == (arguments.first == "--json" ? result.stderr : Self.warning), "\(arguments): \(result.stderr)")
            #expect(arguments.first != "--json" || result.stderr.contains(#""code":"corrupt_snapshot""#))
        }

        let verify = damaged.run("verify")
        #expect(verify.status == 1 && verify.stdout.contains("its checksum does not match"), "\(verify.stdout)")

        let done = damaged.run("done", String(number))
        let expected = intact.run("done", String(number))
        #expect(done.status == 0 && done.stdout == expected.stdout, "\(done.stdout) \(done.stderr)")
        #expect(done.stderr == Self.warning)
        // As many events as on the intact store (one, or two when the todo recurs): appended once.
        let log = try SQLiteEventLog.openForReading(path: damaged.databasePath)
        let intactLog = try SQLiteEventLog.openForReading(path: intact.databasePath)
        let appended = try intactLog?.head().seq
        #expect(appended == 12_001 || appended == 12_002)
        #expect(try log?.head().seq == appended, "the command appended its events once")
        log?.close()
        intactLog?.close()
        #expect(damaged.run("list").stdout == intact.run("list").stdout)
        #expect(damaged.run("--json", "list").stdout == intact.run("--json", "list").stdout)
        #expect(damaged.run("rebuild").status == 0)
        #expect(damaged.run("verify").status == 0)
    }
}
