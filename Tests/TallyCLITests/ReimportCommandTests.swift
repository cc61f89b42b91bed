import Foundation
import Testing
import TallyDomain
import TallyTestSupport
@testable import TallyEssentials

/// Re-importing a newer export: files written by Taskwarrior 2.6 (`task`) and todo.sh themselves, changed
/// there between two imports. Skips a case when its tool is missing (`make deps` installs both).
@Suite("re-importing a changed Taskwarrior or todo.txt file", .tags(.postgresql))
struct ReimportCommandTests {
    static let todoSh = ["/usr/bin/todo-txt", "/usr/bin/todo.sh", "/usr/local/bin/todo.sh"].first { FileManager.default.isExecutableFile(atPath: $0) }

    /// Todos by their origin id (the Taskwarrior uuid): title, status, priority.
    static func byOrigin(_ tally: TallyRunner) -> [String: (title: String, status: String, priority: String?, number: Int64)] {
        var result: [String: (title: String, status: String, priority: String?, number: Int64)] = [:]
        for todo in tally.run("--json", "list", "--status", "all", "--deleted").json?.arrayValue ?? [] {
            guard let object = todo.objectValue, let id = object["origin"]?.objectValue?["id"]?.stringValue else { continue }
            let status = object["deleted"]?.boolValue == true ? "deleted" : object["completed"]?.boolValue == true ? "completed" : "pending"
            result[id] = (object["title"]?.stringValue ?? "", status, object["priority"]?.stringValue, object["number"]?.intValue ?? 0)
        }
        return result
    }

    @Test("Taskwarrior: a completion, a priority, a title and a deletion made in task come over as one command; a deleted instance stays deleted",
          .enabled(if: TaskwarriorComparisonTests.task != nil))
    func taskwarrior() throws {
        let task = try TaskwarriorComparisonTests.Taskwarrior(binary: TaskwarriorComparisonTests.task!)
        task.run(["add", "Buy milk", "priority:H", "project:Home", "+shop"])
        task.run(["add", "Write report", "due:2026-11-30"])
        task.run(["add", "Call Bob", "project:Work"])
        task.run(["add", "Old idea"])
        task.run(["add", "Water plants", "due:2026-11-22", "recur:weekly"])
        task.run(["list"])
        let first = task.directory.path("first.json")
        try task.run(["export"]).out.write(toFile: first, atomically: true, encoding: .utf8)
        let tally = TallyRunner()
        let imported = tally.run("import", "--from", "taskwarrior", first)
        #expect(imported.status == 0 && imported.stdout.hasPrefix("Imported 5 todos"), "\(imported.stdout)\(imported.stderr)")
        // In tally: the recurring instance is deleted (the next one comes), a title is changed.
        let water = tally.run("--json", "list", "--search", "plants").json?.arrayValue?.first?.objectValue?["number"]?.intValue ?? 0
        #expect(tally.run("delete", String(water)).stdout.contains("Next "))
        let report = Self.byOrigin(tally).values.first { $0.title == "Write report" }!
        #expect(tally.run("edit", String(report.number), "--title", "Write the report").status == 0)

        // In Taskwarrior: complete one, change a priority and a description, delete one.
        func uuid(_ title: String) -> String { task.run(["description:" + title, "_unique", "uuid"]).out.trimmingCharacters(in: .whitespacesAndNewlines) }
        task.run([uuid("Buy milk"), "done"])
        task.run([uuid("Write report"), "modify", "priority:L"])
        task.run([uuid("Call Bob"), "modify", "Call Bob about the roof"])
        task.run([uuid("Old idea"), "delete"])
        let second = task.directory.path("second.json")
        try task.run(["export"]).out.write(toFile: second, atomically: true, encoding: .utf8)
        let beforeList = tally.run("--json", "list", "--status", "all", "--deleted").stdout
        let events = tally.eventCount

        let again = tally.run("import", "--from", "taskwarrior", second)
        #expect(again.status == 0, "\(again.stderr)")
        #expect(again.stdout.contains("Updated 4 todos imported before, with what changed in the source since:\n"), "\(again.stdout)")
        #expect(again.stdout.contains(": completed\n") && again.stdout.contains(": changed priority\n") && again.stdout.contains(": changed title\n") && again.stdout.contains(": deleted\n"))
        #expect(again.stdout.contains("1 item is deleted in tally and stays deleted (--restore-deleted brings it back):\n"), "\(again.stdout)")
        // Compared with Taskwarrior's own export: every plain task has its status, title and priority there.
        let export = try JSON.parse(try String(contentsOfFile: second, encoding: .utf8)).arrayValue ?? []
        let mine = Self.byOrigin(tally)
        for case .object(let taskObject) in export where taskObject["recur"] == nil && taskObject["parent"] == nil {
            let id = taskObject["uuid"]?.stringValue ?? ""
            guard let todo = mine[id] else { Issue.record("task \(id) is not in tally"); continue }
            #expect(todo.status == taskObject["status"]?.stringValue, "\(todo.title)")
            let priority = ["H": "high", "M": "medium", "L": "low"][taskObject["priority"]?.stringValue ?? ""]
            #expect(todo.priority == priority, "\(todo.title)")
            // Tally's own title change stays where Taskwarrior left the title alone.
            #expect(todo.title == (todo.title == "Write the report" ? "Write the report" : taskObject["description"]?.stringValue), "\(todo.title)")
        }
        // One open instance of the series, not two.
        let open = (tally.run("--json", "list", "--status", "active", "--search", "plants").json?.arrayValue ?? [])
        #expect(open.count == 1, "\(open)")
        // One command: one undo takes every change back.
        let commands = Set(tally.run("--json", "log").json?.arrayValue?.prefix(Int(tally.eventCount - events)).compactMap { $0.objectValue?["command"]?.stringValue } ?? [])
        #expect(commands.count == 1)
        #expect(tally.run("undo").status == 0)
        #expect(tally.run("--json", "list", "--status", "all", "--deleted").stdout == beforeList)
        #expect(tally.run("redo").status == 0)
        // Importing the same file again changes nothing.
        let afterRedo = tally.eventCount
        let third = tally.run("--json", "import", "--from", "taskwarrior", second)
        #expect(third.json?.objectValue?["updated"] == [] && tally.eventCount == afterRedo, "\(third.stdout)")
        #expect(third.json?.objectValue?["keptDeleted"]?.arrayValue?.count == 1)
        // Asked to, it would restore the instance, but its series has an open one: still refused, and said.
        let restore = tally.run("import", "--from", "taskwarrior", "--restore-deleted", second)
        #expect(restore.stdout.contains("1 item deleted in tally was not restored:\n") && restore.stdout.contains(" of its series is open\n"), "\(restore.stdout)")
        #expect(tally.eventCount == afterRedo)
        #expect(tally.run("verify").status == 0)
    }

