import Foundation
import Testing
import TallyDomain
import TallyPostgres
import TallyTestSupport

/// Roles on a shared log, tried the way a careless or hostile teammate would: every role kind of the
/// roles table in docs/guide/postgresql.md (owner, writer, reader, a role with no grant), through tally and through raw SQL
/// over a password (scram) login on 127.0.0.1.
@Suite("PostgreSQL roles: each may do what the roles table says, and nothing more", .enabled(if: PostgresTestServer.isEnabled))
struct PostgresRoleAttackTests {
    let server: PostgresTestServer

    init() throws {
        server = try PostgresTestServer.shared()
    }

    func runner(_ uri: String) -> TallyRunner {
        let tally = TallyRunner()
        tally.environment["TALLY_DB"] = uri
        return tally
    }

    /// A log with three todos and a stored snapshot, made by its owner.
    func sharedLog() throws -> (owner: TallyRunner, database: String) {
        let uri = try server.makeDatabase("roles")
        let owner = runner(uri)
        for title in ["Secret plan", "Salary review", "Dentist"] { #expect(owner.run("add", title).status == 0) }
        let snapshot = owner.run("snapshot")
        #expect(snapshot.status == 0, "\(snapshot.stderr)")
        return (owner, PostgresTestServer.databaseName(uri))
    }

    /// The key of the newest stored snapshot, as `seq, format, reducer_version`.
    func snapshotKey(_ database: String) throws -> String {
        try server.psql("SELECT seq || ', ' || format || ', ' || reducer_version FROM snapshots ORDER BY seq DESC LIMIT 1", database: database)
    }

    /// Runs raw SQL as a role; the server's refusal, or nil when it ran.
    func refusal(_ sql: String, _ role: (name: String, password: String), _ database: String) -> String? {
        do {
            try server.psql(sql, database: database, user: role.name, password: role.password)
            return nil
        } catch {
            return "\(error)"
        }
    }

    func counts(_ database: String) throws -> String {
        try server.psql("SELECT (SELECT count(*) FROM events) || '/' || (SELECT count(*) FROM snapshots) || '/' || (SELECT count(*) FROM snapshot_chunks)", database: database)
    }

    @Test("a role with no grant: cannot read titles through tally_snapshot_chunk, delete snapshots, store a forged one, or read anything through tally")
    func noGrant() throws {
        let (owner, database) = try sharedLog()
        let nobody = try server.makeRole("nobody", grants: [], database: database)
        let key = try snapshotKey(database)
        let before = try counts(database)
        let attempts = [
            "SELECT tally_snapshot_chunk(\(key), 0)",
            "SELECT tally_delete_snapshots()",
            "SELECT tally_save_snapshot_chunks(999, 7, 1, 0, 'forged', '\\x00'::bytea, 1024, '\\x00'::bytea, 2)",
            "SELECT tally_save_snapshot(999, 7, 1, 0, 'forged', '\\x00'::bytea, 2)",
            "SELECT data FROM events",
            "SELECT data FROM snapshot_chunks",
            "SELECT body FROM blobs",
        ]
        for sql in attempts {
            let refused = refusal(sql, nobody, database)
            #expect(refused?.contains("permission denied") == true, "\(sql): \(refused ?? "ran")")
        }
        #expect(try counts(database) == before)
        let tally = runner(server.uri(database: database, user: nobody.name, password: nobody.password))
        for arguments in [["list"], ["add", "x"], ["snapshot"], ["rebuild"], ["export"]] {
            let result = tally.run(arguments)
            #expect(result.status == 74, "\(arguments): \(result.stderr)")
            #expect(result.stderr.hasPrefix("Error: The database refused this role: permission denied"), "\(arguments): \(result.stderr)")
            #expect(!result.stdout.contains("Secret plan") && !result.stderr.contains(nobody.password))
        }
        let json = tally.run("--json", "list")
        #expect(json.status == 74 && json.stderr.contains(#""code":"permission_denied""#))
        #expect(try counts(database) == before)
        #expect(owner.run("list", "--json").titles == ["Secret plan", "Salary review", "Dentist"])
        #expect(owner.run("verify").status == 0)
    }

    @Test("a reader reads through tally (snapshot included) and raw SELECT; every write, snapshot store and delete is refused")
    func reader() throws {
        let (owner, database) = try sharedLog()
        let reader = try server.makeRole("reader", grants: PostgresTestServer.Grants.reader, database: database)
        let key = try snapshotKey(database)
        let before = try counts(database)
        #expect(refusal("SELECT count(*) FROM events WHERE tally_snapshot_chunk(\(key), 0) IS NOT NULL", reader, database) == nil)
        for sql in [
            "SELECT tally_delete_snapshots()",
            "SELECT tally_save_snapshot_chunks(999, 7, 1, 0, 'forged', '\\x00'::bytea, 1024, '\\x00'::bytea, 2)",
            "INSERT INTO blobs VALUES ('ab', 'identity', '\\x00')",
            "UPDATE events SET data = '{}'",
            "DELETE FROM snapshots",
        ] {
            let refused = refusal(sql, reader, database)
            #expect(refused?.contains("permission denied") == true, "\(sql): \(refused ?? "ran")")
        }
        let tally = runner(server.uri(database: database, user: reader.name, password: reader.password))
        #expect(tally.run("list", "--json").titles == ["Secret plan", "Salary review", "Dentist"])
        for arguments in [["show", "1"], ["log"], ["verify"], ["info"], ["export"]] {
            let result = tally.run(arguments)
            #expect(result.status == 0 && result.stderr.isEmpty, "\(arguments): \(result.stderr)")
        }
        let add = tally.run("add", "forged")
        #expect(add.status == 74 && add.stderr.hasPrefix("Error: The database refused this role: permission denied for table events."), "\(add.stderr)")
        let snapshot = tally.run("snapshot")
        #expect(snapshot.status == 74 && snapshot.stderr.hasPrefix("Error: The database refused this role: permission denied for function tally_save_snapshot_chunks"), "\(snapshot.stderr)")
        #expect(try counts(database) == before)
        #expect(owner.run("verify").status == 0)
    }

    @Test("a writer appends and stores, prunes and rebuilds snapshots through tally; raw UPDATE, DELETE, TRUNCATE and direct table writes are refused")
    func writer() throws {
        let (owner, database) = try sharedLog()
        let writer = try server.makeRole("writer", grants: PostgresTestServer.Grants.writer, database: database)
        let tally = runner(server.uri(database: database, user: writer.name, password: writer.password))
        let add = tally.run("add", "From the writer")
        #expect(add.status == 0 && add.stderr.isEmpty, "\(add.stderr)")
        #expect(tally.run("snapshot").status == 0)
        let rebuild = tally.run("rebuild")
        #expect(rebuild.status == 0 && rebuild.stderr.isEmpty, "\(rebuild.stderr)")
        #expect(tally.run("list", "--json").titles == ["Secret plan", "Salary review", "Dentist", "From the writer"])
        for sql in [
            "UPDATE events SET data = '{}'", "DELETE FROM events", "TRUNCATE events",
            "DELETE FROM snapshots", "INSERT INTO snapshot_chunks VALUES (1, 7, 1, 0, '\\x00')", "UPDATE blobs SET body = '\\x00'",
            "SELECT tally_save_snapshot(999, 7, 1, 0, 'forged', '\\x00'::bytea, 2)",
            "CREATE TABLE events_copy AS SELECT * FROM events",
        ] {
            #expect(refusal(sql, writer, database) != nil, "\(sql) ran")
        }
        let roles = owner.run("log", "--json").json?.arrayValue?.compactMap { $0.objectValue?["role"]?.stringValue } ?? []
        #expect(roles.first == writer.name)
        #expect(owner.run("verify").status == 0 && tally.run("verify").status == 0)
    }

    @Test("a writer whose snapshot grant is missing: its commands succeed with one clear warning, never a failure")
    func writerWithoutSnapshotGrant() throws {
        let (_, database) = try sharedLog()
        let writer = try server.makeRole("appender", grants: PostgresTestServer.Grants.writer.dropLast() + [
            "GRANT EXECUTE ON FUNCTION tally_snapshot_chunk(BIGINT, INTEGER, INTEGER, INTEGER) TO ROLE",
        ], database: database)
        let tally = runner(server.uri(database: database, user: writer.name, password: writer.password))
        // The policy stores a snapshot when the tail is 1000 events long; an import reaches it at once.
        let lines = (0 ..< 1_000).map { index in
            let (id, stream, command) = (UUID().uuidString.lowercased(), UUID().uuidString.lowercased(), UUID().uuidString.lowercased())
            return #"{"id":"\#(id)","stream":"\#(stream)","version":1,"type":"todo.created","schema":4,"recordedAt":"2026-11-20T10:00:00Z","#
                + #""actor":"bulk","command":"\#(command)","data":{"due":null,"note":null,"priority":null,"series":null,"tags":[],"title":"bulk \#(index)","wait":null}}"#
        }.joined(separator: "\n") + "\n"
        let imported = tally.run(["import", "-"], input: lines)
        #expect(imported.status == 0, "\(imported.stderr)")
        let warnings = imported.stderr.split(separator: "\n")
        #expect(warnings.count == 1 && warnings[0].contains("this role may not store snapshots"), "\(imported.stderr)")
        #expect(!imported.stderr.contains("permissionDenied") && !imported.stderr.contains("FATAL"))
        #expect(tally.eventCount == 1_003)
        #expect(tally.run("verify").status == 0)
    }

    @Test("a log made before migration 0005 lets any role read snapshot chunks; the owner's next command closes it; a writer cannot migrate and is told why")
    func oldDatabaseIsFixed() throws {
        let uri = try server.makeDatabase("old")
        let database = PostgresTestServer.databaseName(uri)
        // The schema as tally made it before migration 0005, with a snapshot in it.
        var sql = "CREATE TABLE schema_migrations(version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at BIGINT NOT NULL);"
        for file in ["0001_create_events", "0003_create_blobs", "0004_snapshot_chunks"] {
            sql += try String(contentsOf: PackageFiles.url("migrations/postgresql/\(file).sql"), encoding: .utf8)
            sql += "INSERT INTO schema_migrations VALUES (\(Int(file.prefix(4))!), '\(file)', 0);"
        }
        try server.psql(sql, database: database)
        try server.psql("SELECT tally_save_snapshot_chunks(3, 7, 1, 0, 'c', '\\x0102'::bytea, 1024, '\\x00'::bytea, 2)", database: database)
        let nobody = try server.makeRole("nobody", grants: [], database: database)
        #expect(refusal("SELECT tally_snapshot_chunk(3, 7, 1, 0)", nobody, database) == nil, "the hole this migration closes")
        let writer = try server.makeRole("writer", grants: PostgresTestServer.Grants.selectInsert, database: database)
        let early = runner(server.uri(database: database, user: writer.name, password: writer.password)).run("add", "too early")
        #expect(early.status == 74 && early.stderr.contains("needs migrating to version \(PostgresMigration.all.last!.version), which only the owner of its tables may do"), "\(early.stderr)")
        #expect(runner(uri).run("add", "migrated").status == 0)
        #expect(try server.psql("SELECT max(version) FROM schema_migrations", database: database) == String(PostgresMigration.all.last!.version))
        #expect(refusal("SELECT tally_snapshot_chunk(3, 7, 1, 0)", nobody, database)?.contains("permission denied") == true)
        #expect(refusal("SELECT tally_delete_snapshots()", nobody, database)?.contains("permission denied") == true)
        #expect(runner(server.uri(database: database, user: writer.name, password: writer.password)).run("add", "now").status == 0)
    }
}

/// Passwords and login failures as the binary prints them: wherever a connection string appears
/// (errors, `remote show`, `sync`, `info`, `log`), on a real server with a scram login on 127.0.0.1.
@Suite("PostgreSQL secrets and login messages, end to end", .enabled(if: PostgresTestServer.isEnabled))
struct PostgresSecretAttackTests {
    let server: PostgresTestServer

