import Foundation
import Testing
import TallyDomain
@testable import TallySQLite
import TallyTestSupport
@testable import TallyEssentials

/// A shared log edited behind everyone's back (its stored hashes left as they were), a shared
/// event no other door would accept, and a shared disk that is not mounted, against replicas that
/// had synced before. Every case: the exit code and the message, nothing changed on either side
/// (`export` before and after), and `verify --remote` naming the first differing event.
@Suite("hostile shared logs: tampered, forged and missing", .serialized)
struct SharedLogTamperAttackTests {
    /// How a teammate with write access to the shared log changed it.
    enum Tamper: String, CaseIterable, CustomStringConvertible {
        /// One event's title changed in place.
        case editTitle
        /// One event deleted and the later ones moved down one position.
        case deleteAndRenumber
        /// Two neighbouring events swapped, each keeping its stored hash.
        case swap
        /// Two events' contents swapped, the stored hashes left in their places.
        case swapContent
        /// The newest events cut off.
        case truncate

        var description: String { rawValue }
    }

    /// One generated case: the log's size, the position tampered with, the shared log's kind.
    struct Case: CustomStringConvertible {
        var tamper: Tamper
        var kind: SharedLogKind
        var events: Int
        var position: Int64

        var description: String { "\(tamper) at \(position) of \(events) (\(kind))" }
    }

    /// Logs up to this size are compared whole by every sync; larger ones only by sample.
    static let wholeLog = 60

    static let cases: [Case] = {
        var random = SeededRandom(seed: 2026_22_09)
        var cases: [Case] = []
        let rounds = AttackScale.count(short: 1, full: 6)
        for round in 0..<rounds {
            for kind in SharedLogKind.available {
                for tamper in Tamper.allCases {
                    let events = round == 0 ? 12 : Int.random(in: 8...wholeLog, using: &random)
                    let position = Int64.random(in: 2...Int64(events - 2), using: &random)
                    cases.append(Case(tamper: tamper, kind: kind, events: events, position: position))
                }
            }
        }
        return cases
    }()

    /// SQL that changes the shared log as `tamper` says, at `position` of `events`.
    static func statements(_ tamper: Tamper, position p: Int64, events: Int) -> [String] {
        let far: Int64 = 1_000_000
        switch tamper {
        case .editTitle:
            return ["UPDATE events SET data = replace(data, '\"title\":\"', '\"title\":\"Forged ') WHERE seq = \(p)"]
        case .deleteAndRenumber:
            return [
                "DELETE FROM events WHERE seq = \(p)",
                "UPDATE events SET seq = seq + \(far) WHERE seq > \(p)",
                "UPDATE events SET seq = seq - \(far + 1) WHERE seq > \(far)",
            ]
        case .swap:
            return [
                "UPDATE events SET seq = \(far) WHERE seq = \(p)",
                "UPDATE events SET seq = \(p) WHERE seq = \(p + 1)",
                "UPDATE events SET seq = \(p + 1) WHERE seq = \(far)",
            ]
        case .swapContent:
            // Every column but seq and hash moves, via a copy of the two rows.
            let columns = ["id", "stream", "version", "type", "schema", "data", "recorded_at", "actor", "command"]
            let set = columns.map { "\($0) = (SELECT \($0) FROM tamper_copy WHERE tamper_copy.seq = \(2 * p + 1) - events.seq)" }.joined(separator: ", ")
            return [
                "CREATE TABLE tamper_copy AS SELECT * FROM events WHERE seq IN (\(p), \(p + 1))",
                "UPDATE events SET id = id || '-moving', stream = stream || '-moving' WHERE seq IN (\(p), \(p + 1))",
                "UPDATE events SET \(set) WHERE seq IN (\(p), \(p + 1))",
                "DROP TABLE tamper_copy",
            ]
        case .truncate:
            return ["DELETE FROM events WHERE seq > \(p)"]
        }
    }

    /// The first event `verify --remote` and a sync name for `tamper` at `p`.
    static func firstDiffering(_ tamper: Tamper, position p: Int64) -> Int64 {
        tamper == .truncate ? p + 1 : p
    }

