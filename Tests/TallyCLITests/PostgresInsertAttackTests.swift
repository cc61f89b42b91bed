import Foundation
import Testing
import TallyDomain
import TallyTestSupport
@testable import TallyEssentials

/// A teammate with only `SELECT, INSERT` on the shared log inserts rows by raw SQL (a scram login on
/// 127.0.0.1): the server's insert trigger refuses every row that would break the log, and the log
/// stays usable by every client.
@Suite("PostgreSQL: raw inserts that would break the shared log are refused by the server", .enabled(if: PostgresTestServer.isEnabled))
struct PostgresInsertAttackTests {
    let server: PostgresTestServer

    init() throws {
        server = try PostgresTestServer.shared()
    }

    /// A log with two events and a teammate with `grants` (by default: may select and insert).
    func setUp(grants: [String] = PostgresTestServer.Grants.selectInsert, label: String = "insert") throws
        -> (owner: TallyRunner, mate: TallyRunner, role: (name: String, password: String), database: String) {
        let uri = try server.makeDatabase(label)
        let owner = TallyRunner()
        owner.environment["TALLY_DB"] = uri
        #expect(owner.run("add", "First").status == 0)
        #expect(owner.run("done", "1").status == 0)
        let database = PostgresTestServer.databaseName(uri)
        let role = try server.makeRole("mate", grants: grants, database: database)
        let mate = TallyRunner()
        mate.environment["TALLY_DB"] = server.uri(database: database, user: role.name, password: role.password)
        return (owner, mate, role, database)
    }

    /// A well-formed next event (seq 3 after the two of `setUp`) with its true hash; `previous` is the hash at seq 2.
    static func validRow(previous: String, actor: String = "mate@desk", title: String = "Hello") -> EventEnvelope {
        var event = EventEnvelope(
            seq: 3, id: UUID().uuidString.lowercased(), stream: UUID().uuidString.lowercased(), version: 1, type: "todo.created", schema: 4,
            data: JSON.object(["due": .null, "note": .null, "priority": .null, "series": .null, "tags": .array([]), "title": .string(title), "wait": .null]).serialized(.canonical),
            recordedAt: 1_795_000_000_000, actor: actor, command: UUID().uuidString.lowercased(), hash: ""
        )
        event.hash = EventHash.link(previous: previous, event)
        return event
    }

    /// The INSERT statement for a row (the values as SQL literals, quotes doubled).
    static func insert(_ event: EventEnvelope) -> String {
        func quoted(_ text: String) -> String {
            // A huge value is built on the server: one argument to psql may not be that long.
            if text.utf8.count > 100_000, text.allSatisfy({ $0 == "x" || $0 == "\"" || $0 == "{" || $0 == "}" || $0 == ":" || $0.isLetter }) {
                return "'{\"title\":\"' || repeat('x', \(text.utf8.count - 12)) || '\"}'"
            }
            return "'" + text.replacingOccurrences(of: "'", with: "''") + "'"
        }
        return "INSERT INTO events(seq, id, stream, version, type, schema, data, recorded_at, actor, command, hash) VALUES ("
            + "\(event.seq), \(quoted(event.id)), \(quoted(event.stream)), \(event.version), \(quoted(event.type)), \(event.schema), "
            + "\(quoted(event.data)), \(event.recordedAt), \(quoted(event.actor)), \(quoted(event.command)), \(quoted(event.hash)))"
    }

