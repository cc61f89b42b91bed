import Foundation
import Testing
import TallyDomain
import TallyTestSupport
@testable import TallyEssentials

/// Every file of the import corpus (`Tests/TallyCLITests/Fixtures/imports`, sources and licences in its
/// README) goes through the whole cycle with the built binary, compared field by field with its
/// committed `.expected.json`: import, re-import is a no-op, undo removes everything, redo brings back
/// the same state, import after undo restores the same state, and `verify` passes.
///
/// After an intended change to the importers, regenerate the expected files with
/// `TALLY_UPDATE_GOLDEN=1 swift test --filter ImportCorpusTests` and review the diff.
@Suite("import corpus: real Taskwarrior and todo.txt files, whole and right")
struct ImportCorpusTests {
    static let directory = PackageFiles.url("Tests/TallyCLITests/Fixtures/imports")
    static let updating = ProcessInfo.processInfo.environment["TALLY_UPDATE_GOLDEN"] == "1"

    /// `taskwarrior/x.json` or `todotxt/x.txt`, without expected or oracle files.
    static let files: [String] = {
        ["taskwarrior", "todotxt"].flatMap { tool in
            let names = (try? FileManager.default.contentsOfDirectory(atPath: directory.appendingPathComponent(tool).path)) ?? []
            return names.filter { !$0.hasSuffix(".expected.json") && !$0.hasSuffix(".oracle.json") && $0 != "README.md" }
                .sorted().map { "\(tool)/\($0)" }
        }
    }()

    static func format(_ file: String) -> String { file.hasPrefix("taskwarrior/") ? "taskwarrior" : "todotxt" }

    /// The todos as a user sees them (waiting ones included), without the times of the import's own events.
    static func todos(_ tally: TallyRunner) -> JSON {
        guard case .array(let todos)? = tally.run("--json", "list", "--deleted", "--status", "all", "--sort", "created").json else { return .null }
        return .array(todos.map { todo in
            guard case .object(var object) = todo else { return todo }
            object["updatedAt"] = nil
            return .object(object)
        }.sorted { ($0.objectValue?["number"]?.intValue ?? 0) < ($1.objectValue?["number"]?.intValue ?? 0) })
    }