    /// Runs `statements` on the shared log with its append-only triggers out of the way, as an
    /// attacker who owns the file (or the table) can.
    static func tamper(_ shared: String, kind: SharedLogKind, _ statements: [String]) throws {
        switch kind {
        case .sqlite:
            let log = try SQLiteEventLog.openForWriting(path: shared, now: Fixtures.epoch)
            defer { log.close() }
            try log.connection.execute("DROP TRIGGER IF EXISTS events_reject_update")
            try log.connection.execute("DROP TRIGGER IF EXISTS events_reject_delete")
            for statement in statements { try log.connection.execute(statement) }
        case .postgres:
            let database = PostgresTestServer.databaseName(shared)
            let sql = (["ALTER TABLE events DISABLE TRIGGER USER"] + statements + ["ALTER TABLE events ENABLE TRIGGER USER"]).joined(separator: "; ")
            try PostgresTestServer.shared().psql(sql, database: database)
        }
    }

    /// Two replicas that have synced `events` events, and a third that only has local work.
    static func fleet(_ kind: SharedLogKind, events: Int, seed: UInt64) throws -> Fleet {
        let fleet = Fleet(["ada", "bob"], kind: kind)
        var random = SeededRandom(seed: seed)
        let file = fleet[0].directory.path("history.jsonl")
        _ = try GeneratedExport(events: events, path: file, random: &random)
        let imported = fleet.run(0, at: "2026-11-21T09:00:00Z", "import", file)
        #expect(imported.status == 0, "\(imported.stderr)")
        #expect(fleet.sync(0, at: "2026-11-21T09:01:00Z").status == 0)
        #expect(fleet.sync(1, at: "2026-11-21T09:02:00Z").status == 0)
        return fleet
    }

    @Test("a tampered shared log is refused by every replica that synced it, nothing changes, verify --remote names the event", arguments: cases)
    func tampered(_ test: Case) throws {
        var test = test
        let fleet = try Self.fleet(test.kind, events: test.events, seed: UInt64(test.position) &* 31 &+ UInt64(test.events))
        let total = fleet.server.eventCount
        #expect(total >= Int64(test.events))
        if test.tamper == .editTitle { test.position = Self.titled(fleet, from: test.position) }
        // bob has local work the sync would push.
        #expect(fleet.run(1, at: "2026-11-21T10:00:00Z", "add", "Unpushed").status == 0)
        try Self.tamper(fleet.shared, kind: test.kind, Self.statements(test.tamper, position: test.position, events: Int(total)))
        let before = (fleet.export(fleet[0]), fleet.export(fleet[1]), fleet.export(fleet.server))
        let first = Self.firstDiffering(test.tamper, position: test.position)
        for device in 0..<2 {
            let result = fleet.sync(device, at: "2026-11-21T11:0\(device):00Z")
            #expect(result.status == 1, "\(test) device \(device): \(result.stdout)\(result.stderr)")
            let shown = fleet.shared.replacingOccurrences(of: ":\(PostgresTestServer.password)@", with: ":***@")
            if test.tamper == .truncate || test.tamper == .deleteAndRenumber {
                // The shared log is shorter than what was synced: the synced head is gone.
                #expect(result.stderr.hasPrefix("Error: The shared log at \(shown) does not extend this database's synced history from event \(first) on: "), "\(test): \(result.stderr)")
            } else {
                #expect(result.stderr == "Error: The shared log at \(shown) was changed behind this database's back: its event \(first) differs from this database's copy. Events already synced were edited, removed or moved there with their stored hashes left as they were; nothing was changed on either side. 'tally verify --remote' compares all of it.\n", "\(test): \(result.stderr)")
            }
            #expect(!result.stderr.contains(PostgresTestServer.password))
        }
        #expect(fleet.export(fleet[0]) == before.0 && fleet.export(fleet[1]) == before.1 && fleet.export(fleet.server) == before.2, "\(test)")
        for device in 0..<2 {
            #expect(fleet[device].run("verify").status == 0, "\(test): the replica itself is intact")
            let verify = fleet[device].run("verify", "--remote")
            #expect(verify.status == 1, "\(test): \(verify.stdout)")
            #expect(verify.stdout.hasPrefix("  seq \(first): remote: the shared log at "), "\(test): \(verify.stdout)")
            #expect(verify.stderr.contains("the first bad event is seq \(first)."), "\(test): \(verify.stderr)")
        }
        let json = fleet[0].run("--json", "verify", "--remote").json?.objectValue
        #expect(json?["ok"] == false && json?["remote"]?.objectValue?["ok"] == false)
        #expect(json?["problems"]?.arrayValue?.first?.objectValue?["seq"]?.intValue == first)
        #expect(fleet.export(fleet[0]) == before.0 && fleet.export(fleet[1]) == before.1 && fleet.export(fleet.server) == before.2)
    }

