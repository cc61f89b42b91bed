#if canImport(Glibc)
import Glibc
#endif
import Foundation
import TallyDomain

/// Generates (or reuses) the stores, takes every measurement and prints the table.
final class Bench {
    let options: Options
    var profile: Profile { options.profile }
    let files = FileManager.default

    init(options: Options) {
        self.options = options
    }

    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    /// A progress line on stderr (the table goes to stdout).
    func note(_ text: String) {
        FileHandle.standardError.write(Data((text + "\n").utf8))
    }

    /// Where the cached store of a size lives; the suffix changes when the generator does.
    func storePath(_ size: (todos: Int, events: Int)) -> String {
        "\(options.cache)/store-\(size.todos)t-\(size.events)e-g2.db"
    }

    /// The environment tally runs with: a fixed actor and zone, no host name lookup.
    func tallyEnvironment(_ database: String) -> [String: String] {
        ["TALLY_DB": database, "TALLY_ACTOR": "bench@host", "TZ": "UTC", "HOME": options.cache, "PATH": "/usr/bin:/bin", "LANG": "C.UTF-8"]
    }

    /// Median wall time in seconds of `runs` runs of tally after one warm-up run; fails on a non-zero exit.
    func time(_ arguments: [String], database: String, runs: Int) throws -> (seconds: Double, peak: Int64) {
        var seconds: [Double] = []
        var peak: Int64 = 0
        for run in 0...runs {
            let sample = ProcessTimer.run(options.tally, arguments, environment: tallyEnvironment(database))
            guard sample.status == 0 else { throw Failure(description: "tally \(arguments.joined(separator: " ")) exited with \(sample.status)") }
            if run > 0 {
                seconds.append(sample.seconds)
                peak = max(peak, sample.peakBytes)
            }
        }
        return (seconds.median, peak)
    }

    /// Peak resident memory of one run of tally, measured by `/usr/bin/time` when it exists.
    ///
    /// `wait4`'s figure is not used for this: `posix_spawn` starts the child as a vfork of this
    /// process, whose own (large) resident set then counts as the child's peak.
    func peakMemory(_ arguments: [String], database: String, fallback: Int64) -> Int64 {
        let timer = "/usr/bin/time"
        guard files.isExecutableFile(atPath: timer) else { return fallback }
        let output = options.cache + "/work/peak.txt"
        let sample = ProcessTimer.run(timer, ["-f", "%M", "-o", output, options.tally] + arguments, environment: tallyEnvironment(database))
        guard sample.status == 0, let text = try? String(contentsOfFile: output, encoding: .utf8),
              let kilobytes = Int64(text.trimmingCharacters(in: .whitespacesAndNewlines).split(separator: "\n").last ?? "") else { return fallback }
        return kilobytes * 1024
    }

    /// Builds a store through the bulk append path, then lets the snapshot policy run as after any write.
    func generate(_ size: (todos: Int, events: Int), to path: String) throws -> Double {
        var events = EventMix(todos: size.todos, events: size.events, seed: UInt64(size.todos * 31 + size.events)).envelopes()
        let temporary = path + ".tmp"
        remove(temporary)
        let start = ProcessTimer.now()
        try BulkAppend.run(&events, path: temporary)
        let seconds = ProcessTimer.now() - start
        try BulkAppend.snapshotByPolicy(path: temporary)
        remove(path)
        try files.moveItem(atPath: temporary, toPath: path)
        return seconds
    }

    /// The cached store of a size, generated first when missing.
    func ensureStore(_ size: (todos: Int, events: Int)) throws -> String {
        let path = storePath(size)
        if !files.fileExists(atPath: path) {
            note("generating \(size.todos) todos / \(size.events) events ...")
            _ = try generate(size, to: path)
        }
        return path
    }

    /// Deletes a database and its side files.
    func remove(_ path: String) {
        for suffix in ["", "-wal", "-shm", "-journal"] { try? files.removeItem(atPath: path + suffix) }
    }

    /// Bytes on disk of a database and its WAL.
    func fileSize(_ path: String) -> Int64 {
        ["", "-wal"].reduce(Int64(0)) { total, suffix in
            total + ((try? files.attributesOfItem(atPath: path + suffix)[.size] as? Int64) ?? 0)
        }
    }

