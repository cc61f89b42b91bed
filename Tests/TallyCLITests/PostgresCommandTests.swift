import Foundation
import Testing
import TallyDomain
import TallyTestSupport

/// What only a shared log on a server has: roles, grants, connection failures, a server that goes
/// away, and moving a log between backends. (The common end-to-end suites run against PostgreSQL
/// too, with TALLY_TEST_BACKEND=postgresql; see the Makefile's PG_E2E_SUITES.)
@Suite("tally on a PostgreSQL log, end to end", .enabled(if: PostgresTestServer.isEnabled))
struct PostgresCommandTests {
    let server: PostgresTestServer

    init() throws {
        server = try PostgresTestServer.shared()
    }

    /// A runner on a fresh database of `server`, as `user`.
    func runner(_ uri: String, actor: String = "alice@laptop") -> TallyRunner {
        let tally = TallyRunner()
        tally.environment["TALLY_DB"] = uri
        tally.environment["TALLY_ACTOR"] = actor
        return tally
    }

    /// A login role with the given grants on the tally tables of `database`.
    func role(_ grants: String, snapshots: Bool = true, database: String) throws -> (name: String, password: String) {
        let name = "mate_\(UInt32.random(in: 0 ... UInt32.max))"
        let password = "pw-\(UInt32.random(in: 0 ... UInt32.max))"
        var sql = "CREATE ROLE \(name) LOGIN PASSWORD '\(password)'; GRANT SELECT ON schema_migrations TO \(name);"
        if !grants.isEmpty { sql += " GRANT \(grants) ON events TO \(name);" }
        if snapshots { sql += " GRANT SELECT ON snapshots TO \(name);" }
        try server.psql(sql, database: database)
        return (name, password)
    }

    @Test("two people append to one log at once as different roles; one list, one history with both, verify OK")
    func twoPeople() throws {
        let uri = try server.makeDatabase()
        let database = PostgresTestServer.databaseName(uri)
        let alice = runner(uri)
        #expect(alice.run("add", "Set up the shared list").status == 0)
        let mate = try role("SELECT, INSERT", database: database)
        // Bob claims to be alice in TALLY_ACTOR; the server still records his role.
        let bob = runner(server.uri(database: database, user: mate.name, password: mate.password), actor: "alice@laptop")
        let group = DispatchGroup()
        for (tally, who) in [(alice, "a"), (bob, "b")] {
            group.enter()
            Thread {
                for index in 0 ..< 5 { tally.run("add", "\(who)-\(index)") }
                group.leave()
            }.start()
        }
        group.wait()
        #expect(bob.run("done", "1").status == 0)
        let titles = bob.run("list", "--json", "--status", "all").titles
        #expect(titles.count == 11 && titles == alice.run("list", "--json", "--status", "all").titles)
        let events = alice.run("log", "--json").json?.arrayValue?.compactMap(\.objectValue) ?? []
        #expect(events.count == 12)
        let roles = events.compactMap { $0["role"]?.stringValue }
        #expect(Set(roles) == [PostgresTestServer.superuser, mate.name] && roles.filter { $0 == mate.name }.count == 6)
        #expect(events.allSatisfy { $0["actor"]?.stringValue == "alice@laptop" })
        #expect(alice.run("log", "--limit", "1").stdout.contains("alice@laptop (\(mate.name))"))
        let verify = bob.run("verify")
        #expect(verify.status == 0 && verify.stdout == "OK: 12 events, chain intact\n")
        let info = bob.run("info")
        #expect(info.stdout.contains("PostgreSQL, appending as role \(mate.name)") && !info.stdout.contains(mate.password))
        #expect(info.stdout.contains("postgresql://\(mate.name):***@"))
    }

