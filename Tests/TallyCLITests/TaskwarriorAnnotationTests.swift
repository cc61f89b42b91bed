import Foundation
import Testing
import TallyDomain
import TallyTestSupport
import TallyEssentials

/// The same Taskwarrior file imported into Taskwarrior 2.6 (`task import`, when it is installed) and
/// into tally: every task has the same annotations in the same order with the same dates, and the
/// same start. Skips when `task` is missing.
@Suite("annotations and start compared with Taskwarrior 2.6")
struct TaskwarriorAnnotationTests {
    typealias Taskwarrior = TaskwarriorComparisonTests.Taskwarrior

    static let words = ["called", "the", "shop", "Čeština", "日本語", "✓", "paint", "v2.6", "\"quoted\"", "a/b", "100%", "naïve"]

    /// `20261102T093000Z` as tally writes it: `2026-11-02T09:30:00Z`.
    static func iso(_ compact: String) -> String {
        let c = Array(compact)
        guard c.count == 16 else { return compact }
        return "\(String(c[0..<4]))-\(String(c[4..<6]))-\(String(c[6..<8]))T\(String(c[9..<11])):\(String(c[11..<13])):\(String(c[13..<15]))Z"
    }

    static func compact(_ ms: Int64) -> String {
        Timestamp.format(ms).replacingOccurrences(of: "-", with: "").replacingOccurrences(of: ":", with: "")
    }

    @Test("random tasks with annotations and starts: the same annotations, dates and starts in both", .enabled(if: TaskwarriorComparisonTests.task != nil))
    func sameAnnotations() throws {
        var random = SeededRandom(seed: 25)
        for round in 0..<AttackScale.count(short: 2, full: 10) {
            let taskwarrior = try Taskwarrior(binary: TaskwarriorComparisonTests.task!)
            let tally = TallyRunner()
            var tasks: [JSON] = []
            let base = Timestamp.parse("2026-10-01T08:00:00Z")!
            for index in 1...12 {
                let entry = base + Int64(index) * 86_400_000
                var task: JSONObject = [
                    "uuid": .string(String(format: "%08lx-1111-4111-8111-%012lx", round, index)),
                    "description": .string("task \(index)"),
                    "status": .string(index % 5 == 0 ? "completed" : "pending"),
                    "entry": .string(Self.compact(entry)),
                ]
                if index % 5 == 0 { task["end"] = .string(Self.compact(entry + 40 * 86_400_000)) }
                var annotations: [JSON] = []
                var at = entry
                for _ in 0..<Int.random(in: 0...4, using: &random) {
                    // Distinct seconds: Taskwarrior keys annotations by their time (see the guide).
                    at += Int64.random(in: 1...100_000, using: &random) * 1000
                    let text = (0..<Int.random(in: 1...5, using: &random)).map { _ in Self.words.randomElement(using: &random)! }.joined(separator: " ")
                    annotations.append(.object(["entry": .string(Self.compact(at)), "description": .string(text)]))
                }
                if !annotations.isEmpty { task["annotations"] = .array(annotations) }
                if Int.random(in: 0..<3, using: &random) == 0 { task["start"] = .string(Self.compact(entry + 3_600_000)) }
                tasks.append(.object(task))
            }
            let file = tally.directory.path("tasks.json")
            try JSON.array(tasks).serialized(.compact).write(toFile: file, atomically: true, encoding: .utf8)
            #expect(taskwarrior.run(["import", file]).status == 0)
            #expect(tally.run("import", "--from", "taskwarrior", file).status == 0)
            let theirs = try #require(try? JSON.parse(taskwarrior.run(["export"]).out)).arrayValue ?? []
            #expect(theirs.count == tasks.count)
            let ours = tally.run("--json", "list", "--status", "all").json?.arrayValue ?? []
            for task in theirs {
                let object = task.objectValue
                let uuid = object?["uuid"]?.stringValue ?? ""
                guard let todo = ours.first(where: { $0.objectValue?["origin"]?.objectValue?["id"]?.stringValue == uuid })?.objectValue else {
                    Issue.record("round \(round): task \(uuid) is not in tally")
                    continue
                }
                let expected = (object?["annotations"]?.arrayValue ?? []).map { annotation in
                    "\(Self.iso(annotation.objectValue?["entry"]?.stringValue ?? "")) \(annotation.objectValue?["description"]?.stringValue ?? "")"
                }
                let actual = (todo["annotations"]?.arrayValue ?? []).map { annotation in
                    "\(annotation.objectValue?["at"]?.stringValue ?? "") \(annotation.objectValue?["text"]?.stringValue ?? "")"
                }
                #expect(actual == expected, "round \(round), task \(uuid)")
                #expect(todo["note"] == .null, "round \(round), task \(uuid): \(todo["note"] ?? .null)")
                // `task import` keeps `start` on any task; tally runs it on a pending one, closed at the end of a completed one.
                let start = object?["start"]?.stringValue.map(Self.iso)
                let interval = todo["intervals"]?.arrayValue?.first?.objectValue
                #expect(interval?["start"]?.stringValue == start, "round \(round), task \(uuid)")
                if start != nil {
                    let end = object?["status"]?.stringValue == "completed" ? object?["end"]?.stringValue.map(Self.iso) : nil
                    #expect(interval?["end"]?.stringValue == end, "round \(round), task \(uuid)")
                }
            }
        }
    }

    @Test("the documented differences: tally trims the text and keeps two annotations of one second at that second", .enabled(if: TaskwarriorComparisonTests.task != nil))
    func differences() throws {
        let taskwarrior = try Taskwarrior(binary: TaskwarriorComparisonTests.task!)
        let tally = TallyRunner()
        let file = tally.directory.path("tasks.json")
        try """
            [{"uuid":"11111111-1111-4111-8111-111111111111","description":"A","status":"pending","entry":"20261101T100000Z",
              "annotations":[{"entry":"20261102T093000Z","description":"  spaced  "},{"entry":"20261102T093000Z","description":"same second"}]}]
            """.write(toFile: file, atomically: true, encoding: .utf8)
        #expect(taskwarrior.run(["import", file]).status == 0)
        #expect(tally.run("import", "--from", "taskwarrior", file).status == 0)
        let theirs = try JSON.parse(taskwarrior.run(["export"]).out).arrayValue?.first?.objectValue?["annotations"]?.arrayValue ?? []
        #expect(theirs.compactMap { $0.objectValue?["description"]?.stringValue } == ["  spaced  ", "same second"])
        #expect(theirs.compactMap { $0.objectValue?["entry"]?.stringValue } == ["20261102T093000Z", "20261102T093001Z"])
        let ours = tally.run("--json", "show", "1").json?.objectValue?["todo"]?.objectValue?["annotations"]?.arrayValue ?? []
        #expect(ours.compactMap { $0.objectValue?["text"]?.stringValue } == ["spaced", "same second"])
        #expect(ours.compactMap { $0.objectValue?["at"]?.stringValue } == ["2026-11-02T09:30:00Z", "2026-11-02T09:30:00Z"])
    }
}
