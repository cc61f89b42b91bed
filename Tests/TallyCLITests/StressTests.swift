import Foundation
import Testing
import TallyStores
import TallyDomain
import TallyTestSupport

/// Several processes writing one database at once. `make stress` runs the full size
/// (STRESS_PROCESSES=8, STRESS_COMMANDS=200); `swift test` runs a short version.
/// The log starts just short of the snapshot threshold, so the writers also store snapshots,
/// several of them at about the same time. A tailing reader polls `seq > cursor` meanwhile.
/// With `TALLY_TEST_BACKEND=postgresql` the same runs against one PostgreSQL log (`make pg-stress`).
@Suite("Several processes on one database", .tags(.postgresql))
struct StressTests {
    static let processes = Int(ProcessInfo.processInfo.environment["STRESS_PROCESSES"] ?? "") ?? 4
    static let commands = Int(ProcessInfo.processInfo.environment["STRESS_COMMANDS"] ?? "") ?? 12

    /// What one writer saw succeed.
    struct Outcome: Sendable {
        var titles: [String] = []
        var notes: [String] = []
        var records: [String] = []
        var toggles = 0
        var busy = 0
        var failures: [String] = []
        /// What commands that succeeded wrote to stderr (a snapshot that could not be stored, ...).
        var warnings: [String] = []
    }

    /// One writer: a mix of add, toggle, edit and record add on its own items; every command appends exactly one event.
    static func writer(_ tally: TallyRunner, index: Int) -> Outcome {
        var outcome = Outcome()
        var numbers: [Int64] = []
        for step in 0..<commands {
            let kind = numbers.isEmpty ? 0 : step % 4
            let result: RunResult
            switch kind {
            case 0:
                let title = "w\(index)-todo-\(step)"
                result = tally.run(["add", title, "--json"])
                if result.status == 0, let number = result.json?.objectValue?["number"]?.intValue {
                    numbers.append(number)
                    outcome.titles.append(title)
                }
            case 1:
                result = tally.run(["toggle", String(numbers[step % numbers.count])])
                if result.status == 0 { outcome.toggles += 1 }
            case 2:
                let note = "w\(index)-note-\(step)"
                result = tally.run(["edit", String(numbers[step % numbers.count]), "--note", note])
                if result.status == 0 { outcome.notes.append(note) }
            default:
                let name = "w\(index)-record-\(step)"
                result = tally.run(["record", "add", name, "--category", "running", "--duration", "\(step + 1)m"])
                if result.status == 0 { outcome.records.append(name) }
            }
            if result.status == 75 {
                outcome.busy += 1
            } else if result.status != 0 {
                outcome.failures.append("\(result.status): \(result.stderr)")
            } else if !result.stderr.isEmpty {
                outcome.warnings.append(result.stderr)
            }
        }
        return outcome
    }

    /// Events imported before the writers start: the first few writers' commands cross the threshold.
    static let preloaded = 990

    @Test("every successful command is present exactly once; no failure but a reported busy; the snapshots the writers stored verify")
    func concurrentWriters() throws {
        let tally = TallyRunner()
        tally.environment["TALLY_BUSY_TIMEOUT"] = "10000"
        var random = SeededRandom(seed: 1)
        let preload = try GeneratedExport(events: Self.preloaded, path: tally.directory.path("preload.jsonl"), random: &random)
        #expect(tally.run("import", tally.directory.path("preload.jsonl")).status == 0)
        let lock = NSLock()
        nonisolated(unsafe) var outcomes: [Outcome] = []
        let group = DispatchGroup()
        let tail = TailingReader(location: StoreLocation(tally.databasePath), from: Int64(Self.preloaded))
        tail.start()
        for index in 0..<Self.processes {
            group.enter()
            Thread {
                let outcome = Self.writer(tally, index: index)
                lock.lock()
                outcomes.append(outcome)
                lock.unlock()
                group.leave()
            }.start()
        }
        group.wait()
        let tailed = tail.stop()
        #expect(outcomes.count == Self.processes)
        #expect(outcomes.flatMap(\.failures).isEmpty, "\(outcomes.flatMap(\.failures).prefix(3))")
        #expect(outcomes.flatMap(\.warnings).isEmpty, "\(outcomes.flatMap(\.warnings).prefix(3))")
        let writers = { (name: String) in name.hasPrefix("w") }
        let todos = tally.run("list", "--json", "--deleted").json?.arrayValue?.compactMap(\.objectValue) ?? []
        let titles = todos.compactMap { $0["title"]?.stringValue }.filter(writers)
        #expect(titles.sorted() == outcomes.flatMap(\.titles).sorted())
        #expect(todos.compactMap { $0["number"]?.intValue }.sorted() == (1...Int64(todos.count)).map { $0 })
        let records = tally.run("record", "list", "--json").json?.arrayValue?.compactMap { $0.objectValue?["name"]?.stringValue }.filter(writers) ?? []
        #expect(records.sorted() == outcomes.flatMap(\.records).sorted())
        let expectedEvents = outcomes.reduce(preload.ids.count) { $0 + $1.titles.count + $1.notes.count + $1.records.count + $1.toggles }
        #expect(tally.eventCount == Int64(expectedEvents), "each successful command appends exactly one event, and nothing else is in the log")
        #expect(tailed.failure == nil, "\(tailed.failure ?? "")")
        #expect(tailed.seqs == Array(Int64(Self.preloaded + 1) ... Int64(expectedEvents)),
                "the tailing reader saw every event exactly once, in order, with no gap")

        let verify = tally.run("verify")
        #expect(verify.status == 0, "\(verify.stdout)\(verify.stderr)")
        let info = tally.run("info", "--json")
        #expect(info.stderr == "", "start-up ignored a snapshot the writers stored")
        let snapshot = info.json?.objectValue?["snapshot"]?.objectValue?["seq"]?.intValue ?? 0
        #expect(snapshot >= 1000, "no writer stored a usable snapshot past the threshold")
    }
}

/// Polls the log for `seq > cursor` on its own thread while writers run, as a client following a
/// shared log does, recording every seq it sees; after `stop` it reads once more up to the head.
final class TailingReader: @unchecked Sendable {
    let location: StoreLocation
    private let lock = NSLock()
    private var running = true
    private var seen: [Int64] = []
    private var failure: String?
    private var cursor: Int64
    private let done = DispatchSemaphore(value: 0)

    init(location: StoreLocation, from cursor: Int64) {
        self.location = location
        self.cursor = cursor
    }

    func start() {
        Thread { [self] in
            defer { done.signal() }
            while lock.withLock({ running }) {
                if !poll() { return }
                usleep(2_000)
            }
            _ = poll()
        }.start()
    }

    /// Stops polling, reads the rest, and returns what was seen.
    func stop() -> (seqs: [Int64], failure: String?) {
        lock.withLock { running = false }
        done.wait()
        return lock.withLock { (seen, failure) }
    }

    /// One read of `seq > cursor`; false after a failure.
    private func poll() -> Bool {
        do {
            guard let store = try StoreFactory.openForReading(location) else { return true }
            defer { store.close() }
            try store.scan(after: cursor, through: nil) { event in
                lock.withLock { seen.append(event.seq) }
                cursor = event.seq
            }
            return true
        } catch {
            lock.withLock { failure = "\(error)" }
            return false
        }
    }
}