    /// Hostile rows: each one thing wrong, the rest (the hash included, where the point is not the hash) as tally would write it.
    static func hostileRows(previous: String) -> [(name: String, row: EventEnvelope, refusal: String)] {
        func rehashed(_ change: (inout EventEnvelope) -> Void) -> EventEnvelope {
            var event = validRow(previous: previous)
            change(&event)
            event.hash = EventHash.link(previous: previous, event)
            return event
        }
        func raw(_ change: (inout EventEnvelope) -> Void) -> EventEnvelope {
            var event = validRow(previous: previous)
            change(&event)
            return event
        }
        return [
            ("a hash that does not link", raw { $0.hash = String(repeating: "a", count: 64) }, "hash does not link"),
            ("a hash of another previous event", raw { $0.hash = EventHash.link(previous: EventHash.genesis, $0) }, "hash does not link"),
            ("a changed title under the old hash", raw { $0.data = $0.data.replacingOccurrences(of: "Hello", with: "Hacked") }, "hash does not link"),
            ("a hash in capitals", raw { $0.hash = $0.hash.uppercased() }, "hash does not link"),
            ("data that is not JSON", rehashed { $0.data = "{not json" }, "invalid input syntax for type json"),
            ("data that is an array", rehashed { $0.data = "[1,2]" }, "not a JSON object"),
            ("data of 2 MB", rehashed { $0.data = #"{"title":""# + String(repeating: "x", count: 2_000_000) + #""}"# }, "larger than 1 MiB"),
            ("an empty id", rehashed { $0.id = "" }, "id is not a lowercase UUID"),
            ("an id with a control character", rehashed { $0.id = "abc\u{1b}[31m" }, "id is not a lowercase UUID"),
            ("an empty stream", rehashed { $0.stream = "" }, "stream is not"),
            ("a stream with a newline", rehashed { $0.stream = "a\nb" }, "stream is not"),
            ("an empty type", rehashed { $0.type = "" }, "type is not"),
            ("a type of 2,000 characters", rehashed { $0.type = "todo." + String(repeating: "x", count: 2_000) }, "type is not"),
            ("version 0", rehashed { $0.version = 0 }, "version 0 of stream"),
            ("a negative version", rehashed { $0.version = -5 }, "version -5 of stream"),
            ("a version with a gap", rehashed { $0.version = 7 }, "version 7 of stream"),
            ("version Int32.max", rehashed { $0.version = Int(Int32.max) }, "of stream"),
            ("schema 0", rehashed { $0.schema = 0 }, "schema 0 is not"),
            ("schema Int32.max", rehashed { $0.schema = Int(Int32.max) }, "is not between 1 and 1000"),
            ("a time of Int64.max", rehashed { $0.recordedAt = Int64.max }, "not between the years 1 and 9999"),
            ("a time of Int64.min", rehashed { $0.recordedAt = Int64.min }, "not between the years 1 and 9999"),
            ("an empty actor", rehashed { $0.actor = "" }, "actor is not"),
            ("an actor with ESC", rehashed { $0.actor = "mate\u{1b}[2J" }, "actor is not"),
            ("an actor of 300 characters", rehashed { $0.actor = String(repeating: "a", count: 300) }, "actor is not"),
            ("a command that is no UUID", rehashed { $0.command = "x" }, "command is not"),
            ("a seq with a gap", rehashed { $0.seq = 9 }, "appended in order"),
            ("seq Int64.max", rehashed { $0.seq = Int64.max }, "appended in order"),
            ("a taken seq", rehashed { $0.seq = 2 }, "appended in order"),
        ]
    }

    @Test("every hostile row is refused with the reason; nothing is appended; every client still lists, verifies, exports and appends")
    func hostileRowsAreRefused() throws {
        let (owner, mate, role, database) = try setUp()
        let previous = try server.psql("SELECT hash FROM events WHERE seq = 2", database: database)
        let export = owner.run("export").stdout
        for (name, row, refusal) in Self.hostileRows(previous: previous) {
            do {
                try server.psql(Self.insert(row), database: database, user: role.name, password: role.password)
                Issue.record("\(name): the server accepted it")
            } catch {
                #expect("\(error)".contains(refusal), "\(name): \(error)")
            }
        }
        #expect(try server.psql("SELECT count(*) FROM events", database: database) == "2")
        for tally in [owner, mate] {
            let list = tally.run("list", "--json", "--status", "all")
            #expect(list.status == 0 && list.titles == ["First"], "\(list.stderr)")
            #expect(tally.run("verify").status == 0)
            #expect(tally.run("export").stdout == export)
        }
        #expect(mate.run("add", "Second").status == 0)
        #expect(owner.run("list", "--json", "--status", "all").titles == ["First", "Second"])
        #expect(owner.run("verify").stdout == "OK: 3 events, chain intact\n")
    }

    @Test("a row hashed exactly as tally hashes it is accepted from raw SQL, with quotes, backslashes and non-ASCII text; the server records the role")
    func wellFormedRowIsAccepted() throws {
        let (owner, _, role, database) = try setUp()
        let previous = try server.psql("SELECT hash FROM events WHERE seq = 2", database: database)
        let row = Self.validRow(previous: previous, actor: #"O'Brien "the \ one" ✓ 日本"#, title: #"Quote " back \ slash /é"#)
        try server.psql(Self.insert(row), database: database, user: role.name, password: role.password)
        #expect(owner.run("verify").stdout == "OK: 3 events, chain intact\n")
        #expect(Set(owner.run("list", "--json", "--status", "all").titles) == ["First", #"Quote " back \ slash /é"#])
        #expect(try server.psql("SELECT role FROM events WHERE seq = 3", database: database) == role.name)
    }

    @Test("generated rows with one field changed at random: each is refused unless it is still a well-formed, linked event")
    func generatedMutations() throws {
        let (owner, _, role, database) = try setUp()
        let previous = try server.psql("SELECT hash FROM events WHERE seq = 2", database: database)
        var generator = SystemRandomNumberGenerator()
        let hostile = ["", "\u{0}", "\u{1b}", "\n", "'", "\"", "\\", "{}", "[]", "null", "9999999999999999999", "-1", "ü", String(repeating: "z", count: 5_000)]
        var accepted = 0
        for _ in 0 ..< AttackScale.count(short: 30, full: 400) {
            var row = Self.validRow(previous: previous)
            let value = hostile.randomElement(using: &generator)!
            switch Int.random(in: 0 ..< 8, using: &generator) {
            case 0: row.id = value
            case 1: row.stream = value
            case 2: row.type = value
            case 3: row.data = value
            case 4: row.actor = value
            case 5: row.command = value
            case 6: row.recordedAt = [Int64.min, Int64.max, -1, 0][Int.random(in: 0 ..< 4, using: &generator)]
            default: row.version = [Int.min, -1, 0, 2, Int(Int32.max)][Int.random(in: 0 ..< 5, using: &generator)]
            }
            if Bool.random(using: &generator) { row.hash = EventHash.link(previous: previous, row) }
            guard !value.contains("\u{0}") else { continue }  // PostgreSQL text cannot hold NUL at all.
            let sql = Self.insert(row)
            let count = try server.psql("SELECT count(*) FROM events", database: database)
            do {
                try server.psql("BEGIN; \(sql); ROLLBACK;", database: database, user: role.name, password: role.password)
                accepted += 1
                // Accepted only when it is an event tally would write: every check of the trigger holds.
                #expect(row.hash == EventHash.link(previous: previous, row) && row.version == 1, "\(row)")
            } catch {
                #expect(!"\(error)".isEmpty)
            }
            #expect(try server.psql("SELECT count(*) FROM events", database: database) == count)
        }
        #expect(owner.run("verify").status == 0)
        #expect(accepted < AttackScale.count(short: 30, full: 400))
    }
}
