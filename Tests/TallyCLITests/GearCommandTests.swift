import Foundation
import Testing
import TallyDomain
import TallyTestSupport
@testable import TallyEssentials

/// `tally gear` and `--gear` end to end on the built binary: output, exit codes, undo, time travel,
/// export → import and sync.
@Suite("gear: add, list, show, edit, retire, --gear, end to end", .tags(.postgresql))
struct GearCommandTests {
    static let now = "2026-11-21T12:00:00Z"

    /// A store with running shoes as the default, a bike, and three activities.
    static func store() -> TallyRunner {
        let tally = TallyRunner(now: now)
        tally.run("gear", "add", "Pegasus", "40", "--category", "running", "--default", "--retire-at", "10km")
        tally.run("gear", "add", "Čížek", "自転車", "--category", "cycling")
        tally.run("record", "add", "Run", "--category", "running", "--duration", "30m", "--distance", "6km", "--date", "2026-11-19")
        tally.run("record", "add", "Run", "two", "--category", "running", "--duration", "25m", "--distance", "5km", "--date", "2026-11-20")
        tally.run("record", "add", "Ride", "--category", "cycling", "--duration", "1h", "--distance", "30km", "--gear", "čížek 自転車")
        return tally
    }

    @Test("gear add confirms; new activities get the default; gear list totals them and warns past the retirement distance")
    func listAndWarn() throws {
        let tally = TallyRunner(now: Self.now)
        let added = tally.run("gear", "add", "Pegasus", "40", "--category", "running", "--default", "--retire-at", "10km")
        #expect(added.status == 0 && added.stderr.isEmpty)
        #expect(added.stdout == "added gear 'Pegasus 40' for running, to retire at 10.00 km\ndefault gear of running: 'Pegasus 40'\n")
        tally.run("gear", "add", "Čížek", "自転車", "--category", "cycling")
        let logged = tally.run("record", "add", "Run", "--category", "running", "--duration", "30m", "--distance", "6km")
        #expect(logged.stdout == "Logged 1: Run\n")
        tally.run("record", "add", "Run", "two", "--category", "running", "--duration", "25m", "--distance", "5km")
        tally.run("record", "add", "Ride", "--category", "cycling", "--duration", "1h", "--distance", "30km", "--gear", "čížek 自転車")
        let list = tally.run("gear", "list")
        #expect(list.status == 0)
        #expect(list.stdout == """
            Gear                  Category  Activities     Time  Distance  Retire at
            Pegasus 40 (default)  running            2    55:00  11.00 km   10.00 km
            Čížek 自転車          cycling            1  1:00:00  30.00 km          -
            Warning: Pegasus 40 has gone 11.00 km, past its retirement at 10.00 km.

            """)
        let json = try #require(tally.run("--json", "gear", "list").json?.objectValue?["gear"]?.arrayValue)
        #expect(json.count == 2)
        let first = try #require(json.first?.objectValue)
        #expect(first["name"] == .string("Pegasus 40") && first["default"] == .bool(true) && first["worn"] == .bool(true))
        #expect(first["activityCount"] == .int(2) && first["durationSeconds"] == .int(3300) && first["distanceMeters"] == .int(11000))
        let miles = tally.run("gear", "list", "--miles")
        #expect(miles.stdout.contains("6.84 mi") && miles.stdout.contains("18.64 mi"))
        let show = tally.run("record", "show", "1")
        #expect(show.stdout.contains("Gear      Pegasus 40\n"))
        #expect(show.stdout.contains("logged 'Run': 6.00 km running with 'Pegasus 40' in 30:00"))
        let record = try #require(tally.run("--json", "record", "show", "3").json?.objectValue?["record"]?.objectValue)
        #expect(record["gear"] == first["id"].flatMap { _ in json[1].objectValue?["id"] })
        #expect(tally.run("verify").status == 0)
    }

    @Test("gear show names its totals and latest activities; --json has them")
    func show() throws {
        let tally = Self.store()
        let show = tally.run("gear", "show", "PEGASUS", "40")
        #expect(show.status == 0)
        #expect(show.stdout.hasPrefix("""
            Name        Pegasus 40
            Category    running
            Status      in use, the default
            Activities  2
            Time        55:00
            Distance    11.00 km
            Retire at   10.00 km
            """))
        #expect(show.stdout.contains("Warning: Pegasus 40 has gone 11.00 km, past its retirement at 10.00 km."))
        #expect(show.stdout.contains("The latest 2 activities"))
        let json = try #require(tally.run("--json", "gear", "show", "pegasus 40").json?.objectValue)
        #expect(json["activities"]?.arrayValue?.compactMap { $0.objectValue?["number"] } == [.int(2), .int(1)])
    }

    @Test("refusals exit 1 or 65 with a clear message and append nothing")
    func refusals() throws {
        let tally = Self.store()
        let before = tally.eventCount
        let cases: [([String], Int32, String)] = [
            (["gear", "add", "pegasus", "40", "--category", "cycling"], 1, "Error: Gear named 'pegasus 40' exists already (names are compared without regard to case).\n"),
            (["gear", "show", "Nope"], 1, "Error: No gear is named 'Nope' ('tally gear list --all' lists it all).\n"),
            (["gear", "retire", "Nope"], 1, "Error: No gear is named 'Nope' ('tally gear list --all' lists it all).\n"),
            (["record", "add", "Walk", "--category", "walking", "--duration", "1h", "--gear", "Pegasus 40"], 1,
             "Error: Gear 'Pegasus 40' is for running, not walking: name gear of walking with --gear, or give --no-gear.\n"),
            (["record", "edit", "1", "--category", "walking"], 1,
             "Error: Gear 'Pegasus 40' is for running, not walking: name gear of walking with --gear, or give --no-gear.\n"),
            (["gear", "add", "X", "--category", "running", "--retire-at", "500m"], 65,
             "Error: Nothing was changed: a value is outside tally's limits (a gear's retirement distance is not between 1 km and 100,000 km).\n"),
            (["gear", "add", " ", "--category", "running"], 65, "Error: The name is empty.\n"),
        ]
        for (arguments, status, stderr) in cases {
            let result = tally.run(arguments)
            #expect(result.status == status, "\(arguments): \(result.stderr)")
            #expect(result.stderr == stderr, "\(arguments)")
            #expect(result.stdout.isEmpty)
        }
        let both = tally.run("record", "add", "Run", "--category", "running", "--duration", "1h", "--gear", "Pegasus 40", "--no-gear")
        #expect(both.status == 64 && both.stderr.hasPrefix("Error: Options '--gear' and '--no-gear' cannot be used together."))
        let nothing = tally.run("gear", "edit", "Pegasus", "40")
        #expect(nothing.status == 64)
        #expect(tally.eventCount == before)
        #expect(tally.run("verify").status == 0)
    }

    @Test("record edit --gear moves an activity, --no-gear takes it off; retire, undo and redo; --as-of shows the past")
    func moveRetireUndo() throws {
        let tally = Self.store()
        tally.run("gear", "add", "Trail", "--category", "running")
        let moved = tally.run("record", "edit", "1", "--gear", "trail")
        #expect(moved.status == 0 && moved.stdout == "Updated 1: Run (gear: none → 'Trail')\n" || moved.stdout.contains("'Trail'"))
        #expect(tally.run("--json", "gear", "show", "Trail").json?.objectValue?["activityCount"] == .int(1))
        tally.run("record", "edit", "2", "--no-gear")
        #expect(tally.run("--json", "gear", "show", "Pegasus 40").json?.objectValue?["activityCount"] == .int(0))
        let seq = tally.eventCount
        let retired = tally.run("gear", "retire", "Pegasus", "40")
        #expect(retired.stdout == "gear 'Pegasus 40': retired\ndefault gear of running: -\n")
        #expect(!tally.run("gear", "list").stdout.contains("Pegasus"))
        #expect(tally.run("gear", "list", "--all").stdout.contains("Pegasus 40 (retired)"))
        tally.run("record", "add", "Run", "three", "--category", "running", "--duration", "20m")
        #expect(tally.run("--json", "record", "show", "4").json?.objectValue?["record"]?.objectValue?["gear"] == .null)
        #expect(tally.run("gear", "list", "--as-of", "@\(seq)").stdout.contains("Pegasus 40 (default)"))
        tally.run("undo")
        let undone = tally.run("undo")
        #expect(undone.stdout.contains("gear 'Pegasus 40': in use"))
        #expect(undone.stdout.contains("default gear of running: none → Pegasus 40"))
        #expect(tally.run("gear", "list").stdout.contains("Pegasus 40 (default)"))
        tally.run("redo")
        #expect(tally.run("gear", "list", "--all").stdout.contains("Pegasus 40 (retired)"))
        #expect(tally.run("verify").status == 0)
    }

    @Test("undo of gear add removes it and frees its name; record import gets the default gear")
    func undoAddAndImport() throws {
        let tally = TallyRunner(now: Self.now)
        tally.run("gear", "add", "Shoes", "--category", "running", "--default")
        let undo = tally.run("undo")
        #expect(undo.stdout.contains("gear 'Shoes': removed"))
        #expect(tally.run("gear", "list").stdout == "No gear yet: add some with 'tally gear add Pegasus 40 --category running --default'.\n")
        #expect(tally.run("gear", "add", "shoes", "--category", "running", "--default").status == 0)
        let fit = PackageFiles.url("Tests/Fixtures/activities/fenix2-run.fit").path
        #expect(tally.run("record", "import", fit).status == 0)
        let record = try #require(tally.run("--json", "record", "show", "1").json?.objectValue?["record"]?.objectValue)
        #expect(record["category"] == .string("running"))
        #expect(record["gear"] == tally.run("--json", "gear", "show", "shoes").json?.objectValue?["id"])
    }

    @Test("export → import into an empty store gives the same gear and assignments")
    func exportImport() throws {
        let tally = Self.store()
        tally.run("gear", "retire", "Čížek", "自転車")
        let path = tally.directory.path("export.jsonl")
        try tally.run("export").stdout.write(toFile: path, atomically: true, encoding: .utf8)
        let other = TallyRunner(now: Self.now)
        #expect(other.run("import", path).status == 0)
        #expect(other.run("gear", "list", "--all").stdout == tally.run("gear", "list", "--all").stdout)
        #expect(other.run("--json", "record", "list").stdout == tally.run("--json", "record", "list").stdout)
        #expect(other.run("verify").status == 0)
    }

    @Test("sync: gear and assignments travel; two devices setting a category's default, the later wins", arguments: SharedLogKind.available)
    func sync(kind: SharedLogKind) throws {
        // Devices are SQLite replicas (the shared log SQLite or PostgreSQL); the PostgreSQL stage runs the other tests on a server store.
        guard !TallyRunner.onPostgres else { return }
        let fleet = Fleet(["ada", "bob"], kind: kind)
        fleet.run(0, at: "2026-11-21T10:00:00Z", "gear", "add", "Ada shoes", "--category", "running", "--default")
        fleet.run(0, at: "2026-11-21T10:01:00Z", "record", "add", "Run", "--category", "running", "--duration", "30m", "--distance", "5km")
        #expect(fleet.sync(0, at: "2026-11-21T10:02:00Z").status == 0)
        #expect(fleet.sync(1, at: "2026-11-21T10:03:00Z").status == 0)
        #expect(fleet[1].run("gear", "list").stdout.contains("Ada shoes (default)  running            1"))
        fleet.run(1, at: "2026-11-21T10:05:00Z", "gear", "add", "Bob shoes", "--category", "running", "--default")
        fleet.run(0, at: "2026-11-21T10:04:00Z", "gear", "edit", "Ada shoes", "--retire-at", "600km")
        #expect(fleet.sync(1, at: "2026-11-21T10:06:00Z").status == 0)
        #expect(fleet.sync(0, at: "2026-11-21T10:07:00Z").status == 0)
        let list = fleet[0].run("gear", "list").stdout
        #expect(list.contains("Bob shoes (default)"))
        #expect(list.contains("600.00 km"))
        #expect(fleet[0].run("verify").status == 0)
    }
}
