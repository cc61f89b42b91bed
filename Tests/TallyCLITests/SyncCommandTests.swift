import Foundation
import Testing
import TallyDomain
import TallyTestSupport
@testable import TallyEssentials

@Suite("tally sync and remote, end to end")
struct SyncCommandTests {
    /// Every view a user can look at, as JSON, to compare replicas.
    static let views: [[String]] = [
        ["--json", "list", "--deleted"], ["--json", "record", "list"], ["--json", "filter", "show"],
        ["--json", "record", "filter", "show"], ["--json", "stats"], ["--json", "log"],
    ]

    /// After everyone has synced twice: every export is byte-identical to the shared log's, every view the same, verify OK.
    func expectConverged(_ fleet: Fleet, sourceLocation: SourceLocation = #_sourceLocation) {
        let shared = fleet.export(fleet.server)
        #expect(!shared.isEmpty, sourceLocation: sourceLocation)
        #expect(fleet.server.run("verify").status == 0, sourceLocation: sourceLocation)
        for (index, device) in fleet.devices.enumerated() {
            #expect(fleet.export(device) == shared, "device \(index)", sourceLocation: sourceLocation)
            let verify = device.run("verify")
            #expect(verify.status == 0, "device \(index): \(verify.stdout)\(verify.stderr)", sourceLocation: sourceLocation)
            for view in Self.views {
                let mine = device.run(view, environment: ["TALLY_NOW": "2026-11-22T12:00:00Z"])
                let first = fleet[0].run(view, environment: ["TALLY_NOW": "2026-11-22T12:00:00Z"])
                #expect(mine.stdout == first.stdout && mine.status == 0, "device \(index): \(view)", sourceLocation: sourceLocation)
            }
        }
    }

