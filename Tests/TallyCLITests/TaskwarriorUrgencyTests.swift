import Foundation
import Testing
import TallyDomain
import TallyTestSupport
import TallyEssentials

/// `tally next` against Taskwarrior 2.6's urgency as a sanity reference: the same random todos made in
/// both (priority, due, tags, project, started, depends) get the same scores and the same order among
/// the ready ones. Skips when `task` is missing.
@Suite("next compared with Taskwarrior 2.6's urgency")
struct TaskwarriorUrgencyTests {
    typealias Taskwarrior = TaskwarriorComparisonTests.Taskwarrior

    @Test("random todos: the same urgency (within 0.05) and the same order of the ready ones", .enabled(if: TaskwarriorComparisonTests.task != nil))
    func sameOrder() throws {
        var random = SeededRandom(seed: 2025)
        for round in 0..<AttackScale.count(short: 2, full: 10) {
            let taskwarrior = try Taskwarrior(binary: TaskwarriorComparisonTests.task!)
            let tally = TallyRunner()
            // Both run on the real clock, a few seconds apart (the age term moves by 2/365 a day).
            let now = Int64(Date().timeIntervalSince1970 * 1000) / 1000 * 1000
            tally.environment["TALLY_NOW"] = Timestamp.format(now)
            var uuids: [String] = []
            for index in 1...15 {
                var task = ["rc.verbose=new-uuid", "add", "t\(index)"]
                var add = ["add", "t\(index)"]
                if let priority = ["H", "M", "L", nil].randomElement(using: &random)! {
                    task.append("priority:\(priority)")
                    add += ["--priority", priority]
                }
                if Bool.random(using: &random) {
                    let due = Timestamp.format(now + Int64.random(in: -20 * 24...30 * 24, using: &random) * 3_600_000)
                    task.append("due:\(due)")
                    add += ["--due", due]
                }
                for tag in ["next", "shop", "home"] where Int.random(in: 0..<4, using: &random) == 0 {
                    task.append("+\(tag)")
                    add += ["--tag", tag]
                }
                if Bool.random(using: &random) {
                    task.append("project:work")
                    add += ["--project", "work"]
                }
                let blockers = (1..<index).filter { _ in Int.random(in: 0..<8, using: &random) == 0 }
                if !blockers.isEmpty {
                    task.append("depends:" + blockers.map { uuids[$0 - 1] }.joined(separator: ","))
                    add += ["--after", blockers.map(String.init).joined(separator: ",")]
                }
                let created = taskwarrior.run(task).out
                guard let uuid = created.split(separator: " ").last.map({ String($0.dropLast(2)) }), uuid.count == 36 else {
                    Issue.record("round \(round): no uuid in '\(created)'")
                    return
                }
                uuids.append(uuid)
                #expect(tally.run(add).status == 0, "\(add)")
            }
            for index in 1...15 where Int.random(in: 0..<4, using: &random) == 0 {
                taskwarrior.run([uuids[index - 1], "start"])
                tally.run("start", String(index), "--also")
            }
            let theirs = try #require(try? JSON.parse(taskwarrior.run(["+READY", "export"]).out)).arrayValue ?? []
            let ours = tally.run("--json", "next", "--limit", "100").json?.arrayValue ?? []
            let their = Dictionary(uniqueKeysWithValues: theirs.compactMap { task -> (String, Double)? in
                guard let object = task.objectValue, let title = object["description"]?.stringValue, let urgency = object["urgency"]?.doubleValue else { return nil }
                return (title, urgency)
            })
            let our = ours.compactMap { todo -> (String, Double)? in
                guard let object = todo.objectValue, let title = object["title"]?.stringValue, let urgency = object["urgency"]?.doubleValue else { return nil }
                return (title, urgency)
            }
            #expect(Set(our.map(\.0)) == Set(their.keys), "round \(round): the ready todos differ")
            for (title, urgency) in our {
                guard let reference = their[title] else { continue }
                #expect(abs(urgency - reference) < 0.05, "round \(round): \(title) scores \(urgency), Taskwarrior \(reference)")
            }
            // The order: whenever Taskwarrior's scores differ clearly, tally lists the higher first.
            for (first, second) in zip(our, our.dropFirst()) {
                guard let a = their[first.0], let b = their[second.0] else { continue }
                #expect(a >= b - 0.05, "round \(round): \(first.0) before \(second.0), Taskwarrior \(a) < \(b)")
            }
        }
    }
}
