import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Why no PostgreSQL server could be started for the tests.
public struct PostgresUnavailable: Error, CustomStringConvertible {
    public var reason: String
    public var description: String { "PostgreSQL tests skipped: \(reason)" }
}

/// A throw-away PostgreSQL cluster for tests: one per test process, on a free loopback port,
/// stopped and removed when the process exits.
///
/// ```swift
/// @Suite(.enabled(if: PostgresTestServer.isEnabled))
/// struct MyTests {
///     @Test func something() throws {
///         let uri = try PostgresTestServer.shared().makeDatabase()   // a fresh, empty database
///     }
/// }
/// ```
///
/// `initdb` runs as the `postgres` user when the tests run as root (PostgreSQL refuses root).
/// Host connections use a password (`password`), so URIs look like a real server's; the unix
/// socket in the cluster directory is trusted and used for administration (`psql`).
/// With `TALLY_PG_ROOT` set (as `scripts/with-postgres` does) the cluster lives there, so the
/// wrapper can stop and remove it even when the test process dies.
public final class PostgresTestServer: @unchecked Sendable {
    /// The superuser the cluster is created with, and its password for TCP logins.
    public static let superuser = "tally"
    public static let password = "tally-test-secret"

    public let host = "127.0.0.1"
    public let port: Int
    /// The cluster's directory (data, socket, log).
    public let directory: String
    /// Where initdb, pg_ctl and psql are.
    public let binDirectory: String
    private let asPostgresUser: Bool
    private let durable: Bool
    private let lock = NSLock()
    private var databases = 0

    private static let started: Result<PostgresTestServer, PostgresUnavailable> = {
        do {
            return .success(try PostgresTestServer(durable: false))
        } catch let error as PostgresUnavailable {
            return .failure(error)
        } catch {
            return .failure(PostgresUnavailable(reason: "\(error)"))
        }
    }()

    /// The process's cluster, started on first use; throws why it could not start.
    public static func shared() throws -> PostgresTestServer {
        try started.get()
    }

    /// A cluster of its own, for a test that stops and starts its server (the shared one must stay up
    /// for the tests running beside it). Stopped and removed at exit like the shared one.
    ///
    /// `durable` keeps PostgreSQL's defaults (fsync, synchronous commit, full page writes), as the
    /// benchmark measures; test clusters turn them off for speed.
    public static func startDedicated(durable: Bool = false) throws -> PostgresTestServer {
        try PostgresTestServer(durable: durable)
    }

    /// Whether PostgreSQL suites should run: yes when a cluster is up; also yes under `CI=true`,
    /// so that a server that cannot start fails the run instead of skipping. Otherwise the suites
    /// are skipped and one line on standard error says why.
    public static let isEnabled: Bool = {
        switch started {
        case .success: return true
        case .failure(let error):
            if ProcessInfo.processInfo.environment["CI"] == "true" { return true }
            FileHandle.standardError.write(Data("\(error.description)\n".utf8))
            return false
        }
    }()

    /// A connection URI for `database` (as the superuser unless told otherwise).
    public func uri(database: String, user: String = PostgresTestServer.superuser, password: String? = PostgresTestServer.password) -> String {
        let credentials = password.map { "\(user):\($0)" } ?? user
        return "postgresql://\(credentials)@\(host):\(port)/\(database)"
    }

    /// Creates a new, empty database and returns its URI.
    public func makeDatabase(_ label: String = "t") throws -> String {
        let name = lock.withLock { () -> String in
            databases += 1
            return "\(label)_\(databases)_\(UInt32.random(in: 0 ... UInt32.max))".lowercased()
        }
        try psql("CREATE DATABASE \(name)")
        return uri(database: name)
    }

    /// The database name at the end of a URI this server made.
    public static func databaseName(_ uri: String) -> String {
        String(uri.split(separator: "/").last ?? "").components(separatedBy: "?")[0]
    }

