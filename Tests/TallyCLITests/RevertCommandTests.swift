import Foundation
import Testing
import TallyDomain
import TallyTestSupport
@testable import TallyEssentials

/// A list's `--json` items without the fields a revert cannot give back (when it happened).
func comparable(_ result: RunResult) -> [JSON] {
    (result.json?.arrayValue ?? [.string("not JSON: \(result.stdout) \(result.stderr)")]).map { item in
        guard case .object(var object) = item else { return item }
        for key in ["updatedAt", "completedAt"] { object[key] = nil }
        return .object(object)
    }
}

@Suite("tally revert --to, end to end", .tags(.postgresql))
struct RevertCommandTests {
    /// The instant `minute` minutes after 09:00 on 2026-11-21, as TALLY_NOW takes it.
    static func at(_ minute: Int) -> String {
        Timestamp.format(Timestamp.parse("2026-11-21T09:00:00Z")! + Int64(minute) * 60_000)
    }

    /// Runs `arguments` at minute `minute` after 09:00 on 2026-11-21.
    @discardableResult
    func run(_ tally: TallyRunner, _ minute: Int, _ arguments: [String]) -> RunResult {
        let time = Self.at(minute)
        return tally.run(arguments, environment: ["TALLY_NOW": time])
    }

    @Test("property: after revert --to T, list and record list equal list --as-of T for random histories and T")
    func property() throws {
        var random = SeededRandom(seed: 0x7e_0e27)
        for history in 0..<AttackScale.count(short: 3, full: 30) {
            let tally = TallyRunner()
            var minute = 0
            var todos = 0, records = 0
            for _ in 0..<(10 + Int(random.next() % 8)) {
                minute += 1 + Int(random.next() % 3)
                let todo = String(1 + Int(random.next() % UInt64(max(todos, 1))))
                let record = String(1 + Int(random.next() % UInt64(max(records, 1))))
                let word = ["milk", "bread", "eggs", "tea"][Int(random.next() % 4)]
                var arguments: [String]
                switch random.next() % 11 {
                case 0, 1: arguments = ["add", "Buy \(word)", "--tag", word, "--priority", ["low", "high"][Int(random.next() % 2)]]; todos += 1
                case 2: arguments = ["edit", todo, "--title", "Get \(word)", "--due", "2026-12-0\(1 + random.next() % 9)"]
                case 3: arguments = ["edit", todo, "--note", "note \(word)", "--tag", "+x\(word)"]
                case 4: arguments = ["toggle", todo]
                case 5: arguments = ["rm", todo]
                case 6: arguments = ["restore", todo]
                case 7: arguments = ["undo"]
                case 8: arguments = ["record", "add", "Run \(word)", "--category", "running", "--duration", "\(20 + random.next() % 40)m"]; records += 1
                case 9: arguments = ["record", "edit", record, "--name", "Ride \(word)", "--distance", "\(1 + random.next() % 30)km"]
                default: arguments = ["record", "rm", record]
                }
                if todos == 0, arguments[0] != "add" { arguments = ["add", "First"]; todos = 1 }
                run(tally, minute, arguments)
            }
            let head = tally.eventCount
            for attempt in 0..<2 {
                let point = random.next() % 2 == 0
                    ? "@\(1 + Int64(random.next() % UInt64(head)))"
                    : Self.at(Int(random.next() % UInt64(minute + 1)))
                minute += 1
                let expectedTodos = comparable(tally.run("--json", "list", "--as-of", point))
                let expectedRecords = comparable(tally.run("--json", "record", "list", "--as-of", point))
                let reverted = run(tally, minute, ["revert", "--to", point])
                #expect(reverted.status == 0, "history \(history) attempt \(attempt) \(point): \(reverted.stderr)")
                #expect(comparable(tally.run("--json", "list")) == expectedTodos, "history \(history), revert --to \(point)")
                #expect(comparable(tally.run("--json", "record", "list")) == expectedRecords, "history \(history), revert --to \(point)")
                let count = tally.eventCount
                let again = run(tally, minute, ["revert", "--to", point])
                #expect(again.status == 0 && tally.eventCount == count, "a second revert appends nothing: \(again.stdout)")
                #expect(tally.run("verify").status == 0)
            }
        }
    }

    @Test("one command: undo takes it back whole; --dry-run appends nothing; created items are listed first and deleted")
    func undoable() throws {
        let tally = twoActorHistory()
        let before = comparable(tally.run("--json", "list"))
        let dry = tally.run("revert", "--to", "@2", "--dry-run")
        #expect(dry.status == 0 && tally.eventCount == 6)
        #expect(dry.stdout.hasPrefix("Would append 3 events to revert to @2 (nothing was appended):\n"), "\(dry.stdout)")
        let result = tally.run("revert", "--to", "@1")
        #expect(result.status == 0, "\(result.stderr)")
        let lines = result.stdout.split(separator: "\n").map(String.init)
        #expect(lines[0] == "Cannot be reverted: 2: Rye bread was created after @1; it is deleted, not erased (its number and its events stay).")
        #expect(lines[1].hasPrefix("Reverted to @1: appended 3 events as command "))
        #expect(comparable(tally.run("--json", "list")) == comparable(tally.run("--json", "list", "--as-of", "@1")))
        let json = try #require(tally.run("--json", "log", "--limit", "3").json?.arrayValue)
        #expect(Set(json.compactMap { $0.objectValue?["command"]?.stringValue }).count == 1, "one command")
        #expect(tally.run("undo").status == 0)
        #expect(comparable(tally.run("--json", "list")) == before)
        #expect(tally.run("verify").status == 0)
    }

    @Test("bad --to values are refused and append nothing")
    func refused() {
        let tally = twoActorHistory()
        #expect(tally.run("revert").status == 64)
        #expect(tally.run("revert", "--to", "@99").status == 65)
        #expect(tally.run("revert", "--to", "whenever").status == 65)
        #expect(tally.run("revert", "--to", "@1", "extra").status == 64)
        #expect(tally.eventCount == 6)
    }
}
