import TallyDomain
import TallyEssentials

/// The snapshot part of `verify`: every usable snapshot plus its tail must equal a full replay.
public enum SnapshotCheck {
    /// Replays the whole log once and checks every stored snapshot against it.
    ///
    /// For each snapshot of this binary's format and reducer version: its checksum, body and
    /// position are checked as at start-up, its models and `latestRecordedAt` must equal the
    /// replay's at its position, and folding the tail onto it must equal the replay at the head.
    /// Snapshots of another format or reducer version are skipped, not reported: they are never
    /// used, and the next write replaces them. Returns the problems, oldest snapshot first.
    /// - Complexity: O(events + snapshots × (state + tail)).
    public static func run(log: EventLog, snapshots store: SnapshotStore) throws -> [SnapshotProblem] {
        let all: [SnapshotInfo]
        do {
            all = try store.snapshots()
        } catch {
            return [SnapshotProblem(seq: 0, kind: .storage(ErrorWords.text(error)))]
        }
        let head = try log.head()
        let current = all.filter { $0.format == SnapshotCodec.format && $0.reducerVersion == Reducer.version }.sorted { $0.seq < $1.seq }
        var problems: [SnapshotProblem] = []
        var opened: [(info: SnapshotInfo, folded: Replayer.Folded)] = []
        for info in current {
            // Every chunk is read and checked, then every stored item and index entry.
            switch try StateLoader.open(info, log: log, store: store, head: head.seq, instantBound: nil, readAll: true) {
            case .usable(let folded):
                if let damage = folded.model.todos.damage() ?? folded.model.records.damage() {
                    problems.append(SnapshotProblem(seq: info.seq, kind: .undecodable(damage)))
                } else {
                    opened.append((info, folded))
                }
            case .invalid(let problem): problems.append(problem)
            case .notForThisBound: break
            }
        }
        var replay = Replayer.Folded()
        var atSnapshots: [Int64: Replayer.Folded] = [:]
        for seq in Set(opened.map(\.info.seq)).sorted() {
            try Replayer.fold(log, into: &replay, bound: .position(seq))
            atSnapshots[seq] = replay
        }
        try Replayer.fold(log, into: &replay, bound: .position(head.seq))
        for (info, snapshot) in opened {
            if let expected = atSnapshots[info.seq], let difference = ModelDifference.first(expected, snapshot) {
                problems.append(SnapshotProblem(seq: info.seq, kind: .differsFromReplay(difference)))
                continue
            }
            var tail = snapshot
            try Replayer.fold(log, into: &tail, bound: .position(head.seq))
            if let difference = ModelDifference.first(replay, tail) {
                problems.append(SnapshotProblem(seq: info.seq, kind: .differsFromReplay("after the tail: " + difference)))
            }
        }
        return problems.sorted { $0.seq < $1.seq }
    }
}

/// Names the first place where two folds disagree, for a precise report.
enum ModelDifference {
    /// nil when equal; otherwise a short description such as `todo 42: title`.
    static func first(_ expected: Replayer.Folded, _ actual: Replayer.Folded) -> String? {
        if expected == actual { return nil }
        let (a, b) = (expected.model, actual.model)
        if a.position != b.position { return "position \(b.position) instead of \(a.position)" }
        if a.todos.count != b.todos.count { return "\(b.todos.count) todos instead of \(a.todos.count)" }
        for (left, right) in zip(a.todos, b.todos) where left != right {
            let fields = Mirror(reflecting: left).children.map(\.label)
            let differing = zip(Mirror(reflecting: left).children, Mirror(reflecting: right).children)
                .enumerated()
                .filter { String(reflecting: $0.element.0.value) != String(reflecting: $0.element.1.value) }
                .compactMap { fields[$0.offset] }
            return "todo \(left.number): " + differing.joined(separator: ", ")
        }
        if a.filters != b.filters { return "saved filters" }
        if a.settingsVersions != b.settingsVersions { return "settings stream versions" }
        if expected.latestRecordedAt != actual.latestRecordedAt { return "latest recorded time" }
        return "an index of the read models"
    }
}
