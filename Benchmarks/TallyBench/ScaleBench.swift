import Foundation
import TallyEngine
import TallyDomain
import TallySQLite

/// The largest store: 10M events over 1M todos in the full profile (1M events in the quick one,
/// none in the smoke run of `make test`). It is generated once, streamed in batches (it does not
/// fit in memory as envelopes), and cached beside the other stores.
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

    /// `add`, `done N`, `list --limit 20` and the peak memory of `add` on the largest store (SQLite).
    func scaleRows() throws -> [Report.Row] {
        guard let size = scaleSize else { return [] }
        let path = storePath(size)
        if !files.fileExists(atPath: path) {
            note("generating \(size.todos) todos / \(size.events) events (streamed; once, then cached) ...")
            try generateStreaming(size, to: path)
        }
        note("timing add, done and list at \(size.events) events ...")
        let copy = options.cache + "/work/scale.db"
        remove(copy)
        try files.copyItem(atPath: path, toPath: copy)
        defer { remove(copy) }
        return try hotCommandRows(database: copy, name: "\(Report.count(size.todos)) todos / \(Report.count(size.events)) events (SQLite)", limit: 0.008)
            + scalePostgres(size, sqliteStore: path) + (try fleetRows())
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
        let target = "≤ \(Int(limit * 1000)) ms"
        return [
            .init(figure: "`add` at \(name)", target: target, measured: Report.ms(add.seconds), pass: add.seconds <= limit),
            .init(figure: "`done N` at \(name)", target: target, measured: Report.ms(done.seconds), pass: done.seconds <= limit),
            .init(figure: "`list --limit 20` at \(name)", target: target, measured: Report.ms(list.seconds), pass: list.seconds <= limit),
            .init(figure: "peak memory of `add` at \(name)", target: "≤ 64 MB", measured: Report.megabytes(peak), pass: peak > 0 && peak <= 64_000_000),
        ]
    }

    /// The PostgreSQL rows of the largest store, or none (with a note) when no server can be had.
    func scalePostgres(_ size: (todos: Int, events: Int), sqliteStore: String) -> [Report.Row] {
        do {
            return try scalePostgresRows(size, sqliteStore: sqliteStore)
        } catch {
            note("PostgreSQL rows of the largest store skipped: \(error)")
            return []
        }
    }

    /// The ten-replica sync, through a shared file and through PostgreSQL (when a server can be had).
    func fleetRows() throws -> [Report.Row] {
        let perReplica = profile.name == "full" ? 1_000 : 200
        let sharedFile = options.cache + "/work/fleet-shared.db"
        remove(sharedFile)
        defer { remove(sharedFile) }
        note("timing 10 replicas syncing through a shared file ...")
        var rows = [try fleetRow(shared: sharedFile, label: "(SQLite file)", perReplica: perReplica)]
        do {
            let server = try PostgresBench(bench: self)
            note("timing 10 replicas syncing through PostgreSQL ...")
            rows.append(try fleetRow(shared: try server.makeDatabase(), label: "(PostgreSQL)", perReplica: perReplica))
        } catch {
            note("PostgreSQL fleet figure skipped: \(error)")
        }
        return rows
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
            figure: "10 replicas × \(Report.count(perReplica)) own events, two rounds of `tally sync` through one shared log \(label)",
            target: "—",
            measured: String(format: "%.2f s for 20 syncs (%@ events/s pushed and pulled); all 10 exports identical", seconds,
                             Report.count(Int(Double(10 * perReplica + 90 * perReplica) / seconds))),
            pass: true
        )
    }
}
