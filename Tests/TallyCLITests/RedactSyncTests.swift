import Foundation
import Testing
import TallyDomain
@testable import TallySQLite
import TallyTestSupport
@testable import TallyEssentials

/// A redaction reaches the shared log and every replica through sync.
@Suite("tally redact through sync", .enabled(if: !TallyRunner.onPostgres))
struct RedactSyncTests {
    func stored(_ runner: TallyRunner, _ path: String) throws -> String {
        if path.hasPrefix("postgresql:") {
            let server = try PostgresTestServer.shared()
            let database = PostgresTestServer.databaseName(path)
            return try ["events", "snapshots", "snapshot_chunks"].map {
                try server.psql("SELECT COALESCE(string_agg(t::text, E'\\n'), '') FROM \($0) t", database: database)
            }.joined()
        }
        return [path, path + "-wal"].map { (try? Data(contentsOf: URL(fileURLWithPath: $0))).map { String(decoding: $0, as: UTF8.self) } ?? "" }.joined()
    }

    @Test("a device redacts a note and the annotations and syncs; the shared log and the other device erase the values; all verify and agree", arguments: SharedLogKind.available)
    func reachesEveryReplica(kind: SharedLogKind) throws {
        let fleet = Fleet(["laptop", "desktop"], kind: kind)
        fleet.run(0, at: "2026-11-21T09:00:00Z", "add", "Router", "--note", "pw hunter2-ZZ9")
        fleet.run(0, at: "2026-11-21T09:00:30Z", "annotate", "1", "wifi key hunter4-AN5")
        fleet.run(0, at: "2026-11-21T09:01:00Z", "add", "Bread")
        #expect(fleet.sync(0, at: "2026-11-21T09:02:00Z").status == 0)
        #expect(fleet.sync(1, at: "2026-11-21T09:03:00Z").status == 0)
        #expect(try stored(fleet[1], fleet[1].databasePath).contains("hunter2-ZZ9"))
        #expect(try stored(fleet[1], fleet[1].databasePath).contains("hunter4-AN5"))
        // The other device edits offline meanwhile: its change survives the redaction's rebase.
        fleet.run(1, at: "2026-11-21T09:04:00Z", "edit", "2", "--title", "Rye bread")
        let redact = fleet.run(0, at: "2026-11-21T09:05:00Z", "redact", "1", "--field", "note", "--reason", "password")
        #expect(redact.status == 0, "\(redact.stderr)")
        let annotations = fleet.run(0, at: "2026-11-21T09:05:30Z", "redact", "1", "--field", "annotations")
        #expect(annotations.status == 0, "\(annotations.stderr)")
        let push = fleet.sync(0, at: "2026-11-21T09:06:00Z")
        #expect(push.status == 0, "\(push.stderr)")
        #expect(!(try stored(fleet.server, fleet.shared)).contains("hunter"))
        let pull = fleet.sync(1, at: "2026-11-21T09:07:00Z")
        #expect(pull.status == 0, "\(pull.stderr)")
        #expect(fleet.sync(0, at: "2026-11-21T09:08:00Z").status == 0)
        for device in fleet.devices {
            #expect(device.run("verify").status == 0)
            #expect(!(try stored(device, device.databasePath)).contains("hunter"))
            #expect(device.run("show", "1").stdout.contains("[redacted]"))
            #expect(!device.run("show", "1").stdout.contains("AN5"))
            #expect(device.run("show", "2").stdout.contains("Rye bread"))
        }
        #expect(fleet.server.run("verify").status == 0)
        #expect(fleet.export(fleet[0]) == fleet.export(fleet[1]) && fleet.export(fleet[1]) == fleet.export(fleet.server))
    }