    @Test("the whole cycle, compared field by field", arguments: files)
    func cycle(_ file: String) throws {
        #expect(Self.files.count >= 20, "the corpus is missing")
        let path = Self.directory.appendingPathComponent(file).path
        let expectedURL = Self.directory.appendingPathComponent(file.replacingOccurrences(of: ".json", with: "").replacingOccurrences(of: ".txt", with: "") + ".expected.json")
        let tally = TallyRunner()
        let first = tally.run("--json", "import", "--from", Self.format(file), path)
        #expect(first.status == 0, "\(first.stderr)")
        guard case .object(var report)? = first.json else { Issue.record("not JSON: \(first.stdout)"); return }
        report["imported"] = nil
        let imported = Self.todos(tally)
        let actual = JSON.object(["todos": imported, "report": .object(report)])
        if Self.updating {
            try (actual.serialized(.pretty) + "\n").write(to: expectedURL, atomically: true, encoding: .utf8)
            return
        }
        let expected = try JSON.parse(String(contentsOf: expectedURL, encoding: .utf8))
        #expect(actual == expected, """
            \(file) comes in differently from \(expectedURL.lastPathComponent):
            \(Diff.describe(expected.serialized(.pretty).components(separatedBy: "\n"), actual.serialized(.pretty).components(separatedBy: "\n")))
            If the change is intended, regenerate with: TALLY_UPDATE_GOLDEN=1 swift test --filter ImportCorpusTests
            """)
        let count = imported.arrayValue?.count ?? 0

        // Re-import: nothing appended, every item reported as present.
        let events = tally.eventCount
        let again = tally.run("--json", "import", "--from", Self.format(file), path)
        #expect(again.status == 0 && tally.eventCount == events)
        #expect(again.json?.objectValue?["alreadyPresent"]?.arrayValue?.count == count)

        guard count > 0 else {
            #expect(tally.eventCount == 0, "a file with nothing to import appends nothing")
            return
        }
        // Undo removes everything; redo brings back the same state.
        #expect(tally.run("undo").status == 0)
        #expect(tally.run("--json", "list").json == .array([]))
        #expect(Self.todos(tally).arrayValue?.allSatisfy { $0.objectValue?["deleted"] == .bool(true) } == true)
        #expect(tally.run("redo").status == 0)
        #expect(Self.todos(tally) == imported)

        // Undo again, then import: everything is back, as it was.
        #expect(tally.run("undo").status == 0)
        let back = tally.run("--json", "import", "--from", Self.format(file), path)
        #expect(back.status == 0)
        #expect(Self.todos(tally) == imported)
        let verify = tally.run("verify")
        #expect(verify.status == 0, "\(verify.stdout)\(verify.stderr)")
    }

    /// What `task import` then `task export` made of the same file (the `.oracle.json` beside it).
    static let oracles: [String] = files.filter {
        $0.hasPrefix("taskwarrior/") && FileManager.default.fileExists(atPath: directory.appendingPathComponent($0.replacingOccurrences(of: ".json", with: ".oracle.json")).path)
    }

    @Test("Taskwarrior files read as Taskwarrior itself reads them", arguments: oracles)
    func oracle(_ file: String) throws {
        let tally = TallyRunner()
        let path = Self.directory.appendingPathComponent(file).path
        #expect(tally.run("import", "--from", "taskwarrior", path).status == 0)
        let oraclePath = Self.directory.appendingPathComponent(file.replacingOccurrences(of: ".json", with: ".oracle.json")).path
        let tasks = try JSON.parse(String(contentsOfFile: oraclePath, encoding: .utf8)).arrayValue ?? []
        let todos = (Self.todos(tally).arrayValue ?? []).compactMap(\.objectValue)
        let parents = Set(tasks.compactMap { $0.objectValue?["parent"]?.stringValue })
        // tally keeps one open instance per series: the earliest pending one (see docs/guide/todos.md, recurring todos).
        var earliestPending: [String: (uuid: String, due: String)] = [:]
        for case .object(let task) in tasks where task["status"] == "pending" {
            guard let parent = task["parent"]?.stringValue, let uuid = task["uuid"]?.stringValue else { continue }
            let due = task["due"]?.stringValue ?? "~"
            if let kept = earliestPending[parent], kept.due <= due { continue }
            earliestPending[parent] = (uuid, due)
        }
        var laterPending = 0
        for case .object(let task) in tasks {
            let uuid = task["uuid"]?.stringValue ?? ""
            let todo = todos.first { $0["origin"]?.objectValue?["id"]?.stringValue == uuid }
            if task["status"] == "recurring", parents.contains(uuid) {
                #expect(todo == nil, "a template with instances becomes a series, not a todo")
                continue
            }
            if task["status"] == "pending", let parent = task["parent"]?.stringValue, earliestPending[parent]?.uuid != uuid {
                #expect(todo == nil, "a later pending instance is left out")
                laterPending += 1
                continue
            }
            guard let todo else { Issue.record("\(file): task \(uuid) was not imported"); continue }
            let description = task["description"]?.stringValue ?? ""
            let title = todo["title"]?.stringValue ?? ""
            let flat = description.unicodeScalars.map { $0.value < 0x20 ? " " : String($0) }.joined()
                .split(separator: " ", omittingEmptySubsequences: false).joined(separator: " ")
            #expect(title == flat || (title.hasSuffix("…") && flat.hasPrefix(String(title.dropLast()).trimmingCharacters(in: .whitespaces))),
                    "\(uuid): title \(title) for \(description)")
            if title != description { #expect(todo["note"]?.stringValue?.contains(description) == true) }
            switch task["status"]?.stringValue {
            case "completed": #expect(todo["completed"] == true && todo["deleted"] == false)
            case "deleted": #expect(todo["deleted"] == true)
            default: #expect(todo["completed"] == false && todo["deleted"] == false)
            }
            let entry = task["entry"]?.stringValue.flatMap(Self.taskDate)
            let end = task["end"]?.stringValue.flatMap(Self.taskDate)
            if let entry, let created = todo["createdAt"]?.stringValue.flatMap(Timestamp.parse), entry != Self.oracleRun(tasks) {
                #expect(created == min(entry, end ?? entry), "\(uuid): created \(created) for entry \(entry)")
            }
            if task["status"] == "completed", let end {
                #expect(todo["completedAt"]?.stringValue.flatMap(Timestamp.parse) == end)
            }
            if let due = task["due"]?.stringValue.flatMap(Self.taskDate) {
                let stored = todo["due"]?.stringValue ?? ""
                #expect(Due(storageText: stored).map { $0 == ImportSupportMirror.due(due) } == true, "\(uuid): due \(stored) for \(due)")
            }
            let priority = ["H": "high", "M": "medium", "L": "low"][task["priority"]?.stringValue ?? ""]
            #expect(todo["priority"]?.stringValue == priority)
            let tags = Set((todo["tags"]?.arrayValue ?? []).compactMap(\.stringValue))
            let note = todo["note"]?.stringValue ?? ""
            for name in (task["tags"]?.arrayValue ?? []).compactMap(\.stringValue) {
                let tag = String(name.lowercased().unicodeScalars.map { $0 == "." || $0 == " " ? "-" : Character($0) })
                #expect(tags.contains(tag) || note.contains(name) || note.contains(tag), "\(uuid): tag \(name) lost")
            }
            // The project is the todo's project (Taskwarrior's dots are sub-projects), or in the note when it breaks the rules.
            if let project = task["project"]?.stringValue, !project.trimmingCharacters(in: .whitespaces).isEmpty {
                #expect(todo["project"]?.stringValue == project.lowercased() || note.contains(project), "\(uuid): project \(project) lost")
            }
            // A note is at most 10,000 characters: what was cut is named in the report, the rest must be there.
            let cut = note.count >= Validation.maxNoteLength
            // An annotation is an annotation (its text trimmed), or a line of the note when it cannot be one.
            let annotations = (todo["annotations"]?.arrayValue ?? []).compactMap { $0.objectValue?["text"]?.stringValue }
            for case .object(let annotation) in task["annotations"]?.arrayValue ?? [] {
                let text = annotation["description"]?.stringValue ?? "\u{0}"
                let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines).precomposedStringWithCanonicalMapping
                #expect(annotations.contains(trimmed) || note.contains(text) || (cut && !note.isEmpty), "\(uuid): an annotation was lost")
            }
        }
        #expect(todos.count == tasks.count - laterPending - tasks.filter { $0.objectValue?["status"] == "recurring" && parents.contains($0.objectValue?["uuid"]?.stringValue ?? "") }.count)
    }

    /// The `modified` time of the oracle run: an `entry` equal to it was made up by `task import`, not read.
    static func oracleRun(_ tasks: [JSON]) -> Int64? {
        tasks.first?.objectValue?["modified"]?.stringValue.flatMap(taskDate)
    }

    /// `20261121T143000Z`.
    static func taskDate(_ text: String) -> Int64? {
        guard text.count == 16 else { return nil }
        let chars = Array(text)
        let iso = "\(String(chars[0..<4]))-\(String(chars[4..<6]))-\(String(chars[6..<8]))T\(String(chars[9..<11])):\(String(chars[11..<13])):\(String(chars[13..<15]))Z"
        return Timestamp.parse(iso)
    }
}

/// The due rule of the importers, restated for the oracle in UTC: a midnight is a whole day.
enum ImportSupportMirror {
    static func due(_ instant: Int64) -> Due {
        let day = instant / 86_400_000 * 86_400_000
        guard day == instant, let date = LocalDate.parse(String(Timestamp.format(instant).prefix(10))) else { return .instant(instant) }
        return .date(date)
    }
}
