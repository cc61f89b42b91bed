import Foundation
import Testing
import TallyDomain
import TallyTestSupport
@testable import TallyEssentials

/// Ctrl-C typed on a real terminal at every moment of a long command: before the work starts, while
/// it runs, as its bar reaches 100 % (the commit), and after. Whatever the moment, the command ends
/// promptly with exit 130 (or 0 when it had already finished), clears its bar, and says exactly what
/// `info` and `verify` then find: nothing, or everything it reports.
@Suite("Ctrl-C at any moment", .enabled(if: PseudoTerminal.isAvailable), .serialized)
struct InterruptAttackTests {
    /// When Ctrl-C is typed: at once, once the bar shows, once it shows 100 %, once the report is out.
    enum Moment: String, CaseIterable, CustomStringConvertible {
        case before, during, atCommit, after
        var description: String { rawValue }
    }

    static let nothingImported = "Error: Interrupted; nothing was imported."
    static let keptAsReported = "Error: Interrupted after the work was saved; what is reported above was kept."

    /// Starts `arguments` on a terminal, types Ctrl-C at `moment`, and returns the screen and status.
    static func interrupt(_ tally: TallyRunner, _ arguments: [String], at moment: Moment, label: String) throws -> (lines: [String], status: Int32, raw: String) {
        let terminal = try PseudoTerminal(columns: 100, arguments, environment: TerminalTests.terminalEnvironment(tally))
        switch moment {
        case .before:
            break
        case .during:
            _ = terminal.waitFor(label + " [", seconds: 60)
        case .atCommit:
            _ = terminal.waitFor("100%", seconds: 120)
        case .after:
            _ = terminal.waitFor("\n", seconds: 120)
        }
        let started = Date()
        terminal.type("\u{03}")
        let status = terminal.finish()
        #expect(Date().timeIntervalSince(started) < 30, "the command ends promptly after Ctrl-C")
        // The terminal itself echoes the Ctrl-C as `^C`: that is not tally's output.
        var output = terminal.output
        if let echo = output.firstRange(of: Array("^C".utf8)) { output.removeSubrange(echo) }
        var screen = VirtualScreen(columns: 100)
        screen.feed(output)
        return (screen.lines, status, String(decoding: output, as: UTF8.self))
    }

    /// The bar is gone: no line on the screen still shows one.
    static func expectNoBar(_ lines: [String], _ label: String) {
        #expect(!lines.contains { $0.contains(label + " [") || $0.contains("%  ") }, "a progress bar was left on screen: \(lines)")
    }

    static func walSize(_ tally: TallyRunner) -> Int {
        (try? FileManager.default.attributesOfItem(atPath: tally.databasePath + "-wal")[.size] as? Int) ?? 0
    }

