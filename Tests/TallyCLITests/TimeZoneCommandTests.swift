import Foundation
import TallyTestSupport
import Testing
@testable import TallyEssentials

/// `TZ` as the built binary reads it: zone names, paths, POSIX rules, `TZDIR`, and wall times across
/// Prague's transitions, end to end.
@Suite("TZ, end to end")
struct TimeZoneCommandTests {
    /// The instant `add --due` stores for a wall time, as `--json` reports it.
    func due(_ wall: String, zone: String, environment: [String: String] = [:]) -> String? {
        let tally = TallyRunner(now: "2026-06-01T12:00:00Z", zone: zone)
        return tally.run(["add", "x", "--due", wall, "--json"], environment: environment).json?.objectValue?["due"]?.stringValue
    }

    @Test("a zone name, a colon, a path and a POSIX rule name the same summer offset")
    func spellingsOfOneZone() {
        for zone in ["Europe/Prague", ":Europe/Prague", "/usr/share/zoneinfo/Europe/Prague", ":/usr/share/zoneinfo/Europe/Prague", "CET-1CEST,M3.5.0,M10.5.0/3"] {
            #expect(due("2026-07-01T12:00", zone: zone) == "2026-07-01T10:00:00Z", "TZ=\(zone)")
            #expect(due("2026-12-01T12:00", zone: zone) == "2026-12-01T11:00:00Z", "TZ=\(zone)")
        }
        #expect(due("2026-07-01T12:00", zone: "EST5EDT") == "2026-07-01T16:00:00Z")
        #expect(due("2026-07-01T12:00", zone: "UTC0") == "2026-07-01T12:00:00Z")
        #expect(due("2026-07-01T12:00", zone: "Australia/Lord_Howe") == "2026-07-01T01:30:00Z")
    }

    @Test("TZDIR is where zone names are looked up")
    func tzdir() throws {
        let directory = TemporaryDirectory("tzdir")
        try FileManager.default.createDirectory(atPath: directory.path("Office"), withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: "/usr/share/zoneinfo/Asia/Tokyo", toPath: directory.path("Office/Zone"))
        #expect(due("2026-07-01T12:00", zone: "Office/Zone", environment: ["TZDIR": directory.url.path]) == "2026-07-01T03:00:00Z")
    }

    @Test("a skipped wall time reads with the offset before the jump, a repeated one is the earlier")
    func gapAndOverlap() {
        #expect(due("2026-03-29T02:30", zone: "Europe/Prague") == "2026-03-29T01:30:00Z")
        #expect(due("2026-10-25T02:30", zone: "Europe/Prague") == "2026-10-25T00:30:00Z")
    }

    @Test("an unknown zone is the system's, as if TZ were unset")
    func unknownZone() {
        let unset = TallyRunner(now: "2026-06-01T12:00:00Z")
        var environment = unset.environment
        environment.removeValue(forKey: "TZ")
        unset.environment = environment
        let system = unset.run("add", "x", "--due", "2026-07-01T12:00", "--json").json?.objectValue?["due"]?.stringValue
        #expect(system != nil)
        #expect(due("2026-07-01T12:00", zone: "Nowhere/Atlantis") == system)
    }

    @Test("messages and history lines show a due, wait or first due time in local time, as list does")
    func localTimesInMessages() {
        // 2026-11-21 12:00 UTC is 13:00 in Prague; 'tomorrow 10:00' there is 09:00 UTC.
        let tally = TallyRunner(now: "2026-11-21T12:00:00Z", zone: "Europe/Prague")
        tally.run("add", "Call Bob")
        let edited = tally.run("edit", "1", "--due", "tomorrow 10:00", "--wait", "2026-11-21 18:30")
        #expect(edited.status == 0)
        #expect(edited.stdout == "Updated 1: Call Bob (edited due → 2026-11-22 10:00, wait → 2026-11-21 18:30)\n")
        #expect(tally.run("show", "1", "--json").json?.objectValue?["todo"]?.objectValue?["due"] == "2026-11-22T09:00:00Z")
        let added = tally.run("add", "Standup", "--due", "mon 9:30", "--recur", "weekdays")
        #expect(added.stdout.hasSuffix("first due 2026-11-23 09:30\n"), "\(added.stdout)")
        let show = tally.run("show", "1").stdout
        #expect(show.contains("edited due → 2026-11-22 10:00, wait → 2026-11-21 18:30"))
        #expect(!show.contains("T09:00:00Z"))
        #expect(tally.run("log", "--type", "series.started").stdout.contains("repeats every weekday from the due date, first due 2026-11-23 09:30"))
    }
}
