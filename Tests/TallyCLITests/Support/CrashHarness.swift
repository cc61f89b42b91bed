import Foundation
import TallyDomain
import TallyTestSupport
@testable import TallyEssentials

/// Kills `tally` writers with SIGKILL at random moments and checks what each kill left behind.
///
/// After every kill: `verify` exits 0; the events seen before are unchanged; the killed command left
/// all of its events or none (and all of them when it exited 0 before the signal); read commands
/// start up with no warning but the documented ignored-snapshot one; and the next `add` appends
/// exactly one event. Writers are single adds and activity logs, multi-todo toggles, `toggle --all`,
/// `delete --completed`, large imports and `rebuild`. Every fourth one runs on a log pushed past
/// the snapshot threshold, so kills also land between a commit and its snapshot, and inside the
/// snapshot write. The random choices come from `seed`; the kill moments also depend on the machine.
final class CrashHarness {
    /// What the kills hit, for the summary line.
    struct Figures: CustomStringConvertible {
        /// Writers started with a kill scheduled.
        var kills = 0
        /// Writers that exited 0 before the signal.
        var finishedFirst = 0
        /// Killed writers that left none of their events.
        var nothingLeft = 0
        /// Killed writers whose transaction had committed.
        var committed = 0
        /// Writers that were due to store a snapshot after their commit.
        var snapshotDue = 0
        /// Of those, killed after the commit and before the snapshot was stored.
        var snapshotInterrupted = 0
        /// Imports killed before they committed.
        var importsCut = 0
        /// Fresh databases the kills started on.
        var databases = 0
        /// Events in the logs when the kills ended.
        var events: Int64 = 0
        /// Warnings about an ignored snapshot, which stderr may carry and the test counts.
        var ignoredSnapshots = 0

        var description: String {
            "\(kills) kills on \(databases) databases (\(events) events): \(nothingLeft) left nothing, "
                + "\(committed) after the commit, \(finishedFirst) finished first; \(snapshotDue) due a snapshot, "
                + "\(snapshotInterrupted) of them killed before it was stored; \(importsCut) imports cut; "
                + "\(ignoredSnapshots) ignored-snapshot warnings"
        }
    }

    /// A writer command and what it appends when it runs to the end.
    struct Action {
        /// Names the kind of command, to learn how long it takes.
        var kind: String
        var arguments: [String]
        var events: Int
        /// For an import: the file's event ids in order.
        var importIDs: [String]? = nil

        /// What its running time is proportional to: thousands of events for an import, else 1.
        var scale: Double { importIDs == nil ? 1 : Double(events) / 1000 }
    }

    /// What `info --json` said.
    struct Info {
        var events: Int64
        var active: Int
        var completed: Int
        var snapshot: Int64
    }

    /// One line of `export`.
    struct Line {
        var seq: Int64
        var id: String
        var command: String
        var hash: String
        var type: String
        var title: String?
    }

    /// What the harness knows of the current database between kills.
    private struct Known {
        /// The last event an export showed, 0 and the genesis hash before any.
        var seq: Int64 = 0
        var hash = EventHash.genesis
        /// The title of the check `add` run since that export.
        var pendingTitle: String?
        /// Events the log must hold now.
        var events: Int64 { seq + (pendingTitle == nil ? 0 : 1) }
    }

    /// The position the snapshot policy counts from; see `SnapshotPolicy.standard`.
    static let snapshotThreshold: Int64 = 1000

    let seed: UInt64
    private var random: SeededRandom
    private(set) var figures = Figures()
    /// What went wrong; the harness stops at the first problem.
    private(set) var problems: [String] = []
    /// Seconds the last unkilled runs of each kind of writer took (per thousand events for imports),
    /// and of check adds that stored a snapshot ("add+snapshot").
    private var durations: [String: [Double]] = ["import": [0.1]]
    private var tally = TallyRunner()
    private var known = Known()
    private var kill = 0
    /// How long the last check add took; the next `info` tells whether it stored a snapshot.
    private var checkAddSeconds: Double?

    init(seed: UInt64) {
        self.seed = seed
        random = SeededRandom(seed: seed)
    }

