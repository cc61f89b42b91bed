import Foundation
import Testing
import TallyDomain
import TallyTestSupport

@Suite("contexts: define, switch, narrow every list, give new todos their tags and project, end to end", .tags(.postgresql))
struct ContextCommandTests {
    func seeded() -> TallyRunner {
        let tally = TallyRunner()
        tally.run("add", "Write report", "--project", "work")
        tally.run("add", "Fix server", "--tag", "urgent")
        tally.run("add", "Dig beds", "--project", "home.garden")
        tally.run("add", "Call mum")
        tally.run("done", "3")
        return tally
    }

    @Test("define, make active, show, list, none and delete, with what each prints")
    func lifecycle() {
        let tally = seeded()
        #expect(tally.run("context").stdout == "No context is active: lists show every todo.\n")
        #expect(tally.run("context", "list").stdout == "No contexts yet; 'tally context define work project:work' defines one.\n")
        let defined = tally.run("context", "define", "Work", "project:work or tag:urgent")
        #expect(defined.status == 0)
        #expect(defined.stdout == "Defined context work: 'project:work or tag:urgent'\n")
        #expect(tally.run("context", "define", "home", "project:home", "--sort", "due").stdout == "Defined context home: --sort due project:home\n")
        #expect(tally.run("context", "work").stdout == "Context work is active: 'project:work or tag:urgent'\n")
        #expect(tally.run("context").stdout == "Context work is active: 'project:work or tag:urgent'\n")
        #expect(tally.run("context", "list").stdout == """
               Context  View
               home     --sort due project:home
            *  work     'project:work or tag:urgent'

            """)
        let json = tally.run("--json", "context", "list").json?.objectValue
        #expect(json?["active"] == "work")
        #expect(json?["contexts"]?.arrayValue?.count == 2)
        #expect(json?["contexts"]?.arrayValue?.last == .object(["name": "work", "filter": "project:work or tag:urgent", "view": .object(["expression": "project:work or tag:urgent"])]))
        // Asking again changes nothing and says so.
        let count = tally.eventCount
        #expect(tally.run("context", "work").stdout == "Context work is already so; nothing changed.\n")
        #expect(tally.run("context", "define", "work", "project:work or tag:urgent").stdout == "Context work is already so; nothing changed.\n")
        #expect(tally.eventCount == count)
        #expect(tally.run("context", "delete", "work").stdout == "Deleted context work.\n")
        #expect(tally.run("context").stdout == "No context is active: lists show every todo.\n")
        #expect(tally.run("context", "none").stdout == "No context is active already; nothing changed.\n")
        #expect(tally.run("context", "home").status == 0)
        #expect(tally.run("context", "none").stdout == "No context is active now: lists show every todo.\n")
        #expect(tally.run("verify").status == 0)
    }

    @Test("the active context narrows list, list with options, projects and summary; a bare list shows its view")
    func narrows() {
        let tally = seeded()
        tally.run("context", "define", "work", "project:work or tag:urgent")
        tally.run("context", "define", "home", "project:home", "--status", "completed")
        tally.run("context", "work")
        #expect(tally.listNumbers([]) == [1, 2])
        #expect(tally.listNumbers(["--search", "server"]) == [2])
        #expect(tally.listNumbers(["report or mum"]) == [1])
        #expect(tally.run("list").stdout.hasSuffix("\n2 active, 0 completed\nContext: work\n"))
        #expect(tally.run("projects").stdout == """
            Project       Open  Done  Done %
            work             1     0      0%
            (no project)     1     0      0%

            """)
        #expect(tally.run("--json", "summary").json?.objectValue?["total"] == .object(["open": 2, "done": 0, "shareDone": 0]))
        tally.run("context", "home")
        #expect(tally.listNumbers([]) == [3])
        // Options narrow within the context; its own status and sort shape only the bare list.
        #expect(tally.listNumbers(["--status", "active"]) == [])
        tally.run("context", "none")
        #expect(tally.listNumbers([]) == [1, 2, 3, 4])
        #expect(!tally.run("list").stdout.contains("Context:"))
    }

    @Test("new todos take the tags and the project the context requires; or and not give nothing; --no-context opts out")
    func newTodos() {
        let tally = seeded()
        tally.run("context", "define", "ops", "project:work.ops tag:urgent -tag:someday")
        tally.run("context", "ops")
        #expect(tally.run("add", "Rotate keys").stdout == "Added 5: Rotate keys\n")
        let added = tally.run("--json", "show", "5").json?.objectValue?["todo"]?.objectValue
        #expect(added?["project"] == "work.ops")
        #expect(added?["tags"] == .array(["urgent"]))
        #expect(tally.listNumbers([]) == [5])
        tally.run("add", "Mine", "--project", "home", "--tag", "x")
        let own = tally.run("--json", "show", "6").json?.objectValue?["todo"]?.objectValue
        #expect(own?["project"] == "home")
        #expect(own?["tags"] == .array(["x", "urgent"]))
        tally.run("add", "Loose", "--no-context")
        let loose = tally.run("--json", "show", "7").json?.objectValue?["todo"]?.objectValue
        #expect(loose?["project"] == .null && loose?["tags"] == .array([]))
        tally.run("context", "define", "either", "project:work or tag:urgent")
        tally.run("context", "either")
        tally.run("add", "Plain")
        let plain = tally.run("--json", "show", "8").json?.objectValue?["todo"]?.objectValue
        #expect(plain?["project"] == .null && plain?["tags"] == .array([]))
    }

    @Test("add says when the new todo is outside the active context, which lists would hide, and only then")
    func addOutsideContext() {
        let tally = seeded()
        // No context, and the saved view (the context default): nothing to say.
        #expect(tally.run("add", "Free").stdout == "Added 5: Free\n")
        tally.run("filter", "set", "--tag", "urgent")
        #expect(tally.run("add", "Viewed").stdout == "Added 6: Viewed\n")
        tally.run("filter", "reset")
        tally.run("context", "define", "either", "project:work or tag:urgent")
        tally.run("context", "either")
        // The context gives nothing here, so the todo does not match it.
        let plain = tally.run("add", "Plain")
        #expect(plain.status == 0 && plain.stderr.isEmpty)
        #expect(plain.stdout == """
            Added 7: Plain
            Note: 7 is outside the active context either, so lists leave it out; 'tally show 7' shows it, 'tally context none' turns the context off.

            """)
        #expect(!tally.listNumbers([]).contains(7) && tally.run("show", "7").status == 0)
        // One that matches says nothing more.
        #expect(tally.run("add", "Pager", "--tag", "urgent").stdout == "Added 8: Pager\n")
        #expect(tally.listNumbers([]).contains(8))
        // A context that gives its project: --no-context and another project are outside it.
        tally.run("context", "define", "ops", "project:work.ops")
        tally.run("context", "ops")
        #expect(tally.run("add", "Rotate keys").stdout == "Added 9: Rotate keys\n")
        #expect(tally.run("add", "Loose", "--no-context").stdout.hasSuffix("Note: 10 is outside the active context ops, so lists leave it out; 'tally show 10' shows it, 'tally context none' turns the context off.\n"))
        let czech = tally.run(["add", "Doma", "--project", "home"], environment: ["LANG": "cs_CZ.UTF-8"])
        #expect(czech.stdout.hasSuffix("Pozn.: 11 je mimo aktivní kontext ops, a tak ho seznamy vynechávají; 'tally show 11' ho ukáže, 'tally context none' kontext vypne.\n"), "\(czech.stdout)")
        // With --json the output stays one object; the note goes to stderr.
        let json = tally.run("--json", "add", "Away", "--project", "home")
        #expect(json.json?.objectValue?["number"]?.intValue == 12)
        #expect(json.stderr == "Note: 12 is outside the active context ops, so lists leave it out; 'tally show 12' shows it, 'tally context none' turns the context off.\n")
        #expect(tally.listNumbers([]) == [9])
    }

    @Test("refusals exit 64 or 65 with a message and append nothing")
    func refusals() {
        let tally = seeded()
        tally.run("context", "define", "work", "project:work")
        let count = tally.eventCount
        let cases: [([String], Int32, String)] = [
            (["context", "nope"], 65, "Error: There is no context 'nope'; 'tally context list' shows them.\n"),
            (["context", "delete", "nope"], 65, "Error: There is no context 'nope'; 'tally context list' shows them.\n"),
            (["context", "define", "list", "tag:x"], 65, "Error: 'list' cannot name a context: use 1-32 letters, digits, _ or - (not define, list, delete, none, show, ls, rm).\n"),
            (["context", "define", "a/b", "tag:x"], 65, "Error: 'a/b' cannot name a context: use 1-32 letters, digits, _ or - (not define, list, delete, none, show, ls, rm).\n"),
            (["context", "define", "x", "tag:shop or (fence"], 65, "Error: In the filter at character 13: this '(' is never closed\n  tag:shop or (fence\n              ^\n"),
            (["context", "define", "x", "category:running"], 65, "Error: In the filter at character 1: 'category:' is a field of records, not of todos (fields: tag, project, due, due.before, due.after, priority, status, is)\n  category:running\n  ^\n"),
        ]
        for (arguments, status, stderr) in cases {
            let result = tally.run(arguments)
            #expect(result.status == status, "\(arguments)")
            #expect(result.stderr == stderr, "\(arguments)")
            #expect(result.stdout.isEmpty, "\(arguments)")
        }
        for arguments in [["context", "define"], ["context", "define", "x"], ["context", "a", "b"], ["context", "list", "x"], ["context", "none", "x"], ["context", "work", "--sort", "due"], ["context", "delete"]] {
            let result = tally.run(arguments)
            #expect(result.status == 64, "\(arguments)")
            #expect(result.stderr.contains("tally context define NAME FILTER..."), "\(arguments): \(result.stderr)")
        }
        #expect(tally.eventCount == count)
    }

    @Test("contexts are events: undo, redo, --as-of, export and import keep them")
    func history() {
        let tally = seeded()
        tally.run("context", "define", "work", "project:work")
        tally.run("context", "work")
        let before = tally.eventCount
        tally.run("context", "none")
        #expect(tally.listNumbers([]) == [1, 2, 3, 4])
        #expect(tally.listNumbers(["--as-of", "@\(before)"]) == [1])
        #expect(tally.run("undo").status == 0)
        #expect(tally.run("context").stdout.hasPrefix("Context work is active"))
        #expect(tally.run("redo").status == 0)
        #expect(tally.run("context").stdout.hasPrefix("No context"))
        tally.run("context", "work")
        let exported = tally.run("export")
        let copy = TallyRunner()
        let file = copy.directory.path("all.jsonl")
        #expect(FileManager.default.createFile(atPath: file, contents: Data(exported.stdout.utf8)))
        #expect(copy.run("import", file).status == 0)
        #expect(copy.run("--json", "context", "list").json == tally.run("--json", "context", "list").json)
        #expect(copy.listNumbers([]) == [1])
    }

    @Test("a context defined and switched on one device reaches the other by sync")
    func sync() {
        guard !TallyRunner.onPostgres else { return }
        let fleet = Fleet(["laptop", "desktop"])
        fleet[0].run("add", "Report", "--project", "work")
        fleet[0].run("add", "Walk")
        fleet[0].run("context", "define", "work", "project:work")
        fleet[0].run("context", "work")
        fleet.sync(0, at: "2026-11-21T12:01:00Z")
        fleet.sync(1, at: "2026-11-21T12:02:00Z")
        #expect(fleet[1].run("context").stdout == "Context work is active: project:work\n")
        #expect(fleet[1].listNumbers([]) == [1])
    }
}

@Suite("contexts: a store written by tally 0.9.0 with saved views")
struct ContextUpcastTests {
    /// A copy of `Tests/Fixtures/stores/saved-view-0.9.0.sqlite`: four todos (one done), a saved view
    /// `--status active --sort priority -tag:someday`, two records and a record view `--category running`.
    func store() throws -> TallyRunner {
        let tally = TallyRunner()
        try FileManager.default.copyItem(at: PackageFiles.url("Tests/Fixtures/stores/saved-view-0.9.0.sqlite"), to: URL(fileURLWithPath: tally.directory.path("old.db")))
        tally.environment["TALLY_DB"] = tally.directory.path("old.db")
        return tally
    }

    @Test("the saved view is the context default, active: list, filter show and record list read as before")
    func upcast() throws {
        guard !TallyRunner.onPostgres else { return }
        let tally = try store()
        #expect(tally.run("verify").status == 0)
        #expect(tally.run("context").stdout == "Context default is active: --status active --sort priority -tag:someday\n")
        #expect(tally.run("filter", "show").stdout == "Saved view: --status active --sort priority -tag:someday\n")
        #expect(tally.run("list").stdout == """
            #  Done  Title         Tags    Project    Priority  Due
            3  [ ]   Write report          work       high
            2  [ ]   Fix roof      urgent  home.roof

            2 active, 0 completed

            """)
        // As a saved view always did, it shapes only a bare list: options replace it, and add takes nothing from it.
        #expect(tally.listNumbers(["--status", "all"]) == [1, 2, 3, 4])
        #expect(tally.run("projects").stdout.contains("(no project)     1     1     50%"))
        #expect(tally.run("record", "filter", "show").stdout == "Saved view: --category running\n")
        #expect(tally.run("--json", "record", "list").json?.arrayValue?.count == 1)
        // Other contexts join it and narrow every list; none shows everything; filter reset forgets only default.
        #expect(tally.run("context", "define", "work", "project:work").status == 0)
        #expect(tally.run("context", "work").status == 0)
        #expect(tally.listNumbers(["--status", "all"]) == [3])
        #expect(tally.run("context", "define", "home", "project:home").status == 0)
        #expect(tally.run("context", "none").status == 0)
        #expect(tally.listNumbers([]) == [1, 2, 3, 4])
        #expect(tally.run("filter", "reset").status == 0)
        #expect(tally.run("--json", "context", "list").json?.objectValue?["contexts"]?.arrayValue?.count == 2)
        #expect(tally.run("undo").status == 0)
        #expect(tally.run("context", "list").stdout.contains("default  --status active --sort priority -tag:someday"))
        #expect(tally.run("verify").status == 0)
    }
}
