import Foundation
import TallyEssentials

/// The read side of the shared log, side by side in one run (`tally-bench --read`, and part of
/// `make bench`): a clone of the large store's log from a shared file and from PostgreSQL, a sync
/// with nothing to do on both (with `tally --version` as the floor), and `add` and
/// `list --limit 20` on PostgreSQL against the same command on SQLite. The measurements of each
/// row alternate between the two sides round by round, so load changes hit both alike.
extension Bench {
    /// The read rows, in the order of the issue's table (clones, empty syncs, `list` and `add`).
    /// `server` is the run's PostgreSQL (a throw-away durable cluster is started when there is none).
    func readRows(server given: PostgresBench? = nil) throws -> [Report.Row] {
        if let uri = ProcessInfo.processInfo.environment["TALLY_BENCH_POSTGRES"], !uri.isEmpty {
            // These rows need two fresh databases (the large log, and the small store for add and list).
            throw BenchError("they need fresh databases on a throw-away cluster (TALLY_BENCH_POSTGRES is set)")
        }
        let work = options.cache + "/work"
        try files.createDirectory(atPath: work, withIntermediateDirectories: true)
        let size = cloneSize
        let sharedStore = try ensureStore(size)
        let server = try given ?? PostgresBench(bench: self)

        note("read: importing \(size.events) events into PostgreSQL ...")
        let uri = try server.makeDatabase()
        let exportFile = work + "/read-export.jsonl"
        _ = try once(["export", "--output", exportFile], database: sharedStore)
        _ = try once(["import", exportFile], database: uri)
        try? files.removeItem(atPath: exportFile)

        // Clones, alternating: the shared file (a copy, so the cached store stays as it is), then PostgreSQL.
        note("read: cloning \(size.events) events, \(profile.heavyRuns) times from each ...")
        let sharedCopy = work + "/read-shared.db"
        remove(sharedCopy)
        try files.copyItem(atPath: sharedStore, toPath: sharedCopy)
        let fileReplica = work + "/read-file-replica.db"
        let serverReplica = work + "/read-pg-replica.db"
        var fileClones: [Double] = []
        var serverClones: [Double] = []
        for _ in 0 ..< profile.heavyRuns {
            remove(fileReplica)
            fileClones.append(try once(["sync", "--remote", sharedCopy], database: fileReplica))
            remove(serverReplica)
            serverClones.append(try once(["sync", "--remote", uri], database: serverReplica))
        }
        for replica in [fileReplica, serverReplica] {
            let events = (try? JSON.parse(output(["--json", "info"], database: replica)))?.objectValue?["events"]?.intValue ?? -1
            guard events == Int64(size.events) else { throw Failure(description: "a clone in \(replica) holds \(events) of \(size.events) events") }
        }

        note("read: syncs with nothing to do ...")
        let floor = work + "/read-floor.db"
        let empty = try alternate(runs: profile.runs, [
            (["--version"], floor), (["sync"], fileReplica), (["sync"], serverReplica),
        ])
        remove(fileReplica)
        remove(serverReplica)
        remove(sharedCopy)

        note("read: add and list --limit 20 at \(profile.small.todos) todos, PostgreSQL and SQLite ...")
        let smallStore = try ensureStore(profile.small)
        let smallExport = work + "/read-small.jsonl"
        _ = try once(["export", "--output", smallExport], database: smallStore)
        let smallServer = try server.makeDatabase()
        _ = try once(["import", smallExport], database: smallServer)
        _ = try once(["snapshot"], database: smallServer)
        try? files.removeItem(atPath: smallExport)
        let smallFile = work + "/read-small.db"
        remove(smallFile)
        try files.copyItem(atPath: smallStore, toPath: smallFile)
        let list = ["list", "--limit", "20"]
        let add = ["add", "Benchmark", "todo", "--tag", "bench"]
        let commands = try alternate(runs: profile.runs, [(list, smallServer), (list, smallFile), (add, smallServer), (add, smallFile)])
        remove(smallFile)

        let events = Report.count(size.events)
        func clone(_ what: String, _ runs: [Double]) -> Report.Row {
            let rate = Double(size.events) / runs.median
            return .init(
                figure: "clone of a \(events)-event shared log (\(what)) into an empty replica, events/s",
                target: "≥ 300,000", measured: String(format: "%@ (%.2f s)", Self.grouped(Int(rate)), runs.median), pass: rate >= 300_000
            )
        }
        func ratio(_ name: String, _ onServer: Double, _ onFile: Double) -> Report.Row {
            .init(
                figure: "`tally \(name)`, \(Report.count(profile.small.todos)) todos: PostgreSQL ÷ SQLite (alternated)",
                target: "≤ 2", measured: String(format: "%.2f (%@ ÷ %@)", onServer / onFile, Report.ms(onServer), Report.ms(onFile)),
                pass: onServer / onFile <= 2
            )
        }
        return [
            clone("a shared file", fileClones),
            clone("PostgreSQL", serverClones),
            .init(
                figure: "sync with nothing to do, a shared file (`tally --version`: \(Report.ms(empty[0])))",
                target: "≤ 5 ms", measured: Report.ms(empty[1]), pass: empty[1] <= 0.005
            ),
            .init(
                figure: "sync with nothing to do, PostgreSQL",
                target: "≤ 10 ms", measured: Report.ms(empty[2]), pass: empty[2] <= 0.010
            ),
            ratio(list.joined(separator: " "), commands[0], commands[1]),
            ratio("add", commands[2], commands[3]),
        ]
    }

    /// Median wall times of each command, run in turn round by round (`runs` rounds after one warm-up).
    func alternate(runs: Int, _ commands: [(arguments: [String], database: String)]) throws -> [Double] {
        var seconds = Array(repeating: [Double](), count: commands.count)
        for round in 0 ... runs {
            for (index, command) in commands.enumerated() {
                let sample = ProcessTimer.run(options.tally, command.arguments, environment: tallyEnvironment(command.database))
                guard sample.status == 0 else {
                    throw Failure(description: "tally \(command.arguments.joined(separator: " ")) exited with \(sample.status)")
                }
                if round > 0 { seconds[index].append(sample.seconds) }
            }
        }
        return seconds.map(\.median)
    }

    /// 1234567 as "1,234,567".
    static func grouped(_ value: Int) -> String {
        var digits = Array(String(value))
        var index = digits.count - 3
        while index > 0 {
            digits.insert(",", at: index)
            index -= 3
        }
        return String(digits)
    }
}
