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
        "\(options.cache)/store-\(size.todos)t-\(size.events)e-g2-s\(SnapshotCodec.format).db"
    }

    /// The environment tally runs with: a fixed actor and zone, no host name lookup.
    func tallyEnvironment(_ database: String) -> [String: String] {
        ["TALLY_DB": database, "TALLY_ACTOR": "bench@host", "TZ": "UTC", "HOME": options.cache, "PATH": "/usr/bin:/bin", "LANG": "C.UTF-8"]
    }

    /// Median wall time in seconds of `runs` runs of tally after one warm-up run; fails on a non-zero exit.
    ///
    /// `prepare` runs untimed before each run (to undo what the previous one changed).
    func time(_ arguments: [String], database: String, runs: Int, program: String? = nil, environment: [String: String]? = nil, prepare: () -> Void = {}) throws -> (seconds: Double, peak: Int64) {
        var seconds: [Double] = []
        var peak: Int64 = 0
        for run in 0...runs {
            prepare()
            let sample = ProcessTimer.run(program ?? options.tally, arguments, environment: environment ?? tallyEnvironment(database))
            guard sample.status == 0 else { throw Failure(description: "\(program ?? "tally") \(arguments.joined(separator: " ")) exited with \(sample.status)") }
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
        let load = Report.loadAverage()
        if options.writersOnly {
            // Library clients only: no tally binary needed.
            print(Report(profile: profile, rows: try PostgresBench(bench: self).writerRows(), loadAtStart: load).markdown())
            return
        }
        guard files.isExecutableFile(atPath: options.tally) else { throw Failure(description: "no tally binary at \(options.tally); build it first") }
        try files.createDirectory(atPath: options.cache, withIntermediateDirectories: true)
        let work = options.cache + "/work"
        try files.createDirectory(atPath: work, withIntermediateDirectories: true)
        if options.scaleOnly {
            print(Report(profile: profile, rows: try scaleRows(generate: true) + fleetRows(makeDatabase: nil), loadAtStart: load).markdown())
            return
        }
        if options.batchOnly {
            print(Report(profile: profile, rows: try batchAppendRows(makeDatabase: try PostgresBench(bench: self).makeDatabase), loadAtStart: load).markdown())
            return
        }
        if options.tagsOnly {
            print(Report(profile: profile, rows: try tagRuleRows()).markdown())
            return
        }
        if options.readOnly {
            print(Report(profile: profile, rows: try readRows(), loadAtStart: load).markdown())
            return
        }

        // `tally import` against the raw baseline: the same rows, fresh files, alternating runs on
        // the same machine, medians. The export file is written once; the baseline inserts the rows
        // (hashes included) from memory, tally reads, checks and hashes them from the file and
        // stores the snapshot its policy asks for, as a user's import does.
        let large = profile.large
        note("preparing \(large.events) events with random UUIDs ...")
        var events = EventMix(todos: large.todos, events: large.events, seed: UInt64(large.todos * 31 + large.events)).envelopes()
        BulkAppend.chain(&events)
        let exportPath = work + "/import.jsonl"
        try BulkAppend.export(events, to: exportPath)
        var importTimes: [Double] = []
        var rawTimes: [Double] = []
        let rawPath = work + "/raw.db"
        let importPath = work + "/import.db"
        for run in 0..<profile.heavyRuns {
            note("bulk import run \(run + 1) of \(profile.heavyRuns) ...")
            remove(importPath)
            let sample = ProcessTimer.run(options.tally, ["import", exportPath], environment: tallyEnvironment(importPath))
            guard sample.status == 0 else { throw Failure(description: "tally import \(exportPath) exited with \(sample.status)") }
            importTimes.append(sample.seconds)
            remove(rawPath)
            let rawStart = ProcessTimer.now()
            try RawBaseline.run(events, path: rawPath)
            rawTimes.append(ProcessTimer.now() - rawStart)
        }
        try? files.removeItem(atPath: exportPath)
        let largePath = storePath(large)
        if !files.fileExists(atPath: largePath) {
            try files.moveItem(atPath: importPath, toPath: largePath)
            for suffix in ["-wal", "-shm"] { try? files.moveItem(atPath: importPath + suffix, toPath: largePath + suffix) }
        }
        remove(importPath)
        events = []

        let smallPath = try ensureStore(profile.small)
        let longPath = try ensureStore(profile.longHistory)
        let hugePath = try ensureStore(profile.huge)
        let sizeRatio = Double(fileSize(largePath)) / Double(fileSize(rawPath))
        let rawSize = fileSize(rawPath)
        remove(rawPath)

        // The peer, side by side: Taskwarrior at as many pending tasks as the small store has todos.
        var peer: (add: Double, list: Double)?
        // The smoke run in `make test` uses Taskwarrior when it is there but never installs it.
        if let program = TaskwarriorPeer.locate(install: profile.judged, note: note) {
            let taskwarrior = TaskwarriorPeer(program: program, cache: options.cache, pending: profile.small.todos)
            let data = try taskwarrior.ensureData(note: note)
            let copy = work + "/taskdata"
            note("timing task add and task list ...")
            try? files.removeItem(atPath: copy)
            try files.copyItem(atPath: data, toPath: copy)
            let add = try time(["add", "Benchmark", "task", "+bench"], database: "", runs: profile.runs, program: program, environment: taskwarrior.environment(data: copy))
            let list = try time(["list"], database: "", runs: profile.runs, program: program, environment: taskwarrior.environment(data: copy))
            try? files.removeItem(atPath: copy)
            peer = (add.seconds, list.seconds)
        }

        note("timing tally add, done and list ...")
        let addPath = work + "/add.db"
        remove(addPath)
        try files.copyItem(atPath: smallPath, toPath: addPath)
        let add = try time(["add", "Benchmark", "todo", "--tag", "bench"], database: addPath, runs: profile.runs)
        let listAll = try time(["list"], database: addPath, runs: profile.runs)
        let listJSON = try time(["--json", "list"], database: addPath, runs: profile.runs)
        remove(addPath)

        try files.copyItem(atPath: largePath, toPath: addPath)
        let addLarge = try time(["add", "Benchmark", "todo", "--tag", "bench"], database: addPath, runs: profile.runs)
        // A todo from the snapshot that is not deleted (reopen exits 0), made active again before each run.
        guard let live = (1...50).first(where: { ProcessTimer.run(options.tally, ["reopen", String($0)], environment: tallyEnvironment(addPath)).status == 0 }) else {
            throw Failure(description: "no live todo among the first 50 of \(largePath)")
        }
        let reopen = { _ = ProcessTimer.run(self.options.tally, ["reopen", String(live)], environment: self.tallyEnvironment(addPath)) }
        let doneLarge = try time(["done", String(live)], database: addPath, runs: profile.runs, prepare: reopen)
        remove(addPath)

        try files.copyItem(atPath: hugePath, toPath: addPath)
        let addHugePeak = peakMemory(["add", "Benchmark", "todo"], database: addPath, fallback: 0)
        remove(addPath)

        let listLarge = try time(["list", "--limit", "20"], database: largePath, runs: profile.runs)
        let listHuge = try time(["list", "--limit", "20"], database: hugePath, runs: profile.runs)
        let listLong = try time(["list", "--limit", "20"], database: longPath, runs: profile.runs)
        let listSmall = try time(["list", "--limit", "20"], database: smallPath, runs: profile.runs)

        note("timing tally rebuild ...")
        var rebuild = try time(["rebuild"], database: largePath, runs: profile.heavyRuns)
        rebuild.peak = peakMemory(["rebuild"], database: largePath, fallback: rebuild.peak)

        let binary = strippedSize(work: work)
        let small = Report.count(profile.small.todos)
        let largeName = "\(Report.count(large.todos)) todos / \(Report.count(large.events)) events"
        var rows: [Report.Row] = []
        if let peer {
            rows.append(.init(
                figure: "`add` at \(small) todos ÷ `task add` at \(small) pending (Taskwarrior, same run)", target: "≤ 0.15",
                measured: String(format: "%.2f (%@ ÷ %@)", add.seconds / peer.add, Report.ms(add.seconds), Report.ms(peer.add)),
                pass: add.seconds / peer.add <= 0.15
            ))
        } else {
            rows.append(.init(figure: "`add` at \(small) todos (Taskwarrior not installed: no ratio)", target: "≤ 0.15 of `task add`", measured: Report.ms(add.seconds), pass: false))
        }
        rows.append(.init(figure: "`add` at \(largeName)", target: "≤ 8 ms", measured: Report.ms(addLarge.seconds), pass: addLarge.seconds <= 0.008))
        rows.append(.init(figure: "`done N` at \(largeName)", target: "≤ 8 ms", measured: Report.ms(doneLarge.seconds), pass: doneLarge.seconds <= 0.008))
        if let peer {
            rows.append(.init(
                figure: "full `list` of \(small) rows, piped ÷ `task list` of \(small)", target: "≤ 0.1",
                measured: String(format: "%.2f (%@ ÷ %@; `--json list` %@)", listAll.seconds / peer.list, Report.ms(listAll.seconds), Report.ms(peer.list), Report.ms(listJSON.seconds)),
                pass: listAll.seconds / peer.list <= 0.1
            ))
        } else {
            rows.append(.init(figure: "full `list` of \(small) rows, piped (Taskwarrior not installed: no ratio)", target: "≤ 0.1 of `task list`", measured: Report.ms(listAll.seconds), pass: false))
        }
        rows += [
            .init(figure: "`list --limit 20` at \(largeName)", target: "≤ 10 ms", measured: Report.ms(listLarge.seconds), pass: listLarge.seconds <= 0.010),
            .init(figure: "`list --limit 20` at \(Report.count(profile.huge.todos)) todos", target: "≤ 25 ms", measured: Report.ms(listHuge.seconds), pass: listHuge.seconds <= 0.025),
            .init(
                figure: "bulk import of \(Report.count(large.events)) events ÷ plain SQLite inserts of the same rows",
                target: "≥ 0.8",
                measured: String(format: "%.2f (raw %.2f s ÷ `tally import` %.2f s)", rawTimes.median / importTimes.median, rawTimes.median, importTimes.median),
                pass: rawTimes.median / importTimes.median >= 0.8
            ),
            .init(
                figure: "`rebuild` of \(Report.count(large.events)) events (\(Report.count(large.todos)) todos)",
                target: "≥ 1M events/s, ≤ 200 MB peak",
                measured: String(format: "%@ events/s (%.2f s), %@ peak", Report.count(Int(Double(large.events) / rebuild.seconds)), rebuild.seconds, Report.megabytes(rebuild.peak)),
                pass: Double(large.events) / rebuild.seconds >= 1_000_000 && rebuild.peak <= 200_000_000
            ),
            .init(figure: "peak memory of `add` at \(Report.count(profile.huge.todos)) todos", target: "≤ 64 MB", measured: Report.megabytes(addHugePeak), pass: addHugePeak > 0 && addHugePeak <= 64_000_000),
            .init(figure: "installed binary (stripped)", target: "≤ 20 MB", measured: Report.megabytes(binary), pass: binary > 0 && binary <= 20_000_000),
            .init(
                figure: "`list --limit 20`: \(small) todos with \(Report.count(profile.longHistory.events)) ÷ with \(Report.count(profile.small.events)) events",
                target: "≤ 1.25",
                measured: String(format: "%.2f (%@ ÷ %@)", listLong.seconds / listSmall.seconds, Report.ms(listLong.seconds), Report.ms(listSmall.seconds)),
                pass: listLong.seconds / listSmall.seconds <= 1.25
            ),
            .init(
                figure: "database file ÷ plain SQLite file, same rows",
                target: "≤ 1.1",
                measured: String(format: "%.3f (%@ ÷ %@)", sizeRatio, Report.megabytes(fileSize(largePath)), Report.megabytes(rawSize)),
                pass: sizeRatio <= 1.1
            ),
        ]
        rows.append(try filePushRow())
        rows += try ActivityBench(bench: self, activities: profile.activities.count, points: profile.activities.points).rows()
        rows += sharedLogRows()
        let report = Report(profile: profile, rows: rows, loadAtStart: load)
        print(report.markdown())
        if let document = options.document {
            try report.replaceLatest(in: document)
        }
    }

    /// Bytes of the tally binary as `make install` installs it: a stripped copy; 0 when `strip` is missing.
    func strippedSize(work: String) -> Int64 {
        let copy = work + "/tally-stripped"
        try? files.removeItem(atPath: copy)
        guard (try? files.copyItem(atPath: options.tally, toPath: copy)) != nil,
              ProcessTimer.run("/usr/bin/strip", [copy], environment: ["PATH": "/usr/bin:/bin"]).status == 0 else { return 0 }
        defer { try? files.removeItem(atPath: copy) }
        return fileSize(copy)
    }
}
