import Foundation

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

    func syncRows() throws -> [Report.Row] {
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

        let cloneRate = Double(cloneSize.events) / clones.median
        let pushRate = Double(unpushed) / pushes.median
        return [
            .init(
                figure: "`tally sync` clone of a \(Report.count(cloneSize.events))-event shared log (SQLite file) into an empty replica",
                target: "≥ 200k events/s",
                measured: String(format: "%@ events/s (%.2f s)", Report.count(Int(cloneRate)), clones.median),
                pass: cloneRate >= 200_000
            ),
            .init(
                figure: "`tally sync` pushing \(Report.count(unpushed)) unpushed events",
                target: "≥ 20k events/s",
                measured: String(format: "%@ events/s (%.2f s)", Report.count(Int(pushRate)), pushes.median),
                pass: pushRate >= 20_000
            ),
            .init(
                figure: "`tally sync` with nothing to do, \(Report.count(profile.small.events)) events",
                target: "≤ 50 ms", measured: Report.ms(noop.seconds), pass: noop.seconds <= 0.050
            ),
        ]
    }
}
