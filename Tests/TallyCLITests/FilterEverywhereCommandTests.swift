import Foundation
import Testing
import TallyDomain
import TallyTestSupport

@Suite("one filter language: record list, record filter set, record export and export, end to end", .tags(.postgresql))
struct FilterEverywhereCommandTests {
    func records() -> TallyRunner {
        let tally = TallyRunner()
        tally.run("record", "add", "Morning run", "--category", "running", "--duration", "30m", "--distance", "5km", "--date", "2026-11-01", "--place", "Stromovka")
        tally.run("record", "add", "Ride to the lake", "--category", "cycling", "--duration", "1h", "--date", "2026-11-03", "--note", "windy")
        tally.run("record", "add", "Evening run", "--category", "running", "--duration", "20m", "--date", "2026-11-20")
        tally.run("record", "add", "Swim", "--category", "swimming", "--duration", "40m", "--date", "2026-11-19")
        tally.run("record", "delete", "4")
        return tally
    }

    func numbers(_ tally: TallyRunner, _ arguments: String...) -> [Int64] {
        let result = tally.run(["--json", "record", "list"] + arguments)
        return result.json?.arrayValue?.compactMap { $0.objectValue?["number"]?.intValue } ?? []
    }

    @Test("record list takes an expression of category, source, date and words, with the options")
    func recordList() {
        let tally = records()
        #expect(numbers(tally, "category:running") == [3, 1])
        #expect(numbers(tally, "category:running date.after:2026-11-05 or lake") == [3, 2])
        #expect(numbers(tally, "--", "-category:running") == [2])
        #expect(numbers(tally, "stromovka or windy", "--sort", "name") == [1, 2])
        #expect(numbers(tally, "date:2026-11-03") == [2])
        #expect(numbers(tally, "status:deleted") == [4])
        #expect(numbers(tally, "source:local", "--limit", "1") == [3])
        #expect(numbers(tally, "run", "--category", "running", "--since", "2026-11-10") == [3])
        let table = tally.run("record", "list", "category:cycling")
        #expect(table.status == 0 && table.stdout.contains("Ride to the lake") && table.stdout.contains("\n1 record, 1:00:00"))
        let czech = tally.run(["--json", "record", "list", "kategorie:running a ne datum:2026-11-01"], environment: ["LANG": "cs_CZ.UTF-8"])
        #expect(czech.json?.arrayValue?.count == 1)
    }

    @Test("a todo field in a record filter (and a record field in a todo one) exits 65 pointing at it, appending nothing")
    func wrongFields() {
        let tally = records()
        tally.run("add", "A todo")
        let count = tally.eventCount
        let record = tally.run("record", "filter", "set", "run tag:x")
        #expect(record.status == 65)
        #expect(record.stdout.isEmpty)
        #expect(record.stderr == """
            Error: In the filter at character 5: 'tag:' is a field of todos, not of records (fields: category, source, date, date.before, date.after, status)
              run tag:x
                  ^

            """)
        let todo = tally.run("list", "date:today")
        #expect(todo.status == 65 && todo.stderr.hasPrefix("Error: In the filter at character 1: 'date:' is a field of records, not of todos"))
        #expect(tally.run("record", "list", "status:pending").stderr.hasPrefix("Error: In the filter at character 8: 'pending' is not a status (deleted)"))
        #expect(tally.run("record", "export", "source:gps").status == 65)
        #expect(tally.eventCount == count)
    }

    @Test("record filter set saves the expression; show, undo and export keep it")
    func savedRecordView() {
        let tally = records()
        #expect(tally.run("record", "filter", "set", "category:running or lake").stdout == "Saved the default view: 'category:running or lake'\n")
        #expect(tally.run("record", "filter", "show").stdout == "Saved view: 'category:running or lake'\n")
        #expect(numbers(tally) == [3, 2, 1])
        let csv = tally.run("record", "export")
        #expect(csv.stdout.split(separator: "\r\n").count == 4)
        let narrower = tally.run("record", "export", "--format", "json", "category:running date.before:2026-11-10")
        #expect(narrower.json?.arrayValue?.count == 1)
        #expect(tally.run("undo").status == 0)
        #expect(numbers(tally) == [3, 2, 1])
        #expect(tally.run("record", "filter", "show").stdout.hasPrefix("No saved view"))
    }

    @Test("export with a filter writes the history of the todos it matches; importing it gives those todos")
    func exportFilter() {
        let tally = TallyRunner()
        tally.run("add", "Report", "--project", "work")
        tally.run("add", "Dig", "--project", "home")
        tally.run("edit", "1", "--title", "Write report")
        tally.run("add", "Standup", "--project", "work", "--due", "2026-11-21", "--recur", "daily")
        tally.run("done", "3")
        tally.run("record", "add", "Run", "--category", "running", "--duration", "30m")
        let exported = tally.run("export", "project:work")
        #expect(exported.status == 0)
        let lines = exported.stdout.split(separator: "\n")
        // The next instance of the series keeps the project of the one completed.
        #expect(lines.count == 6, "\(exported.stdout)")
        #expect(!exported.stdout.contains("\"Dig\"") && !exported.stdout.contains("record.logged"))
        let copy = TallyRunner()
        let file = copy.directory.path("work.jsonl")
        #expect(FileManager.default.createFile(atPath: file, contents: Data(exported.stdout.utf8)))
        #expect(copy.run("import", file).status == 0)
        #expect(copy.run("verify").status == 0)
        let titles = copy.run("--json", "list").json?.arrayValue?.compactMap { $0.objectValue?["title"]?.stringValue }
        #expect(titles == ["Write report", "Standup", "Standup"])
        let bad = tally.run("export", "project:")
        #expect(bad.status == 65 && bad.stdout.isEmpty && bad.stderr.contains("'project:' needs a value"))
        // Written to a file, the count says how many events were selected.
        #expect(tally.run("export", "is:recurring", "--output", tally.directory.path("r.jsonl")).stdout.hasPrefix("Exported 4 events to "))
    }
}