    /// Every measurement, in the order of the table.
    func run() throws {
        guard files.isExecutableFile(atPath: options.tally) else { throw Failure(description: "no tally binary at \(options.tally); build it first") }
        try files.createDirectory(atPath: options.cache, withIntermediateDirectories: true)
        let work = options.cache + "/work"
        try files.createDirectory(atPath: work, withIntermediateDirectories: true)

        // Bulk append against the raw baseline: the same rows, fresh files, alternating runs.
        let large = profile.large
        note("preparing \(large.events) events with random UUIDs ...")
        var events = EventMix(todos: large.todos, events: large.events, seed: UInt64(large.todos * 31 + large.events)).envelopes()
        var appendTimes: [Double] = []
        var rawTimes: [Double] = []
        let rawPath = work + "/raw.db"
        let importPath = work + "/import.db"
        for run in 0..<profile.heavyRuns {
            note("bulk append run \(run + 1) of \(profile.heavyRuns) ...")
            remove(importPath)
            let start = ProcessTimer.now()
            try BulkAppend.run(&events, path: importPath)
            appendTimes.append(ProcessTimer.now() - start)
            remove(rawPath)
            let rawStart = ProcessTimer.now()
            try RawBaseline.run(events, path: rawPath)
            rawTimes.append(ProcessTimer.now() - rawStart)
        }
        let largePath = storePath(large)
        if !files.fileExists(atPath: largePath) {
            try BulkAppend.snapshotByPolicy(path: importPath)
            try files.moveItem(atPath: importPath, toPath: largePath)
        }
        remove(importPath)
        events = []

        let smallPath = try ensureStore(profile.small)
        let longPath = try ensureStore(profile.longHistory)
        let sizeRatio = Double(fileSize(largePath)) / Double(fileSize(rawPath))
        let rawSize = fileSize(rawPath)
        remove(rawPath)

        note("timing tally add ...")
        let addPath = work + "/add.db"
        remove(addPath)
        try files.copyItem(atPath: smallPath, toPath: addPath)
        let add = try time(["add", "Benchmark", "todo", "--tag", "bench"], database: addPath, runs: profile.runs)
        remove(addPath)

        note("timing tally list --limit 20 ...")
        let listLarge = try time(["list", "--limit", "20"], database: largePath, runs: profile.runs)
        let listLong = try time(["list", "--limit", "20"], database: longPath, runs: profile.runs)
        let listSmall = try time(["list", "--limit", "20"], database: smallPath, runs: profile.runs)

        note("timing tally rebuild ...")
        var rebuild = try time(["rebuild"], database: largePath, runs: profile.heavyRuns)
        rebuild.peak = peakMemory(["rebuild"], database: largePath, fallback: rebuild.peak)

        let activityRows = try ActivityBench(bench: self, activities: profile.activities.count, points: profile.activities.points).rows()

        let report = Report(profile: profile, rows: [
            .init(
                figure: "`tally add` wall time, \(Report.count(profile.small.todos)) todos",
                target: "≤ 10 ms", measured: Report.ms(add.seconds), pass: add.seconds <= 0.010
            ),
            .init(
                figure: "`tally list --limit 20`, \(Report.count(large.todos)) todos, \(Report.count(large.events)) events",
                target: "≤ 50 ms", measured: Report.ms(listLarge.seconds), pass: listLarge.seconds <= 0.050
            ),
            .init(
                figure: "`list --limit 20`: \(Report.count(profile.longHistory.todos)) todos with \(Report.count(profile.longHistory.events)) ÷ with \(Report.count(profile.small.events)) events",
                target: "≤ 1.25",
                measured: String(format: "%.2f (%@ ÷ %@)", listLong.seconds / listSmall.seconds, Report.ms(listLong.seconds), Report.ms(listSmall.seconds)),
                pass: listLong.seconds / listSmall.seconds <= 1.25
            ),
            .init(
                figure: "`tally rebuild`, \(Report.count(large.events)) events, end to end",
                target: "≥ 500k events/s, ≤ 200 MB",
                measured: String(format: "%@ events/s (%.2f s), %@ peak", Report.count(Int(Double(large.events) / rebuild.seconds)), rebuild.seconds, Report.megabytes(rebuild.peak)),
                pass: Double(large.events) / rebuild.seconds >= 500_000 && rebuild.peak <= 200_000_000
            ),
            .init(
                figure: "bulk append of \(Report.count(large.events)) events ÷ raw SQLite inserts",
                target: "≥ 0.5",
                measured: String(format: "%.2f (raw %.2f s ÷ tally %.2f s)", rawTimes.median / appendTimes.median, rawTimes.median, appendTimes.median),
                pass: rawTimes.median / appendTimes.median >= 0.5
            ),
            .init(
                figure: "database file ÷ plain SQLite file, same rows",
                target: "≤ 1.1",
                measured: String(format: "%.3f (%@ ÷ %@)", sizeRatio, Report.megabytes(fileSize(largePath)), Report.megabytes(rawSize)),
                pass: sizeRatio <= 1.1
            ),
        ] + activityRows)
        print(report.markdown())
    }
}
