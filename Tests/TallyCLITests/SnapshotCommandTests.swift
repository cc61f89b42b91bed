import Foundation
import Testing
@testable import TallyEngine
@testable import TallyDomain
@testable import TallySQLite
import TallyTestSupport
@testable import TallyEssentials

@Suite("tally snapshot, rebuild and info, end to end")
struct SnapshotCommandTests {
    /// Runs SQL against the runner's database, binding `body` as ?1 when given.
    func sql(_ tally: TallyRunner, _ text: String, body: [UInt8]? = nil) throws {
        let connection = try Connection(path: tally.databasePath, access: .readWrite)
        let statement = try connection.statement(text)
        if let body { try statement.bind(body, at: 1) }
        try statement.step()
    }

    /// The newest snapshot's body, its chunks put together.
    func storedBody(_ tally: TallyRunner) throws -> [UInt8] {
        let connection = try Connection(path: tally.databasePath, access: .readOnly)
        let statement = try connection.statement("SELECT data FROM snapshot_chunks WHERE seq = (SELECT max(seq) FROM snapshots) ORDER BY chunk")
        var body: [UInt8] = []
        while try statement.step() { body += statement.blob(at: 0) }
        return body
    }

    /// Stores `body` as the newest snapshot's body: its chunks, and with `sealed` the checksums that
    /// prove it (otherwise the old checksums stay, as after damage on disk).
    func storeBody(_ tally: TallyRunner, _ body: [UInt8], sealed: Bool) throws {
        let chunkSize = SnapshotChunks.standardSize
        try sql(tally, "DELETE FROM snapshot_chunks WHERE seq = (SELECT max(seq) FROM snapshots)")
        for (index, start) in stride(from: 0, to: body.count, by: chunkSize).enumerated() {
            try sql(tally, "INSERT INTO snapshot_chunks SELECT seq, format, reducer_version, \(index), ?1 FROM snapshots ORDER BY seq DESC LIMIT 1",
                    body: Array(body[start ..< min(body.count, start + chunkSize)]))
        }
        if sealed {
            let (sums, checksum) = SnapshotChecksum.seal(body, chunkSize: chunkSize)
            try sql(tally, "UPDATE snapshots SET chunk_sums = ?1, checksum = '\(checksum)', size = \(body.count) WHERE seq = (SELECT max(seq) FROM snapshots)", body: sums)
        }
    }

    func populated() -> TallyRunner {
        let tally = TallyRunner()
        tally.run("add", "Buy milk", "--tag", "shop")
        tally.run("add", "Dentist", "--priority", "high")
        tally.run("done", "1")
        return tally
    }

    @Test("snapshot stores one at the head, info shows it, and an empty store has nothing to snapshot")
    func snapshotAndInfo() throws {
        let empty = TallyRunner()
        let nothing = empty.run("snapshot")
        #expect(nothing.status == 0 && nothing.stdout == "The log is empty; there is nothing to snapshot.\n")
        #expect(!FileManager.default.fileExists(atPath: empty.databasePath))

        let tally = populated()
        #expect(tally.run("info").stdout.contains("Snapshot        none\n"))
        let written = tally.run("snapshot")
        #expect(written.status == 0 && written.stderr == "")
        #expect(written.stdout.hasPrefix("Snapshot written at @3: 2 todos, "))
        tally.run("add", "Read")
        let info = tally.run("info")
        #expect(info.stdout.contains("Snapshot        @3, just now, 1 event after it\n"))
        guard case .object(let object)? = tally.run("info", "--json").json, case .object(let snapshot)? = object["snapshot"] else {
            Issue.record("no snapshot object")
            return
        }
        #expect(snapshot["seq"] == 3 && snapshot["tail"] == 1 && snapshot["reducerVersion"] == .int(Int64(Reducer.version)))
        #expect(snapshot["createdAt"] == "2026-11-21T12:00:00Z")
        #expect(tally.run("list", "--json").json?.arrayValue?.count == 3)
    }

    @Test("rebuild replaces the snapshots with a fresh one at the head and prints no progress off a terminal")
    func rebuild() throws {
        let tally = populated()
        tally.run("snapshot")
        tally.run("add", "Read")
        let before = tally.run("list").stdout
        let rebuilt = tally.run("rebuild")
        #expect(rebuilt.status == 0 && rebuilt.stderr == "")
        #expect(rebuilt.stdout.hasPrefix("Rebuilt the read models from 4 events in "))
        #expect(rebuilt.stdout.hasSuffix("; snapshot written at @4.\n"))
        let json = tally.run("--json", "rebuild").json
        #expect(json?.objectValue?["events"] == 4 && json?.objectValue?["discardedSnapshots"] == 1)
        #expect(tally.run("list").stdout == before)
        #expect(tally.run("info").stdout.contains("@4, just now, 0 events after it"))
        let empty = TallyRunner().run("rebuild")
        #expect(empty.status == 0 && empty.stdout == "The log is empty; there is nothing to rebuild.\n")
    }