    @Test("Taskwarrior: a task deleted in tally comes back only with --restore-deleted; import, undo, import brings all back",
          .enabled(if: TaskwarriorComparisonTests.task != nil))
    func restoreDeleted() throws {
        let task = try TaskwarriorComparisonTests.Taskwarrior(binary: TaskwarriorComparisonTests.task!)
        task.run(["add", "Keep me"])
        task.run(["add", "Delete me here"])
        let file = task.directory.path("tasks.json")
        try task.run(["export"]).out.write(toFile: file, atomically: true, encoding: .utf8)
        let tally = TallyRunner()
        #expect(tally.run("import", "--from", "taskwarrior", file).status == 0)
        #expect(tally.run("delete", "2").status == 0)
        let events = tally.eventCount
        let kept = tally.run("import", "--from", "taskwarrior", file)
        #expect(kept.stdout.contains("→ 2\n") && tally.eventCount == events, "\(kept.stdout)")
        let restored = tally.run("import", "--from", "taskwarrior", "--restore-deleted", file)
        #expect(restored.stdout.contains("→ 2: restored\n"), "\(restored.stdout)")
        #expect(tally.run("--json", "list").json?.arrayValue?.count == 2)
        // The undo of the first import is not a deletion by the user: importing again brings everything back.
        #expect(tally.run("undo").status == 0 && tally.run("undo").status == 0 && tally.run("undo").status == 0)
        #expect(tally.run("--json", "list").json?.arrayValue?.count == 0)
        let back = tally.run("import", "--from", "taskwarrior", file)
        #expect(back.stdout.contains("→ 1: restored\n") && back.stdout.contains("→ 2: restored\n"), "\(back.stdout)")
        #expect(tally.run("--json", "list").json?.arrayValue?.count == 2)
        let wrong = tally.run("import", "--restore-deleted", file)
        #expect(wrong.status == 64 && wrong.stderr.contains("--restore-deleted works with --from taskwarrior"), "\(wrong.stderr)")
    }