    /// The first event at or after `position` that has a title (a todo's creation), so editing it changes something.
    static func titled(_ fleet: Fleet, from position: Int64) -> Int64 {
        let lines = fleet.export(fleet.server).split(separator: "\n")
        for line in lines {
            guard case .object(let event)? = try? JSON.parse(String(line)), let seq = event["seq"]?.intValue, seq >= position,
                  event["data"]?.objectValue?["title"] != nil
            else { continue }
            return seq
        }
        Issue.record("no todo after \(position)")
        return position
    }

    @Test("an untouched shared log passes verify --remote on every replica", arguments: SharedLogKind.available)
    func untouched(kind: SharedLogKind) throws {
        let fleet = try Self.fleet(kind, events: 30, seed: 7)
        #expect(fleet.run(1, at: "2026-11-21T10:00:00Z", "add", "Unpushed").status == 0)
        let shown = fleet.shared.replacingOccurrences(of: ":\(PostgresTestServer.password)@", with: ":***@")
        let total = fleet.server.eventCount
        for device in 0..<2 {
            let verify = fleet[device].run("verify", "--remote")
            #expect(verify.status == 0, "\(verify.stdout)\(verify.stderr)")
            let local = fleet[device].eventCount
            #expect(verify.stdout == "OK: \(local) events, chain intact\nOK: the shared log at \(shown) matches this database up to event \(total), and its chain of \(total) events is intact\n")
        }
        #expect(fleet.sync(1, at: "2026-11-21T10:01:00Z").status == 0)
        #expect(fleet[0].run("verify", fleet.shared).status == 64, "a URL without --remote is a usage error")
        let noRemote = TallyRunner()
        noRemote.run("add", "alone")
        let none = noRemote.run("verify", "--remote")
        #expect(none.status == 1 && none.stderr.contains("No remote is set"), "\(none.stderr)")
    }

    @Test("a large log: verify --remote finds an edit anywhere; a sync refuses it or changes nothing")
    func sampled() throws {
        let events = AttackScale.count(short: 400, full: 3000)
        let fleet = try Self.fleet(.sqlite, events: events, seed: 11)
        let total = fleet.server.eventCount
        var random = SeededRandom(seed: 99)
        let position = Self.titled(fleet, from: Int64.random(in: 2...(total - 10), using: &random))
        try Self.tamper(fleet.shared, kind: .sqlite, Self.statements(.editTitle, position: position, events: Int(total)))
        let before = (fleet.export(fleet[0]), fleet.export(fleet.server))
        var refused = 0
        for minute in 0..<5 {
            let result = fleet.sync(0, at: "2026-11-21T11:0\(minute):00Z")
            #expect(result.status == 0 || result.status == 1, "\(result.stderr)")
            if result.status == 1 {
                refused += 1
                #expect(result.stderr.contains("was changed behind this database's back: its event \(position) differs"), "\(result.stderr)")
            }
        }
        #expect(fleet.export(fleet[0]) == before.0 && fleet.export(fleet.server) == before.1)
        let verify = fleet[0].run("verify", "--remote")
        #expect(verify.status == 1 && verify.stdout.hasPrefix("  seq \(position): remote: "), "\(verify.stdout)")
        // The synced head is always compared: an edit there is refused by every sync.
        try Self.tamper(fleet.shared, kind: .sqlite, Self.statements(.editTitle, position: total, events: Int(total)))
        let head = fleet.sync(0, at: "2026-11-21T12:00:00Z")
        #expect(head.status == 1, "\(head.stderr)")
        #expect(head.stderr.contains("its event \(position) differs") || head.stderr.contains("its event \(total) differs"), "\(head.stderr)")
    }

