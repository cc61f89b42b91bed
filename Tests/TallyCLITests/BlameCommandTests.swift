import Foundation
import Testing
import TallyDomain
import TallyTestSupport
@testable import TallyEssentials

/// `blame --json` as (field → (seq, actor, how kind)).
func blamed(_ result: RunResult) -> [String: (seq: Int64, actor: String, how: String, value: JSON)] {
    var lines: [String: (seq: Int64, actor: String, how: String, value: JSON)] = [:]
    for case .object(let line) in result.json?.arrayValue ?? [] {
        guard let field = line["field"]?.stringValue, let seq = line["seq"]?.intValue, let actor = line["actor"]?.stringValue,
              let how = line["how"]?.objectValue?["kind"]?.stringValue, let value = line["value"] else { continue }
        lines[field] = (seq, actor, how, value)
    }
    return lines
}

@Suite("tally blame, end to end", .tags(.postgresql))
struct BlameCommandTests {
    @Test("each field with the event that last changed it, its actor, time and how, in a table")
    func table() throws {
        let tally = twoActorHistory()
        let result = tally.run("blame", "1")
        #expect(result.status == 0 && result.stderr == "", "\(result.stderr)")
        let lines = result.stdout.split(separator: "\n").map(String.init)
        #expect(lines.count == 13)
        let ada = tally.who("ada"), bob = tally.who("bob")
        #expect(lines[0].hasPrefix("Field        Value       Seq  Time              Actor"))
        #expect(lines[1].hasPrefix("title        Buy milk      1  2026-11-21 09:00  \(ada)"))
        #expect(lines[1].contains("  command "))
        #expect(lines[3].hasPrefix("project      none          1  2026-11-21 09:00  \(ada)"))
        #expect(lines[5].hasPrefix("due          2026-12-03    3  2026-11-21 11:00  \(bob)"))
        #expect(lines[8].hasPrefix("annotations  none          1  2026-11-21 09:00  \(ada)"))
        #expect(lines[9].hasPrefix("after        none          1  2026-11-21 09:00  \(ada)"))
        #expect(lines[11].hasPrefix("completed    yes           5  2026-11-21 13:00  \(ada)"))
        #expect(lines[12].hasPrefix("deleted      no            1  2026-11-21 09:00  \(ada)"))
    }

    @Test("--json: the value, seq, event id, actor, time, command and how; the role on PostgreSQL")
    func json() throws {
        let tally = twoActorHistory()
        let result = tally.run("--json", "blame", "2")
        let lines = blamed(result)
        #expect(lines["title"]?.seq == 6 && lines["title"]?.actor == "bob" && lines["title"]?.value == "Rye bread")
        #expect(lines["note"]?.seq == 4 && lines["note"]?.actor == "ada" && lines["note"]?.value == "rye")
        #expect(lines["tags"]?.seq == 2 && lines["tags"]?.value == .array([]))
        #expect(lines.values.allSatisfy { $0.how == "command" })
        let first = try #require(result.json?.arrayValue?.first?.objectValue)
        #expect(Set(first.keys) == Set(["field", "value", "seq", "id", "actor", "recordedAt", "command", "how"] + tally.extraEventKeys))
        #expect(first["field"] == "title" && (first["recordedAt"] == "2026-11-21T14:00:00.000Z" || first["recordedAt"] == "2026-11-21T14:00:00Z"), "\(first)")
    }

    @Test("an undo and a redo are named as such, with the command they reverted")
    func undoRedo() throws {
        let tally = twoActorHistory()
        let edit = tally.run("edit", "2", "--title", "Spelt", "--priority", "high")
        #expect(edit.status == 0)
        let command = try #require(tally.run("--json", "log", "--limit", "1").json?.arrayValue?.first?.objectValue?["command"]?.stringValue)
        tally.run("undo")
        var lines = blamed(tally.run("--json", "blame", "2"))
        #expect(lines["title"]?.how == "undo" && lines["title"]?.value == "Rye bread")
        #expect(lines["priority"]?.how == "undo" && lines["priority"]?.value == .null)
        #expect(lines["note"]?.how == "command")
        let human = tally.run("blame", "2").stdout
        #expect(human.contains("undo of command \(command.prefix(8))"), "\(human)")
        tally.run("redo")
        lines = blamed(tally.run("--json", "blame", "2"))
        #expect(lines["title"]?.how == "redo" && lines["title"]?.value == "Spelt")
    }

    @Test("a todo imported from todo.txt names the tool and the line; a record by --record")
    func imported() throws {
        let tally = TallyRunner()
        let file = tally.directory.path("todo.txt")
        try "(A) Call the plumber +house\nx 2026-11-20 Old thing\n".write(toFile: file, atomically: true, encoding: .utf8)
        #expect(tally.run("import", "--from", "todotxt", file).status == 0)
        tally.run("edit", "1", "--note", "after 5pm")
        let lines = blamed(tally.run("--json", "blame", "1"))
        #expect(lines["title"]?.how == "import")
        #expect(lines["note"]?.how == "command")
        #expect(tally.run("blame", "1").stdout.contains("import from todotxt (1)"))
        tally.run("record", "add", "Run", "--category", "running", "--duration", "30m")
        let record = blamed(tally.run("--json", "blame", "1", "--record"))
        #expect(record["name"]?.value == "Run" && record["durationSeconds"]?.value == 1800)
    }

    @Test("an unknown REF exits 1 naming it; a missing REF is a usage error")
    func unknown() {
        let tally = twoActorHistory()
        let result = tally.run("blame", "9")
        #expect(result.status == 1 && result.stdout == "")
        #expect(tally.run("blame").status == 64)
        #expect(tally.run("blame", "1", "2").status == 64)
        #expect(tally.run("blame", "1", "--record").status == 1, "no record 1")
    }
}
