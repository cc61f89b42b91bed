import Foundation
import Testing
import TallyDomain
import TallySQLite
@testable import TallyCLI
import TallyTestSupport
@testable import TallyEssentials

/// Hostile input to annotations, time and urgency: random annotation texts, `--at` values and
/// `TALLY_URGENCY` strings never trap, are refused with exit 64 or 65 and append nothing, or are
/// stored within the limits; annotations forged into a store (past every door) reach the terminal
/// escaped from `show`, `next --explain` and `time`.
@Suite("annotations, time and urgency: hostile input")
struct TimeAttackTests {
    static let pieces = [
        "\u{1B}[2J", "\u{1B}]0;pwned\u{07}", "\r", "\n", "\u{0}", "\u{7F}", "\u{85}", "é", "e\u{301}", "日本", "🌹",
        " ", "=", ",", "-", "1e308", "-0", "0x10", "nan", "inf", "9999-12-31T23:59:59Z", "0001-01-01", "+3d", "@1", "tag.", "project.",
        "due", "age.max", "tag.next", String(repeating: "x", count: 300), "10000-01-01", "-1", "100.0001",
    ]

    static func hostile(_ random: inout SeededRandom) -> String {
        (0..<Int.random(in: 0...6, using: &random)).map { _ in pieces.randomElement(using: &random)! }.joined()
    }

    @Test("random annotation texts, --at values and TALLY_URGENCY strings: no trap, a defined exit, nothing appended on refusal")
    func randomInput() {
        var random = SeededRandom(seed: 0x25)
        let tally = TallyRunner()
        tally.run("add", "Target", "--tag", "next")
        for round in 0..<AttackScale.count(short: 25, full: 400) {
            let before = tally.eventCount
            let text = Self.hostile(&random)
            let annotated = tally.run("annotate", "1", text)
            #expect([0, 64, 65].contains(annotated.status), "round \(round): annotate '\(text.debugDescription)' exited \(annotated.status): \(annotated.stderr)")
            #expect(tally.eventCount == before + (annotated.status == 0 ? 1 : 0))
            let at = Self.hostile(&random)
            let counted = tally.eventCount
            let started = tally.run(["start", "1", "--at", at], environment: ["TALLY_NOW": "2026-11-21T12:\(String(format: "%02d", round % 60)):00Z"])
            #expect([0, 64, 65].contains(started.status), "round \(round): start --at '\(at.debugDescription)' exited \(started.status): \(started.stderr)")
            if started.status != 0 { #expect(tally.eventCount == counted) }
            let stopped = tally.run(["stop", "--at", at], environment: ["TALLY_NOW": "2026-11-21T13:00:00Z"])
            #expect([0, 64, 65].contains(stopped.status), "round \(round): stop --at exited \(stopped.status): \(stopped.stderr)")
            tally.run(["stop"], environment: ["TALLY_NOW": "2026-11-21T13:00:00Z"])
            let coefficients = Self.hostile(&random)
            let next = tally.run(["next"], environment: ["TALLY_URGENCY": coefficients])
            #expect([0, 65].contains(next.status), "round \(round): TALLY_URGENCY '\(coefficients.debugDescription)' exited \(next.status): \(next.stderr)")
            ControlCharacterAttackTests.expectClean(next, "round \(round): next")
        }
        #expect(tally.run("verify").status == 0)
        #expect(tally.run("time").status == 0)
        let exported = tally.run("export")
        let target = TallyRunner()
        let imported = target.run(["import", "-"], input: exported.stdout)
        #expect(imported.status == 0, "\(imported.stderr)")
        #expect(target.run("export").stdout == exported.stdout)
    }

    @Test("annotations and a tag forged past every door reach the terminal escaped; the fold keeps one interval running")
    func forged() throws {
        let tally = TallyRunner()
        tally.run("add", "Target")
        tally.run("add", "Clock")
        let log = try SQLiteEventLog.openForWriting(path: tally.databasePath, now: Fixtures.epoch)
        var head = try log.head()
        var random = SeededRandom(seed: 0x26)
        let first = try #require(tally.run("--json", "show", "1").json?.objectValue?["todo"]?.objectValue?["id"]?.stringValue)
        let second = try #require(tally.run("--json", "show", "2").json?.objectValue?["todo"]?.objectValue?["id"]?.stringValue)
        var versions = [first: 1, second: 1]
        var stream = first
        func append(_ event: DomainEvent, actor: String) throws {
            versions[stream, default: 0] += 1
            let version = versions[stream]!
            let type = EventCatalog.typeName(of: event)
            var envelope = EventEnvelope(
                seq: head.seq + 1, id: GeneratedExport.uuid(&random), stream: stream, version: version, type: type,
                schema: EventCatalog.currentSchemas[type] ?? 1, data: JSON.object(EventCatalog.payload(of: event)).serialized(.canonical),
                recordedAt: Fixtures.epoch + head.seq * 1000, actor: actor, command: GeneratedExport.uuid(&random), hash: ""
            )
            envelope.hash = EventHash.link(previous: head.hash, envelope)
            try log.write { try log.append([envelope]) }
            head = LogHead(seq: envelope.seq, hash: envelope.hash)
        }
        let hostile = ControlCharacterAttackTests.hostile
        try append(.todoAnnotated(Annotation(id: GeneratedExport.uuid(&random), at: Fixtures.epoch, text: hostile)), actor: hostile)
        try append(.todoEdited(TodoChanges(tags: ["t\u{1B}[31m"], project: "p\u{1B}]0;x\u{07}")), actor: hostile)
        // Two running starts and a closed interval that begins inside them, appended straight to the log.
        stream = second
        try append(.todoStarted(start: Fixtures.epoch, end: nil), actor: "a")
        try append(.todoStarted(start: Fixtures.epoch + 60_000, end: nil), actor: "a")
        try append(.todoStarted(start: Fixtures.epoch + 30_000, end: Fixtures.epoch + 90_000), actor: "a")
        log.close()
        for arguments in [["show", "1"], ["next", "--explain", "1"], ["time"], ["list", "x"], ["next"]] {
            ControlCharacterAttackTests.expectClean(tally.run(arguments), "\(arguments)")
        }
        let intervals = tally.run("--json", "show", "2").json?.objectValue?["todo"]?.objectValue?["intervals"]?.arrayValue ?? []
        #expect(intervals.filter { $0.objectValue?["end"] == .null }.count <= 1)
        #expect(tally.run("snapshot").status == 0)
        // The second start merged into the running one; the closed interval ends it where it begins.
        #expect(intervals.count == 2)
        let again = tally.run("--json", "show", "2")
        #expect(again.json?.objectValue?["todo"]?.objectValue?["intervals"]?.arrayValue == intervals, "\(again.stdout)\(again.stderr)")
    }
}
