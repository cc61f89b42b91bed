#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation
import TallyDomain

/// `tally-bench [--quick | --smoke] [--scale] [--writers] [--batch] [--read] [--tags] [--tally PATH] [--cache DIR] [--runs N] [--doc FILE]`
///
/// `--scale` measures only the largest store (10M events; 1M with `--quick`), generating and caching
/// it first when missing; `--writers` only the concurrent writers on PostgreSQL and SQLite; `--batch`
/// only the batch appends into PostgreSQL (and `rebuild` and `export` of what they imported);
/// `--read` only the shared log's read rows; `--tags` only the tag rule of migration 13 against the one
/// before it (`TagRuleBench`).
///
/// Without them, measures every figure of docs/performance.md in one run on generated stores and
/// prints them as one Markdown table (medians); the largest store's rows are measured when it is
/// cached. Stores are cached in `--cache` and reused across runs.
struct Profile {
    var name: String
    var small: (todos: Int, events: Int)
    var longHistory: (todos: Int, events: Int)
    var large: (todos: Int, events: Int)
    /// The store with as many todos as events, for `list --limit 20` and the peak memory of `add`.
    var huge: (todos: Int, events: Int)
    /// Runs of each short process measurement (after one warm-up run).
    var runs: Int
    /// Runs of each long measurement (rebuild, bulk append, raw baseline).
    var heavyRuns: Int
    /// Whether the figures are compared with the targets (they are stated for the full sizes).
    var judged: Bool
    /// Activities of the Strava-like export and GPS points per track (`record import`, `record bests`).
    var activities: (count: Int, points: Int) = (1_000, 9_000)

    static let full = Profile(name: "full", small: (10_000, 10_000), longHistory: (10_000, 1_000_000), large: (100_000, 1_000_000), huge: (1_000_000, 1_000_000), runs: 21, heavyRuns: 3, judged: true)
    static let quick = Profile(name: "quick", small: (10_000, 10_000), longHistory: (10_000, 100_000), large: (20_000, 100_000), huge: (100_000, 100_000), runs: 11, heavyRuns: 3, judged: false, activities: (100, 3_600))
    static let smoke = Profile(name: "smoke", small: (200, 200), longHistory: (200, 2_000), large: (500, 2_000), huge: (1_000, 1_000), runs: 2, heavyRuns: 1, judged: false, activities: (4, 300))
}

struct Options {
    var profile = Profile.full
    var tally = ".build/release/tally"
    var cache = ".build/bench"
    /// Only the rows of the largest store.
    var scaleOnly = false
    /// Only the rows of concurrent writers (PostgreSQL staged and lock-only, SQLite).
    var writersOnly = false
    /// Only the rows of batch appends into PostgreSQL (import and push, beside SQLite).
    var batchOnly = false
    /// Only the read rows of the shared log (clones, empty syncs, add and list on PostgreSQL and SQLite).
    var readOnly = false
    /// Only the tag rule of migration 13 against the one before it (`TagRuleBench`).
    var tagsOnly = false
    /// A Markdown file whose table between the `make bench` markers is replaced by this run's.
    var document: String?

    /// Reads the command line; an unknown argument prints the usage and exits 64.
    init(_ arguments: [String]) {
        var rest = arguments[...]
        while let argument = rest.popFirst() {
            switch argument {
            case "--quick": profile = .quick
            case "--smoke": profile = .smoke
            case "--scale": scaleOnly = true
            case "--writers": writersOnly = true
            case "--batch": batchOnly = true
            case "--read": readOnly = true
            case "--tags": tagsOnly = true
            case "--tally": tally = rest.popFirst() ?? tally
            case "--cache": cache = rest.popFirst() ?? cache
            case "--doc": document = rest.popFirst()
            case "--runs": if let runs = rest.popFirst().flatMap(Int.init), runs > 0 { profile.runs = runs }
            default:
                FileHandle.standardError.write(Data("usage: tally-bench [--quick | --smoke] [--scale | --writers | --batch | --read] [--tally PATH] [--cache DIR] [--runs N] [--doc FILE]\n".utf8))
                exit(64)
            }
        }
    }
}

let options = Options(Array(CommandLine.arguments.dropFirst()))
let bench = Bench(options: options)
do {
    try bench.run()
} catch {
    FileHandle.standardError.write(Data("tally-bench: \(error)\n".utf8))
    exit(1)
}
