import Foundation
import Testing
@testable import TallyEngine
@testable import TallyDomain
import TallyPostgres
import TallyTestSupport

/// A writer may store snapshots; one that stores a snapshot of false content (in range, sealed with
/// valid checksums, tied to the right chain hash) must mislead nobody but itself: every other role
/// uses only its own snapshots and the log owner's (migration 0006), on a real cluster with real roles.
@Suite("PostgreSQL snapshots: a writer's forged snapshot misleads only that writer", .enabled(if: PostgresTestServer.isEnabled))
struct PostgresSnapshotTrustAttackTests {
    let server: PostgresTestServer

    init() throws {
        server = try PostgresTestServer.shared()
    }

    struct Missing: Error {}

    func runner(_ uri: String) -> TallyRunner {
        let tally = TallyRunner()
        tally.environment["TALLY_DB"] = uri
        return tally
    }

    /// A log of three todos (the second done) made by its owner, with what a replay of the events shows.
    struct Team {
        var database: String
        var owner: TallyRunner
        var expected: [[String]: String]
    }

    static let reads = [["list", "--json"], ["list", "--status", "all", "--json"], ["show", "2", "--json"], ["show", "3", "--json"]]

    func team() throws -> Team {
        let uri = try server.makeDatabase("trust")
        let owner = runner(uri)
        for title in ["Pay rent", "Call the bank", "Renew passport"] { #expect(owner.run("add", title).status == 0) }
        #expect(owner.run("done", "2").status == 0)
        let database = PostgresTestServer.databaseName(uri)
        #expect(try server.psql("SELECT count(*) FROM snapshots", database: database) == "0")
        var expected: [[String]: String] = [:]
        for read in Self.reads {
            let result = owner.run(read)
            #expect(result.status == 0, "\(read): \(result.stderr)")
            expected[read] = result.stdout
        }
        return Team(database: database, owner: owner, expected: expected)
    }

    func role(_ label: String, _ grants: [String], _ team: Team) throws -> (tally: TallyRunner, name: String, password: String, uri: String) {
        let role = try server.makeRole(label, grants: grants, database: team.database)
        let uri = server.uri(database: team.database, user: role.name, password: role.password)
        return (runner(uri), role.name, role.password, uri)
    }

    /// Rewrites the newest snapshot `uri`'s role may use: the third todo's title changed and the
    /// second reopened, re-encoded and sealed with valid checksums, stored through tally_save_snapshot_chunks.
    func forge(_ uri: String) throws {
        let log = try PostgresEventLog.openForWriting(conninfo: uri, now: 1, lockTimeout: 5_000)
        defer { log.close() }
        guard let info = try log.snapshots().first, let body = try log.snapshotBytes(info) else { throw Missing() }
        let (header, decoded) = try SnapshotCodec.decode(body)
        var model = decoded
        model.todos[2].title = "Forged title"
        model.todos[1].completedAt = nil
        let forged = SnapshotCodec.encode(model, latestRecordedAt: header.latestRecordedAt, logHash: header.logHash)
        var sealed = info
        let (sums, checksum) = SnapshotChecksum.seal(forged, chunkSize: info.chunkSize)
        sealed.size = forged.count
        sealed.checksum = checksum
        try log.saveSnapshot(sealed, body: forged, chunkSums: sums, keep: 2)
    }

    /// Each read of `tally` shows what the events say, with no warning.
    func expectTruth(_ tally: TallyRunner, _ team: Team, _ who: String) {
        for read in Self.reads {
            let result = tally.run(read)
            #expect(result.status == 0 && result.stderr.isEmpty, "\(who) \(read): \(result.stderr)")
            #expect(result.stdout == team.expected[read], "\(who) \(read): \(result.stdout)")
            #expect(!result.stdout.contains("Forged"), "\(who) \(read)")
        }
    }

    func rows(_ database: String) throws -> String {
        try server.psql("SELECT string_agg(stored_by || ':' || seq, ',' ORDER BY stored_by, seq) FROM snapshots", database: database)
    }

    @Test("writer A forges an in-range snapshot of false content: B and a reader still see the events' truth; A alone is misled")
    func forgedByWriter() throws {
        let team = try team()
        let a = try role("writer_a", PostgresTestServer.Grants.writer, team)
        let b = try role("writer_b", PostgresTestServer.Grants.writer, team)
        let reader = try role("reader", PostgresTestServer.Grants.reader, team)
        #expect(a.tally.run("snapshot").status == 0)
        try forge(a.uri)
        #expect(try rows(team.database) == "\(a.name):4")
        // The forgery passes every check: its own author is shown it (and only its author).
        let misled = a.tally.run("show", "3", "--json")
        #expect(misled.status == 0 && misled.stdout.contains("Forged title"), "\(misled.stdout) \(misled.stderr)")
        expectTruth(b.tally, team, "writer B")
        expectTruth(reader.tally, team, "reader")
        expectTruth(team.owner, team, "owner")
        // B's own snapshot at the same position is B's, and true.
        #expect(b.tally.run("snapshot").status == 0)
        #expect(try rows(team.database) == "\(a.name):4,\(b.name):4")
        expectTruth(b.tally, team, "writer B with its own snapshot")
        // `verify` finds the forgery for its author; for everyone else the log and their snapshots agree.
        let verify = a.tally.run("verify")
        #expect(verify.status == 1, "\(verify.stdout) \(verify.stderr)")
        for tally in [b.tally, reader.tally, team.owner] { #expect(tally.run("verify").status == 0) }
    }

    @Test("the owner's snapshots are used by every role (forged here by the owner itself, to prove they are read)")
    func ownerSnapshotsUsedByAll() throws {
        let team = try team()
        let writer = try role("writer", PostgresTestServer.Grants.writer, team)
        let reader = try role("reader", PostgresTestServer.Grants.reader, team)
        #expect(team.owner.run("snapshot").status == 0)
        let ownerURI = server.uri(database: team.database, user: PostgresTestServer.superuser, password: PostgresTestServer.password)
        expectTruth(writer.tally, team, "writer before")
        try forge(ownerURI)
        for tally in [writer.tally, reader.tally, team.owner] {
            let result = tally.run("show", "3", "--json")
            #expect(result.status == 0 && result.stdout.contains("Forged title"), "\(result.stdout) \(result.stderr)")
        }
        // A writer's own snapshot at the same position comes before the owner's.
        #expect(writer.tally.run("rebuild").status == 0)
        #expect(writer.tally.run("snapshot").status == 0)
        expectTruth(writer.tally, team, "writer with its own snapshot")
    }

    @Test("a writer deletes and prunes only its own snapshots; it cannot store one in another role's name")
    func deletionPerRole() throws {
        let team = try team()
        let a = try role("writer_a", PostgresTestServer.Grants.writer, team)
        let b = try role("writer_b", PostgresTestServer.Grants.writer, team)
        #expect(team.owner.run("snapshot").status == 0)
        #expect(b.tally.run("snapshot").status == 0)
        let owner = PostgresTestServer.superuser
        #expect(try rows(team.database) == [b.name + ":4", owner + ":4"].sorted().joined(separator: ","))
        // A stores many snapshots: each role keeps its own newest ones, the others' stay.
        for index in 0 ..< 4 {
            #expect(a.tally.run("add", "Task \(index)").status == 0)
            #expect(a.tally.run("snapshot").status == 0)
        }
        let kept = try server.psql("SELECT count(*) FROM snapshots WHERE stored_by = '\(a.name)'", database: team.database)
        #expect((1 ... 3).contains(Int(kept) ?? 0), "\(kept)")
        #expect(try server.psql("SELECT count(*) FROM snapshots WHERE stored_by IN ('\(b.name)', '\(owner)')", database: team.database) == "2")
        // Raw SQL and tally as A: only A's own go.
        try server.psql("SELECT tally_delete_snapshots()", database: team.database, user: a.name, password: a.password)
        #expect(try rows(team.database) == [b.name + ":4", owner + ":4"].sorted().joined(separator: ","))
        #expect(a.tally.run("snapshot").status == 0)
        #expect(a.tally.run("rebuild").status == 0)
        #expect(try server.psql("SELECT count(*) FROM snapshots WHERE stored_by IN ('\(b.name)', '\(owner)')", database: team.database) == "2")
        #expect(try server.psql("SELECT count(*) FROM snapshot_chunks WHERE stored_by IN ('\(b.name)', '\(owner)')", database: team.database) != "0")
        for sql in [
            "UPDATE snapshots SET stored_by = '\(owner)'",
            "INSERT INTO snapshots(stored_by, seq, format, reducer_version, created_at, checksum, body) VALUES ('\(owner)', 99, 7, 1, 0, 'x', '\\x')",
            "DELETE FROM snapshots WHERE stored_by = '\(b.name)'",
            "SET SESSION AUTHORIZATION \(owner)",
        ] {
            #expect(throws: (any Error).self, "\(sql)") {
                try server.psql(sql, database: team.database, user: a.name, password: a.password)
            }
        }
        #expect(try server.psql("SELECT count(*) FROM snapshots WHERE stored_by IN ('\(b.name)', '\(owner)')", database: team.database) == "2")
        // The owner deletes every role's.
        #expect(team.owner.run("rebuild").status == 0)
        #expect(try server.psql("SELECT count(*) FROM snapshots WHERE stored_by <> '\(owner)'", database: team.database) == "0")
        #expect(team.owner.run("verify").status == 0)
    }

    @Test("a role with no grant still can do nothing: no snapshot chunk, no delete, no store, no owner lookup, no payload check")
    func noGrant() throws {
        let team = try team()
        #expect(team.owner.run("snapshot").status == 0)
        let nobody = try server.makeRole("nobody", grants: [], database: team.database)
        let before = try rows(team.database)
        for sql in [
            "SELECT tally_snapshot_chunk(4, 7, 1, 0)",
            "SELECT tally_delete_snapshots()",
            "SELECT tally_save_snapshot_chunks(4, 7, 1, 0, 'forged', '\\x00'::bytea, 1024, '\\x00'::bytea, 2)",
            "SELECT tally_log_owner()",
            "SELECT tally_payload_problem('todo.created', '{}')",
            "SELECT stored_by FROM snapshots",
        ] {
            #expect(throws: (any Error).self, "\(sql)") {
                try server.psql(sql, database: team.database, user: nobody.name, password: nobody.password)
            }
        }
        #expect(try rows(team.database) == before)
        let result = runner(server.uri(database: team.database, user: nobody.name, password: nobody.password)).run("list")
        #expect(result.status == 74 && !result.stdout.contains("Pay rent"), "\(result.stderr)")
    }
}