    @Test("an edit that sync rewrites (its title lost to a later one) keeps salts: its note can be redacted, everywhere, and every log verifies", arguments: SharedLogKind.available)
    func rewrittenEditIsErasable(kind: SharedLogKind) throws {
        let fleet = Fleet(["laptop", "desktop"], kind: kind)
        fleet.run(0, at: "2026-11-21T09:00:00Z", "add", "Router")
        #expect(fleet.sync(0, at: "2026-11-21T09:01:00Z").status == 0)
        #expect(fleet.sync(1, at: "2026-11-21T09:02:00Z").status == 0)
        // Offline on the desktop: a title and a note in one edit; the laptop's later title wins.
        fleet.run(1, at: "2026-11-21T09:03:00Z", "edit", "1", "--title", "Old router", "--note", "pw hunter6-QX3")
        fleet.run(0, at: "2026-11-21T09:04:00Z", "edit", "1", "--title", "New router")
        #expect(fleet.sync(0, at: "2026-11-21T09:05:00Z").status == 0)
        let rewrite = fleet.sync(1, at: "2026-11-21T09:06:00Z", json: true)
        #expect(rewrite.status == 0, "\(rewrite.stderr)")
        #expect(rewrite.stdout.contains("overridden"), "\(rewrite.stdout)")
        let rewritten = fleet.export(fleet[1]).split(separator: "\n").last { $0.contains("hunter6-QX3") }
        #expect(rewritten?.contains(#""$salts":{"note":"#) == true, "\(rewritten ?? "")")
        #expect(fleet[1].run("show", "1").stdout.contains("New router"))
        // The rewritten note can be erased, here and, through sync, in the shared log and on the laptop.
        let redact = fleet.run(1, at: "2026-11-21T09:07:00Z", "redact", "1", "--field", "note")
        #expect(redact.status == 0, "\(redact.stderr)")
        #expect(fleet.sync(1, at: "2026-11-21T09:08:00Z").status == 0)
        #expect(fleet.sync(0, at: "2026-11-21T09:09:00Z").status == 0)
        for device in fleet.devices + [fleet.server] {
            let verify = device.run("verify")
            #expect(verify.status == 0, "\(verify.stdout)\(verify.stderr)")
            #expect(verify.stdout.contains("1 value redacted") || verify.stdout.contains("values redacted"), "\(verify.stdout)")
            #expect(!(try stored(device, device === fleet.server ? fleet.shared : device.databasePath)).contains("hunter6"))
            #expect(device.run("show", "1").stdout.contains("[redacted]"))
        }
        #expect(fleet.export(fleet[0]) == fleet.export(fleet[1]) && fleet.export(fleet[1]) == fleet.export(fleet.server))
    }
}

/// A `history.redacted` event a store cannot read (here of a schema from a newer tally, put into a
/// replica's file by another writer, well linked) is never carried out silently: the store that would
/// append it refuses (nothing appended, exit 65, a message naming it), `verify` reports it.
@Suite("An unreadable redaction, end to end", .enabled(if: !TallyRunner.onPostgres))
struct UnreadableRedactionTests {
    /// Appends, well linked, a `history.redacted` event of schema 99 for `stream`'s note to the replica's file.
    static func appendUnreadableRedaction(_ tally: TallyRunner, stream: String) throws -> Int64 {
        let log = try #require(try SQLiteEventLog.openForReading(path: tally.databasePath))
        let head = try log.head()
        var history = 0
        try log.scan(after: 0, through: nil) { if $0.stream == HistoryStream.name { history = $0.version } }
        log.close()
        var event = EventEnvelope(
            seq: head.seq + 1, id: "7d3f5e1a-9b2c-4d8e-a1f0-3c5b7d9e1f20", stream: HistoryStream.name, version: history + 1,
            type: "history.redacted", schema: 99, data: #"{"events":[1],"field":"note","reason":null,"stream":"\#(stream)"}"#,
            recordedAt: 1_795_000_000_000, actor: "other@device", command: "5a4b3c2d-1e0f-4a9b-8c7d-6e5f4a3b2c1d", hash: "")
        event.hash = EventHash.link(previous: head.hash, event)
        let connection = try Connection(path: tally.databasePath, access: .readWrite)
        let insert = try connection.statement("INSERT INTO events(seq, id, stream, version, type, schema, data, recorded_at, actor, command, hash) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)")
        try insert.bind(event.seq, at: 1)
        for (index, text) in [event.id, event.stream].enumerated() { try insert.bind(text, at: Int32(index + 2)) }
        try insert.bind(Int64(event.version), at: 4)
        try insert.bind(event.type, at: 5)
        try insert.bind(Int64(event.schema), at: 6)
        try insert.bind(event.data, at: 7)
        try insert.bind(event.recordedAt, at: 8)
        for (index, text) in [event.actor, event.command, event.hash].enumerated() { try insert.bind(text, at: Int32(index + 9)) }
        try insert.step()
        return event.seq
    }

