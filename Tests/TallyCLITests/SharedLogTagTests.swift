import Foundation
import Testing
import TallyTestSupport

/// A replica of a PostgreSQL log takes offline the tags, projects and context names of any script
/// that tally takes anywhere, and the server takes them on push (migration 13): before, a tag such as
/// Hindi `हिंदी` (a letter and vowel signs) was refused by the server, and the replica that held it
/// could never push again.
@Suite("Tags on the shared log: what a replica takes offline, the server takes on push", .enabled(if: PostgresTestServer.isEnabled && !TallyRunner.onPostgres))
struct SharedLogTagTests {
    /// Tags tally takes whose scripts the rule of migration 6 did not list: Hindi with vowel signs
    /// and a nasal mark, Georgian, Armenian, Ethiopic, Tamil, Devanagari digits, a Greek letter
    /// without a lowercase form, superscript two, and a letter of the Supplementary Multilingual Plane.
    static let tags = ["हिंदी", "ქართული", "հայերեն", "አማርኛ", "தமிழ்", "२०२६", "ϒ", "x²", "𐐨𐑉"]

    @Test("a todo tagged हिंदी added offline is pushed, and the replica pushes again afterwards")
    func hindiTagIsPushed() throws {
        let fleet = Fleet(["laptop"], kind: .postgres)
        #expect(fleet.run(0, at: "2026-11-21T09:00:00Z", "add", "Bread").status == 0)
        #expect(fleet.sync(0, at: "2026-11-21T09:00:30Z").status == 0)
        let added = fleet.run(0, at: "2026-11-21T09:01:00Z", "add", "Read the news", "--tag", "हिंदी")
        #expect(added.status == 0, "\(added.stderr)")
        let push = fleet.sync(0, at: "2026-11-21T09:02:00Z")
        #expect(push.status == 0, "\(push.stdout)\(push.stderr)")
        #expect(fleet.server.run("verify").status == 0)
        #expect(fleet.export(fleet.server) == fleet.export(fleet[0]))
        #expect(fleet.server.run("list", "--tag", "हिंदी", "--json").json?.arrayValue?.count == 1)
        // The replica is not stranded: a later command pushes too.
        #expect(fleet.run(0, at: "2026-11-21T09:03:00Z", "add", "Milk").status == 0)
        #expect(fleet.sync(0, at: "2026-11-21T09:04:00Z").status == 0)
        #expect(fleet.export(fleet.server) == fleet.export(fleet[0]))
    }

    @Test("tags, projects and a context named in scripts of every kind, added and edited offline: one push takes them all")
    func everyScriptIsPushed() throws {
        let fleet = Fleet(["laptop", "desk"], kind: .postgres)
        #expect(fleet.run(0, at: "2026-11-21T09:00:00Z", "add", "Bread").status == 0)
        #expect(fleet.sync(0, at: "2026-11-21T09:00:30Z").status == 0)
        var commands: [[String]] = Self.tags.map { ["add", "Task \($0)", "--tag", $0] }
        commands += [
            ["add", "Plan", "--project", "हिंदी.ქართული", "--tag", "Ǆ"],
            ["edit", "1", "--tag", "+ἀθῆναι", "--project", "հայերեն.२०२६"],
            ["context", "define", "काम", "tag:हिंदी"],
            ["context", "काम"],
        ]
        for arguments in commands {
            let result = fleet.devices[0].run(arguments, environment: ["TALLY_NOW": "2026-11-21T09:01:00Z"])
            #expect(result.status == 0, "\(arguments): \(result.stderr)")
        }
        let push = fleet.sync(0, at: "2026-11-21T09:02:00Z")
        #expect(push.status == 0, "\(push.stdout)\(push.stderr)")
        #expect(fleet.server.run("verify").status == 0)
        #expect(fleet.export(fleet.server) == fleet.export(fleet[0]))
        // A second replica pulls them and reads the same todos.
        #expect(fleet.sync(1, at: "2026-11-21T09:03:00Z").status == 0)
        #expect(fleet.export(fleet[1]) == fleet.export(fleet[0]))
        let listed = fleet[1].run("list", "--json").json?.arrayValue ?? []
        // (`Ǆ` is stored lowercased, `ǆ`; the active context `काम` shows the todos tagged हिंदी.)
        #expect(listed.count == 1, "\(listed)")
        #expect(fleet[1].run("context").stdout.contains("काम"))
    }
}
