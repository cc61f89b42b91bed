import Foundation
import TallyEngine
import TallyStores
import TallyDomain
import TallyTestSupport

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

    /// Rows for the table: appends by 1, 4 and 16 clients, bulk import, list and add, whole-log reads.
    func rows(smallStore: String, largeStore: String) throws -> [Report.Row] {
        let work = bench.options.cache + "/work"
        var rows: [Report.Row] = []

        bench.note("PostgreSQL: concurrent single-event commands ...")
        for clients in [1, 4, 16] {
            let perClient = max(profile.name == "smoke" ? 5 : 40, (profile.name == "smoke" ? 20 : 400) / clients)
            let onServer = try appendRate(.postgres(uri: try makeDatabase()), clients: clients, commands: perClient)
            let sqlitePath = work + "/clients-\(clients).db"
            bench.remove(sqlitePath)
            let onFile = try appendRate(.file(path: sqlitePath), clients: clients, commands: perClient)
            bench.remove(sqlitePath)
            rows.append(.init(
                figure: "single-event commands from \(clients) concurrent client\(clients == 1 ? "" : "s") (\(clients) × \(perClient)), events/s",
                target: clients == 4 ? "≥ 2,000" : "—",
                measured: String(format: "PostgreSQL %@; SQLite %@", Report.count(Int(onServer)), Report.count(Int(onFile))),
                pass: clients != 4 || onServer >= 2_000
            ))
        }

        bench.note("PostgreSQL: export of the large store, then import into PostgreSQL and SQLite ...")
        let exportFile = work + "/large-export.jsonl"
        let exported = ProcessTimer.run("/bin/sh", ["-c", "\"$0\" export > \"$1\"", bench.options.tally, exportFile], environment: bench.tallyEnvironment(largeStore))
        guard exported.status == 0 else { throw Bench.Failure(description: "tally export of the large store failed") }
        let events = profile.large.events
        let serverDatabase = try makeDatabase()
        let importServer = try timeOnce(["import", exportFile], database: serverDatabase)
        let importPath = work + "/import-cli.db"
        bench.remove(importPath)
        let importFile = try timeOnce(["import", exportFile], database: importPath)
        rows.append(.init(
            figure: "`tally import` of \(Report.count(events)) events, events/s",
            target: "≥ 20,000",
            measured: String(format: "PostgreSQL %@ (%.1f s); SQLite %@ (%.1f s)", Report.count(Int(Double(events) / importServer)), importServer,
                             Report.count(Int(Double(events) / importFile)), importFile),
            pass: Double(events) / importServer >= 20_000
        ))

        bench.note("PostgreSQL: reading the whole log ...")
        let exportServer = try bench.time(["export", "--output", work + "/out.jsonl"], database: serverDatabase, runs: profile.heavyRuns).seconds
        let exportFileTime = try bench.time(["export", "--output", work + "/out.jsonl"], database: importPath, runs: profile.heavyRuns).seconds
        let rebuildServer = try bench.time(["rebuild"], database: serverDatabase, runs: profile.heavyRuns).seconds
        let rebuildFile = try bench.time(["rebuild"], database: importPath, runs: profile.heavyRuns).seconds
        bench.remove(importPath)
        for (name, server, file) in [("export", exportServer, exportFileTime), ("rebuild", rebuildServer, rebuildFile)] {
            rows.append(.init(
                figure: "`tally \(name)` of \(Report.count(events)) events, events/s",
                target: "≥ 200,000",
                measured: String(format: "PostgreSQL %@; SQLite %@", Report.count(Int(Double(events) / server)), Report.count(Int(Double(events) / file))),
                pass: Double(events) / server >= 200_000
            ))
        }

        bench.note("PostgreSQL: list and add with \(profile.small.todos) todos ...")
        let smallExport = work + "/small-export.jsonl"
        _ = ProcessTimer.run("/bin/sh", ["-c", "\"$0\" export > \"$1\"", bench.options.tally, smallExport], environment: bench.tallyEnvironment(smallStore))
        let smallServer = try makeDatabase()
        _ = try timeOnce(["import", smallExport], database: smallServer)
        _ = try timeOnce(["snapshot"], database: smallServer)
        let addPath = work + "/pg-add.db"
        bench.remove(addPath)
        try bench.files.copyItem(atPath: smallStore, toPath: addPath)
        for arguments in [["list", "--limit", "20"], ["add", "Benchmark", "todo", "--tag", "bench"]] {
            let server = try bench.time(arguments, database: smallServer, runs: profile.runs).seconds
            let file = try bench.time(arguments, database: addPath, runs: profile.runs).seconds
            rows.append(.init(
                figure: "`tally \(arguments.joined(separator: " "))`, \(Report.count(profile.small.todos)) todos: PostgreSQL ÷ SQLite",
                target: "≤ 2",
                measured: String(format: "%.2f (%@ ÷ %@)", server / file, Report.ms(server), Report.ms(file)),
                pass: server / file <= 2
            ))
        }
        bench.remove(addPath)
        return rows
    }

    /// Events per second of `clients` threads, each with its own connection and dispatcher, each
    /// running `commands` single-event commands (`add`).
    func appendRate(_ location: StoreLocation, clients: Int, commands: Int) throws -> Double {
        // Create the schema first, so the clients only append.
        try StoreFactory.openForWriting(location, now: 0).close()
        let group = DispatchGroup()
        let lock = NSLock()
        nonisolated(unsafe) var failure: Error?
        let start = ProcessTimer.now()
        for client in 0 ..< clients {
            group.enter()
            Thread {
                defer { group.leave() }
                do {
                    let store = try StoreFactory.openForWriting(location, now: 0, lockTimeout: 60_000)
                    defer { store.close() }
                    let dispatcher = Dispatcher(log: store, environment: .live(actor: "bench-\(client)", zone: .utc))
                    for index in 0 ..< commands {
                        _ = try dispatcher.execute(.addTodo(TodoInput(title: "client \(client) todo \(index)")))
                    }
                } catch {
                    lock.withLock { failure = error }
                }
            }.start()
        }
        group.wait()
        let seconds = ProcessTimer.now() - start
        if let failure { throw Bench.Failure(description: "concurrent appends on \(location.display): \(failure)") }
        return Double(clients * commands) / seconds
    }

    /// Wall time of one run of tally; fails on a non-zero exit.
    func timeOnce(_ arguments: [String], database: String) throws -> Double {
        let sample = ProcessTimer.run(bench.options.tally, arguments, environment: bench.tallyEnvironment(database))
        guard sample.status == 0 else { throw Bench.Failure(description: "tally \(arguments.joined(separator: " ")) exited with \(sample.status)") }
        return sample.seconds
    }
}
