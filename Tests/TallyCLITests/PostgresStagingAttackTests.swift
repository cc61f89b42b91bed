import Foundation
import Testing
import TallyDomain
import TallyTestSupport
@testable import TallyEssentials

/// A writer (the guide's grants: it may stage and run the sequencer) stages rows by raw SQL (a
/// scram login on 127.0.0.1): the staging table refuses what the insert trigger refuses, the
/// sequencer makes seq and the chain itself and keeps the role that staged each row, and nothing a
/// writer sets can make the server take a row for the sequencer's.
@Suite("PostgreSQL: staged rows cannot break the shared log or forge who appended them", .enabled(if: PostgresTestServer.isEnabled))
struct PostgresStagingAttackTests {
    let server: PostgresTestServer

    init() throws {
        server = try PostgresTestServer.shared()
    }

    typealias Attack = PostgresInsertAttackTests

    func setUp() throws -> (owner: TallyRunner, role: (name: String, password: String), database: String) {
        let (owner, _, role, database) = try Attack().setUp(grants: PostgresTestServer.Grants.writer, label: "staging")
        return (owner, role, database)
    }

    /// The INSERT into the staging table for a row (its seq and hash have no column there).
    static func stage(_ event: EventEnvelope, role: String? = nil) -> String {
        var insert = Attack.insert(event)
        insert = insert.replacingOccurrences(of: "INSERT INTO events(seq, ", with: "INSERT INTO events_staged(")
        insert = insert.replacingOccurrences(of: ", command, hash) VALUES (\(event.seq), ", with: ", command\(role == nil ? "" : ", role")) VALUES (")
        let hashValue = ", '" + event.hash.replacingOccurrences(of: "'", with: "''") + "')"
        precondition(insert.hasSuffix(hashValue))
        insert.removeLast(hashValue.count)
        return insert + (role.map { ", '\($0)')" } ?? ")")
    }

    @Test("every hostile envelope or payload is refused at staging with the insert trigger's reason; nothing is staged or appended")
    func hostileStagedRowsAreRefused() throws {
        let (owner, role, database) = try setUp()
        let previous = try server.psql("SELECT hash FROM events WHERE seq = 2", database: database)
        let export = owner.run("export").stdout
        // Seq, hash and a version past the next are the sequencer's to judge (below).
        let rows = Attack.hostileRows(previous: previous).filter {
            !["hash does not link", "appended in order"].contains($0.refusal) && !["a version with a gap", "version Int32.max"].contains($0.name)
        }
        #expect(rows.count > 15)
        for (name, row, refusal) in rows {
            do {
                try server.psql(Self.stage(row), database: database, user: role.name, password: role.password)
                Issue.record("\(name): the server staged it")
            } catch {
                #expect("\(error)".contains(refusal), "\(name): \(error)")
            }
        }
        #expect(try server.psql("SELECT count(*) FROM events_staged", database: database) == "0")
        #expect(try server.psql("SELECT count(*) FROM events", database: database) == "2")
        #expect(owner.run("export").stdout == export)
    }

    @Test("a staged row keeps the role that staged it, whoever sequences it; a claimed role is not taken; seq and hash are the server's")
    func sequencerKeepsTheStagingRole() throws {
        let (owner, role, database) = try setUp()
        let previous = try server.psql("SELECT hash FROM events WHERE seq = 2", database: database)
        var row = Attack.validRow(previous: previous, title: "Staged")
        row.hash = String(repeating: "f", count: 64)
        try server.psql(Self.stage(row, role: PostgresTestServer.superuser), database: database, user: role.name, password: role.password)
        // The owner's sequencer run moves it; the role stays the writer's.
        #expect(try server.psql("SELECT count(*) FROM tally_sequence('{}')", database: database) == "0")
        #expect(try server.psql("SELECT seq || ' ' || role FROM events WHERE id = '\(row.id)'", database: database) == "3 \(role.name)")
        #expect(owner.run("verify").stdout == "OK: 3 events, chain intact\n")
        #expect(Set(owner.run("list", "--json", "--status", "all").titles) == ["First", "Staged"])
    }

    @Test("a staged command with a version that does not follow its stream is refused whole by the sequencer; nothing of it is appended")
    func sequencerRefusesAWholeCommand() throws {
        let (owner, role, database) = try setUp()
        let previous = try server.psql("SELECT hash FROM events WHERE seq = 2", database: database)
        let stream = try server.psql("SELECT stream FROM events WHERE seq = 1", database: database)
        // A command of two events: a new todo, and a version 7 of a new stream (a gap), or
        // version 2 of the first todo (taken by its completion).
        var gap = Attack.validRow(previous: previous, title: "Gap")
        gap.version = 7
        var taken = Attack.validRow(previous: previous)
        (taken.stream, taken.version, taken.type, taken.data) = (stream, 2, "todo.completed", "{}")
        for second in [gap, taken] {
            var first = Attack.validRow(previous: previous, title: "Fine")
            first.command = second.command
            try server.psql("BEGIN; \(Self.stage(first)); \(Self.stage(second)); COMMIT;", database: database, user: role.name, password: role.password)
            #expect(try server.psql("SELECT count(*) FROM tally_sequence(ARRAY['\(first.id)', '\(second.id)'])", database: database, user: role.name, password: role.password) == "0")
            #expect(try server.psql("SELECT count(*) FROM events", database: database) == "2")
            #expect(try server.psql("SELECT count(*) FROM events_staged", database: database) == "0")
        }
        #expect(owner.run("verify").stdout == "OK: 2 events, chain intact\n")
    }

    @Test("the sequencer's marks cannot be set by a writer: a raw insert with tally.sequencing on still gets every check and the session's role; the staging tables stay closed to it")
    func writerCannotPassForTheSequencer() throws {
        let (owner, role, database) = try setUp()
        let previous = try server.psql("SELECT hash FROM events WHERE seq = 2", database: database)
        let row = Attack.validRow(previous: previous, title: "Raw")
        let forged = Attack.insert(row)
            .replacingOccurrences(of: ", command, hash) VALUES", with: ", command, hash, role) VALUES")
            .dropLast() + ", '\(PostgresTestServer.superuser)')"
        let mark = "SELECT set_config('tally.sequencing', 'on', true)"
        var broken = row
        broken.hash = String(repeating: "a", count: 64)
        do {
            try server.psql("BEGIN; \(mark); \(Attack.insert(broken)); COMMIT;", database: database, user: role.name, password: role.password)
            Issue.record("a bad link was taken with the sequencer's mark set")
        } catch {
            #expect("\(error)".contains("hash does not link"), "\(error)")
        }
        try server.psql("BEGIN; \(mark); \(forged); COMMIT;", database: database, user: role.name, password: role.password)
        #expect(try server.psql("SELECT role FROM events WHERE seq = 3", database: database) == role.name)
        for statement in [
            "SELECT count(*) FROM events_staged", "DELETE FROM events_staged", "INSERT INTO tally_sequencing VALUES (pg_backend_pid(), txid_current())",
            "SELECT count(*) FROM tally_sequencing",
        ] {
            #expect(throws: (any Error).self, "\(statement)") {
                try server.psql(statement, database: database, user: role.name, password: role.password)
            }
        }
        #expect(owner.run("verify").stdout == "OK: 3 events, chain intact\n")
    }
}
