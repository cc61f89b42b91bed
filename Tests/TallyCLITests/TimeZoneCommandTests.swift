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
}
