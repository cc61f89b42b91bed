import Foundation
import Testing
import TallyDomain
import TallyTestSupport
@testable import TallyCLI
@testable import TallyEssentials

@Suite("imports from Taskwarrior and todo.txt, end to end", .tags(.postgresql))
struct ForeignImportCommandTests {
    static let taskwarrior = PackageFiles.url("Tests/TallyCLITests/Fixtures/taskwarrior-export.json").path
    static let todoTxt = PackageFiles.url("Tests/TallyCLITests/Fixtures/todo.txt").path

    @Test("a real 'task export' comes in as one command, with fields, times and a report")
    func taskwarrior() throws {
        let tally = TallyRunner()
        let result = tally.run("import", "--from", "taskwarrior", Self.taskwarrior)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.hasPrefix("Imported 8 todos from \(Self.taskwarrior) (1 completed, 1 deleted).\n"))
        // The recurring template is a series now, its pending instance a todo of it; wait is the wait date.
        #expect(!result.stdout.contains("Skipped") && !result.stdout.contains("'wait'") && !result.stdout.contains("'recur'"))
        let czech = tally.run(["import", "--from", "taskwarrior", Self.taskwarrior], environment: ["LANG": "cs_CZ.UTF-8"])
        #expect(czech.stdout.contains("Importováno 0 úkolů"), "\(czech.stdout)")
        let plantsNumber = tally.run("--json", "list", "--search", "plants").json?.arrayValue?.first?.objectValue?["number"]?.intValue ?? 0
        let plants = tally.run("show", String(plantsNumber))
        #expect(plants.stdout.contains("every week from the due date") && plants.stdout.contains("2026-11-30, 2026-12-07, 2026-12-14"), "\(plants.stdout)")
        #expect(tally.run("list").stdout.contains("1 waiting"))
        let list = tally.run("--json", "list", "--deleted", "--status", "all")
        guard case .array(let todos)? = list.json else { Issue.record("not JSON: \(list.stdout)"); return }
        #expect(todos.count == 8)
        let milk = todos.first { $0.objectValue?["title"] == "Buy oat milk" }?.objectValue
        #expect(milk?["tags"] == ["groceries", "shop"] && milk?["project"] == "home.kitchen" && milk?["priority"] == "high")
        #expect(milk?["due"] == "2026-11-25" && milk?["createdAt"] == "2026-11-01T09:15:00Z")
        #expect(milk?["note"] == .null)
        #expect(milk?["annotations"]?.arrayValue?.first?.objectValue?["text"] == "only the unsweetened one")
        let origin = milk?["origin"]?.objectValue
        #expect(origin?["tool"] == "taskwarrior" && origin?["id"]?.stringValue?.count == 36 && origin?["createdAt"] == "2026-11-01T09:15:00Z")
        let human = tally.run("show", "1")
        #expect(human.stdout.contains("Imported from  Taskwarrior task \(origin?["id"]?.stringValue ?? "?")\n"), "\(human.stdout)")
        let show = tally.run("--json", "show", "1")
        let commands = Set((show.json?.objectValue?["history"]?.arrayValue ?? []).compactMap { $0.objectValue?["command"]?.stringValue })
        let other = tally.run("--json", "show", "8")
        let otherCommands = Set((other.json?.objectValue?["history"]?.arrayValue ?? []).compactMap { $0.objectValue?["command"]?.stringValue })
        #expect(commands.count == 1 && commands == otherCommands, "one import is one command id")

