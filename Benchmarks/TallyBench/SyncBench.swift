import Foundation
import TallyDomain
import TallyEssentials

/// Sync figures: the size of a clone, the helpers that run tally once, and a push into a shared file.
///
/// The replicas are timed as `tally sync` processes.
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

    /// A push of the small store's events (10k in the full profile) from a replica into a new
    /// shared file. The clones and the syncs with nothing to do are the read rows' (`ReadBench`),
    /// the push to PostgreSQL the batch appends' (`BatchAppendBench`).
    func filePushRow() throws -> Report.Row {
        let work = options.cache + "/work"
        let sharedCopy = work + "/sync-shared.db"
        let replica = work + "/sync-replica.db"
        let unpushed = profile.small.events
        note("timing a push of \(unpushed) unpushed events to a shared file ...")
        var pushes: [Double] = []
        for _ in 0..<profile.heavyRuns {
            remove(replica)
            remove(sharedCopy)
            try files.copyItem(atPath: try ensureStore(profile.small), toPath: replica)
            pushes.append(try once(["sync", "--remote", sharedCopy], database: replica))
        }
        remove(replica)
        remove(sharedCopy)
        let rate = Double(unpushed) / pushes.median
        return .init(
            figure: "`tally sync` pushing \(Report.count(unpushed)) unpushed events to a shared file (SQLite), events/s",
            target: "≥ 20,000",
            measured: String(format: "%@ (%.2f s)", Self.grouped(Int(rate)), pushes.median),
            pass: rate >= 20_000
        )
    }
}