    init() throws {
        server = try PostgresTestServer.shared()
    }

    @Test("a wrong password: the server refused the login, the address named once, no libpq FATAL line, no double period; --db and sync share the code")
    func wrongPassword() throws {
        let uri = try server.makeDatabase("login")
        let database = PostgresTestServer.databaseName(uri)
        let secret = "wrong-\(UInt32.random(in: 0 ... UInt32.max))"
        let target = server.uri(database: database, password: secret)
        let shown = "postgresql://\(PostgresTestServer.superuser):***@\(server.host):\(server.port)/\(database)"
        let tally = TallyRunner()
        #expect(tally.run("add", "local").status == 0)
        for arguments in [["--db", target, "list"], ["sync", "--remote", target]] {
            let result = tally.run(arguments)
            #expect(result.status == 74, "\(arguments): \(result.stderr)")
            #expect(result.stderr.hasPrefix("Error: The PostgreSQL server \(shown) refused the login: password authentication failed"), "\(result.stderr)")
            #expect(result.stderr.components(separatedBy: shown).count == 2, "\(result.stderr)")
            #expect(!result.stderr.contains("FATAL") && !result.stderr.contains("..") && !result.stderr.contains("Cannot reach"), "\(result.stderr)")
            #expect(!result.stderr.contains(secret) && !result.stdout.contains(secret))
            let json = tally.run(["--json"] + arguments)
            #expect(json.status == 74 && json.stderr.contains(#""code":"authentication""#), "\(json.stderr)")
        }
        #expect(tally.run("list", "--json").titles == ["local"])
    }