    @Test("import: Ctrl-C at any moment says exactly what was kept", arguments: Moment.allCases)
    func importEvents(moment: Moment) throws {
        let tally = TallyRunner()
        var random = SeededRandom(seed: 2_200 + UInt64(moment.hashValue & 0xFF))
        let export = tally.directory.path("export.jsonl")
        let count = try GeneratedExport(events: AttackScale.count(short: 10_000, full: 200_000), path: export, random: &random).ids.count
        let result = try Self.interrupt(tally, ["import", export], at: moment, label: "Importing")
        Self.expectNoBar(result.lines, "Importing")
        let kept = tally.eventCount
        let report = result.lines.first { $0.hasPrefix("Imported ") }
        switch result.status {
        case 130 where result.lines == [Self.nothingImported]:
            #expect(kept <= 0, "told nothing was imported, but \(kept) events are in the log")
            #expect(!FileManager.default.fileExists(atPath: tally.databasePath), "a new database that got nothing is left behind")
        case 130:
            #expect(result.lines.last == Self.keptAsReported, "\(result.lines)")
            #expect(report?.hasPrefix("Imported \(count) of \(count) events") == true, "\(result.lines)")
            #expect(kept == Int64(count))
        case 0:
            #expect(report?.hasPrefix("Imported \(count) of \(count) events") == true, "\(result.lines)")
            #expect(kept == Int64(count))
        default:
            Issue.record("exit \(result.status): \(result.lines)")
        }
        #expect(!result.lines.contains { $0.contains("nothing was imported") } || report == nil, "both 'nothing' and a report: \(result.lines)")
        #expect(Self.walSize(tally) < 1 << 20, "write-ahead log of \(Self.walSize(tally)) bytes left behind")
        if kept > 0 { #expect(tally.run("verify").status == 0) }
        if moment == .during { #expect(result.status == 130) }
    }

    @Test("record import: Ctrl-C at any moment rolls back or keeps all, and says which", arguments: Moment.allCases)
    func recordImport(moment: Moment) throws {
        let tally = TallyRunner()
        let folder = tally.directory.path("watch")
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let files = AttackScale.count(short: 60, full: 400)
        for index in 0..<files {
            let points = SyntheticTrack.line(start: 1_700_000_000_000 + Int64(index) * 86_400_000, speed: 3, seconds: 1_800)
            try SyntheticTrack.gpx(points, name: "Run \(index)").write(toFile: PathText.appending(folder, "run\(index).gpx"), atomically: true, encoding: .utf8)
        }
        let result = try Self.interrupt(tally, ["record", "import", folder], at: moment, label: "Reading")
        Self.expectNoBar(result.lines, "Reading")
        let records = tally.run(["record", "list", "--json"]).json?.arrayValue?.count ?? 0
        switch result.status {
        case 130 where result.lines == [Self.nothingImported]:
            #expect(records == 0)
            #expect(!FileManager.default.fileExists(atPath: tally.databasePath), "a new database that got nothing is left behind")
        case 130:
            #expect(result.lines.last == Self.keptAsReported, "\(result.lines)")
            #expect(result.lines.first?.hasPrefix("Imported \(files) activities") == true, "\(result.lines)")
            #expect(records == files)
        case 0:
            #expect(records == files)
        default:
            Issue.record("exit \(result.status) (died by a signal?): \(result.lines)")
        }
        #expect(Self.walSize(tally) < 1 << 20, "write-ahead log of \(Self.walSize(tally)) bytes left behind")
        if records > 0 { #expect(tally.run("verify").status == 0) }
    }

    @Test("rebuild: Ctrl-C during the replay leaves the snapshots as they were")
    func rebuild() throws {
        let tally = TallyRunner()
        var random = SeededRandom(seed: 2_210)
        let export = tally.directory.path("export.jsonl")
        _ = try GeneratedExport(events: AttackScale.count(short: 20_000, full: 200_000), path: export, random: &random)
        #expect(tally.run("import", export).status == 0)
        #expect(tally.run("snapshot").status == 0)
        func snapshot() -> JSON? {
            guard case .object(let info)? = tally.run(["info", "--json"]).json else { return nil }
            return info["snapshot"]
        }
        let before = snapshot()
        #expect(before != nil && before != .null)
        for moment in Moment.allCases {
            let result = try Self.interrupt(tally, ["rebuild"], at: moment, label: "Rebuilding")
            Self.expectNoBar(result.lines, "Rebuilding")
            let after = snapshot()
            #expect(after != nil && after != .null, "\(moment): the database was left without a snapshot")
            switch result.status {
            case 130 where result.lines == ["Error: Interrupted; the snapshots were left as they were."]:
                #expect(after == before, "\(moment): the snapshots changed")
            case 130:
                #expect(result.lines.first?.hasPrefix("Rebuilt the read models") == true && result.lines.last == Self.keptAsReported, "\(moment): \(result.lines)")
            case 0:
                #expect(result.lines.first?.hasPrefix("Rebuilt the read models") == true, "\(moment): \(result.lines)")
            default:
                Issue.record("\(moment): exit \(result.status): \(result.lines)")
            }
            #expect(tally.run("verify").status == 0)
        }
    }

    @Test("sync: Ctrl-C during a clone keeps nothing, and says so")
    func syncClone() throws {
        let shared = TallyRunner()
        var random = SeededRandom(seed: 2_220)
        let export = shared.directory.path("export.jsonl")
        let count = try GeneratedExport(events: AttackScale.count(short: 8_000, full: 200_000), path: export, random: &random).ids.count
        let sharedFile = shared.directory.path("shared.db")
        #expect(shared.run(["--db", sharedFile, "import", export]).status == 0)
        for moment in Moment.allCases {
            let clone = TallyRunner()
            let result = try Self.interrupt(clone, ["sync", "--remote", sharedFile], at: moment, label: "Pulling")
            Self.expectNoBar(result.lines, "Pulling")
            let kept = clone.eventCount
            switch result.status {
            case 130 where result.lines == ["Error: Interrupted; nothing was synced."]:
                #expect(kept <= 0, "\(moment): told nothing was synced, but \(kept) events are here")
            case 130:
                #expect(result.lines.last == Self.keptAsReported || result.lines.last?.contains("nothing was pushed") == true, "\(moment): \(result.lines)")
                #expect(kept == Int64(count))
            case 0:
                #expect(kept == Int64(count))
            default:
                Issue.record("\(moment): exit \(result.status): \(result.lines)")
            }
            #expect(Self.walSize(clone) < 1 << 20)
            // Whatever was kept, the next sync finishes the clone.
            #expect(clone.run("sync", "--remote", sharedFile).status == 0)
            #expect(clone.eventCount == Int64(count))
        }
    }
}
