import Foundation
import Testing
import TallyDomain
import TallyTestSupport
@testable import TallyEssentials

/// Hostile second exports: a changed file that closes a dependency cycle, fields grown past every limit,
/// the same uuid twice with different states, huge numbers of changed tasks. Each is refused whole or
/// made to fit and reported; nothing outside the limits is appended; `verify` passes.
@Suite("re-importing a changed export: hostile files")
struct ReimportAttackTests {
    static func task(_ uuid: String, _ description: String, _ extra: String = "") -> String {
        #"{"uuid":"\#(uuid)","description":"\#(description)","status":"pending","entry":"20261101T090000Z"\#(extra)}"#
    }

    static func uuid(_ n: Int) -> String { String(format: "00000000-0000-4000-8000-%012d", n) }

    static func write(_ folder: TemporaryDirectory, _ name: String, _ lines: [String]) throws -> String {
        let path = folder.path(name)
        try ("[\n" + lines.joined(separator: ",\n") + "\n]\n").write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    @Test("a second export whose depends close a cycle with an edge made in tally is refused whole, the cycle named; nothing appended; one within the file keeps that depends in the note")
    func cycle() throws {
        let folder = TemporaryDirectory("tally-reimport-attack")
        let tally = TallyRunner()
        let first = try Self.write(folder, "1.json", [Self.task(Self.uuid(1), "A"), Self.task(Self.uuid(2), "B")])
        #expect(tally.run("import", "--from", "taskwarrior", first).status == 0)
        #expect(tally.run("edit", "2", "--after", "1").status == 0)
        let second = try Self.write(folder, "2.json", [
            Self.task(Self.uuid(1), "A", #","depends":"\#(Self.uuid(2))""#), Self.task(Self.uuid(2), "B changed"),
        ])
        let events = tally.eventCount
        let result = tally.run("import", "--from", "taskwarrior", second)
        #expect(result.status == 65 && result.stderr.contains("in a circle: 1 → 2 → 1"), "\(result.stderr)")
        #expect(tally.eventCount == events)
        // Within the file the circle is the source's own: the edge that closes it stays in the note.
        let third = try Self.write(folder, "3.json", [
            Self.task(Self.uuid(1), "A"), Self.task(Self.uuid(2), "B changed", #","depends":"\#(Self.uuid(3))""#),
            Self.task(Self.uuid(3), "C", #","depends":"\#(Self.uuid(2))""#),
        ])
        let applied = tally.run("import", "--from", "taskwarrior", third)
        #expect(applied.status == 0 && applied.stdout.contains("waiting for task 00000000 would make tasks wait for each other in a circle"), "\(applied.stdout)")
        let c = tally.run("--json", "show", "3").json?.objectValue?["todo"]?.objectValue
        #expect(c?["after"] == [] && c?["note"] == .string("depends: \(Self.uuid(2))"), "\(String(describing: c))")
        #expect(tally.run("verify").status == 0)
    }

    @Test("fields grown past tally's limits in the second export are made to fit and reported; the same uuid twice: the later wins")
    func oversized() throws {
        let folder = TemporaryDirectory("tally-reimport-attack")
        let tally = TallyRunner()
        let first = try Self.write(folder, "1.json", [Self.task(Self.uuid(1), "Small"), Self.task(Self.uuid(2), "Other")])
        #expect(tally.run("import", "--from", "taskwarrior", first).status == 0)
        let huge = String(repeating: "word ", count: 40_000)
        let tags = (0..<200).map { "\"t\($0)\"" }.joined(separator: ",")
        let second = try Self.write(folder, "2.json", [
            Self.task(Self.uuid(1), huge, #","tags":[\#(tags)],"annotations":[{"entry":"20261102T090000Z","description":"\#(huge)"}]"#),
            #"{"uuid":"\#(Self.uuid(2))","description":"Other","status":"completed","entry":"20261101T090000Z","end":"20261103T090000Z"}"#,
            #"{"uuid":"\#(Self.uuid(2))","description":"Other","status":"deleted","entry":"20261101T090000Z","end":"20261104T090000Z"}"#,
        ])
        let result = tally.run("--json", "import", "--from", "taskwarrior", second)
        #expect(result.status == 0, "\(result.stderr)")
        let updated = result.json?.objectValue?["updated"]?.arrayValue ?? []
        #expect(updated.count == 2, "\(result.stdout.prefix(2000))")
        let warnings = result.json?.objectValue?["warnings"]?.arrayValue?.compactMap { $0.objectValue?["reason"]?.stringValue } ?? []
        #expect(warnings.contains { $0.contains("500") } && warnings.contains { $0.contains("tags") }, "\(warnings)")
        let todo = tally.run("--json", "show", "1").json?.objectValue?["todo"]?.objectValue
        #expect((todo?["title"]?.stringValue?.count ?? 0) <= 500 && (todo?["note"]?.stringValue?.count ?? 0) <= 10_000 && (todo?["tags"]?.arrayValue?.count ?? 0) <= 20)
        #expect(tally.run("--json", "show", "2").json?.objectValue?["todo"]?.objectValue?["deleted"] == true)
        #expect(tally.run("verify").status == 0)
    }

    @Test("many tasks changed at once: one command, every change reported")
    func many() throws {
        let folder = TemporaryDirectory("tally-reimport-attack")
        let tally = TallyRunner()
        let count = AttackScale.count(short: 300, full: 5_000)
        let first = try Self.write(folder, "1.json", (1...count).map { Self.task(Self.uuid($0), "Task \($0)") })
        #expect(tally.run("import", "--from", "taskwarrior", first).status == 0)
        let second = try Self.write(folder, "2.json", (1...count).map { Self.task(Self.uuid($0), "Task \($0)", #","priority":"H""#) })
        let result = tally.run("--json", "import", "--from", "taskwarrior", second)
        #expect(result.json?.objectValue?["updated"]?.arrayValue?.count == count)
        #expect(tally.run("undo").stdout.hasPrefix("Undid command"))
        #expect(tally.run("--json", "list", "--priority", "high").json?.arrayValue?.isEmpty == true)
    }

    @Test("a second export with more annotations than a todo may hold, and a start inside time tally already has: made to fit and reported")
    func annotationsAndStartsPastLimits() throws {
        let folder = TemporaryDirectory("tally-reimport-attack")
        let tally = TallyRunner()
        let first = try Self.write(folder, "1.json", [Self.task(Self.uuid(1), "Paint", #","start":"20261101T100000Z""#)])
        #expect(tally.run("import", "--from", "taskwarrior", first).status == 0)
        #expect(tally.run("annotate", "1", "mine").status == 0 && tally.run("annotate", "1", "also mine").status == 0)
        #expect(tally.run("stop", "1", "--at", "2026-11-21T11:00:00Z").status == 0)
        let count = AttackScale.count(short: 1_200, full: 3_000)
        let annotations = (0..<count).map { #"{"entry":"\#(1_800_000_000 + $0)","description":"note \#($0)"}"# }.joined(separator: ",")
        // Stopped and started again in the source, at an instant inside the time tally has on the todo.
        let second = try Self.write(folder, "2.json", [
            Self.task(Self.uuid(1), "Paint", #","start":"20261102T100000Z","modified":"garbage","annotations":[\#(annotations)]"#),
        ])
        let events = tally.eventCount
        let result = tally.run("--json", "import", "--from", "taskwarrior", second)
        #expect(result.status == 0, "\(result.stderr)")
        let changes = result.json?.objectValue?["updated"]?.arrayValue?.first?.objectValue?["changes"]?.arrayValue?.compactMap(\.stringValue) ?? []
        #expect(changes.contains("annotated") && changes.contains("annotationsLeftOut") && changes.contains("started") && !changes.contains("stopped"), "\(changes)")
        let human = tally.run("import", "--from", "taskwarrior", second)
        #expect(human.status == 0 && tally.run("--json", "show", "1").json?.objectValue?["todo"]?.objectValue?["annotations"]?.arrayValue?.count == 1000)
        let todo = tally.run("--json", "show", "1").json?.objectValue?["todo"]?.objectValue
        let intervals = todo?["intervals"]?.arrayValue?.compactMap(\.objectValue) ?? []
        // The new interval begins where tally's time on the todo ends, not inside it.
        #expect(intervals.count == 2 && intervals.last?["start"] == "2026-11-21T11:00:00Z" && intervals.last?["end"] == .null, "\(intervals)")
        #expect(tally.eventCount > events && tally.run("verify").status == 0)
        // Importing the same file again adds nothing more.
        let after = tally.eventCount
        let again = tally.run("--json", "import", "--from", "taskwarrior", second)
        let againChanges = again.json?.objectValue?["updated"]?.arrayValue?.first?.objectValue?["changes"]?.arrayValue?.compactMap(\.stringValue) ?? []
        #expect(!againChanges.contains("annotated") && !againChanges.contains("started"), "\(againChanges)")
        #expect(tally.eventCount == after)
    }
}
