import Foundation
import TallyEngine
import TallyDomain
import TallyStores
import TallyPostgres
import TallyTestHarness

/// A durable PostgreSQL cluster kept in the bench cache (`pg-scale`), for the largest store: it is
/// created and loaded once, started for a run and stopped at its end. PostgreSQL's durable
/// defaults (fsync, synchronous commit, full page writes), logins over TCP with a password.
struct ScaleCluster {
    static let password = "tally-bench"
    let directory: String
    let bin: String
    let asPostgresUser: Bool
    let port: Int

    /// Creates the cluster when its directory has none, then starts it on a free port.
    init(cache: String) throws {
        // Absolute: the server runs in its own directory and puts its socket here.
        let root = cache.hasPrefix("/") ? cache : FileManager.default.currentDirectoryPath + "/" + cache
        directory = root + "/pg-scale"
        guard let bin = PostgresTestServer.findBinDirectory() else { throw Bench.Failure(description: "no initdb/pg_ctl found") }
        self.bin = bin
        asPostgresUser = getuid() == 0
        port = try PostgresTestServer.freePort()
        let files = FileManager.default
        if !files.fileExists(atPath: directory + "/data/PG_VERSION") {
            try? files.removeItem(atPath: directory)
            try files.createDirectory(atPath: directory, withIntermediateDirectories: true)
            let passwordFile = directory + "/password"
            try Self.password.write(toFile: passwordFile, atomically: true, encoding: .utf8)
            if asPostgresUser { _ = try PostgresTestServer.run("/bin/chown", ["-R", "postgres:", directory]) }
            let created = try command([bin + "/initdb", "-D", directory + "/data", "-U", PostgresTestServer.superuser, "--auth-local=trust",
                                       "--auth-host=scram-sha-256", "--pwfile=" + passwordFile, "-E", "UTF8", "--locale=C"])
            guard created.status == 0 else { throw Bench.Failure(description: "initdb failed: \(created.output)") }
        }
        // A server left running by an interrupted run is stopped first (its port is unknown).
        _ = try command([bin + "/pg_ctl", "-D", directory + "/data", "-m", "fast", "-w", "stop"])
        let options = "-p \(port) -k \(directory) -c listen_addresses=127.0.0.1 -c max_connections=50 -c shared_buffers=256MB"
        let started = try command([bin + "/pg_ctl", "-D", directory + "/data", "-l", directory + "/server.log", "-w", "-t", "120", "-o", options, "start"])
        guard started.status == 0 else { throw Bench.Failure(description: "pg_ctl start failed: \(started.output)") }
    }

    private func command(_ arguments: [String]) throws -> (status: Int32, output: String) {
        asPostgresUser ? try PostgresTestServer.run("/usr/sbin/runuser", ["-u", "postgres", "--"] + arguments)
            : try PostgresTestServer.run(arguments[0], Array(arguments.dropFirst()))
    }

    func stop() {
        _ = try? command([bin + "/pg_ctl", "-D", directory + "/data", "-m", "fast", "-w", "stop"])
    }

    func uri(_ database: String) -> String {
        "postgresql://\(PostgresTestServer.superuser):\(Self.password)@127.0.0.1:\(port)/\(database)"
    }

    /// Runs SQL as the superuser over the cluster's socket; the unaligned, tuples-only output.
    @discardableResult
    func psql(_ sql: String, database: String = "postgres") throws -> String {
        let result = try PostgresTestServer.run(bin + "/psql", [
            "-X", "-q", "-A", "-t", "-v", "ON_ERROR_STOP=1", "-h", directory, "-p", String(port), "-U", PostgresTestServer.superuser, "-d", database, "-c", sql,
        ])
        guard result.status == 0 else { throw Bench.Failure(description: "psql failed: \(result.output)") }
        return result.output.trimmingCharacters(in: .whitespacesAndNewlines)
    }
}

extension Bench {
    /// The largest store's rows on PostgreSQL: `add`, `done N`, `list --limit 20`, a sync with
    /// nothing to do from a replica cloned from it, and the peak memory of `add`.
    ///
    /// The store is loaded once into the cached cluster from the same generator as the SQLite
    /// store (same events, same chain), through the bulk append path (COPY) with the table's
    /// triggers switched off for the load: the rows are the generator's, chained here, and
    /// checking them per row in PL/pgSQL would take this machine hours at 10M. Each run removes
    /// the events its commands appended, so the cached store stays the generated one.
    func scalePostgresRows(_ size: (todos: Int, events: Int), sqliteStore: String) throws -> [Report.Row] {
        let cluster = try ScaleCluster(cache: options.cache)
        defer { cluster.stop() }
        let database = Self.scaleDatabase(size)
        let uri = cluster.uri(database)
        let marker = scaleMarker(size)
        if !files.fileExists(atPath: marker) {
            note("loading \(size.todos) todos / \(size.events) events into PostgreSQL (once, then cached) ...")
            let start = ProcessTimer.now()
            try cluster.psql("DROP DATABASE IF EXISTS \(database)")
            try cluster.psql("CREATE DATABASE \(database)")
            let log = try StoreFactory.openForWriting(.postgres(uri: uri), now: 0)
            try cluster.psql("ALTER TABLE events DISABLE TRIGGER USER", database: database)
            try streamGenerated(size, into: log, eventsPerTransaction: 250_000)
            log.close()
            try cluster.psql("ALTER TABLE events ENABLE TRIGGER USER", database: database)
            try cluster.psql("VACUUM ANALYZE", database: database)
            let loaded = ProcessTimer.now() - start
            note(String(format: "loaded in %.0f s; storing its snapshot ...", loaded))
            _ = try once(["snapshot"], database: uri)
            try "\(Int(loaded)) s\n".write(toFile: marker, atomically: true, encoding: .utf8)
        }
        let base = try cluster.psql("SELECT max(seq) FROM events", database: database)
        defer {
            // What the timed commands appended goes again (the triggers refuse a DELETE, so they are off meanwhile).
            _ = try? cluster.psql(
                "BEGIN; ALTER TABLE events DISABLE TRIGGER USER; DELETE FROM events WHERE seq > \(base); "
                    + "DELETE FROM snapshot_chunks WHERE seq > \(base); DELETE FROM snapshots WHERE seq > \(base); ALTER TABLE events ENABLE TRIGGER USER; COMMIT",
                database: database
            )
        }
        // The replicas' empty syncs first, while the server holds exactly what they cloned.
        let syncs = try scaleSyncRows(size, sqliteStore: sqliteStore, serverURI: uri)
        note("timing add, done and list at \(size.events) events on PostgreSQL ...")
        return try hotCommandRows(database: uri, name: "\(Report.count(size.todos)) todos / \(Report.count(size.events)) events (PostgreSQL)", limit: 0.016) + syncs
    }

