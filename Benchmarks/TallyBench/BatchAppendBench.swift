import Foundation
import TallyDomain

/// The bulk paths into PostgreSQL (migration 11's batch appends): `tally import` of the large
/// store's size (1M events in the full profile) into a fresh PostgreSQL database and into a fresh
/// SQLite file, alternated, and `tally sync` pushing unpushed events (100k in the full profile) from
/// a replica to an empty shared log. The inputs are generated once and kept in the bench cache.
extension Bench {
    /// Unpushed events of the push figure, by profile.
    var batchPushEvents: Int {
        switch profile.name {
        case "full": 100_000
        case "smoke": 200
        default: 10_000
        }
    }

    /// An export file of `events` generated events (`EventMix`, seq 1 on, chained), cached under `name`.
    func batchInput(_ name: String, todos: Int, events: Int, seed: UInt64) throws -> String {
        let path = options.cache + "/\(name)-\(events).jsonl"
        if !files.fileExists(atPath: path) {
            note("generating \(events) events for \(name) ...")
            var made = EventMix(todos: todos, events: events, seed: seed).envelopes()
            BulkAppend.chain(&made)
            try BulkAppend.export(made, to: path + ".part")
            try files.moveItem(atPath: path + ".part", toPath: path)
        }
        return path
    }

    /// The import and push rows; `makeDatabase` gives a fresh, empty PostgreSQL database each call.
    func batchAppendRows(makeDatabase: () throws -> String) throws -> [Report.Row] {
        let work = options.cache + "/work"
        let events = profile.large.events
        let input = try batchInput("batch-import", todos: profile.large.todos, events: events, seed: 0x28B)
        var server: [Double] = []
        var file: [Double] = []
        for run in 0..<profile.heavyRuns {
            note("batch appends: import of \(events) events into PostgreSQL and SQLite, run \(run + 1) of \(profile.heavyRuns) ...")
            server.append(try once(["import", input], database: try makeDatabase()))
            let path = work + "/batch-import.db"
            remove(path)
            file.append(try once(["import", input], database: path))
            remove(path)
        }
        let serverRate = Double(events) / server.median
        let fileRate = Double(events) / file.median
        var rows: [Report.Row] = [
            .init(
                figure: "`tally import` of \(Report.count(events)) events into PostgreSQL (batch appends), events/s",
                target: "≥ 100,000 and ≥ 1.0× SQLite",
                measured: String(format: "PostgreSQL %@ (%.1f s); SQLite %@ (%.1f s); %.2f×", Report.count(Int(serverRate)), server.median,
                                 Report.count(Int(fileRate)), file.median, serverRate / fileRate),
                pass: serverRate >= 100_000 && serverRate >= fileRate
            ),
        ]

        let unpushed = batchPushEvents
        let pushInput = try batchInput("batch-push", todos: max(1, unpushed / 5), events: unpushed, seed: 0x28C)
        var pushes: [Double] = []
        for run in 0..<profile.heavyRuns {
            note("batch appends: push of \(unpushed) unpushed events to PostgreSQL, run \(run + 1) of \(profile.heavyRuns) ...")
            let uri = try makeDatabase()
            let replica = work + "/batch-push-replica.db"
            remove(replica)
            // A replica of the empty shared log, then the events made on it offline, then the timed push.
            _ = try once(["sync", "--remote", uri], database: replica)
            _ = try once(["import", pushInput], database: replica)
            pushes.append(try once(["sync"], database: replica))
            remove(replica)
        }
        let pushRate = Double(unpushed) / pushes.median
        rows.append(.init(
            figure: "`tally sync` pushing \(Report.count(unpushed)) unpushed events to PostgreSQL (batch appends), events/s",
            target: "≥ 100,000",
            measured: String(format: "%@ (%.2f s)", Report.count(Int(pushRate)), pushes.median),
            pass: pushRate >= 100_000
        ))
        return rows
    }
}
