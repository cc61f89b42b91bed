import Foundation
import TallyEngine
import TallyDomain
import TallySQLite

/// The largest store: 10M events over 1M todos in the full profile (1M events in the quick one,
/// none in the smoke run of `make test`). `make bench-scale` generates it once, streamed in batches
/// (it does not fit in memory as envelopes), and caches it beside the other stores; `make bench`
/// measures it when it is there.
extension Bench {
    var scaleSize: (todos: Int, events: Int)? {
        switch profile.name {
        case "full": (1_000_000, 10_000_000)
        case "quick": (100_000, 1_000_000)
        default: nil
        }
    }

    /// Generates a store of `size` through the bulk append path, a batch at a time.
    func generateStreaming(_ size: (todos: Int, events: Int), to path: String) throws {
        let temporary = path + ".tmp"
        remove(temporary)
        let log = try SQLiteEventLog.openForWriting(path: temporary, now: 0)
        try log.bulkWrite {
            var previous = try log.head()
            var batch: [EventEnvelope] = []
            batch.reserveCapacity(BulkAppend.batchSize)
            try EventMix(todos: size.todos, events: size.events, seed: UInt64(size.todos * 31 + size.events)).forEach { event in
                var event = event
                event.hash = EventHash.link(previous: previous.hash, event)
                previous = LogHead(seq: event.seq, hash: event.hash)
                batch.append(event)
                if batch.count == BulkAppend.batchSize {
                    try log.append(batch)
                    batch.removeAll(keepingCapacity: true)
                }
            }
            try log.append(batch)
        }
        log.close()
        try BulkAppend.snapshotByPolicy(path: temporary)
        remove(path)
        try files.moveItem(atPath: temporary, toPath: path)
    }

    /// `add`, `done N`, `list --limit 20` and the peak memory of `add` on the largest store, on SQLite
    /// and on PostgreSQL. With `generate` false (the run of `make bench`) only stores already cached
    /// are measured, and the rows of one that is not say so; `make bench-scale` generates them.
    func scaleRows(generate: Bool) throws -> [Report.Row] {
        guard let size = scaleSize else { return [] }
        let path = storePath(size)
        let name = "\(Report.count(size.todos)) todos / \(Report.count(size.events)) events (SQLite)"
        if !files.fileExists(atPath: path) {
            guard generate else {
                return notGenerated(Self.hotCommandFigures(name: name, limit: 0.008)) + scalePostgres(size, sqliteStore: path, generate: false)
            }
            note("generating \(size.todos) todos / \(size.events) events (streamed; once, then cached) ...")
            try generateStreaming(size, to: path)
        }
        note("timing add, done and list at \(size.events) events ...")
        let copy = options.cache + "/work/scale.db"
        remove(copy)
        try files.copyItem(atPath: path, toPath: copy)
        defer { remove(copy) }
        return try hotCommandRows(database: copy, name: name, limit: 0.008) + scalePostgres(size, sqliteStore: path, generate: generate)
    }

    /// The rows of a store this run did not generate, each saying how to have it.
    func notGenerated(_ figures: [(figure: String, target: String)]) -> [Report.Row] {
        let how = profile.name == "full" ? "`make bench-scale`" : "`tally-bench --\(profile.name) --scale`"
        return Report.notMeasured(figures, "not generated (\(how) generates it)")
    }

    /// The figures and targets of `hotCommandRows`, in its order.
    static func hotCommandFigures(name: String, limit: Double) -> [(figure: String, target: String)] {
        let target = "≤ \(Int(limit * 1000)) ms"
        return [
            ("`add` at \(name)", target), ("`done N` at \(name)", target), ("`list --limit 20` at \(name)", target),
            ("peak memory of `add` at \(name)", "≤ 64 MB"),
        ]
    }

    /// `add`, `done N` (of a live todo among the first 50, reopened before each run), `list --limit
    /// 20` and the peak memory of `add` on `database`, each against `limit` seconds.
    func hotCommandRows(database: String, name: String, limit: Double) throws -> [Report.Row] {
        let add = try time(["add", "Benchmark", "todo", "--tag", "bench"], database: database, runs: profile.runs)
        guard let live = (1...50).first(where: { ProcessTimer.run(options.tally, ["reopen", String($0)], environment: tallyEnvironment(database)).status == 0 }) else {
            throw Failure(description: "no live todo among the first 50 of \(name)")
        }
        let reopen = { _ = ProcessTimer.run(self.options.tally, ["reopen", String(live)], environment: self.tallyEnvironment(database)) }
        let done = try time(["done", String(live)], database: database, runs: profile.runs, prepare: reopen)
        let list = try time(["list", "--limit", "20"], database: database, runs: profile.runs)
        let peak = peakMemory(["add", "Benchmark", "todo"], database: database, fallback: add.peak)
        let measured = [
            (Report.ms(add.seconds), add.seconds <= limit), (Report.ms(done.seconds), done.seconds <= limit),
            (Report.ms(list.seconds), list.seconds <= limit), (Report.megabytes(peak), peak > 0 && peak <= 64_000_000),
        ]
        return zip(Self.hotCommandFigures(name: name, limit: limit), measured).map {
            Report.Row(figure: $0.0.figure, target: $0.0.target, measured: $0.1.0, pass: $0.1.1)
        }
    }