    /// Runs `kills` kills, starting a fresh database every `perDatabase` of them.
    func run(kills: Int, perDatabase: Int = 20) {
        while kill < kills, problems.isEmpty {
            tally = TallyRunner()
            known = Known()
            figures.databases += 1
            for index in 0..<min(perDatabase, kills - kill) {
                guard killOnce(pushPastThreshold: index % 4 == 3) else { break }
                kill += 1
            }
            figures.events += known.events
        }
    }

    // MARK: One kill

    /// Starts one writer, kills it, and checks everything; false after a problem.
    private func killOnce(pushPastThreshold: Bool) -> Bool {
        guard var info = readInfo() else { return false }
        if let seconds = checkAddSeconds {
            learn(info.snapshot == info.events ? "add+snapshot" : "add", seconds)
            checkAddSeconds = nil
        }
        // Push until the tail is one event short of the threshold: an import that itself crosses it
        // stores a snapshot and leaves a short tail, so it may take a second push.
        var pushes = 0
        while pushPastThreshold, info.events - info.snapshot < Self.snapshotThreshold - 1, pushes < 3 {
            guard pushPastSnapshotThreshold(info), let pushed = readInfo() else { return false }
            info = pushed
            pushes += 1
        }
        // A pushed log gets a writer that appends and is due a snapshot: not an import (whose
        // snapshot this harness does not check) and not a rebuild (which appends nothing).
        guard let action = chooseAction(info, importing: !pushPastThreshold, rebuilding: !pushPastThreshold) else { return false }
        let due = action.kind != "import" && action.events > 0
            && info.events + Int64(action.events) - info.snapshot >= Self.snapshotThreshold
        let run = KillableRun.run(tally, action.arguments, killAfter: delay(for: action, due: due))
        figures.kills += 1
        switch run.end {
        case .exited(0):
            figures.finishedFirst += 1
            if !due { learn(action.kind, run.seconds / action.scale) }
            guard clean(run.stderr) else { return problem("`tally \(action.arguments.joined(separator: " "))` finished with: \(run.stderr)") }
        case .exited(let status):
            return problem("`tally \(action.arguments.joined(separator: " "))` exited \(status) before the kill: \(run.stderr)")
        case .signalled(let signal):
            return problem("`tally \(action.arguments.joined(separator: " "))` died of signal \(signal) on its own: \(run.stderr)")
        case .killed:
            break
        }
        let verify = tally.run(["verify"])
        guard verify.status == 0 else {
            return problem("verify exited \(verify.status) after killing `\(action.arguments.joined(separator: " "))`: \(verify.stdout)\(verify.stderr)")
        }
        guard let appended = newEvents(), allOrNothing(appended, action, finished: run.end == .exited(0)) else { return false }
        if run.end == .killed {
            if appended.isEmpty {
                figures.nothingLeft += 1
                if action.kind == "import" { figures.importsCut += 1 }
            } else {
                figures.committed += 1
            }
        }
        if due {
            figures.snapshotDue += 1
            guard checkSnapshot(after: appended, finished: run.end == .exited(0)) else { return false }
        }
        return nextCommandWorks()
    }

    /// The seconds to wait before the kill, as a share of how long this kind of command takes: a tenth
    /// at once, the rest spread over the whole run or over its last third, where the transaction and
    /// the commit are. A writer due a snapshot takes longer (it folds the long tail at start-up, then
    /// stores the snapshot after its commit), by as much as a check add that stored one took longer
    /// than one that did not; half of those kills aim at the end of that longer run.
    private func delay(for action: Action, due: Bool) -> Double {
        let plain = longest(action.kind, else: 0.05) * action.scale
        let snapshot = due ? max(0, longest("add+snapshot", else: 0) - longest("add", else: 0)) : 0
        let typical = plain + snapshot
        switch Int.random(in: 0..<20, using: &random) {
        case 0..<2: return 0
        case 2..<11 where snapshot > 0: return typical * Double.random(in: 0.75...1.05, using: &random)
        case 2..<11: return typical * Double.random(in: 0...1, using: &random)
        default: return typical * Double.random(in: 0.6...0.95, using: &random)
        }
    }

    /// The longest of the last unkilled runs of `key`, or `fallback` before there is one.
    private func longest(_ key: String, else fallback: Double) -> Double {
        durations[key]?.max() ?? fallback
    }

