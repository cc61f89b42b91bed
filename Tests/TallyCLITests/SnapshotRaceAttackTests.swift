import Foundation
import Testing
import TallyTestSupport

/// Several processes appending and storing snapshots on one database at once, round after round.
///
/// A command reads its snapshot's chunks when it first touches them, in read transactions of its
/// own, so another process may meanwhile store newer snapshots and prune the one being read (two are
/// kept), or store one at the same position in place of it. Such a snapshot is gone, not damaged:
/// the command starts over from the newest snapshot without a word, and never warns that a snapshot
/// "cannot be decoded" or "does not match its checksum" (a chunk that was deleted read as zeros, and
/// the id index then led "to the wrong item").
@Suite("Snapshots stored and pruned while other processes read them")
struct SnapshotRaceAttackTests {
    static let rounds = AttackScale.count(short: 1, full: 8)
    static let writerCommands = AttackScale.count(short: 24, full: 60)
    static let snapshotCommands = AttackScale.count(short: 14, full: 30)

    /// What the processes of one thread saw: failures (anything but success or busy) and warnings.
    struct Seen: Sendable {
        var failures: [String] = []
        var warnings: [String] = []

        mutating func note(_ result: RunResult, _ arguments: [String]) {
            if result.status != 0 && result.status != 75 {
                failures.append("\(arguments.joined(separator: " ")): \(result.status) \(result.stderr)")
            } else if result.status == 0, !result.stderr.isEmpty {
                warnings.append("\(arguments.joined(separator: " ")): \(result.stderr)")
            }
        }
    }

    @Test("no command warns about a snapshot another process pruned or replaced while it read it; verify passes")
    func snapshotsPrunedUnderReaders() throws {
        for round in 0..<Self.rounds {
            let tally = TallyRunner()
            tally.environment["TALLY_BUSY_TIMEOUT"] = "10000"
            var random = SeededRandom(seed: UInt64(round + 1))
            let preload = tally.directory.path("preload.jsonl")
            // A body of many 16 KiB chunks, so most of what a command reads comes after start-up.
            _ = try GeneratedExport(events: 4_000, path: preload, random: &random)
            #expect(tally.run("import", preload).status == 0)
            // Edits and toggles land on todos all over the store, so a command reads chunks of its
            // snapshot well after start-up.
            let numbers = (tally.run("list", "--json").json?.arrayValue ?? []).compactMap { $0.objectValue?["number"]?.intValue }
            try #require(numbers.count > 100)

            let lock = NSLock()
            nonisolated(unsafe) var seen: [Seen] = []
            let group = DispatchGroup()
            func spawn(_ body: @escaping @Sendable () -> Seen) {
                group.enter()
                Thread {
                    let result = body()
                    lock.withLock { seen.append(result) }
                    group.leave()
                }.start()
            }
            for writer in 0..<3 {
                spawn {
                    var mine = Seen()
                    for step in 0..<Self.writerCommands {
                        let arguments: [String]
                        switch step % 4 {
                        case 0, 1: arguments = ["add", "w\(writer)-\(step)"]
                        case 2: arguments = ["edit", String(numbers[(step * 37 + writer * 101) % numbers.count]), "--note", "w\(writer)-\(step)"]
                        default: arguments = ["toggle", String(numbers[(step * 53 + writer * 211) % numbers.count])]
                        }
                        mine.note(tally.run(arguments), arguments)
                    }
                    return mine
                }
            }
            for _ in 0..<2 {
                spawn {
                    var mine = Seen()
                    for _ in 0..<Self.snapshotCommands {
                        for arguments in [["snapshot"], ["list", "--limit", "3"]] {
                            mine.note(tally.run(arguments), arguments)
                        }
                    }
                    return mine
                }
            }
            group.wait()
            #expect(seen.count == 5)
            #expect(seen.flatMap(\.failures).isEmpty, "round \(round): \(seen.flatMap(\.failures).prefix(3))")
            #expect(seen.flatMap(\.warnings).isEmpty, "round \(round): \(seen.flatMap(\.warnings).prefix(3))")
            let verify = tally.run("verify")
            #expect(verify.status == 0, "round \(round): \(verify.stdout)\(verify.stderr)")
        }
    }
}