    @Test("todos an earlier tally imported (project as a tag; annotations, start and depends in the note) keep those fields and what was changed in tally; the rest of a change in the source comes over")
    func importedByAnEarlierTally() throws {
        // A Taskwarrior 2.6.2 export, and the log tally ab9ee2a (before 0.9.0) made of it.
        let folder = PackageFiles.url("Tests/TallyCLITests/Fixtures/imports/earlier-tally")
        let export = folder.appendingPathComponent("task-2.6.2-export.json").path
        let tally = TallyRunner(now: "2026-11-29T09:00:00Z")
        #expect(tally.run("import", folder.appendingPathComponent("tally-ab9ee2a-import.jsonl").path).status == 0)
        #expect(tally.run("edit", "1", "--tag", "+urgent", "--note", "my own words").status == 0)
        let events = tally.eventCount
        // The same export again: nothing changed there, so nothing changes here, and it says why.
        let same = tally.run("import", "--from", "taskwarrior", export)
        #expect(same.status == 0, "\(same.stderr)")
        #expect(same.stdout == """
            Imported 0 todos from \(export).
            3 todos imported by an earlier tally keep their tags, note, project, dependencies, annotations and time as they are (they came with Taskwarrior's project among their tags, or its annotations, start or depends in the note):
              task a2cbee54 → 1
              task 3edc8781 → 2
              task 766ba062 → 3

            """, "\(same.stdout)")
        #expect(tally.eventCount == events)
        let paint = tally.run("--json", "show", "1").json?.objectValue?["todo"]?.objectValue
        #expect(paint?["tags"] == ["home-garden", "shop", "urgent"] && paint?["note"] == "my own words" && paint?["project"] == .null)
        #expect(paint?["annotations"] == [] && paint?["intervals"] == [])
        // Changed in Taskwarrior: Buy paint completed, Work thing's priority and project. The completion and the
        // priority come over; the project stays a tag, as that import made it.
        var tasks = try #require(JSON.parse(String(contentsOfFile: export, encoding: .utf8)).arrayValue)
        func change(_ index: Int, _ members: [String: JSON]) {
            guard case .object(var object) = tasks[index] else { return }
            for (key, value) in members { object[key] = value }
            tasks[index] = .object(object)
        }
        change(0, ["status": "completed", "end": "20261129T080000Z"])
        change(2, ["priority": "H", "project": "work.reports"])
        let second = tally.directory.path("second.json")
        try JSON.array(tasks).serialized(.compact).write(toFile: second, atomically: true, encoding: .utf8)
        let changed = tally.run("import", "--from", "taskwarrior", second)
        #expect(changed.stdout.contains("  task a2cbee54 → 1: completed\n") && changed.stdout.contains("  task 766ba062 → 3: changed priority\n"), "\(changed.stdout)")
        let work = tally.run("--json", "show", "3").json?.objectValue?["todo"]?.objectValue
        #expect(work?["priority"] == "high" && work?["tags"] == ["work"] && work?["project"] == .null)
        #expect(tally.run("--json", "show", "1").json?.objectValue?["todo"]?.objectValue?["note"] == "my own words")
        #expect(tally.run("undo").status == 0)
        #expect(tally.run("--json", "show", "3").json?.objectValue?["todo"]?.objectValue?["priority"] == "low")
        #expect(tally.run("verify").status == 0)
    }

    @Test("todo.txt: 'todo.sh do' and 'pri' rewrite lines; the todos they were are found by title and updated",
          .enabled(if: todoSh != nil))
    func todoTxt() throws {
        let folder = TemporaryDirectory("tally-todosh")
        let config = folder.path("config")
        try """
            export TODO_DIR=\(folder.path(""))
            export TODO_FILE=\(folder.path("todo.txt"))
            export DONE_FILE=\(folder.path("done.txt"))
            export REPORT_FILE=\(folder.path("report.txt"))
            """.write(toFile: config, atomically: true, encoding: .utf8)
        _ = FileManager.default.createFile(atPath: folder.path("todo.txt"), contents: Data())
        _ = FileManager.default.createFile(atPath: folder.path("done.txt"), contents: Data())
        func todo(_ arguments: String...) {
            let process = Process()
            process.executableURL = URL(fileURLWithPath: Self.todoSh!)
            // -a: keep done lines in todo.txt (no archive); -t: a creation date on each line.
            process.arguments = ["-d", config, "-a", "-t"] + arguments
            process.environment = ["HOME": folder.path(""), "PATH": "/usr/bin:/bin"]
            process.standardOutput = Pipe()
            process.standardError = Pipe()
            process.standardInput = FileHandle.nullDevice
            try? process.run()
            process.waitUntilExit()
        }
        todo("add", "Buy milk +shop @town due:2026-11-25")
        todo("add", "Call mom")
        todo("add", "Fix roof +home")
        todo("pri", "1", "A")
        let first = folder.path("first.txt")
        try FileManager.default.copyItem(atPath: folder.path("todo.txt"), toPath: first)
        let tally = TallyRunner()
        #expect(tally.run("import", "--from", "todotxt", first).stdout.hasPrefix("Imported 3 todos"))
        todo("do", "1")
        todo("pri", "3", "B")
        let second = folder.path("second.txt")
        try FileManager.default.copyItem(atPath: folder.path("todo.txt"), toPath: second)
        let text = try String(contentsOfFile: second, encoding: .utf8)
        #expect(text.hasPrefix("x "), "todo.sh marked the line done: \(text)")
        let again = tally.run("import", "--from", "todotxt", second)
        #expect(again.stdout.hasPrefix("Imported 0 todos"), "\(again.stdout)")
        #expect(again.stdout.contains("  line 1 → 1: completed\n") && again.stdout.contains("  line 3 → 3: changed priority\n"), "\(again.stdout)")
        let list = tally.run("--json", "list", "--status", "all").json?.arrayValue ?? []
        #expect(list.count == 3)
        let milk = list.first { $0.objectValue?["number"] == 1 }?.objectValue
        // `todo.sh do` drops the priority; that is the format, so tally keeps it.
        #expect(milk?["completed"] == true && milk?["priority"] == "high", "\(String(describing: milk))")
        #expect(list.first { $0.objectValue?["number"] == 3 }?.objectValue?["priority"] == "medium")
        let events = tally.eventCount
        #expect(tally.run("import", "--from", "todotxt", second).stdout.contains("3 items were imported before and have not changed"))
        #expect(tally.eventCount == events)
    }
}