    @Test("a role that may only read gets exit 74 and a clear message from a write; reading still works; nothing is appended")
    func readOnlyRole() throws {
        let uri = try server.makeDatabase()
        let database = PostgresTestServer.databaseName(uri)
        #expect(runner(uri).run("add", "a").status == 0)
        let reader = try role("SELECT", database: database)
        let tally = runner(server.uri(database: database, user: reader.name, password: reader.password))
        let add = tally.run("add", "b")
        #expect(add.status == 74)
        #expect(add.stderr.hasPrefix("Error: The database refused this role: permission denied for table events."), "\(add.stderr)")
        #expect(!add.stderr.contains(reader.password))
        let json = tally.run("--json", "add", "b")
        #expect(json.status == 74 && json.stderr.contains(#""code":"permission_denied""#))
        #expect(tally.run("list", "--json").titles == ["a"])
        #expect(tally.eventCount == 1)
        // Without even SELECT, reading fails clearly too.
        let nobody = try role("", snapshots: false, database: database)
        let blind = runner(server.uri(database: database, user: nobody.name, password: nobody.password)).run("list")
        #expect(blind.status == 74 && blind.stderr.contains("refused this role"), "\(blind.stderr)")
    }

    @Test("connection failures: each its own message, exit 74, never the password", arguments: [
        ("refused", "Error: Cannot connect to the PostgreSQL server postgresql://tally:***@127.0.0.1:1/x"),
        ("password", "Error: The PostgreSQL server postgresql://tally:***@127.0.0.1:"),
        ("database", "Error: The PostgreSQL server postgresql://tally:***@127.0.0.1:"),
        ("foreign", "Error: This database is not a tally log: the table events has other columns"),
    ])
    func connectionFailures(kind: String, expected: String) throws {
        let uri = try server.makeDatabase()
        let database = PostgresTestServer.databaseName(uri)
        let secret = PostgresTestServer.password
        let target: String
        switch kind {
        case "refused": target = "postgresql://tally:\(secret)@127.0.0.1:1/x?connect_timeout=3"
        case "password": target = server.uri(database: database, password: "wrong-\(secret)")
        case "database": target = server.uri(database: "no_such_db_\(UInt32.random(in: 0 ... 9999))")
        default:
            try server.psql("CREATE TABLE events(id serial PRIMARY KEY, body jsonb)", database: database)
            target = uri
        }
        for arguments in [["add", "x"], ["list"], ["info"]] {
            let result = runner(target).run(arguments)
            #expect(result.status == 74, "\(arguments): \(result.stderr)")
            #expect(result.stderr.hasPrefix(expected), "\(arguments): \(result.stderr)")
            #expect(!result.stderr.contains(secret) && !result.stdout.contains(secret))
            #expect(result.stdout.isEmpty)
        }
        if kind == "password" { #expect(runner(target).run("list").stderr.contains("refused the login")) }
        if kind == "database" { #expect(runner(target).run("list").stderr.contains("has no such database")) }
        if kind == "foreign" { #expect(try server.psql("SELECT count(*) FROM events", database: database) == "0") }
    }

    /// Deterministic: the server is stopped only once three commands have succeeded, and started again
    /// only once a command has failed against the stopped server. A command whose connection broke
    /// during its COMMIT cannot know whether the commit happened (the message says so), so such a
    /// command's todo may be there; it is there whole (with its note) or not at all.
    @Test("the server stopped in the middle of a run of commands: each succeeded in full or failed with exit 74; nothing partial")
    func serverStopsMidRun() throws {
        let own = try PostgresTestServer.startDedicated()
        let tally = runner(try own.makeDatabase())
        tally.environment["PGCONNECT_TIMEOUT"] = "2"
        let lock = NSLock()
        nonisolated(unsafe) var succeeded: [String] = []
        nonisolated(unsafe) var uncertain: [String] = []
        nonisolated(unsafe) var failures = 0
        nonisolated(unsafe) var unexpected: [String] = []
        nonisolated(unsafe) var restarted = false
        let group = DispatchGroup()
        group.enter()
        Thread {
            // At least 40 commands, and on until the server is back: on a quiet machine 40 commands can
            // all end before the stop takes effect.
            for index in 0 ..< 2_000 {
                if index >= 40, lock.withLock({ restarted }) { break }
                let title = "t\(index)"
                // Two events per command: the todo and its note, in one transaction.
                let result = tally.run("add", title, "--note", "n\(index)")
                // Standard error holds tally's message alone: the server's shutdown error, which libpq
                // parses as a notice when it comes with the last message of the connection's startup,
                // goes to tally's notice processor, set before the connection is made.
                let stderr = result.stderr
                lock.withLock {
                    if result.status == 0 {
                        succeeded.append(title)
                    } else if result.status == 74, stderr.hasPrefix("Error: "), !stderr.contains("FATAL") {
                        failures += 1
                        if stderr.hasPrefix("Error: Lost the connection") { uncertain.append(title) }
                    } else {
                        unexpected.append("\(result.status): \(result.stderr)")
                    }
                }
            }
            group.leave()
        }.start()
        func wait(until condition: () -> Bool) {
            let deadline = Date().addingTimeInterval(60)
            while !lock.withLock(condition), Date() < deadline { usleep(20_000) }
        }
        wait { succeeded.count >= 3 }
        try own.stop()
        wait { failures >= 1 }
        try own.start()
        lock.withLock { restarted = true }
        group.wait()
        #expect(unexpected.isEmpty, "\(unexpected.prefix(3))")
        #expect(failures >= 1, "the stop did not hit any command")
        let todos = tally.run("list", "--json", "--status", "all").json?.arrayValue?.compactMap(\.objectValue) ?? []
        let titles = Set(todos.compactMap { $0["title"]?.stringValue })
        #expect(titles.isSuperset(of: succeeded) && titles.subtracting(succeeded).isSubset(of: uncertain), "\(titles.sorted()) \(succeeded) \(uncertain)")
        #expect(todos.allSatisfy { $0["note"]?.stringValue?.isEmpty == false })
        let verify = tally.run("verify")
        #expect(verify.status == 0, "\(verify.stdout)\(verify.stderr)")
    }

    @Test("a server that stops as the connection starts: exit 74 and tally's message alone on standard error, never libpq's FATAL line")
    func shutdownNoticeWhileConnecting() throws {
        let stopping = try StoppingServer()
        let tally = runner("postgresql://bob@127.0.0.1:\(stopping.port)/tally?sslmode=disable&connect_timeout=5")
        for arguments in [["list"], ["add", "x"], ["--json", "info"]] {
            let result = tally.run(arguments)
            #expect(result.status == 74, "\(arguments): \(result.status) \(result.stderr)")
            #expect(!result.stderr.contains("FATAL"), "\(arguments): \(result.stderr)")
            if arguments[0] != "--json" {
                #expect(result.stderr.hasPrefix("Error: Lost the connection") && result.stderr.split(separator: "\n").count == 1, "\(arguments): \(result.stderr)")
            }
        }
    }

    @Test("a writer waiting for the append lock past TALLY_BUSY_TIMEOUT exits 75 and appends nothing")
    func busyLock() throws {
        let uri = try server.makeDatabase()
        let database = PostgresTestServer.databaseName(uri)
        let tally = runner(uri)
        #expect(tally.run("add", "first").status == 0)
        let holder = Thread {
            // Another client holds the append lock for a while, as a long import would.
            _ = try? PostgresTestServer.shared().psql("BEGIN; SELECT pg_advisory_xact_lock(7283945501); SELECT pg_sleep(3); COMMIT;", database: database)
        }
        holder.start()
        usleep(800_000)
        let busy = tally.run(["add", "second"], environment: ["TALLY_BUSY_TIMEOUT": "300"])
        #expect(busy.status == 75, "\(busy.stderr)")
        #expect(busy.stderr.hasPrefix("Error: The database stayed busy"), "\(busy.stderr)")
        #expect(tally.eventCount == 1)
        let waited = tally.run(["add", "third"], environment: ["TALLY_BUSY_TIMEOUT": "10000"])
        #expect(waited.status == 0 && tally.eventCount == 2)
    }

    @Test("export | import moves a log from SQLite to PostgreSQL and back with the same events and hashes")
    func moveBetweenBackends() throws {
        let personal = TallyRunner()
        personal.environment["TALLY_DB"] = personal.directory.path("personal.db")
        personal.run("add", "Buy milk", "--tag", "shop")
        personal.run("add", "Call mum", "--due", "2026-11-25")
        personal.run("done", "1")
        personal.run("record", "add", "Morning run", "--category", "running", "--duration", "30m", "--distance", "5km")
        personal.run("undo")
        let exported = personal.run("export")
        #expect(exported.status == 0 && !exported.stdout.isEmpty)
        let shared = runner(try server.makeDatabase())
        let imported = shared.run(["import", "-"], input: exported.stdout)
        #expect(imported.status == 0, "\(imported.stderr)")
        #expect(shared.run("export").stdout == exported.stdout)
        #expect(shared.run("verify").status == 0)
        #expect(shared.run("list", "--json", "--status", "all").stdout == personal.run("list", "--json", "--status", "all").stdout)
        let back = TallyRunner()
        back.environment["TALLY_DB"] = back.directory.path("back.db")
        #expect(back.run(["import", "-"], input: shared.run("export").stdout).status == 0)
        #expect(back.run("export").stdout == exported.stdout)
        // Importing the same log again is a no-op on the server too.
        #expect(shared.run(["import", "-"], input: exported.stdout).status == 0)
        #expect(shared.run("export").stdout == exported.stdout)
    }
}

/// libpq is loaded only when a PostgreSQL log is opened; these need no server.
@Suite("libpq loaded on demand")
struct LibPQOnDemandTests {
    @Test("a PostgreSQL log without a loadable libpq: exit 74, a message that says what to install, no password, nothing created")
    func missingLibrary() throws {
        let tally = TallyRunner()
        tally.environment["TALLY_LIBPQ"] = tally.directory.path("no-such-libpq.so")
        let uri = "postgresql://tally:hunter2@127.0.0.1:1/x"
        for arguments in [["add", "x"], ["list"], ["verify"]] {
            let result = tally.run(["--db", uri] + arguments)
            #expect(result.status == 74, "\(arguments): \(result.stderr)")
            #expect(result.stderr.hasPrefix("Error: postgresql://tally:***@127.0.0.1:1/x is a PostgreSQL log, and its client library libpq could not be loaded: "), "\(result.stderr)")
            #expect(result.stderr.contains("no-such-libpq.so") && result.stderr.contains("apt install libpq5"))
            #expect(!result.stderr.contains("hunter2") && result.stdout.isEmpty)
        }
        let json = tally.run("--json", "--db", uri, "list")
        #expect(json.status == 74 && json.stderr.contains(#""code":"client_library_missing""#), "\(json.stderr)")
        // The same runner's SQLite database works without libpq.
        #expect(tally.run("add", "local").status == 0)
        #expect(tally.run("list", "--json").titles == ["local"])
    }

    #if os(Linux)
    @Test("the binary does not link libpq, so a command on a SQLite file never loads it")
    func binaryDoesNotLinkLibPQ() throws {
        let ldd = Process()
        ldd.executableURL = URL(fileURLWithPath: "/usr/bin/ldd")
        ldd.arguments = [TallyRunner.binary.path]
        let pipe = Pipe()
        ldd.standardOutput = pipe
        try ldd.run()
        let output = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        ldd.waitUntilExit()
        #expect(ldd.terminationStatus == 0 && output.contains("libsqlite3"), "\(output)")
        #expect(!output.contains("libpq"), "\(output)")
    }
    #endif
}
