import Foundation
import TallyDomain

/// The bulk paths into PostgreSQL (migration 11's batch appends): `tally import` of the large
/// store's size (1M events in the full profile) into a fresh PostgreSQL database and into a fresh
/// SQLite file, alternated, and `tally sync` pushing unpushed events (100k in the full profile) from
/// a replica to an empty shared log; then `rebuild` and `export` of the two imported logs. The
/// inputs are generated once and kept in the bench cache.
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
        // The last run's two logs (the same events, each imported by tally) are read back below.
        var serverLog = ""
        let fileLog = work + "/batch-import.db"
        for run in 0..<profile.heavyRuns {
            note("batch appends: import of \(events) events into PostgreSQL and SQLite, run \(run + 1) of \(profile.heavyRuns) ...")
            serverLog = try makeDatabase()
            server.append(try once(["import", input], database: serverLog))
            remove(fileLog)
            file.append(try once(["import", input], database: fileLog))
        }
        let readRows = try wholeLogRows(events: events, server: serverLog, file: fileLog)
        remove(fileLog)
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
        return rows + readRows
    }

    /// `rebuild` and `export` of the same `events`-event log on PostgreSQL and on SQLite, the four
    /// commands alternated round by round (after a warm-up round), medians.
    func wholeLogRows(events: Int, server: String, file: String) throws -> [Report.Row] {
        note("whole-log reads: rebuild and export of \(events) events, PostgreSQL and SQLite alternated, \(profile.heavyRuns) runs each ...")
        let output = options.cache + "/work/batch-export.jsonl"
        defer { try? files.removeItem(atPath: output) }
        let export = ["export", "--output", output]
        let times = try alternate(runs: profile.heavyRuns, [(["rebuild"], file), (["rebuild"], server), (export, file), (export, server)])
        let rate = { Double(events) / $0 }
        return [
            .init(
                figure: "`tally rebuild` of \(Report.count(events)) events, SQLite and PostgreSQL (alternated), events/s",
                target: "≥ 1,000,000 (SQLite), ≥ 500,000 (PostgreSQL)",
                measured: String(format: "SQLite %@ (%.2f s); PostgreSQL %@ (%.2f s)", Self.grouped(Int(rate(times[0]))), times[0],
                                 Self.grouped(Int(rate(times[1]))), times[1]),
                pass: rate(times[0]) >= 1_000_000 && rate(times[1]) >= 500_000
            ),
            .init(
                figure: "`tally export` of \(Report.count(events)) events, events/s",
                target: "≥ 200,000 (PostgreSQL)",
                measured: String(format: "PostgreSQL %@; SQLite %@", Self.grouped(Int(rate(times[3]))), Self.grouped(Int(rate(times[2])))),
                pass: rate(times[3]) >= 200_000
            ),
        ]
    }
}
