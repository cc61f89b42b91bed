import Foundation
import Testing
import TallyDomain
import TallyTestSupport

@Suite("imports in history, time travel and tags of any script, end to end")
struct ImportHistoryTests {
    @Test("tags are letters and digits of any script, lowercased and NFC; filters and completion find them")
    func tagsOfAnyScript() {
        let tally = TallyRunner()
        #expect(tally.run("add", "Přečíst knihu", "--tag", "Čtení", "--tag", "日本語").status == 0)
        #expect(tally.run("add", "Read", "--tag", "c\u{30C}teni\u{301}").status == 0)
        let list = tally.run("--json", "list", "--tag", "ČTENÍ")
        #expect(list.json?.arrayValue?.compactMap { $0.objectValue?["title"]?.stringValue } == ["Přečíst knihu", "Read"], "\(list.stdout)")
        #expect(list.json?.arrayValue?.first?.objectValue?["tags"] == ["čtení", "日本語"])
        #expect(tally.run("__complete", "tags", "Čt").stdout == "čtení\n")
        #expect(tally.run("__complete", "tags", "日").stdout == "日本語\n")
        let czech = tally.run(["add", "x", "--tag", "čtení"], environment: ["LANG": "cs_CZ.UTF-8"])
        #expect(czech.status == 0, "\(czech.stderr)")
        let emoji = tally.run("add", "x", "--tag", "🌹")
        #expect(emoji.status == 65 && emoji.stderr.contains("letters or digits"))
        let long = tally.run("add", "x", "--tag", String(repeating: "č", count: 33))
        #expect(long.status == 65)
        #expect(tally.run("add", "x", "--tag", String(repeating: "č", count: 32)).status == 0)
    }

    @Test("a back-dated import keeps every number in time travel, and undo names when the import ran")
    func timeTravelAndUndo() throws {
        let tally = TallyRunner()
        let file = tally.directory.path("todo.txt")
        try Data("x 2011-03-03 Call Mom\n(A) 2011-03-01 Plan +trip\n".utf8).write(to: URL(fileURLWithPath: file))
        tally.run(["add", "first"], environment: ["TALLY_NOW": "2026-11-21T10:00:00Z"])
        let imported = tally.run(["import", "--from", "todotxt", file], environment: ["TALLY_NOW": "2026-11-21T11:00:00Z"])
        #expect(imported.status == 0, "\(imported.stderr)")
        tally.run(["add", "last"], environment: ["TALLY_NOW": "2026-11-21T12:00:00Z"])

        func numbers(_ arguments: String...) -> [String] {
            let result = tally.run(["--json", "list", "--deleted"] + arguments)
            return (result.json?.arrayValue ?? []).compactMap { todo in
                guard let number = todo.objectValue?["number"]?.intValue, let title = todo.objectValue?["title"]?.stringValue else { return nil }
                return "\(number) \(title)"
            }.sorted()
        }
        let today = numbers()
        #expect(today == ["1 first", "2 Call Mom", "3 Plan +trip", "4 last"])
        #expect(numbers("--as-of", "2026-11-21T10:30:00Z") == ["1 first"])
        #expect(numbers("--as-of", "2011-03-04") == [])
        #expect(numbers("--as-of", "2026-11-21T11:30:00Z") == Array(today.prefix(3)))
        let show = tally.run("--json", "show", "2")
        #expect(show.json?.objectValue?["todo"]?.objectValue?["createdAt"] == "2011-03-03T00:00:00Z")
        #expect(show.json?.objectValue?["todo"]?.objectValue?["completedAt"] == "2011-03-03T00:00:00Z")

        // Undo the "last" add, then the import: the message names 11:00, when the import ran.
        tally.run(["undo"], environment: ["TALLY_NOW": "2026-11-21T13:00:00Z"])
        let undo = tally.run(["undo"], environment: ["TALLY_NOW": "2026-11-21T13:01:00Z"])
        #expect(undo.stdout.hasPrefix("Undid command ") && undo.stdout.contains("by tester@e2e at 2026-11-21 11:00:"), "\(undo.stdout)")
        let redo = tally.run(["redo"], environment: ["TALLY_NOW": "2026-11-21T13:02:00Z"])
        #expect(redo.status == 0)
        let after = tally.run("--json", "show", "2")
        #expect(after.json?.objectValue?["todo"]?.objectValue?["completedAt"] == "2011-03-03T00:00:00Z", "redo keeps the source's completion")
        #expect(after.json?.objectValue?["todo"]?.objectValue?["origin"] == .object(["tool": "todotxt", "id": "1", "createdAt": "2011-03-03T00:00:00Z"]))
    }
}