    @Test("sync refuses to push it (exit 65, nothing appended to the shared log); verify reports it; other commands warn and go on", arguments: SharedLogKind.available)
    func pushRefused(kind: SharedLogKind) throws {
        let fleet = Fleet(["laptop"], kind: kind)
        fleet.run(0, at: "2026-11-21T09:00:00Z", "add", "Router", "--note", "pw hunter8-ZZ1")
        #expect(fleet.sync(0, at: "2026-11-21T09:01:00Z").status == 0)
        let stream = try #require(fleet[0].run("--json", "show", "1").json?.objectValue?["todo"]?.objectValue?["id"]?.stringValue)
        let seq = try Self.appendUnreadableRedaction(fleet[0], stream: stream)
        let shared = fleet.export(fleet.server)
        let push = fleet.sync(0, at: "2026-11-21T09:02:00Z")
        #expect(push.status == 65, "\(push.status) \(push.stderr)")
        #expect(push.stderr.contains("Error: Event \(seq) is a redaction tally cannot read"), "\(push.stderr)")
        #expect(fleet.export(fleet.server) == shared, "nothing was appended to the shared log")
        #expect(fleet.server.run("verify").status == 0)
        let verify = fleet[0].run("verify")
        #expect(verify.status == 1, "\(verify.stdout)")
        #expect(verify.stdout.contains("a redaction that cannot be read: the values it names may not have been erased"), "\(verify.stdout)")
        // The replica's own commands meet it as any unreadable event: one warning, and they go on.
        let list = fleet[0].run("list")
        #expect(list.status == 0 && list.stdout.contains("Router"), "\(list.stderr)")
        #expect(list.stderr.hasPrefix("Warning: Event \(seq) ") && list.stderr.split(separator: "\n").count == 1, "\(list.stderr)")
    }
}

/// On PostgreSQL, erasing is the owner's alone: through `tally_redact`, logged; a writer can neither
/// redact through tally nor change an event by hand.
@Suite("PostgreSQL redaction: the owner's one change to stored events", .enabled(if: PostgresTestServer.isEnabled))
struct PostgresRedactionAttackTests {
    @Test("a writer's redact is refused with nothing appended; raw UPDATE and tally_redact are refused; the owner's is logged")
    func ownerOnly() throws {
        let server = try PostgresTestServer.shared()
        let uri = try server.makeDatabase("redact")
        let database = PostgresTestServer.databaseName(uri)
        let owner = TallyRunner()
        owner.environment["TALLY_DB"] = uri
        #expect(owner.run("add", "Router", "--note", "pw hunter2-WW1").status == 0)
        let writer = try server.makeRole("writer", grants: PostgresTestServer.Grants.writer, database: database)
        let teammate = TallyRunner()
        teammate.environment["TALLY_DB"] = server.uri(database: database, user: writer.name, password: writer.password)
        let count = try server.psql("SELECT count(*) FROM events", database: database)
        let refused = teammate.run("redact", "1", "--field", "note")
        #expect(refused.status == 74 && refused.stderr.contains("permission denied"), "\(refused.stderr)")
        #expect(try server.psql("SELECT count(*) FROM events", database: database) == count)
        let data = try server.psql("SELECT data FROM events WHERE seq = 1", database: database)
        for sql in [
            "UPDATE events SET data = '{}' WHERE seq = 1",
            "SELECT tally_redact(1, '{}', 1)",
            "SELECT set_config('tally.redacting', '1', false); UPDATE events SET data = '{}' WHERE seq = 1",
        ] {
            #expect(throws: (any Error).self, "\(sql)") { try server.psql(sql, database: database, user: writer.name, password: writer.password) }
        }
        // Even the owner's function refuses a payload that would change anything but erase.
        #expect(throws: (any Error).self) { try server.psql("SELECT tally_redact(1, '{\"$salts\":{},\"title\":\"forged\"}', 1)", database: database) }
        #expect(try server.psql("SELECT data FROM events WHERE seq = 1", database: database) == data)
        let done = owner.run("redact", "1", "--field", "note", "--reason", "password")
        #expect(done.status == 0, "\(done.stderr)")
        #expect(try server.psql("SELECT count(*) || ' ' || min(seq) || ' ' || min(redaction) || ' ' || min(field) FROM redactions", database: database) == "1 1 2 note")
        #expect(try server.psql("SELECT count(*) FROM events WHERE data LIKE '%hunter%'", database: database) == "0")
        #expect(owner.run("verify").status == 0)
        #expect(teammate.run("verify").status == 0)
        #expect(teammate.run("show", "1").stdout.contains("[redacted]"))
        // An annotation's text goes the same way, logged under its field.
        #expect(teammate.run("annotate", "1", "door code 8842-WW2").status == 0)
        let annotations = owner.run("redact", "1", "--field", "annotations")
        #expect(annotations.status == 0, "\(annotations.stderr)")
        #expect(try server.psql("SELECT string_agg(field, ' ' ORDER BY id) FROM redactions", database: database) == "note annotations")
        #expect(try server.psql("SELECT count(*) FROM events WHERE data LIKE '%8842%'", database: database) == "0")
        #expect(teammate.run("verify").status == 0)
        #expect(teammate.run("show", "1").stdout.contains("Annotations"))
        #expect(!teammate.run("show", "1").stdout.contains("8842"))
    }
}
