import Foundation
import Testing
import TallyDomain
import TallyTestSupport

/// The same todos and dependencies built in Taskwarrior 2.6 (`task`, when it is installed) and in
/// tally: both must call the same todos blocked, blocking and ready, and both refuse the same cycles.
/// Skips when `task` is missing. Taskwarrior's chain repair is declined (tally does not rewire).
@Suite("dependencies compared with Taskwarrior 2.6")
struct TaskwarriorComparisonTests {
    static let task = ["/usr/bin/task", "/usr/local/bin/task"].first { FileManager.default.isExecutableFile(atPath: $0) }

    /// Runs `task` on its own data folder; stdout.
    final class Taskwarrior {
        let directory = TemporaryDirectory("tally-tw")
        let binary: String

        init(binary: String) throws {
            self.binary = binary
            try FileManager.default.createDirectory(atPath: directory.path("data"), withIntermediateDirectories: true)
            try "data.location=\(directory.path("data"))\nconfirmation=off\ndependency.confirmation=on\nbulk=0\nverbose=nothing\n".write(toFile: directory.path("rc"), atomically: true, encoding: .utf8)
        }

        @discardableResult
        func run(_ arguments: [String]) -> (out: String, status: Int32) {
            let process = Process()
            process.executableURL = URL(fileURLWithPath: binary)
            process.arguments = arguments
            process.environment = ["TASKRC": directory.path("rc"), "TASKDATA": directory.path("data"), "HOME": directory.path(""), "PATH": "/usr/bin:/bin"]
            let out = Pipe()
            process.standardOutput = out
            process.standardError = Pipe()
            // No terminal and nothing to read: a question Taskwarrior asks gets end of file, not a hang.
            // With dependency.confirmation on, the question whether to repair a chain (make what waited
            // for a completed or deleted task wait for that task's own blockers) is answered no: tally
            // never rewires edges.
            process.standardInput = FileHandle.nullDevice
            guard (try? process.run()) != nil else { return ("", -1) }
            let data = out.fileHandleForReading.readDataToEndOfFile()
            process.waitUntilExit()
            return (String(decoding: data, as: UTF8.self), process.terminationStatus)
        }

        func titles(_ filter: String) -> Set<String> {
            Set(run([filter, "_unique", "description"]).out.split(separator: "\n").map(String.init))
        }
    }

    @Test("random graphs: the same blocked, blocking and ready todos, the same cycles refused", .enabled(if: task != nil))
    func sameAnswers() throws {
        var random = SeededRandom(seed: 26)
        var cycles = 0
        for round in 0..<AttackScale.count(short: 3, full: 20) {
            let taskwarrior = try Taskwarrior(binary: Self.task!)
            let tally = TallyRunner()
            var uuids: [String] = []
            let count = 10
            for index in 1...count {
                let blockers = (1..<index).filter { _ in Int.random(in: 0..<4, using: &random) == 0 }
                var arguments = ["rc.verbose=new-uuid", "add", "t\(index)"]
                if !blockers.isEmpty { arguments.append("depends:" + blockers.map { uuids[$0 - 1] }.joined(separator: ",")) }
                let created = taskwarrior.run(arguments).out
                guard let uuid = created.split(separator: " ").last.map({ String($0.dropLast(2)) }), uuid.count == 36 else {
                    Issue.record("round \(round): no uuid in '\(created)'")
                    return
                }
                uuids.append(uuid)
                var add = ["add", "t\(index)"]
                if !blockers.isEmpty { add += ["--after", blockers.map(String.init).joined(separator: ",")] }
                #expect(tally.run(add).status == 0)
            }
            for index in 1...count where Int.random(in: 0..<3, using: &random) == 0 {
                if Bool.random(using: &random) {
                    taskwarrior.run([uuids[index - 1], "done"])
                    tally.run("done", String(index))
                } else {
                    taskwarrior.run([uuids[index - 1], "delete"])
                    tally.run("delete", String(index))
                }
            }
            func titles(_ arguments: [String]) -> Set<String> {
                let result = tally.run(["--json", "list"] + arguments)
                return Set(result.json?.arrayValue?.compactMap { $0.objectValue?["title"]?.stringValue } ?? [])
            }
            #expect(titles(["--blocked"]) == taskwarrior.titles("+BLOCKED"), "round \(round): blocked\n\(tally.run("list", "--status", "all", "--deleted").stdout)\n\(taskwarrior.run(["export"]).out)")
            #expect(titles(["--ready"]) == taskwarrior.titles("+READY"), "round \(round): ready")
            let blocking = tally.run("--json", "list", "--status", "active").json?.arrayValue?.compactMap { todo -> String? in
                guard let object = todo.objectValue, let title = object["title"]?.stringValue else { return nil }
                return tally.run("show", String(object["number"]?.intValue ?? 0)).stdout.contains("\nBlocks ") ? title : nil
            } ?? []
            #expect(Set(blocking) == taskwarrior.titles("+BLOCKING"), "round \(round): blocking")
            // A cycle: the first todo waits for the last, which may wait (through others) for it. Both
            // must be pending, so only the cycle decides.
            let pending = Set(tally.run("--json", "list", "--status", "active").json?.arrayValue?.compactMap { $0.objectValue?["number"]?.intValue } ?? [])
            guard pending.contains(1), pending.contains(Int64(count)) else { continue }
            let tallyRefused = tally.run("edit", "1", "--after", String(count)).status == 65
            let before = taskwarrior.run([uuids[0], "_unique", "depends"]).out
            taskwarrior.run([uuids[0], "modify", "depends:" + uuids[count - 1]])
            let twRefused = taskwarrior.run([uuids[0], "_unique", "depends"]).out == before
            #expect(tallyRefused == twRefused, "round \(round): tally refused \(tallyRefused), Taskwarrior \(twRefused)")
            cycles += tallyRefused ? 1 : 0
        }
        print("Taskwarrior comparison: \(cycles) cycles refused by both")
    }

