import Foundation
import Testing
import TallyDomain
import TallyTestSupport
@testable import TallyEssentials

/// Words todo.txt and Taskwarrior files hold that an import used to drop: `rec:` that cannot start a
/// series, a second `due:`, `t:` or `rec:` on one line, an emptied Taskwarrior project. Files written by
/// todo.sh 2.11 and Taskwarrior 2.6 themselves.
@Suite("import: nothing of a line is lost")
struct ImportLooseEndsTests {
    static let keys = PackageFiles.url("Tests/TallyCLITests/Fixtures/imports/todotxt/todo-sh-2.11-keys.txt").path

    @Test("rec: without due: or on a done line goes to the note; a second due:, t: or rec: stays in the title")
    func todoTxtKeys() throws {
        let tally = TallyRunner()
        let result = tally.run("import", "--from", "todotxt", Self.keys)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("  line 2: a second 'due:' on the line; the first is used, this one kept in the title\n"), "\(result.stdout)")
        let todos = Dictionary(uniqueKeysWithValues: (tally.run("--json", "list", "--status", "all").json?.arrayValue ?? []).compactMap { todo -> (String, [String: JSON])? in
            guard let object = todo.objectValue, let title = object["title"]?.stringValue else { return nil }
            return (title, Dictionary(uniqueKeysWithValues: object.members.map { ($0.key, $0.value) }))
        })
        #expect(todos["Water plants"]?["note"] == "rec: 1w" && todos["Water plants"]?["series"] == .null)
        #expect(todos["Pay rent due:2026-12-05"]?["due"] == "2026-12-01")
        #expect(todos["Read the book t:2026-12-03"]?["wait"] == "2026-12-01")
        #expect(todos["Stretch rec:2d"]?["due"] == "2026-11-20" && todos["Stretch rec:2d"]?["series"]?.stringValue != nil)
        #expect(todos["Call mom"]?["completed"] == true && todos["Call mom"]?["note"] == "rec: 1w")
        let every = tally.run("show", String(todos["Stretch rec:2d"]?["number"]?.intValue ?? 0)).stdout
        #expect(every.contains("every day from the due date"), "the first rec: (+1d, fixed) makes the series: \(every)")
    }

    @Test("a project emptied in Taskwarrior is no project and no note line; a project that is not text is kept in the note",
          .enabled(if: TaskwarriorComparisonTests.task != nil))
    func taskwarriorProject() throws {
        let task = try TaskwarriorComparisonTests.Taskwarrior(binary: TaskwarriorComparisonTests.task!)
        task.run(["add", "Emptied", "project:Home", "+tag"])
        task.run(["1", "modify", "project:"])
        let file = task.directory.path("tasks.json")
        var export = task.run(["export"]).out
        #expect(export.contains("\"description\":\"Emptied\""))
        export = export.replacingOccurrences(of: "]", with: #",{"uuid":"22222222-2222-4222-8222-222222222222","description":"Odd","status":"pending","project":5}]"#)
        try export.write(toFile: file, atomically: true, encoding: .utf8)
        let tally = TallyRunner()
        let result = tally.run("--json", "import", "--from", "taskwarrior", file)
        #expect(result.status == 0, "\(result.stderr)")
        let todos = tally.run("--json", "list").json?.arrayValue?.compactMap(\.objectValue) ?? []
        let emptied = todos.first { $0["title"] == "Emptied" }
        #expect(emptied?["project"] == .null && emptied?["note"] == .null && emptied?["tags"] == ["tag"], "\(String(describing: emptied))")
        let odd = todos.first { $0["title"] == "Odd" }
        #expect(odd?["project"] == .null && odd?["note"] == "project: 5", "\(String(describing: odd))")
    }
}
