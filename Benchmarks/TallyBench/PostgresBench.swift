import Foundation
import TallyEngine
import TallyStores
import TallyPostgres
import TallyDomain
import TallyTestHarness

/// The shared-log figures: the same measurements on a local PostgreSQL (fsync on) and on SQLite,
/// side by side. The server is `TALLY_BENCH_POSTGRES` (a URI of an empty database) when set,
/// else a throw-away cluster with PostgreSQL's durable defaults.
struct PostgresBench {
    let bench: Bench
    var profile: Profile { bench.profile }

    /// Where fresh PostgreSQL databases come from.
    let makeDatabase: () throws -> String

    init(bench: Bench) throws {
        self.bench = bench
        if let uri = ProcessInfo.processInfo.environment["TALLY_BENCH_POSTGRES"], !uri.isEmpty {
            // A given database is used for every measurement; each one starts by emptying it.
            makeDatabase = { uri }
        } else {
            let server = try PostgresTestServer.startDedicated(durable: true)
            makeDatabase = { try server.makeDatabase("bench") }
        }
    }

    /// Concurrent single-event commands from 1, 4, 16 and 64 clients: on PostgreSQL with staged
    /// appends (a tailing reader checks the order meanwhile), on PostgreSQL with every append under
    /// the lock (as before migration 9), and on SQLite; each in a fresh database, one after another.
    func writerRows() throws -> [Report.Row] {
        let work = bench.options.cache + "/work"
        try bench.files.createDirectory(atPath: work, withIntermediateDirectories: true)
        var rows: [Report.Row] = []
        bench.note("PostgreSQL: concurrent single-event commands ...")
        for clients in profile.name == "smoke" ? [1, 4, 16] : [1, 4, 16, 64] {
            let perClient = max(profile.name == "smoke" ? 5 : 40, (profile.name == "smoke" ? 20 : 400) / clients)
            let staged = try appendRate(.postgres(uri: try makeDatabase()), clients: clients, commands: perClient, staging: true)
            let locked = try appendRate(.postgres(uri: try makeDatabase()), clients: clients, commands: perClient, staging: false)
            let sqlitePath = work + "/clients-\(clients).db"
            bench.remove(sqlitePath)
            let onFile = try appendRate(.file(path: sqlitePath), clients: clients, commands: perClient, staging: false)
            bench.remove(sqlitePath)
            rows.append(.init(
                figure: "single-event commands from \(clients) concurrent client\(clients == 1 ? "" : "s") (\(clients) × \(perClient)), events/s",
                target: clients == 16 ? "≥ 10,000 (PostgreSQL)" : "—",
                measured: String(
                    format: "PostgreSQL %@ (%d%% staged; all under the lock: %@, %.2f×); SQLite %@",
                    Report.count(Int(staged.rate)), Int((staged.staged * 100).rounded()), Report.count(Int(locked.rate)), staged.rate / locked.rate,
                    Report.count(Int(onFile.rate))
                ),
                pass: clients != 16 || staged.rate >= 10_000
            ))
        }
        return rows
    }

    /// Events per second of `clients` threads, each with its own connection and dispatcher, each
    /// running `commands` single-event commands (`add`), and the share of commands staged. On
    /// PostgreSQL a reader tails `seq > cursor` meanwhile and must see every event once, in order,
    /// each linked to the one before; `staging` false keeps every append under the lock.
    func appendRate(_ location: StoreLocation, clients: Int, commands: Int, staging: Bool) throws -> (rate: Double, staged: Double) {
        // Create the schema first, so the clients only append.
        try StoreFactory.openForWriting(location, now: 0).close()
        let group = DispatchGroup()
        let lock = NSLock()
        nonisolated(unsafe) var failure: Error?
        nonisolated(unsafe) var running = clients
        nonisolated(unsafe) var staged = 0
        let start = ProcessTimer.now()
        for client in 0 ..< clients {
            group.enter()
            Thread {
                defer {
                    lock.withLock { running -= 1 }
                    group.leave()
                }
                do {
                    let store = try StoreFactory.openForWriting(location, now: 0, lockTimeout: 60_000)
                    defer { store.close() }
                    // The bench's own switch to measure the path before migration 9 side by side.
                    let server = store as? PostgresEventLog
                    server?.mayStage = staging
                    let dispatcher = Dispatcher(log: store, environment: .live(actor: "bench-\(client)", zone: .utc))
                    for index in 0 ..< commands {
                        _ = try dispatcher.execute(.addTodo(TodoInput(title: "client \(client) todo \(index)")))
                    }
                    lock.withLock { staged += server?.stagingCounts.sequenced ?? 0 }
                } catch {
                    lock.withLock { failure = error }
                }
            }.start()
        }
        var tailProblem: String?
        if case .postgres = location {
            let reader = try StoreFactory.openForWriting(location, now: 0)
            defer { reader.close() }
            var cursor = LogHead.empty
            var lastRound = false
            while !lastRound, tailProblem == nil {
                lastRound = lock.withLock { running == 0 }
                try reader.scan(after: cursor.seq, through: nil) { event in
                    if event.seq != cursor.seq + 1 || EventHash.link(previous: cursor.hash, event) != event.hash {
                        tailProblem = tailProblem ?? "after seq \(cursor.seq) the tailing reader read seq \(event.seq)"
                    }
                    cursor = LogHead(seq: event.seq, hash: event.hash)
                }
                if !lastRound { usleep(2_000) }
            }
            if tailProblem == nil, cursor.seq != Int64(clients * commands) {
                tailProblem = "the tailing reader saw \(cursor.seq) of \(clients * commands) events"
            }
        }
        group.wait()
        let seconds = ProcessTimer.now() - start
        if let failure { throw Bench.Failure(description: "concurrent appends on \(location.display): \(failure)") }
        if let tailProblem { throw Bench.Failure(description: "concurrent appends on \(location.display): \(tailProblem)") }
        return (Double(clients * commands) / seconds, Double(staged) / Double(clients * commands))
    }
}
