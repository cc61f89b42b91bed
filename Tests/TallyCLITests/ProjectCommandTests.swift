import Foundation
import Testing
import TallyDomain
import TallyTestSupport

@Suite("projects: --project, list --project, tally projects, end to end", .tags(.postgresql))
struct ProjectCommandTests {
    func seeded() -> TallyRunner {
        let tally = TallyRunner()
        tally.run("add", "Dig beds", "--project", "Home.Garden")
        tally.run("add", "Paint door", "--project", "home")
        tally.run("add", "Fix roof", "--project", "home.roof")
        tally.run("add", "Homework", "--project", "homework")
        tally.run("add", "Zpráva", "--project", "Práce.Úřad")
        tally.run("add", "Loose")
        tally.run("done", "1")
        return tally
    }

    func numbers(_ tally: TallyRunner, _ arguments: String...) -> [Int64] {
        tally.listNumbers(arguments)
    }

    @Test("list --project includes sub-projects by whole names; the table shows the project column only when needed")
    func list() {
        let tally = seeded()
        #expect(numbers(tally, "--project", "home") == [1, 2, 3])
        #expect(numbers(tally, "--project", "HOME.garden") == [1])
        #expect(numbers(tally, "--project", "práce") == [5])
        #expect(numbers(tally, "project:home -project:home.garden") == [2, 3])
        #expect(numbers(tally, "roof") == [3])
        #expect(tally.run("list", "--project", "home").stdout == """
            #  Done  Title       Tags  Project      Priority  Due
            1  [x]   Dig beds          home.garden
            2  [ ]   Paint door        home
            3  [ ]   Fix roof          home.roof

            2 active, 1 completed

            """)
        #expect(!tally.run("list", "--project", "nothing").stdout.contains("Project"))
        #expect(tally.run("list", "Loose").stdout.hasPrefix("#  Done  Title  Tags  Priority  Due\n"))
        #expect(tally.run("show", "5").stdout.contains("Project   práce.úřad\n"))
        #expect(tally.run("show", "--json", "5").json?.objectValue?["todo"]?.objectValue?["project"] == "práce.úřad")
    }

    @Test("project:none and --project none find the todos without a project, project:any those with one; add --project none gives none")
    func withoutProject() {
        let tally = seeded()
        #expect(numbers(tally, "project:none") == [6])
        #expect(numbers(tally, "--project", "none") == [6])
        #expect(numbers(tally, "project:any -project:home") == [4, 5])
        #expect(numbers(tally, "not project:none status:pending") == [2, 3, 4, 5])
        #expect(tally.run(["list", "projekt:žádný"], environment: ["LANG": "cs_CZ.UTF-8"]).stdout.hasPrefix("#  Hotovo  Název  Štítky  Priorita  Termín\n6  [ ]"))
        // 'none' takes no project, also where the active context would give one.
        #expect(tally.run("context", "define", "work", "project:work").status == 0)
        #expect(tally.run("context", "work").status == 0)
        #expect(tally.run("add", "Plain", "--project", "none").status == 0)
        #expect(tally.run("add", "At work").status == 0)
        #expect(tally.run("context", "none").status == 0)
        #expect(numbers(tally, "project:none") == [6, 7])
        #expect(numbers(tally, "project:work") == [8])
        #expect(tally.run("filter", "set", "PROJECT:None").stdout == "Saved the default view: project:none\n")
        #expect(numbers(tally) == [6, 7])
    }

    @Test("tally projects shows the tree with open and done counts and the share done")
    func tree() {
        let tally = seeded()
        tally.run("rm", "4")
        let result = tally.run("projects")
        #expect(result.status == 0)
        #expect(result.stdout == """
            Project       Open  Done  Done %
            home             2     1     33%
              garden         0     1    100%
              roof           1     0      0%
            práce            1     0      0%
              úřad           1     0      0%
            (no project)     1     0      0%

            """)
        let json = tally.run("--json", "projects").json?.objectValue
        #expect(json?["projects"]?.arrayValue?.first == .object(["project": "home", "depth": 0, "open": 2, "done": 1, "shareDone": 0.333]))
        #expect(json?["withoutProject"] == .object(["open": 1, "done": 0]))
        let past = tally.run("projects", "--as-of", "@1").stdout
        #expect(past.contains("  garden") && !past.contains("roof") && !past.contains("(no project)"), "\(past)")
        #expect(TallyRunner().run("projects").stdout == "No todo has a project yet; 'tally add ... --project home.garden' gives one.\n")
    }

    @Test("edit sets and clears the project; undo and redo bring it back; bad projects exit 65 appending nothing")
    func edit() {
        let tally = seeded()
        #expect(tally.run("edit", "2", "--project", "none").stdout == "Updated 2: Paint door (edited project cleared)\n")
        #expect(tally.run("edit", "3", "--project", "garden.beds").stdout == "Updated 3: Fix roof (edited project → garden.beds)\n")
        #expect(tally.run("undo").stdout.contains("3: Fix roof: project: garden.beds → home.roof"))
        #expect(numbers(tally, "--project", "home") == [1, 3])
        #expect(tally.run("redo").status == 0)
        #expect(numbers(tally, "--project", "garden") == [3])
        let count = tally.eventCount
        for bad in ["a..b", ".a", "a/b", String(repeating: "x.", count: 8) + "x", String(repeating: "y", count: 33)] {
            let result = tally.run("add", "Bad", "--project", bad)
            #expect(result.status == 65, "\(bad)")
            #expect(result.stderr.hasPrefix("Error: Invalid project"), "\(bad): \(result.stderr)")
        }
        #expect(tally.run("edit", "2", "--project", "a..b").status == 65)
        #expect(tally.eventCount == count)
        #expect(tally.run("log").stdout.contains("project: garden.beds → home.roof") || tally.run("log").stdout.contains("project: home.roof → garden.beds"))
        #expect(tally.run("verify").status == 0)
    }

    @Test("projects survive export and import, sync, and a snapshot")
    func travel() {
        let tally = seeded()
        tally.run("edit", "2", "--project", "work")
        let exported = tally.run("export")
        let target = TallyRunner()
        #expect(target.run(["import", "-"], input: exported.stdout).status == 0)
        #expect(target.run("projects").stdout == tally.run("projects").stdout)
        #expect(target.run("export").stdout == exported.stdout)
        #expect(target.run("snapshot").status == 0)
        #expect(target.run("list", "--json").stdout == tally.run("list", "--json").stdout)
        #expect(target.run("verify").status == 0)

        // An edited export with a project that breaks the rules is refused, naming it.
        let bad = exported.stdout.replacingOccurrences(of: "\"project\":\"homework\"", with: "\"project\":\"home..work\"")
        #expect(bad != exported.stdout)
        let refused = TallyRunner().run(["import", "-"], input: bad)
        #expect(refused.status == 65 && refused.stderr.contains("project 'home..work' is not"), "\(refused.stderr)")

        // The devices share a log file; the PostgreSQL stage runs the sync suites of its own.
        guard !TallyRunner.onPostgres else { return }
        let fleet = Fleet(["laptop", "desktop"])
        fleet[0].run("add", "Dig", "--project", "home.garden")
        fleet.sync(0, at: "2026-11-21T12:01:00Z")
        fleet.sync(1, at: "2026-11-21T12:02:00Z")
        fleet[1].run(["edit", "1", "--project", "home.beds"], environment: ["TALLY_NOW": "2026-11-21T12:02:20Z"])
        fleet[0].run(["edit", "1", "--project", "home.lawn"], environment: ["TALLY_NOW": "2026-11-21T12:02:30Z"])
        fleet.sync(1, at: "2026-11-21T12:03:00Z")
        fleet.sync(0, at: "2026-11-21T12:04:00Z")
        fleet.sync(1, at: "2026-11-21T12:05:00Z")
        let projects = fleet[0].run("--json", "list").json?.arrayValue?.first?.objectValue?["project"]
        #expect(projects == fleet[1].run("--json", "list").json?.arrayValue?.first?.objectValue?["project"])
        // The edit recorded later wins, as for every field (docs/guide/sync.md), whichever syncs first.
        #expect(projects == "home.lawn")
    }
}