    @Test("two devices work offline on the same todos and end with one list and one history", arguments: SharedLogKind.available)
    func twoDevices(kind: SharedLogKind) throws {
        let fleet = Fleet(["laptop", "desktop"], kind: kind)
        fleet.run(0, at: "2026-11-21T09:00:00Z", "add", "Buy milk", "--tag", "shop")
        fleet.run(0, at: "2026-11-21T09:01:00Z", "add", "Bread")
        fleet.run(0, at: "2026-11-21T09:02:00Z", "add", "Call Bob")
        fleet.run(0, at: "2026-11-21T09:03:00Z", "add", "Pay rent")
        let first = fleet.sync(0, at: "2026-11-21T09:05:00Z")
        #expect(first.status == 0 && first.stdout == "Pushed 4 events, pulled 0.\n")
        let clone = fleet.sync(1, at: "2026-11-21T09:06:00Z")
        #expect(clone.stdout == "Pushed 0 events, pulled 4.\n")
        // Offline: different fields, the same field, delete against edit, new todos, saved views, records, undo.
        fleet.run(0, at: "2026-11-21T10:00:00Z", "edit", "1", "--title", "Oat milk")
        fleet.run(1, at: "2026-11-21T10:05:00Z", "edit", "1", "--priority", "high", "--tag", "+urgent")
        fleet.run(0, at: "2026-11-21T10:10:00Z", "edit", "2", "--title", "Rye bread")
        fleet.run(1, at: "2026-11-21T10:20:00Z", "edit", "2", "--title", "Sourdough")
        fleet.run(1, at: "2026-11-21T10:25:00Z", "delete", "3")
        fleet.run(0, at: "2026-11-21T10:30:00Z", "done", "3")
        fleet.run(0, at: "2026-11-21T10:35:00Z", "add", "Eggs")
        fleet.run(1, at: "2026-11-21T10:36:00Z", "add", "Butter")
        fleet.run(0, at: "2026-11-21T10:40:00Z", "filter", "set", "--status", "active")
        fleet.run(1, at: "2026-11-21T10:45:00Z", "filter", "set", "--sort", "due")
        fleet.run(0, at: "2026-11-21T10:50:00Z", "record", "add", "Run", "--category", "running", "--duration", "30m", "--distance", "5km")
        fleet.run(1, at: "2026-11-21T10:55:00Z", "record", "add", "Swim", "--category", "swim", "--duration", "45m")
        fleet.run(0, at: "2026-11-21T11:00:00Z", "done", "4")
        fleet.run(0, at: "2026-11-21T11:01:00Z", "undo")
        fleet.run(1, at: "2026-11-21T11:02:00Z", "edit", "4", "--note", "by Friday")
        fleet.run(1, at: "2026-11-21T11:03:00Z", "undo")

        let desktop = fleet.sync(1, at: "2026-11-21T12:00:00Z")
        #expect(desktop.status == 0 && desktop.stdout.hasPrefix("Pushed 9 events, pulled 0.\n"), "\(desktop.stdout)")
        let laptop = fleet.sync(0, at: "2026-11-21T12:01:00Z", json: true)
        #expect(laptop.status == 0, "\(laptop.stderr)")
        guard case .object(let report)? = laptop.json else { Issue.record("not JSON: \(laptop.stdout)"); return }
        #expect(report.keys.sorted() == ["conflicts", "head", "pulled", "pushed", "renumbered"])
        #expect(report["pulled"] == 9)
        let kinds = report["conflicts"]?.arrayValue?.compactMap { $0.objectValue?["kind"]?.stringValue } ?? []
        // Laptop's title of todo 2 was earlier (overridden), its completion of the deleted todo 3 is dropped,
        // and its saved view (earlier) lost to desktop's.
        #expect(kinds == ["overridden", "deleted", "overridden"], "\(laptop.stdout)")
        #expect(report["renumbered"]?.arrayValue?.count == 2, "\(laptop.stdout)")
        for round in 0..<2 {
            for device in 0..<2 { #expect(fleet.sync(device, at: "2026-11-21T12:1\(round):0\(device)Z").status == 0) }
        }
        expectConverged(fleet)
        let list = fleet[1].run(["list", "--deleted"], environment: ["TALLY_NOW": "2026-11-22T12:00:00Z"])
        #expect(list.stdout.contains("Sourdough") && list.stdout.contains("Oat milk") && !list.stdout.contains("Rye bread"))
        // The conflicts stay visible on the device whose changes were dropped.
        let conflicts = fleet[0].run("conflicts")
        #expect(conflicts.stdout.contains("your title 'Rye bread' was dropped: desktop@device set 'Sourdough' later"), "\(conflicts.stdout)")
    }

    @Test("human output names every conflict and renumbered todo")
    func humanOutput() throws {
        let fleet = Fleet(["laptop", "desktop"])
        fleet.run(0, at: "2026-11-21T09:00:00Z", "add", "Milk")
        fleet.sync(0, at: "2026-11-21T09:01:00Z")
        fleet.sync(1, at: "2026-11-21T09:02:00Z")
        fleet.run(0, at: "2026-11-21T10:00:00Z", "add", "Eggs")
        fleet.run(0, at: "2026-11-21T10:01:00Z", "edit", "1", "--title", "Oat milk")
        fleet.run(1, at: "2026-11-21T10:30:00Z", "add", "Bread")
        fleet.run(1, at: "2026-11-21T10:31:00Z", "edit", "1", "--title", "Soy milk")
        fleet.sync(1, at: "2026-11-21T11:00:00Z")
        let result = fleet.sync(0, at: "2026-11-21T11:05:00Z")
        #expect(result.status == 0 && result.stderr == "")
        #expect(result.stdout == """
            Pushed 1 event, pulled 2.
            1 conflict:
              todo 1 'Soy milk': your title 'Oat milk' was dropped: desktop@device set 'Soy milk' later (2026-11-21 10:31).
            todo 2 is now 3

            """)
        let czech = fleet[1].run(["sync"], environment: ["LANG": "cs_CZ.UTF-8", "TALLY_NOW": "2026-11-21T11:06:00Z"])
        #expect(czech.stdout == "Odesláno: 0 událostí, staženo: 1.\n", "\(czech.stdout)")
    }

    @Test("conflict lines use the user's words: field labels as in show, distances in km, durations as h:mm:ss, views as options")
    func conflictWords() throws {
        let fleet = Fleet(["laptop", "desktop"])
        fleet.run(0, at: "2026-11-21T09:00:00Z", "add", "Milk")
        fleet.run(0, at: "2026-11-21T09:00:01Z", "add", "Bread")
        fleet.run(0, at: "2026-11-21T09:00:02Z", "record", "add", "Run", "--category", "running", "--duration", "30m", "--distance", "5km")
        fleet.sync(0, at: "2026-11-21T09:01:00Z")
        fleet.sync(1, at: "2026-11-21T09:02:00Z")
        fleet.run(0, at: "2026-11-21T10:00:00Z", "record", "edit", "1", "--distance", "6.2km", "--duration", "1h2m")
        fleet.run(1, at: "2026-11-21T10:01:00Z", "record", "edit", "1", "--distance", "5.5km", "--duration", "58m")
        fleet.run(0, at: "2026-11-21T10:02:00Z", "done", "2")
        fleet.run(1, at: "2026-11-21T10:03:00Z", "delete", "2")
        fleet.run(0, at: "2026-11-21T10:04:00Z", "filter", "set", "--status", "active")
        fleet.run(1, at: "2026-11-21T10:05:00Z", "filter", "set", "--sort", "due")
        fleet.run(0, at: "2026-11-21T10:06:00Z", "edit", "1", "--due", "2026-12-01")
        fleet.run(1, at: "2026-11-21T10:07:00Z", "edit", "1", "--due", "2026-12-05")
        fleet.run(0, at: "2026-11-21T10:08:00Z", "done", "1")
        fleet.run(1, at: "2026-11-21T10:09:00Z", "done", "1")
        #expect(fleet.sync(1, at: "2026-11-21T11:00:00Z").status == 0)
        let result = fleet.sync(0, at: "2026-11-21T11:01:00Z")
        #expect(result.status == 0 && result.stderr == "", "\(result.stderr)")
        #expect(result.stdout == """
            Pushed 0 events, pulled 5.
            6 conflicts:
              record 1 'Run': your time 1:02:00 was dropped: desktop@device set 58:00 later (2026-11-21 10:01).
              record 1 'Run': your distance 6.20 km was dropped: desktop@device set 5.50 km later (2026-11-21 10:01).
              todo 2 'Bread': your completion was dropped: desktop@device deleted it (2026-11-21 10:03); it stays deleted.
              the saved view of todos: your setting '--status active' was dropped: desktop@device set '--sort due' later (2026-11-21 10:05).
              todo 1 'Milk': your due 2026-12-01 was dropped: desktop@device set 2026-12-05 later (2026-11-21 10:07).
              todo 1 'Milk': your status completed was dropped: desktop@device set completed later (2026-11-21 10:09).

            """, "\(result.stdout)")
        for name in ["distanceMeters", "durationSeconds", "todo.completed", "{\"", "true"] {
            #expect(!result.stdout.contains(name), "\(name)")
        }
        let czech = fleet[0].run(["conflicts"], environment: ["LANG": "cs_CZ.UTF-8"])
        #expect(czech.stdout.contains("záznam 1 'Run': vaše změna vzdálenost na 6.20 km byla zahozena: desktop@device nastavil 5.50 km později"), "\(czech.stdout)")
        #expect(czech.stdout.contains("úkol 2 'Bread': vaše změna (dokončení) byla zahozena: desktop@device položku smazal"), "\(czech.stdout)")
        #expect(czech.stdout.contains("vaše změna nastavení na '--status active' byla zahozena"), "\(czech.stdout)")
        #expect(czech.stdout.contains("úkol 1 'Milk': vaše změna stav na "), "\(czech.stdout)")
    }

    @Test("undo on a fresh clone says it undoes only this actor's commands and that none of the log's is theirs")
    func undoOnClone() throws {
        let fleet = Fleet(["laptop", "desktop"])
        for index in 0..<3 { fleet.run(0, at: "2026-11-21T09:0\(index):00Z", "add", "Todo \(index)") }
        fleet.sync(0, at: "2026-11-21T09:05:00Z")
        fleet.sync(1, at: "2026-11-21T09:06:00Z")
        let undo = fleet.run(1, at: "2026-11-21T09:07:00Z", "undo")
        #expect(undo.status == 1)
        #expect(undo.stderr == "Error: Nothing of yours to undo: on a shared log undo reverts only your own commands, and none of the 3 commands in this log is by desktop@device (set TALLY_ACTOR to change who you are).\n", "\(undo.stderr)")
        let czech = fleet[1].run(["undo"], environment: ["LANG": "cs_CZ.UTF-8"])
        #expect(czech.status == 1 && czech.stderr.contains("žádný z 3 příkazů v tomto logu nezadal desktop@device"), "\(czech.stderr)")
        let json = fleet[1].run("--json", "undo")
        #expect(json.status == 1 && json.stderr.contains("\"nothing_to_undo\""), "\(json.stdout)\(json.stderr)")
        // Once this actor has commands, and they are all undone, the plain message stands.
        fleet.run(1, at: "2026-11-21T09:08:00Z", "add", "Mine")
        #expect(fleet.run(1, at: "2026-11-21T09:09:00Z", "undo").status == 0)
        let again = fleet.run(1, at: "2026-11-21T09:10:00Z", "undo")
        #expect(again.status == 1 && again.stderr == "Error: Nothing to undo.\n", "\(again.stderr)")
    }

    @Test("on a database that syncs, undo reverts your own latest command, not a teammate's")
    func undoByActor() throws {
        let fleet = Fleet(["laptop", "desktop"])
        fleet.run(0, at: "2026-11-21T09:00:00Z", "add", "Mine")
        fleet.sync(0, at: "2026-11-21T09:01:00Z")
        fleet.sync(1, at: "2026-11-21T09:02:00Z")
        fleet.run(1, at: "2026-11-21T09:03:00Z", "add", "Theirs")
        fleet.sync(1, at: "2026-11-21T09:04:00Z")
        fleet.sync(0, at: "2026-11-21T09:05:00Z")
        let undo = fleet.run(0, at: "2026-11-21T09:06:00Z", "undo")
        #expect(undo.status == 0 && undo.stdout.contains("by laptop@device") && undo.stdout.contains("1: Mine"), "\(undo.stdout)")
        let again = fleet.run(0, at: "2026-11-21T09:07:00Z", "undo")
        #expect(again.status == 1, "only the teammate's command is left: \(again.stdout)")
        let redo = fleet.run(0, at: "2026-11-21T09:08:00Z", "redo")
        #expect(redo.status == 0 && redo.stdout.contains("1: Mine"), "\(redo.stdout)")
    }

    @Test("on a PostgreSQL log used directly, undo reverts the current actor's latest command",
          .enabled(if: SharedLogKind.available.contains(.postgres)))
    func undoByActorOnServer() throws {
        let fleet = Fleet(["ada", "bob"], kind: .postgres)
        for device in fleet.devices { device.environment["TALLY_DB"] = fleet.shared }
        fleet.run(0, at: "2026-11-21T09:00:00Z", "add", "Ada's")
        fleet.run(1, at: "2026-11-21T09:01:00Z", "add", "Bob's")
        let undo = fleet.run(0, at: "2026-11-21T09:02:00Z", "undo")
        #expect(undo.status == 0 && undo.stdout.contains("by ada@device") && undo.stdout.contains("1: Ada's"), "\(undo.stdout)\(undo.stderr)")
        let list = fleet.run(1, at: "2026-11-21T09:03:00Z", "list")
        #expect(list.stdout.contains("Bob's") && !list.stdout.contains("Ada's"), "\(list.stdout)")
    }

    @Test("a clone shows a progress bar on a terminal (a real pseudo-terminal via script(1)) and erases it",
          .enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/script")))
    func progressOnTerminal() throws {
        let fleet = Fleet(["laptop", "desktop"])
        let lines = (1...3).map { "{\"id\":\"00000000-0000-4000-8000-00000000000\($0)\",\"stream\":\"10000000-0000-4000-8000-00000000000\($0)\",\"version\":1,\"type\":\"todo.created\",\"schema\":2,\"recordedAt\":\"2026-11-21T09:00:00Z\",\"actor\":\"a@b\",\"command\":\"20000000-0000-4000-8000-000000000001\",\"data\":{\"due\":null,\"note\":null,\"priority\":null,\"tags\":[],\"title\":\"t\($0)\"}}" }
        #expect(fleet[0].run(["import", "-"], input: lines.joined(separator: "\n") + "\n").status == 0)
        fleet.sync(0, at: "2026-11-21T10:00:00Z")
        let result = fleet[1].run(["sync", "--remote", fleet.shared], launcher: ["/bin/sh", "-c", #"exec /usr/bin/script -qec "$0 $*" /dev/null"#])
        #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
        #expect(result.stdout.contains("Pulling") && result.stdout.contains("\r\u{1B}[K"), "\(result.stdout.debugDescription)")
        #expect(result.stdout.hasSuffix("Pushed 0 events, pulled 3.\r\n"), "\(result.stdout.debugDescription)")
    }

    @Test("remote set, show and remove; show and info mask the password and count unpushed events")
    func remoteCommands() throws {
        let tally = TallyRunner()
        #expect(tally.run("remote", "show").stdout == "No remote is set.\n")
        tally.run("add", "a")
        let set = tally.run("remote", "set", "postgresql://ada:s3cret@db.example.com:5432/tally?sslmode=require&password=s3cret")
        #expect(set.status == 0 && !set.stdout.contains("s3cret"))
        let show = tally.run("remote", "show")
        #expect(show.stdout == """
            Remote        postgresql://ada:***@db.example.com:5432/tally?sslmode=require&password=***
            Last sync     never
            Unpushed      1 event
            Synced up to  @0 (00000000)

            """)
        let json = tally.run("--json", "remote", "show").json?.objectValue
        #expect(json?["unpushed"] == 1 && json?["lastSync"] == .null)
        let info = tally.run("info")
        #expect(info.stdout.contains("Remote          postgresql://ada:***@db") && info.stdout.contains("Unpushed        1 event"))
        #expect(!info.stdout.contains("s3cret") && tally.eventCount == 1)
        #expect(tally.run("remote", "remove").status == 0)
        #expect(tally.run("remote", "show").stdout == "No remote is set.\n")
        // A new database that is only given a remote keeps its file: the remote is its configuration.
        let fresh = TallyRunner()
        #expect(fresh.run("remote", "set", "/tmp/shared.db").status == 0)
        #expect(FileManager.default.fileExists(atPath: fresh.databasePath))
        #expect(fresh.run("remote", "show").stdout.hasPrefix("Remote        /tmp/shared.db\n"))
    }

    @Test("a shared log that cannot be reached: exit 74, local work untouched, every command works offline")
    func unreachable() throws {
        let tally = TallyRunner()
        tally.run("add", "a")
        let before = tally.run("export").stdout
        let result = tally.run("sync", "--remote", "/nonexistent/dir/shared.db")
        #expect(result.status == 74)
        #expect(result.stderr.hasPrefix("Error: Cannot reach the shared log at /nonexistent/dir/shared.db: "), "\(result.stderr)")
        #expect(tally.run("export").stdout == before)
        #expect(tally.run("add", "b").status == 0 && tally.run("undo").status == 0)
        let itself = tally.run("sync", "--remote", tally.databasePath)
        #expect(itself.status == 1 && itself.stderr.contains("is this database itself"), "\(itself.stderr)")
        for command in [["sync"], ["remote", "show"], ["conflicts"]] {
            let server = tally.run(["--db", "postgresql://ada:s3cret@127.0.0.1:1/tally"] + command)
            #expect(server.status == 1 && server.stderr.contains("sync runs on a local database"), "\(command): \(server.stderr)")
            #expect(!server.stderr.contains("s3cret"))
        }
        let none = TallyRunner()
        #expect(none.run("sync").status == 1 && none.run("sync").stderr.contains("No remote is set"))
    }

    @Test("a shared log that does not extend the synced prefix is refused with exit 1; nothing changes on either side")
    func diverged() throws {
        let fleet = Fleet(["laptop", "stranger"])
        fleet.run(0, at: "2026-11-21T09:00:00Z", "add", "a")
        fleet.sync(0, at: "2026-11-21T09:01:00Z")
        fleet.run(0, at: "2026-11-21T09:02:00Z", "add", "b")
        let other = fleet[1].directory.path("other.db")
        fleet[1].run(["add", "x"], environment: ["TALLY_DB": other])
        let before = (fleet.export(fleet[0]), fleet[1].run(["export"], environment: ["TALLY_DB": other]).stdout)
        let result = fleet[0].run("sync", "--remote", other)
        #expect(result.status == 1)
        #expect(result.stderr.contains("does not extend this database's synced history"), "\(result.stderr)")
        #expect(fleet.export(fleet[0]) == before.0 && fleet[1].run(["export"], environment: ["TALLY_DB": other]).stdout == before.1)
        #expect(result.stderr.contains("from event 1 on"), "\(result.stderr)")
        // A shared file that is not there (a disk not mounted) is unreachable, and is not created.
        let missing = fleet[1].directory.path("missing.db")
        let unmounted = fleet[0].run("sync", "--remote", missing)
        #expect(unmounted.status == 74, "\(unmounted.stderr)")
        #expect(unmounted.stderr == "Error: Cannot reach the shared log at \(missing): there is no file there, though this database synced with it up to event 1 (is the disk mounted?). Local work is untouched, and every command keeps working offline.\n")
        #expect(!FileManager.default.fileExists(atPath: missing))
        #expect(fleet[0].run("remote", "show").stdout.contains(fleet.shared))
    }

    @Test("three devices: creations, edits, deletes, undo and records everywhere; all converge", arguments: SharedLogKind.available)
    func threeDevices(kind: SharedLogKind) throws {
        let fleet = Fleet(["ada", "bob", "cyd"], kind: kind)
        fleet.run(0, at: "2026-11-21T08:00:00Z", "add", "Shared one", "--tag", "home")
        fleet.run(0, at: "2026-11-21T08:01:00Z", "add", "Shared two")
        fleet.sync(0, at: "2026-11-21T08:02:00Z")
        fleet.sync(1, at: "2026-11-21T08:03:00Z")
        fleet.sync(2, at: "2026-11-21T08:04:00Z")
        fleet.run(0, at: "2026-11-21T09:00:00Z", "edit", "1", "--title", "Ada's title")
        fleet.run(1, at: "2026-11-21T09:10:00Z", "edit", "1", "--title", "Bob's title", "--tag", "-home")
        fleet.run(2, at: "2026-11-21T09:20:00Z", "edit", "1", "--tag", "+garden")
        fleet.run(2, at: "2026-11-21T09:21:00Z", "done", "2")
        fleet.run(1, at: "2026-11-21T09:22:00Z", "done", "2")
        fleet.run(0, at: "2026-11-21T09:23:00Z", "delete", "2")
        fleet.run(0, at: "2026-11-21T09:30:00Z", "add", "From ada")
        fleet.run(1, at: "2026-11-21T09:31:00Z", "add", "From bob")
        fleet.run(2, at: "2026-11-21T09:32:00Z", "record", "add", "Ride", "--category", "cycling", "--duration", "1h")
        fleet.run(1, at: "2026-11-21T09:33:00Z", "undo")
        for (index, device) in [2, 0, 1, 2, 0, 1].enumerated() {
            #expect(fleet.sync(device, at: "2026-11-21T10:0\(index):00Z").status == 0)
        }
        expectConverged(fleet)
        let todo = fleet[2].run(["--json", "show", "1"]).json?.objectValue?["todo"]?.objectValue
        #expect(todo?["title"] == "Bob's title" && todo?["tags"] == ["garden"])
    }
}