    @Test("a chain closed into a circle is refused by both, a shortcut along it is taken by both", .enabled(if: task != nil))
    func closedChain() throws {
        // The random graphs above close a cycle only now and then; this one always does.
        let taskwarrior = try Taskwarrior(binary: Self.task!)
        let tally = TallyRunner()
        var uuids: [String] = []
        for index in 1...4 {
            var arguments = ["rc.verbose=new-uuid", "add", "t\(index)"]
            if index > 1 { arguments.append("depends:" + uuids[index - 2]) }
            let created = taskwarrior.run(arguments).out
            let uuid = created.split(separator: " ").last.map { String($0.dropLast(2)) } ?? ""
            #expect(uuid.count == 36, "no uuid in '\(created)'")
            uuids.append(uuid)
            #expect(tally.run(["add", "t\(index)"] + (index > 1 ? ["--after", String(index - 1)] : [])).status == 0)
        }
        func depends(_ index: Int) -> String { taskwarrior.run([uuids[index - 1], "_unique", "depends"]).out }
        // 1 ← 2 ← 3 ← 4: 1 waiting for 4 closes the circle.
        let before = depends(1)
        taskwarrior.run([uuids[0], "modify", "depends:" + uuids[3]])
        #expect(depends(1) == before, "Taskwarrior took the edge that closes the circle")
        let refused = tally.run("edit", "1", "--after", "4")
        #expect(refused.status == 65 && refused.stderr.contains("1 → 4 → 3 → 2 → 1"), "\(refused.stderr)")
        // 4 waiting for 1 as well is no circle: both take it.
        taskwarrior.run([uuids[3], "modify", "depends:" + uuids[0]])
        #expect(depends(4).contains(uuids[0]))
        #expect(tally.run("edit", "4", "--after", "1").status == 0)
        #expect(tally.listNumbers(["--blocked"]).count == taskwarrior.titles("+BLOCKED").count)
        #expect(tally.listNumbers(["--ready"]) == [1] && taskwarrior.titles("+READY") == ["t1"])
    }

    @Test("a real 'task export' imported into both: the same todos are blocked and ready", .enabled(if: task != nil))
    func importedExport() throws {
        let file = PackageFiles.url("Tests/TallyCLITests/Fixtures/imports/taskwarrior/task-2.6.2-export.json").path
        let taskwarrior = try Taskwarrior(binary: Self.task!)
        taskwarrior.run(["import", file])
        let tally = TallyRunner()
        #expect(tally.run("import", "--from", "taskwarrior", file).status == 0)
        func titles(_ arguments: [String]) -> Set<String> {
            Set(tally.run(["--json", "list"] + arguments).json?.arrayValue?.compactMap { $0.objectValue?["title"]?.stringValue } ?? [])
        }
        let blocked = taskwarrior.titles("+BLOCKED")
        #expect(!blocked.isEmpty, "the export has a task that waits for another")
        #expect(titles(["--blocked"]) == blocked)
        #expect(titles(["--ready"]) == taskwarrior.titles("+READY"))
    }
}