    @Test("a missing shared folder or file: exit 74, 'Cannot reach', nothing created")
    func unmounted() throws {
        let fleet = Fleet(["ada"])
        let disk = fleet.server.directory.path("disk")
        try FileManager.default.createDirectory(atPath: disk, withIntermediateDirectories: true)
        let shared = disk + "/shared.db"
        fleet[0].run("add", "a")
        #expect(fleet[0].run("sync", "--remote", shared).status == 0)
        let before = fleet.export(fleet[0])
        try FileManager.default.moveItem(atPath: disk, toPath: disk + "-away")
        let folder = fleet[0].run("sync")
        #expect(folder.status == 74)
        #expect(folder.stderr == "Error: Cannot reach the shared log at \(shared): the folder \(disk) does not exist (is the disk mounted?). Local work is untouched, and every command keeps working offline.\n")
        let verify = fleet[0].run("verify", "--remote")
        #expect(verify.status == 74 && verify.stderr.hasPrefix("Error: Cannot reach the shared log at \(shared): the folder"), "\(verify.stderr)")
        // The mount point is there, empty: the file is missing.
        try FileManager.default.createDirectory(atPath: disk, withIntermediateDirectories: true)
        let file = fleet[0].run("sync")
        #expect(file.status == 74)
        #expect(file.stderr.contains("there is no file there, though this database synced with it up to event 1 (is the disk mounted?)"), "\(file.stderr)")
        let czech = fleet[0].run(["sync"], environment: ["LANG": "cs_CZ.UTF-8"])
        #expect(czech.status == 74 && czech.stderr.contains("soubor tam není"), "\(czech.stderr)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: disk).isEmpty, "nothing is created in the mount point")
        #expect(fleet.export(fleet[0]) == before && fleet[0].run("verify").status == 0)
        #expect(!fleet[0].run("sync").stderr.contains("rewritten"))
    }

    /// An event with a title of `length` characters, chained after the shared log's head.
    static func forged(after head: LogHead, title: String) -> EventEnvelope {
        var event = EventEnvelope(
            seq: head.seq + 1, id: "0badbad0-0000-4000-8000-000000000001", stream: "0badbad0-0000-4000-8000-000000000002", version: 1,
            type: "todo.created", schema: EventCatalog.currentSchemas["todo.created"] ?? 1,
            data: JSON.object(EventCatalog.payload(of: .todoCreated(TodoFields(title: title)))).serialized(.canonical),
            recordedAt: Fixtures.epoch, actor: "mallory@host", command: "0badbad0-0000-4000-8000-000000000003", hash: ""
        )
        event.hash = EventHash.link(previous: head.hash, event)
        return event
    }

    @Test("a shared event import would refuse (a 2,000-character title) is refused by sync with exit 65, nothing changes", arguments: SharedLogKind.available)
    func overLimit(kind: SharedLogKind) throws {
        let fleet = try Self.fleet(kind, events: 6, seed: 5)
        #expect(fleet.run(1, at: "2026-11-21T10:00:00Z", "add", "Unpushed").status == 0)
        guard case .object(let last)? = fleet.server.run("--json", "log", "--limit", "1").json?.arrayValue?.first,
              let seq = last["seq"]?.intValue, let hash = last["hash"]?.stringValue
        else { Issue.record("no head"); return }
        let event = Self.forged(after: LogHead(seq: seq, hash: hash), title: String(repeating: "x", count: 2000))
        let values = "\(event.seq), '\(event.id)', '\(event.stream)', 1, '\(event.type)', \(event.schema), '\(event.data)', \(event.recordedAt), '\(event.actor)', '\(event.command)', '\(event.hash)'"
        let insert = "INSERT INTO events(seq, id, stream, version, type, schema, data, recorded_at, actor, command, hash) VALUES (\(values))"
        try Self.tamper(fleet.shared, kind: kind, [insert])
        let line = EventLines.encode(event)
        let importer = TallyRunner()
        let lineFile = importer.directory.path("forged.jsonl")
        try (line + "\n").write(toFile: lineFile, atomically: true, encoding: .utf8)
        let refusedByImport = importer.run("import", lineFile)
        #expect(refusedByImport.status == 65, "\(refusedByImport.stderr)")
        let before = (fleet.export(fleet[0]), fleet.export(fleet[1]), fleet.export(fleet.server))
        let fresh = TallyRunner()
        for runner in [fleet[0], fleet[1], fresh] {
            let result = runner.run(["sync", "--remote", fleet.shared], environment: ["TALLY_NOW": "2026-11-21T11:00:00Z"])
            #expect(result.status == 65, "\(result.stdout)\(result.stderr)")
            #expect(result.stderr.contains("holds event \(event.seq) (todo.created) that tally refuses: "), "\(result.stderr)")
            #expect(result.stderr.contains("'tally import' refuses it too, so it is not pulled; nothing was changed here."), "\(result.stderr)")
        }
        #expect(fleet.export(fleet[0]) == before.0 && fleet.export(fleet[1]) == before.1 && fleet.export(fleet.server) == before.2)
        #expect(fresh.eventCount <= 0, "a refused clone stores nothing")
        for device in 0..<2 { #expect(fleet[device].run("verify").status == 0) }
    }
}