    /// Notes how long an unkilled run took. The longest of the last three counts: runs that end
    /// before their kill are the quick ones, so the last one alone would drift shorter and shorter.
    private func learn(_ key: String, _ seconds: Double) {
        durations[key] = (durations[key] ?? []).suffix(2) + [seconds]
    }

    /// A writer: mostly single-event commands, then multi-todo ones, (when `importing`) large imports,
    /// and (when `rebuilding`) rebuilds.
    private func chooseAction(_ info: Info, importing: Bool, rebuilding: Bool) -> Action? {
        let label = "crash \(kill)"
        let roll = Int.random(in: 0..<100, using: &random)
        let live = info.active + info.completed
        switch roll {
        case 0..<15:
            return Action(kind: "record", arguments: ["record", "add", label, "--category", "running", "--duration", "30m", "--distance", "5km"], events: 1)
        case 15..<35 where live >= 2:
            let list = tally.run(["list", "--json", "--limit", "12"])
            guard list.status == 0, clean(list.stderr) else { return failed("list exited \(list.status): \(list.stderr)") }
            let numbers = list.json?.arrayValue?.compactMap { $0.objectValue?["number"]?.intValue } ?? []
            let chosen = numbers.shuffled(using: &random).prefix(Int.random(in: 2...5, using: &random))
            guard chosen.count >= 2 else { break }
            return Action(kind: "toggle", arguments: ["toggle"] + chosen.map(String.init), events: chosen.count)
        case 35..<45 where live > 0:
            return Action(kind: "toggle-all", arguments: ["toggle", "--all"], events: info.active > 0 ? info.active : info.completed)
        case 45..<53 where info.completed > 0:
            return Action(kind: "delete-completed", arguments: ["delete", "--completed"], events: info.completed)
        case 53..<73 where importing:
            let path = tally.directory.path("import-\(kill).jsonl")
            guard let file = try? GeneratedExport(events: Int.random(in: 300...1500, using: &random), path: path, random: &random) else {
                return failed("cannot write \(path)")
            }
            return Action(kind: "import", arguments: ["import", path], events: file.ids.count, importIDs: file.ids)
        case 73..<78 where rebuilding && info.events > 0:
            // Deletes every snapshot, replays, stores a fresh one: a kill may leave none.
            return Action(kind: "rebuild", arguments: ["rebuild"], events: 0)
        default:
            break
        }
        return Action(kind: "add", arguments: ["add", label, "--tag", "crash"], events: 1)
    }

    /// Imports, without a kill, enough events that the next writer is due to store a snapshot.
    private func pushPastSnapshotThreshold(_ info: Info) -> Bool {
        // One short of the threshold: the import itself stays under it (an import past it stores a
        // snapshot too), and whatever the next writer appends makes it due.
        let count = Int(Self.snapshotThreshold - (info.events - info.snapshot)) - 1
        let path = tally.directory.path("push-\(kill).jsonl")
        guard let file = try? GeneratedExport(events: count, path: path, random: &random) else { return problem("cannot write \(path)") }
        let run = tally.run(["import", path])
        guard run.status == 0 else { return problem("the import that pushes the log past the snapshot threshold exited \(run.status): \(run.stderr)") }
        guard let appended = newEvents() else { return false }
        guard appended.map(\.id) == file.ids else { return problem("the import that pushes the log appended \(appended.count) of \(file.ids.count) events") }
        return true
    }

    // MARK: Checks

    /// `info --json`, which must start up cleanly and count exactly the events the harness expects.
    private func readInfo() -> Info? {
        let run = tally.run(["info", "--json"])
        guard run.status == 0, clean(run.stderr) else { return failed("info exited \(run.status): \(run.stderr)") }
        guard let object = run.json?.objectValue, let events = object["events"]?.intValue, let todos = object["todos"]?.objectValue else {
            return failed("info --json printed no info: \(run.stdout)")
        }
        guard events == known.events else {
            return failed("the log holds \(events) events; \(known.events) were expected")
        }
        return Info(
            events: events, active: Int(todos["active"]?.intValue ?? 0), completed: Int(todos["completed"]?.intValue ?? 0),
            snapshot: object["snapshot"]?.objectValue?["seq"]?.intValue ?? 0
        )
    }