    /// Runs SQL as the superuser over the trusted socket; returns the unaligned, tuples-only output.
    @discardableResult
    public func psql(_ sql: String, database: String = "postgres") throws -> String {
        let result = try Self.run(binDirectory + "/psql", [
            "-X", "-q", "-A", "-t", "-v", "ON_ERROR_STOP=1", "-h", directory, "-p", String(port), "-U", Self.superuser,
            "-d", database, "-c", sql,
        ])
        guard result.status == 0 else {
            throw PostgresUnavailable(reason: "psql failed: \(result.output)")
        }
        return result.output.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// Runs SQL as `user` over TCP on 127.0.0.1 with a password (a scram-sha-256 login, as a real
    /// teammate connects); the output, or the server's refusal as the thrown error's reason.
    @discardableResult
    public func psql(_ sql: String, database: String, user: String, password: String) throws -> String {
        let result = try Self.run("/usr/bin/env", [
            "PGPASSWORD=\(password)", binDirectory + "/psql", "-X", "-q", "-A", "-t", "-v", "ON_ERROR_STOP=1",
            "-h", host, "-p", String(port), "-U", user, "-d", database, "-c", sql,
        ])
        guard result.status == 0 else {
            throw PostgresUnavailable(reason: result.output)
        }
        return result.output.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// A login role with a password and exactly `grants` (each a statement with `ROLE` standing for
    /// the role's name) on `database`; nothing else but what PUBLIC has.
    public func makeRole(_ label: String, grants: [String], database: String) throws -> (name: String, password: String) {
        let name = "\(label)_\(UInt32.random(in: 0 ... UInt32.max))"
        let password = "pw-\(UInt32.random(in: 0 ... UInt32.max))"
        try psql("CREATE ROLE \(name) LOGIN PASSWORD '\(password)'", database: database)
        for grant in grants {
            try psql(grant.replacingOccurrences(of: "ROLE", with: name).replacingOccurrences(of: "DATABASE_NAME", with: database), database: database)
        }
        return (name, password)
    }

    /// The grants of the roles table (docs/guide/postgresql.md), with `ROLE` for the role and `DATABASE_NAME` for the database.
    public enum Grants {
        public static let writer = [
            "GRANT CONNECT ON DATABASE DATABASE_NAME TO ROLE",
            "GRANT SELECT ON schema_migrations, events, snapshots, blobs TO ROLE",
            "GRANT INSERT ON events, events_staged, blobs TO ROLE",
            "GRANT EXECUTE ON FUNCTION tally_append_batch(BIGINT[], TEXT[], TEXT[], INTEGER[], TEXT[], INTEGER[], TEXT[], BIGINT[], TEXT[], TEXT[], TEXT[]) TO ROLE",
            "GRANT EXECUTE ON FUNCTION tally_save_snapshot_chunks(BIGINT, INTEGER, INTEGER, BIGINT, TEXT, BYTEA, INTEGER, BYTEA, INTEGER), "
                + "tally_snapshot_chunk(BIGINT, INTEGER, INTEGER, INTEGER), tally_delete_snapshots(), tally_sequence(TEXT[]) TO ROLE",
        ]
        public static let reader = [
            "GRANT CONNECT ON DATABASE DATABASE_NAME TO ROLE",
            "GRANT SELECT ON schema_migrations, events, snapshots, blobs TO ROLE",
            "GRANT EXECUTE ON FUNCTION tally_snapshot_chunk(BIGINT, INTEGER, INTEGER, INTEGER) TO ROLE",
        ]
        /// A teammate given only the tables, as before roles were documented.
        public static let selectInsert = ["GRANT SELECT, INSERT ON events TO ROLE", "GRANT SELECT ON schema_migrations, snapshots TO ROLE"]
    }

    /// Stops the server (fast shutdown: open connections are cut); `start` brings it back on the same port.
    public func stop() throws {
        let result = try pgctl(["-D", directory + "/data", "-m", "fast", "-w", "stop"])
        if result.status != 0 { throw PostgresUnavailable(reason: "pg_ctl stop failed: \(result.output)") }
    }

    /// Starts the stopped server again.
    public func start() throws {
        let result = try pgctl(["-D", directory + "/data", "-l", directory + "/server.log", "-w", "-t", "60", "-o", serverOptions, "start"])
        if result.status != 0 { throw PostgresUnavailable(reason: "pg_ctl start failed: \(result.output) \(log())") }
    }

    private var serverOptions: String {
        "-p \(port) -k \(directory) -c listen_addresses=\(host) -c max_connections=200"
            + (durable ? " -c shared_buffers=256MB" : " -c fsync=off -c synchronous_commit=off -c full_page_writes=off")
    }

    private func log() -> String {
        (try? String(contentsOfFile: directory + "/server.log", encoding: .utf8)).map { String($0.suffix(600)) } ?? ""
    }

    private func pgctl(_ arguments: [String]) throws -> (status: Int32, output: String) {
        let pgctl = binDirectory + "/pg_ctl"
        return asPostgresUser ? try Self.run("/usr/sbin/runuser", ["-u", "postgres", "--", pgctl] + arguments) : try Self.run(pgctl, arguments)
    }

    private init(durable: Bool) throws {
        self.durable = durable
        let environment = ProcessInfo.processInfo.environment
        guard let bin = Self.findBinDirectory() else {
            throw PostgresUnavailable(reason: "no initdb/pg_ctl found (install postgresql: apt-get install postgresql)")
        }
        binDirectory = bin
        asPostgresUser = getuid() == 0
        if asPostgresUser, getpwnam("postgres") == nil {
            throw PostgresUnavailable(reason: "running as root, and there is no postgres user to run the server as")
        }
        let root = environment["TALLY_PG_ROOT"].flatMap { $0.isEmpty ? nil : $0 } ?? NSTemporaryDirectory()
        let directory = (root as NSString).appendingPathComponent("tally-pg-\(getpid())-\(UInt32.random(in: 0 ... UInt32.max))")
        self.directory = directory
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        // Until the server is up, failing means removing the directory.
        var ready = false
        defer { if !ready { try? FileManager.default.removeItem(atPath: directory) } }
        if asPostgresUser {
            let owner = try Self.run("/bin/chown", ["-R", "postgres:", root == NSTemporaryDirectory() ? directory : root])
            guard owner.status == 0 else { throw PostgresUnavailable(reason: "chown failed: \(owner.output)") }
            _ = try Self.run("/bin/chmod", ["755", root])
        }
        let passwordFile = directory + "/password"
        try Self.password.write(toFile: passwordFile, atomically: true, encoding: .utf8)
        if asPostgresUser { _ = try Self.run("/bin/chown", ["postgres:", passwordFile]) }
        let initdb = [bin + "/initdb", "-D", directory + "/data", "-U", Self.superuser, "--auth-local=trust",
                      "--auth-host=scram-sha-256", "--pwfile=" + passwordFile, "--no-sync", "-E", "UTF8", "--locale=C"]
        let created = asPostgresUser ? try Self.run("/usr/sbin/runuser", ["-u", "postgres", "--"] + initdb) : try Self.run(initdb[0], Array(initdb.dropFirst()))
        guard created.status == 0 else { throw PostgresUnavailable(reason: "initdb failed: \(created.output)") }
        port = try Self.freePort()
        ready = true
        ready = false
        Self.registerCleanup(directory: directory, pgctl: bin + "/pg_ctl", asPostgresUser: asPostgresUser)
        try start()
        ready = true
    }

    /// Where initdb lives: `pg_config --bindir` when it has initdb, else the newest /usr/lib/postgresql/*/bin.
    public static func findBinDirectory() -> String? {
        var candidates: [String] = []
        if let configured = try? run("/usr/bin/env", ["pg_config", "--bindir"]), configured.status == 0 {
            candidates.append(configured.output.trimmingCharacters(in: .whitespacesAndNewlines))
        }
        let versions = (try? FileManager.default.contentsOfDirectory(atPath: "/usr/lib/postgresql")) ?? []
        candidates += versions.sorted { (Int($0) ?? 0) > (Int($1) ?? 0) }.map { "/usr/lib/postgresql/\($0)/bin" }
        candidates += ["/opt/homebrew/bin", "/usr/local/bin"]
        return candidates.first { FileManager.default.isExecutableFile(atPath: $0 + "/initdb") && FileManager.default.isExecutableFile(atPath: $0 + "/pg_ctl") }
    }

    /// A loopback port nobody listens on right now.
    public static func freePort() throws -> Int {
        #if canImport(Glibc)
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        #else
        let descriptor = socket(AF_INET, SOCK_STREAM, 0)
        #endif
        guard descriptor >= 0 else { throw PostgresUnavailable(reason: "cannot open a socket") }
        defer { close(descriptor) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = 0
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { pointer in
                bind(descriptor, pointer, length) == 0 && getsockname(descriptor, pointer, &length) == 0
            }
        }
        guard bound else { throw PostgresUnavailable(reason: "cannot find a free loopback port") }
        return Int(UInt16(bigEndian: address.sin_port))
    }

    nonisolated(unsafe) private static var clusters: [(directory: String, pgctl: String, asPostgresUser: Bool)] = []
    private static let clustersLock = NSLock()

    /// Stops the cluster and removes its directory when the process exits normally.
    private static func registerCleanup(directory: String, pgctl: String, asPostgresUser: Bool) {
        let first = clustersLock.withLock { () -> Bool in
            clusters.append((directory, pgctl, asPostgresUser))
            return clusters.count == 1
        }
        guard first else { return }
        atexit {
            for (directory, pgctl, asPostgresUser) in PostgresTestServer.clustersLock.withLock({ PostgresTestServer.clusters }) {
                let stop = [pgctl, "-D", directory + "/data", "-m", "immediate", "-w", "stop"]
                _ = try? asPostgresUser ? PostgresTestServer.run("/usr/sbin/runuser", ["-u", "postgres", "--"] + stop)
                    : PostgresTestServer.run(stop[0], Array(stop.dropFirst()))
                try? FileManager.default.removeItem(atPath: directory)
            }
        }
    }

    /// Runs a program and waits; standard output and error together.
    ///
    /// posix_spawn and waitpid rather than `Process`: `pg_ctl start` leaves a daemon behind, and
    /// this runs inside a lazily initialised static, where Foundation's child reaping must not be needed.
    /// The child gets no descriptor but its standard input, output and error.
    public static func run(_ program: String, _ arguments: [String]) throws -> (status: Int32, output: String) {
        let outputPath = NSTemporaryDirectory() + "tally-pg-output-\(getpid())-\(UInt32.random(in: 0 ... UInt32.max))"
        defer { unlink(outputPath) }
        #if canImport(Darwin)
        var actions: posix_spawn_file_actions_t?
        #else
        var actions = posix_spawn_file_actions_t()
        #endif
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, outputPath, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        posix_spawn_file_actions_adddup2(&actions, 1, 2)
        #if os(Linux)
        // Nothing else open in the test process is inherited: `pg_ctl start` leaves a server running,
        // which would otherwise hold the write end of a pipe another test is reading a tally run's
        // output from, so that run would never see its end.
        // glibc 2.34 and later; the Glibc module does not declare it, so it is looked up.
        typealias CloseFrom = @convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, Int32) -> Int32
        if let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "posix_spawn_file_actions_addclosefrom_np") {
            _ = unsafeBitCast(symbol, to: CloseFrom.self)(&actions, 3)
        }
        #endif
        let argv: [UnsafeMutablePointer<CChar>?] = ([program] + arguments).map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        var pid: pid_t = 0
        let spawned = posix_spawn(&pid, program, &actions, nil, argv, environ)
        guard spawned == 0 else {
            throw PostgresUnavailable(reason: "cannot run \(program): \(String(cString: strerror(spawned)))")
        }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0, errno == EINTR {}
        let output = (try? String(contentsOfFile: outputPath, encoding: .utf8)) ?? ""
        let exited = (status & 0x7f) == 0
        return (exited ? (status >> 8) & 0xff : 128 + (status & 0x7f), output)
    }
}
