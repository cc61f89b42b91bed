import Foundation
import Testing
import TallyTestSupport

/// `kill -9` at any moment: the log verifies, a command is all or nothing, and tally keeps working.
/// `make crash-test` runs 200 kills (CRASH_KILLS); `swift test` runs a short version.
/// CRASH_SEED repeats the random choices of a run (the kill moments also depend on the machine).
@Suite("Writers killed at random moments", .tags(.postgresql))
struct CrashTests {
    static let kills = Int(ProcessInfo.processInfo.environment["CRASH_KILLS"] ?? "") ?? 12
    static let seed = UInt64(ProcessInfo.processInfo.environment["CRASH_SEED"] ?? "") ?? UInt64.random(in: 1...999_999)

    @Test("after every kill the log verifies, the killed command is all or nothing, and the next command works")
    func killedWriters() {
        let harness = CrashHarness(seed: Self.seed)
        harness.run(kills: Self.kills)
        print("Crash harness, seed \(Self.seed): \(harness.figures)")
        #expect(harness.problems.isEmpty, "\(harness.problems.first ?? "")")
        #expect(harness.figures.kills == Self.kills)
        #expect(harness.figures.snapshotDue > 0, "no writer ran on a log past the snapshot threshold")
        // Snapshots are stored in one transaction, so a kill never leaves one that start-up must ignore.
        #expect(harness.figures.ignoredSnapshots == 0)
    }
}