    @Test("a snapshot with a flipped byte is ignored with one line on stderr; output is unchanged; the next write replaces it")
    func corruptSnapshot() throws {
        let tally = populated()
        let expected = tally.run("list").stdout
        tally.run("snapshot")
        var body = try storedBody(tally)
        body[body.count / 2] ^= 0x01
        try storeBody(tally, body, sealed: false)
        let listed = tally.run("list")
        #expect(listed.status == 0 && listed.stdout == expected)
        #expect(listed.stderr == "Warning: Ignoring the snapshot at @3: its checksum does not match. Replaying from the first event instead; 'tally rebuild' writes a fresh snapshot.\n")
        let json = tally.run("list", "--json")
        #expect(json.stderr.split(separator: "\n").count == 1 && json.stderr.contains(#""code":"corrupt_snapshot""#))
        tally.run("add", "Read")
        let after = tally.run("list")
        #expect(after.stderr == "" && after.status == 0)
        #expect(tally.run("info").stdout.contains("@4, just now, 0 events after it"))
    }

    @Test("verify checks every snapshot: a damaged one and a forged one with a valid checksum both exit 1")
    func verifyChecksSnapshots() throws {
        let tally = populated()
        tally.run("record", "add", "Run", "--category", "run", "--duration", "30m")
        tally.run("snapshot")
        let intact = tally.run("verify")
        #expect(intact.status == 0 && intact.stdout == "OK: 4 events, chain intact\n", "\(intact.stdout)")
        let original = try storedBody(tally)

        var damaged = original
        damaged[damaged.count / 2] ^= 0x01
        try storeBody(tally, damaged, sealed: false)
        let broken = tally.run("verify")
        #expect(broken.status == 1)
        #expect(broken.stdout.contains("snapshot: its checksum does not match"), "\(broken.stdout)")

        // Same layout and a matching checksum, but the record's name differs from what the log says.
        var (header, model) = try SnapshotCodec.decode(original)
        model.records[0].name = "Forged"
        let forged = SnapshotCodec.encode(model, latestRecordedAt: header.latestRecordedAt, logHash: header.logHash)
        try storeBody(tally, forged, sealed: true)
        let lied = tally.run("verify", "--json")
        #expect(lied.status == 1)
        let problems = lied.json?.objectValue?["problems"]?.arrayValue ?? []
        #expect(problems.count == 1 && problems.first?.objectValue?["kind"]?.stringValue == "snapshot", "\(lied.stdout)")
        #expect(problems.first?.objectValue?["message"]?.stringValue?.contains("differs from a full replay") == true)
        #expect(tally.run("rebuild").status == 0)
        #expect(tally.run("verify").status == 0)
    }

    @Test("an import that makes the tail long stores a snapshot at its end; a small one does not")
    func importSnapshots() throws {
        var generator = LogGenerator(seed: 42)
        let events = generator.events(1_100)
        let file = TallyRunner().directory
        let large = file.path("large.jsonl")
        try (events.map(GoldenLog.line).joined(separator: "\n") + "\n").write(toFile: large, atomically: true, encoding: .utf8)
        let tally = TallyRunner()
        let imported = tally.run("import", large)
        #expect(imported.status == 0 && imported.stderr == "", "\(imported.stderr)")
        let info = tally.run("info", "--json").json?.objectValue?["snapshot"]?.objectValue
        #expect(info?["seq"]?.intValue == 1_100, "\(tally.run("info").stdout)")
        #expect(tally.run("verify").status == 0)

        let small = file.path("small.jsonl")
        try (events.prefix(20).map(GoldenLog.line).joined(separator: "\n") + "\n").write(toFile: small, atomically: true, encoding: .utf8)
        let other = TallyRunner()
        #expect(other.run("import", small).status == 0)
        #expect(other.run("info").stdout.contains("Snapshot        none"))
    }

    @Test("a snapshot of another reducer version is ignored with one line on stderr and the result is still correct")
    func otherReducerVersion() throws {
        let tally = populated()
        let expected = tally.run("list").stdout
        tally.run("snapshot")
        try sql(tally, "UPDATE snapshots SET reducer_version = reducer_version + 1")
        let listed = tally.run("list")
        #expect(listed.status == 0 && listed.stdout == expected)
        #expect(listed.stderr == "Warning: Ignoring the snapshot at @3: it was folded by reducer version \(Reducer.version + 1), this tally has \(Reducer.version). Replaying from the first event instead; 'tally rebuild' writes a fresh snapshot.\n")
        #expect(tally.run("info").stdout.contains("none usable (1 ignored; 'tally rebuild' writes a fresh one)"))
        #expect(tally.run("rebuild").stderr == "")
        #expect(tally.run("list").stderr == "")
    }

    @Test("--as-of @SEQ before the snapshot, and read commands never write snapshots")
    func timeTravelAndReadOnly() throws {
        let tally = populated()
        tally.run("snapshot")
        tally.run("add", "Read")
        let past = tally.run("list", "--as-of", "@2", "--json")
        #expect(past.json?.arrayValue?.count == 2 && past.json?.arrayValue?.first?.objectValue?["completed"] == false)
        let connection = try Connection(path: tally.databasePath, access: .readOnly)
        #expect(try connection.scalarInt("SELECT count(*) FROM snapshots") == 1)
        tally.run("list")
        tally.run("info")
        #expect(try connection.scalarInt("SELECT max(seq) FROM snapshots") == 3)
    }
}