        let events = tally.eventCount
        let again = tally.run("import", "--from", "taskwarrior", Self.taskwarrior)
        #expect(again.status == 0)
        #expect(again.stdout.hasPrefix("Imported 0 todos from \(Self.taskwarrior).\n8 items were imported before and have not changed in the source.\n"))
        #expect(tally.eventCount == events)
    }

    @Test("a todo.txt file: done lines, priorities, projects and contexts; JSON report")
    func todoTxt() throws {
        let tally = TallyRunner()
        let result = tally.run("--json", "import", "--from", "todotxt", Self.todoTxt)
        #expect(result.status == 0, "\(result.stderr)")
        guard case .object(let report)? = result.json else { Issue.record("not JSON: \(result.stdout)"); return }
        #expect(report.keys == ["imported", "updated", "seriesUpdated", "seriesRefused", "keptDeleted", "legacyLeftAlone", "alreadyPresent", "skipped", "warnings"])
        let imported = report["imported"]?.arrayValue ?? []
        #expect(imported.count == 8)
        let mom = imported.first?.objectValue
        #expect(mom?["title"] == "Call Mom +Family @phone" && mom?["tags"] == ["family", "phone"] && mom?["priority"] == "high" && mom?["due"] == "2026-11-25")
        #expect(imported[6].objectValue?["title"] == "+Errands @town" && imported[6].objectValue?["tags"] == ["errands", "town"])
        let insurance = imported.last?.objectValue
        #expect(insurance?["completed"] == true && insurance?["completedAt"] == "2026-11-10T00:00:00Z" && insurance?["priority"] == "high")
        #expect(report["skipped"] == [])
        #expect(report["warnings"]?.arrayValue?.count == 3)
        let again = tally.run("--json", "import", "--from", "todotxt", Self.todoTxt)
        #expect(again.json?.objectValue?["imported"] == [] && again.json?.objectValue?["alreadyPresent"]?.arrayValue?.count == 8)
    }

    @Test("exit codes: 66 unreadable, 65 malformed naming the line, 64 for an unknown format; nothing appended")
    func failures() throws {
        let tally = TallyRunner()
        let missing = tally.run("import", "--from", "todotxt", tally.directory.path("absent.txt"))
        #expect(missing.status == 66 && missing.stderr.hasPrefix("Error: Cannot open "))
        let broken = tally.directory.path("broken.json")
        try Data("[\n{\"description\": \"a\"},\n{\"description\": }\n]\n".utf8).write(to: URL(fileURLWithPath: broken))
        let malformed = tally.run("import", "--from", "taskwarrior", broken)
        #expect(malformed.status == 65)
        #expect(malformed.stderr.hasPrefix("Error: Malformed input at \(broken), line 3: "))
        let badFormat = tally.run("import", "--from", "csv", Self.todoTxt)
        #expect(badFormat.status == 64)
        #expect(!FileManager.default.fileExists(atPath: tally.databasePath))
        // Without --from the file must be a tally export: another tool's file is refused with the --from to use.
        let noFormat = tally.run("import", Self.todoTxt)
        #expect(noFormat.status == 65, "\(noFormat.stderr)")
        #expect(noFormat.stderr.hasPrefix("Error: \(Self.todoTxt) looks like a todo.txt file, not a tally export. Use 'tally import --from todotxt \(Self.todoTxt)'."))
        let taskwarriorWithoutFrom = tally.run("import", Self.taskwarrior)
        #expect(taskwarriorWithoutFrom.status == 65 && taskwarriorWithoutFrom.stderr.contains("--from taskwarrior"), "\(taskwarriorWithoutFrom.stderr)")
        let jsonAsTodoTxt = tally.run("import", "--from", "todotxt", Self.taskwarrior)
        #expect(jsonAsTodoTxt.status == 65 && jsonAsTodoTxt.stderr.hasPrefix("Error: \(Self.taskwarrior) is JSON, not a todo.txt file."), "\(jsonAsTodoTxt.stderr)")
        #expect(tally.eventCount == 0)
    }

    @Test("standard input is read with '-'")
    func standardInput() {
        let tally = TallyRunner()
        let result = tally.run(["import", "--from", "todotxt", "-"], input: "(B) Water plants @home\n")
        #expect(result.status == 0 && result.stdout == "Imported 1 todo from -.\n")
    }
}