    /// The events after the last one seen, having checked that the last one seen is unchanged
    /// and that the check `add` since then appended exactly its one event.
    private func newEvents() -> [Line]? {
        let export = tally.run(["export", "--since", String(max(known.seq - 1, 0))])
        guard export.status == 0 else { return failed("export exited \(export.status): \(export.stderr)") }
        var lines: [Line] = []
        for text in export.stdout.split(separator: "\n") {
            guard let object = try? JSON.parse(String(text)).objectValue,
                  let seq = object["seq"]?.intValue, let id = object["id"]?.stringValue, let command = object["command"]?.stringValue,
                  let hash = object["hash"]?.stringValue, let type = object["type"]?.stringValue else {
                return failed("export printed a line that is not an event: \(text)")
            }
            lines.append(Line(seq: seq, id: id, command: command, hash: hash, type: type, title: object["data"]?.objectValue?["title"]?.stringValue))
        }
        var last: Line?
        if known.seq > 0 {
            guard let first = lines.first, first.seq == known.seq, first.hash == known.hash else {
                return failed("the event at @\(known.seq) changed or vanished after a kill")
            }
            last = lines.removeFirst()
        }
        if let title = known.pendingTitle {
            guard let added = lines.first, added.type == "todo.created", added.title == title else {
                return failed("the add after the previous kill ('\(title)') is not the next event")
            }
            last = lines.removeFirst()
        }
        if let newest = lines.last ?? last {
            known.seq = newest.seq
            known.hash = newest.hash
        }
        known.pendingTitle = nil
        return lines
    }

    /// The writer's events are all there or none (all when it finished), as one command.
    private func allOrNothing(_ appended: [Line], _ action: Action, finished: Bool) -> Bool {
        let name = "`tally \(action.arguments.joined(separator: " "))`"
        if finished || !appended.isEmpty {
            guard appended.count == action.events else {
                return problem("\(name) \(finished ? "finished" : "was killed") and left \(appended.count) of its \(action.events) events")
            }
        }
        if let ids = action.importIDs {
            guard appended.isEmpty || appended.map(\.id) == ids else { return problem("\(name) left other events than its file's") }
        } else {
            guard Set(appended.map(\.command)).count <= 1 else { return problem("\(name) left events of several commands") }
        }
        return true
    }

    /// A writer that finished stored its snapshot at the new head; one killed after its commit may not have.
    private func checkSnapshot(after appended: [Line], finished: Bool) -> Bool {
        guard let info = readInfo() else { return false }
        if finished, info.snapshot != info.events {
            return problem("a command that was due a snapshot finished without storing it (snapshot @\(info.snapshot), head @\(info.events))")
        }
        if !finished, !appended.isEmpty, info.snapshot != info.events {
            figures.snapshotInterrupted += 1
        }
        return true
    }

    /// The next write command after a kill works and appends exactly its one event.
    private func nextCommandWorks() -> Bool {
        let title = "after kill \(kill)"
        let started = DispatchTime.now()
        let run = tally.run(["add", title])
        checkAddSeconds = Double(DispatchTime.now().uptimeNanoseconds - started.uptimeNanoseconds) / 1e9
        guard run.status == 0, clean(run.stderr) else {
            return problem("the add after killing a writer exited \(run.status): \(run.stderr)")
        }
        known.pendingTitle = title
        return true
    }

    /// True when `stderr` holds nothing but the documented ignored-snapshot warning, which is counted.
    private func clean(_ stderr: String) -> Bool {
        let lines = stderr.split(separator: "\n")
        let warnings = lines.filter { $0.hasPrefix("Warning: Ignoring ") }.count
        figures.ignoredSnapshots += warnings
        return warnings == lines.count
    }

    /// Records a problem and returns false.
    private func problem(_ text: String) -> Bool {
        record(text)
        return false
    }

    /// Records a problem and returns nil.
    private func failed<T>(_ text: String) -> T? {
        record(text)
        return nil
    }

    /// Keeps a copy of the database for a look and notes the problem with the seed that repeats the run.
    private func record(_ text: String) {
        let copy = FileManager.default.temporaryDirectory.appendingPathComponent("tally-crash-\(seed)-\(kill)")
        try? FileManager.default.removeItem(at: copy)
        try? FileManager.default.copyItem(at: tally.directory.url, to: copy)
        problems.append("kill \(kill) (seed \(seed), CRASH_SEED=\(seed) repeats the choices): \(text); the database is kept in \(copy.path)")
    }
}