    @Test("generated passwords in URIs and keyword/value strings: never in the output of remote set, remote show, sync, info, log or an error")
    func generatedForms() throws {
        let uri = try server.makeDatabase("secret")
        let database = PostgresTestServer.databaseName(uri)
        let good = TallyRunner()
        good.environment["TALLY_DB"] = uri
        #expect(good.run("add", "shared").status == 0)
        var generator = SystemRandomNumberGenerator()
        for _ in 0 ..< AttackScale.count(short: 2, full: 12) {
            let pieces = (0 ..< 3).map { _ in String((0 ..< 6).map { _ in "abcdefghijkmnpqrstuvwxyz23456789".randomElement(using: &generator)! }) }
            let password = pieces[0] + ["/", "@", "?", "#", ":", "&", "="].randomElement(using: &generator)! + pieces[1] + "%41" + pieces[2]
            let encoded = password.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? password
            let forms = [
                "postgresql://bob:\(password)@127.0.0.1:1/x",
                "postgresql://bob:\(encoded)@127.0.0.1:\(server.port)/\(database)",
                "postgresql://bob@127.0.0.1:\(server.port)/\(database)?pass%77ord=\(encoded)",
                "postgres://127.0.0.1:\(server.port)/\(database)?user=bob&PASSWORD=\(encoded)",
                "host=127.0.0.1 port=\(server.port) dbname=\(database) user=bob password='\(password)'",
            ]
            for form in forms {
                let tally = TallyRunner()
                var outputs: [RunResult] = []
                outputs.append(tally.run("--db", form, "list"))
                outputs.append(tally.run("--db", form, "info"))
                outputs.append(tally.run("--json", "--db", form, "log"))
                outputs.append(tally.run("remote", "set", form))
                outputs.append(tally.run("remote", "show"))
                outputs.append(tally.run("--json", "remote", "show"))
                outputs.append(tally.run("sync"))
                outputs.append(tally.run("--json", "sync"))
                outputs.append(tally.run("info"))
                for (index, output) in outputs.enumerated() {
                    for piece in pieces {
                        #expect(!output.stdout.contains(piece) && !output.stderr.contains(piece), "\(form) #\(index): \(output.stdout)\(output.stderr)")
                    }
                }
                #expect(outputs[0].status == 74 || outputs[0].status == 64, "\(form): \(outputs[0].stderr)")
                #expect(tally.run("export").stdout.contains(pieces[0]) == false)
            }
        }
        #expect(good.run("verify").status == 0)
    }
}