    /// The PostgreSQL rows of the largest store; rows that say why when it is not cached (and
    /// `generate` is false) or no server can be had.
    func scalePostgres(_ size: (todos: Int, events: Int), sqliteStore: String, generate: Bool) -> [Report.Row] {
        let name = "\(Report.count(size.todos)) todos / \(Report.count(size.events)) events (PostgreSQL)"
        let figures = Self.hotCommandFigures(name: name, limit: 0.016) + Self.scaleSyncFigures(size)
        if !generate, !scaleCached(size, sqliteStore: sqliteStore) { return notGenerated(figures) }
        do {
            return try scalePostgresRows(size, sqliteStore: sqliteStore)
        } catch {
            note("PostgreSQL rows of the largest store skipped: \(error)")
            return Report.notMeasured(figures, "not measured: \(error)")
        }
    }

    /// The ten-replica sync, through a shared file and through PostgreSQL; `makeDatabase` gives a
    /// fresh, empty PostgreSQL database (a throw-away cluster is started when it is nil).
    func fleetRows(makeDatabase given: (() throws -> String)?) throws -> [Report.Row] {
        let perReplica = profile.name == "full" ? 1_000 : 200
        let sharedFile = options.cache + "/work/fleet-shared.db"
        remove(sharedFile)
        defer { remove(sharedFile) }
        note("timing 10 replicas syncing through a shared file ...")
        var rows = [try fleetRow(shared: sharedFile, label: "(SQLite file)", perReplica: perReplica)]
        do {
            let server = given == nil ? try PostgresBench(bench: self) : nil
            guard let makeDatabase = given ?? server?.makeDatabase else { throw BenchError("no PostgreSQL server") }
            note("timing 10 replicas syncing through PostgreSQL ...")
            rows.append(try fleetRow(shared: try makeDatabase(), label: "(PostgreSQL)", perReplica: perReplica))
        } catch {
            note("PostgreSQL fleet figure skipped: \(error)")
            rows += Report.notMeasured([(Self.fleetFigure(perReplica: perReplica, label: "(PostgreSQL)"), "—")], "not measured: \(error)")
        }
        return rows
    }

    /// The figure of `fleetRow`.
    static func fleetFigure(perReplica: Int, label: String) -> String {
        "10 replicas × \(Report.count(perReplica)) own events, two rounds of `tally sync` through one shared log \(label)"
    }

    /// Ten replicas, each with `perReplica` events of its own, sync through one shared log: every
    /// replica syncs once (pushing its events, pulling those pushed before it), then once more
    /// (pulling the rest). The figure is the wall time of the twenty syncs; every replica must end
    /// with the same export.
    func fleetRow(shared: String, label: String, perReplica: Int) throws -> Report.Row {
        let work = options.cache + "/work"
        let replicas = (0 ..< 10).map { work + "/fleet-\($0).db" }
        for (index, replica) in replicas.enumerated() {
            remove(replica)
            let extra = work + "/fleet-extra.db"
            let file = work + "/fleet-extra.jsonl"
            remove(extra)
            var fresh = EventMix(todos: perReplica, events: perReplica, seed: 7_919 * UInt64(index + 1)).envelopes()
            try BulkAppend.run(&fresh, path: extra)
            _ = try once(["export", "--output", file], database: extra)
            _ = try once(["import", file], database: replica)
            _ = try once(["remote", "set", shared], database: replica)
            remove(extra)
            try? files.removeItem(atPath: file)
        }
        var seconds = 0.0
        for _ in 0 ..< 2 {
            for replica in replicas { seconds += try once(["sync"], database: replica) }
        }
        let exports = Set(replicas.map { output(["export"], database: $0) })
        let events = output(["export"], database: replicas[0]).split(separator: "\n").count
        for replica in replicas { remove(replica) }
        guard exports.count == 1, events >= 10 * perReplica else {
            throw Failure(description: "the fleet did not converge on \(label): \(exports.count) different exports, \(events) events")
        }
        return .init(
            figure: Self.fleetFigure(perReplica: perReplica, label: label),
            target: "—",
            measured: String(format: "%.2f s for 20 syncs (%@ events/s pushed and pulled); all 10 exports identical", seconds,
                             Report.count(Int(Double(10 * perReplica + 90 * perReplica) / seconds))),
            pass: true
        )
    }
}
