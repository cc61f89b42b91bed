import Foundation
import TallyDomain
import TallyEssentials

/// Sync figures: a clone into an empty replica, a push of unpushed events, and a sync with nothing to do.
///
/// The shared log is a tally SQLite file here; the replicas are timed as `tally sync` processes.
extension Bench {
    /// Events of the shared log a clone copies, by profile.
    var cloneSize: (todos: Int, events: Int) {
        switch profile.name {
        case "full": profile.large
        default: profile.longHistory
        }
    }

    /// Wall time of one run of tally (no warm-up: the run changes the database).
    func once(_ arguments: [String], database: String) throws -> Double {
        let sample = ProcessTimer.run(options.tally, arguments, environment: tallyEnvironment(database))
        guard sample.status == 0 else { throw Failure(description: "tally \(arguments.joined(separator: " ")) exited with \(sample.status)") }
        return sample.seconds
    }

    /// What one run of tally prints on standard output.
    func output(_ arguments: [String], database: String) -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: options.tally)
        process.arguments = arguments
        process.environment = tallyEnvironment(database)
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = FileHandle.nullDevice
        guard (try? process.run()) != nil else { return "" }
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return String(decoding: data, as: UTF8.self)
    }

    /// The sync rows on a shared file, and on PostgreSQL when `postgres` makes databases there.
    func syncRows(postgres: (() throws -> String)?) throws -> [Report.Row] {
        let work = options.cache + "/work"
        let shared = try ensureStore(cloneSize)
        let sharedCopy = work + "/sync-shared.db"
        let replica = work + "/sync-replica.db"

        note("timing a clone of \(cloneSize.events) events ...")
        remove(sharedCopy)
        try files.copyItem(atPath: shared, toPath: sharedCopy)
        var clones: [Double] = []
        for _ in 0..<profile.heavyRuns {
            remove(replica)
            clones.append(try once(["sync", "--remote", sharedCopy], database: replica))
        }
        remove(replica)
        remove(sharedCopy)

        let unpushed = profile.small.events
        note("timing a push of \(unpushed) unpushed events ...")
        var pushes: [Double] = []
        for _ in 0..<profile.heavyRuns {
            remove(replica)
            remove(sharedCopy)
            try files.copyItem(atPath: try ensureStore(profile.small), toPath: replica)
            pushes.append(try once(["sync", "--remote", sharedCopy], database: replica))
        }
        note("timing a sync with nothing to do ...")
        let noop = try time(["sync"], database: replica, runs: profile.runs)
        remove(replica)
        remove(sharedCopy)

        var server: [Report.Row] = []
        if let postgres {
            do {
                server = try postgresRows(try postgres())
            } catch {
                note("PostgreSQL sync figures skipped: \(error)")
            }
        }
        return rows(shared: "(SQLite file)", events: cloneSize.events, clones: clones, unpushed: unpushed, pushes: pushes, noop: noop.seconds) + server
    }

    /// The three sync rows of one kind of shared log.
    func rows(shared: String, events: Int, clones: [Double], unpushed: Int, pushes: [Double], noop: Double) -> [Report.Row] {
        let cloneRate = Double(events) / clones.median
        let pushRate = Double(unpushed) / pushes.median
        return [
            .init(
                figure: "`tally sync` clone of a \(Report.count(events))-event shared log \(shared) into an empty replica",
                target: "≥ 200k events/s",
                measured: String(format: "%@ events/s (%.2f s)", Report.count(Int(cloneRate)), clones.median),
                pass: cloneRate >= 200_000
            ),
            .init(
                figure: "`tally sync` pushing \(Report.count(unpushed)) unpushed events \(shared)",
                target: "≥ 20k events/s",
                measured: String(format: "%@ events/s (%.2f s)", Report.count(Int(pushRate)), pushes.median),
                pass: pushRate >= 20_000
            ),
            .init(
                figure: "`tally sync` with nothing to do \(shared)",
                target: "≤ 50 ms", measured: Report.ms(noop), pass: noop <= 0.050
            ),
        ]
    }

    /// The same figures against a PostgreSQL shared log in `uri`, an empty database the clone
    /// store is imported into first.
    func postgresRows(_ uri: String) throws -> [Report.Row] {
        let work = options.cache + "/work"
        let replica = work + "/sync-pg-replica.db"
        let expected = cloneSize.events
        let info = output(["--json", "info"], database: uri)
        let events = (try? JSON.parse(info))?.objectValue?["events"]?.intValue ?? -1
        guard events == 0 else { throw Failure(description: "the database \(uri) is not empty") }
        note("importing \(expected) events into PostgreSQL ...")
        let file = work + "/sync-pg.jsonl"
        _ = try once(["export", "--output", file], database: try ensureStore(cloneSize))
        _ = try once(["import", file], database: uri)
        try? files.removeItem(atPath: file)
        note("timing a clone from PostgreSQL ...")
        var clones: [Double] = []
        var cloned: Int64 = 0
        for _ in 0..<profile.heavyRuns {
            remove(replica)
            clones.append(try once(["sync", "--remote", uri], database: replica))
            cloned = (try? JSON.parse(output(["--json", "info"], database: replica)))?.objectValue?["events"]?.intValue ?? 0
        }
        let unpushed = profile.small.events
        note("timing a push of \(unpushed) events to PostgreSQL ...")
        var pushes: [Double] = []
        for run in 0..<profile.heavyRuns {
            // Fresh items (their own ids) made on a clone of the shared log, then pushed.
            remove(replica)
            _ = try once(["sync", "--remote", uri], database: replica)
            let extra = work + "/sync-pg-extra.db"
            let file = work + "/sync-pg-extra.jsonl"
            remove(extra)
            var fresh = EventMix(todos: unpushed, events: unpushed, seed: UInt64.random(in: 1...UInt64.max) ^ UInt64(run)).envelopes()
            try BulkAppend.run(&fresh, path: extra)
            _ = try once(["export", "--output", file], database: extra)
            _ = try once(["import", file], database: replica)
            remove(extra)
            try? files.removeItem(atPath: file)
            pushes.append(try once(["sync"], database: replica))
        }
        let noop = try time(["sync"], database: replica, runs: profile.runs)
        remove(replica)
        return rows(shared: "(PostgreSQL)", events: Int(cloned), clones: clones, unpushed: unpushed, pushes: pushes, noop: noop.seconds)
    }
}