    /// A sync with nothing to do from a replica of the largest store, through the SQLite file and
    /// through PostgreSQL; the replicas are cloned once and cached.
    func scaleSyncRows(_ size: (todos: Int, events: Int), sqliteStore: String, serverURI: String) throws -> [Report.Row] {
        var rows: [Report.Row] = []
        for ((label, remote), figure) in zip([("SQLite file", sqliteStore), ("PostgreSQL", serverURI)], Self.scaleSyncFigures(size)) {
            let replica = scaleReplica(size, onServer: label == "PostgreSQL")
            if !files.fileExists(atPath: replica) {
                note("cloning the \(size.events)-event log from the \(label) (once, then cached) ...")
                let temporary = replica + ".tmp"
                remove(temporary)
                let seconds = try once(["sync", "--remote", remote], database: temporary)
                note(String(format: "cloned in %.0f s (%@ events/s)", seconds, Report.count(Int(Double(size.events) / seconds))))
                remove(replica)
                try files.moveItem(atPath: temporary, toPath: replica)
            }
            // The cluster listens on another port each run: the replica is told where its log is now.
            _ = try once(["remote", "set", remote], database: replica)
            note("timing a sync with nothing to do at \(size.events) events (\(label)) ...")
            let noop = try time(["sync"], database: replica, runs: profile.runs)
            let target = label == "PostgreSQL" ? 0.010 : 0.005
            rows.append(.init(figure: figure.figure, target: figure.target, measured: Report.ms(noop.seconds), pass: noop.seconds <= target))
        }
        return rows
    }

    /// The figures and targets of `scaleSyncRows`: the shared file's, then PostgreSQL's.
    static func scaleSyncFigures(_ size: (todos: Int, events: Int)) -> [(figure: String, target: String)] {
        [("sync with nothing to do at \(Report.count(size.events)) events (SQLite file)", "≤ 5 ms"),
         ("sync with nothing to do at \(Report.count(size.events)) events (PostgreSQL)", "≤ 10 ms")]
    }

    /// The database of the largest store in the cached cluster.
    static func scaleDatabase(_ size: (todos: Int, events: Int)) -> String {
        "scale_\(size.todos)t_\(size.events)e_g2_s\(SnapshotCodec.format)"
    }

    /// The file whose presence says the cluster's database of `size` is completely loaded.
    func scaleMarker(_ size: (todos: Int, events: Int)) -> String {
        let root = options.cache.hasPrefix("/") ? options.cache : files.currentDirectoryPath + "/" + options.cache
        return root + "/pg-scale/\(Self.scaleDatabase(size)).loaded"
    }

    /// The cached replica of the largest store, cloned from the shared file or from the server.
    func scaleReplica(_ size: (todos: Int, events: Int), onServer: Bool) -> String {
        options.cache + "/scale-replica-\(onServer ? "pg" : "file")-\(size.events)e-s\(SnapshotCodec.format).db"
    }

    /// Whether everything the PostgreSQL rows of the largest store read is cached: the SQLite
    /// store, the loaded database and both replicas (nothing then takes more than the timed commands).
    func scaleCached(_ size: (todos: Int, events: Int), sqliteStore: String) -> Bool {
        [sqliteStore, scaleMarker(size), scaleReplica(size, onServer: false), scaleReplica(size, onServer: true)].allSatisfy(files.fileExists(atPath:))
    }

    /// Streams the generated events of `size`, chained, into `log` through its bulk append path, a
    /// transaction per `eventsPerTransaction` events (the store is far larger than memory as envelopes).
    func streamGenerated(_ size: (todos: Int, events: Int), into log: EventLog, eventsPerTransaction: Int) throws {
        var previous = try log.head()
        var inTransaction: [EventEnvelope] = []
        func commit() throws {
            let events = inTransaction
            inTransaction.removeAll(keepingCapacity: true)
            try log.bulkWrite {
                for start in stride(from: 0, to: events.count, by: BulkAppend.batchSize) {
                    try log.append(Array(events[start ..< min(events.count, start + BulkAppend.batchSize)]))
                }
            }
        }
        try EventMix(todos: size.todos, events: size.events, seed: UInt64(size.todos * 31 + size.events)).forEach { event in
            var event = event
            event.hash = EventHash.link(previous: previous.hash, event)
            previous = LogHead(seq: event.seq, hash: event.hash)
            inTransaction.append(event)
            if inTransaction.count == eventsPerTransaction { try commit() }
        }
        if !inTransaction.isEmpty { try commit() }
    }
}
