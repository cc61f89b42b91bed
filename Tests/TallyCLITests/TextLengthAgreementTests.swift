import Foundation
import Testing
import TallyTestSupport

/// An offline replica of a PostgreSQL log counts text lengths as the server does (code points after
/// NFC), so nothing it accepts is refused when it pushes: a text of characters of several code points
/// just past a limit is refused on the replica, one just inside it is pushed and read back.
@Suite("Text limits: an offline replica cannot write what the server refuses", .enabled(if: PostgresTestServer.isEnabled && !TallyRunner.onPostgres))
struct TextLengthAgreementTests {
    /// A family emoji: one character, five code points.
    static let family = "👩‍👩‍👧"

    func eventCount(_ runner: TallyRunner) -> Int {
        runner.run("export").stdout.split(separator: "\n").count
    }

    @Test("past a limit by code points (though not by characters): refused offline with exit 65, nothing appended; at it: pushed and verified")
    func replicaAgreesWithServer() throws {
        let fleet = Fleet(["laptop"], kind: .postgres)
        let x = { (count: Int) in String(repeating: "x", count: count) }
        #expect(fleet.run(0, at: "2026-11-21T09:00:00Z", "add", "Bread").status == 0)
        #expect(fleet.sync(0, at: "2026-11-21T09:00:30Z").status == 0)
        // Offline: each of these is within the limit in characters, past it in code points.
        let refused: [[String]] = [
            ["add", x(499) + Self.family],
            ["add", String(repeating: "👍🏽", count: 251)],
            ["edit", "1", "--title", x(496) + Self.family],
            ["add", "Task", "--note", x(9_996) + Self.family],
            ["annotate", "1", x(996) + Self.family],
            ["gear", "add", x(56) + Self.family, "--category", "running"],
            ["record", "add", x(196) + Self.family, "--category", "running", "--duration", "30m"],
            ["record", "add", "Run", "--category", "running", "--duration", "30m", "--place", x(100) + String(repeating: "🇨🇿", count: 51)],
        ]
        let before = eventCount(fleet[0])
        for arguments in refused {
            let result = fleet.devices[0].run(arguments, environment: ["TALLY_NOW": "2026-11-21T09:01:00Z"])
            #expect(result.status == 65, "\(arguments.prefix(2)): \(result.status) \(result.stderr)")
            #expect(result.stderr.hasPrefix("Error: "), "\(arguments.prefix(2)): \(result.stderr)")
        }
        #expect(eventCount(fleet[0]) == before)
        // The same values just inside the limit are taken offline, and the server takes them on push.
        let accepted: [[String]] = [
            ["add", x(495) + Self.family],
            ["add", String(repeating: "👍🏽", count: 250)],
            ["edit", "1", "--title", x(495) + Self.family],
            ["add", "Task", "--note", x(9_995) + Self.family],
            ["annotate", "1", x(995) + Self.family],
            ["gear", "add", x(55) + Self.family, "--category", "running"],
            ["record", "add", x(195) + Self.family, "--category", "running", "--duration", "30m"],
            ["record", "add", "Run", "--category", "running", "--duration", "30m", "--place", x(100) + String(repeating: "🇨🇿", count: 50)],
        ]
        for arguments in accepted {
            let result = fleet.devices[0].run(arguments, environment: ["TALLY_NOW": "2026-11-21T09:02:00Z"])
            #expect(result.status == 0, "\(arguments.prefix(2)): \(result.stderr)")
        }
        #expect(eventCount(fleet[0]) == before + accepted.count)
        let push = fleet.sync(0, at: "2026-11-21T09:03:00Z")
        #expect(push.status == 0, "\(push.stderr)")
        #expect(fleet.server.run("verify").status == 0)
        #expect(fleet.export(fleet.server) == fleet.export(fleet[0]))
        // And the replica can still push afterwards.
        #expect(fleet.run(0, at: "2026-11-21T09:04:00Z", "add", "Milk").status == 0)
        #expect(fleet.sync(0, at: "2026-11-21T09:05:00Z").status == 0)
        #expect(fleet.export(fleet.server) == fleet.export(fleet[0]))
    }
}
