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

    @Test("depends that make a circle (task import takes them) keep the edge that closes it in the note, reported; the rest wait as before",
          .enabled(if: TaskwarriorComparisonTests.task != nil))
    func taskwarriorDependencyCircle() throws {
        let task = try TaskwarriorComparisonTests.Taskwarrior(binary: TaskwarriorComparisonTests.task!)
        // Taskwarrior refuses a circle on 'modify', but 'task import' (and a sync) bring one in as it is.
        let (a, b, c, d) = ("a1111111-1111-4111-8111-111111111111", "b1111111-1111-4111-8111-111111111111", "c1111111-1111-4111-8111-111111111111", "d1111111-1111-4111-8111-111111111111")
        let crafted = task.directory.path("crafted.json")
        try """
            [{"uuid":"\(a)","description":"A","status":"pending","entry":"20261120T064324Z","depends":["\(c)"]},
            {"uuid":"\(b)","description":"B","status":"pending","entry":"20261120T064324Z","depends":"\(a)"},
            {"uuid":"\(c)","description":"C","status":"pending","entry":"20261120T064324Z","depends":["\(b)"]},
            {"uuid":"\(d)","description":"D","status":"pending","entry":"20261120T064324Z","depends":["\(d)","\(a)"]}]
            """.write(toFile: crafted, atomically: true, encoding: .utf8)
        task.run(["import", crafted])
        let file = task.directory.path("tasks.json")
        let export = task.run(["export"]).out
        #expect(export.contains("\"depends\":[\"\(b)\"]") && export.contains(",\"\(d)\"]"), "Taskwarrior keeps the circle: \(export)")
        try export.write(toFile: file, atomically: true, encoding: .utf8)
        let tally = TallyRunner()
        let result = tally.run("import", "--from", "taskwarrior", file)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("  task c1111111: waiting for task b1111111 would make tasks wait for each other in a circle (c1111111 → b1111111 → a1111111 → c1111111); that 'depends' is kept in the note\n"), "\(result.stdout)")
        #expect(result.stdout.contains("  task d1111111: waiting for task d1111111 would make tasks wait for each other in a circle (d1111111 → d1111111)"), "\(result.stdout)")
        let todos = Dictionary(uniqueKeysWithValues: (tally.run("--json", "list").json?.arrayValue ?? []).compactMap { todo -> (String, JSONObject)? in
            guard let object = todo.objectValue, let title = object["title"]?.stringValue else { return nil }
            return (title, object)
        })
        let ids = todos.mapValues { $0["id"]?.stringValue ?? "" }
        #expect(todos["A"]?["after"] == [.string(ids["C"] ?? "")] && todos["B"]?["after"] == [.string(ids["A"] ?? "")])
        #expect(todos["C"]?["after"] == [] && todos["C"]?["note"] == .string("depends: \(b)"))
        #expect(todos["D"]?["after"] == [.string(ids["A"] ?? "")] && todos["D"]?["note"] == .string("depends: \(d)"))
        // C waits for nothing now, so it is ready and the rest wait along the chain; the file imports again as it is.
        #expect(tally.listNumbers(["--ready"]).count == 1)
        #expect(tally.run("import", "--from", "taskwarrior", file).stdout.contains("4 items were imported before and have not changed in the source."))
    }

    @Test("a depends on tasks not in the file is kept in the note and reported as such; one not in Taskwarrior's form is kept as text")
    func taskwarriorDependsNotInFile() throws {
        let tally = TallyRunner()
        let file = tally.directory.path("tasks.json")
        let (a, b, gone, other) = ("a1111111-1111-4111-8111-111111111111", "b1111111-1111-4111-8111-111111111111", "e1111111-1111-4111-8111-111111111111", "f1111111-1111-4111-8111-111111111111")
        try """
            [{"uuid":"\(a)","description":"A","status":"pending","entry":"20261120T064324Z","depends":["\(b)","\(gone)"]},
            {"uuid":"\(b)","description":"B","status":"pending","entry":"20261120T064324Z","depends":"\(gone),\(other)"},
            {"uuid":"c1111111-1111-4111-8111-111111111111","description":"C","status":"pending","entry":"20261120T064324Z","depends":7}]
            """.write(toFile: file, atomically: true, encoding: .utf8)
        let result = tally.run("import", "--from", "taskwarrior", file)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(!result.stdout.contains("has no place"), "\(result.stdout)")
        #expect(result.stdout.contains("  task a1111111: the task it depends on (e1111111) is not in the file; that 'depends' is kept in the note\n"), "\(result.stdout)")
        #expect(result.stdout.contains("  task b1111111: the tasks it depends on (e1111111, f1111111) are not in the file; those 'depends' are kept in the note\n"), "\(result.stdout)")
        #expect(result.stdout.contains("  task c1111111: field 'depends' is not in the form Taskwarrior writes; kept in the note as text\n"), "\(result.stdout)")
        let todos = Dictionary(uniqueKeysWithValues: (tally.run("--json", "list").json?.arrayValue ?? []).compactMap { todo -> (String, JSONObject)? in
            guard let object = todo.objectValue, let title = object["title"]?.stringValue else { return nil }
            return (title, object)
        })
        // The task in the file is waited for; the rest is in the note, as before.
        #expect(todos["A"]?["after"] == [.string(todos["B"]?["id"]?.stringValue ?? "")] && todos["A"]?["note"] == .string("depends: \(gone)"))
        #expect(todos["B"]?["after"] == [] && todos["B"]?["note"] == .string("depends: \(gone), \(other)"))
        #expect(todos["C"]?["note"] == "depends: 7")
        let czech = TallyRunner().run(["import", "--from", "taskwarrior", file], environment: ["LANG": "cs_CZ.UTF-8"])
        #expect(czech.stdout.contains("  úkol a1111111: úkol, na kterém závisí (e1111111), v souboru není; tato závislost 'depends' zůstává v poznámce\n"), "\(czech.stdout)")

        // Past the 50th task it depends on: the rest is kept in the note, reported with the limit.
        let uuids = (1...52).map { String(format: "%08x-1111-4111-8111-111111111111", $0) }
        let tasks = uuids.map { uuid in
            let depends = uuid == uuids[0] ? ",\"depends\":[" + uuids.dropFirst().map { "\"\($0)\"" }.joined(separator: ",") + "]" : ""
            return "{\"uuid\":\"\(uuid)\",\"description\":\"T\(uuid.prefix(8))\",\"status\":\"pending\",\"entry\":\"20261120T064324Z\"\(depends)}"
        }
        let many = tally.directory.path("many.json")
        try ("[" + tasks.joined(separator: ",\n") + "]").write(toFile: many, atomically: true, encoding: .utf8)
        let limited = TallyRunner().run("import", "--from", "taskwarrior", many)
        #expect(limited.stdout.contains("  task 00000001: a todo waits for at most 50 others; the task it depends on past the 50th (00000034) is kept in the note\n"), "\(limited.stdout)")
    }
}
