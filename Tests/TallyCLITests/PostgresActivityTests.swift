import Foundation
import Testing
import TallyDomain
import TallyTestSupport

/// `record import` on a shared PostgreSQL log: the originals go into its `blobs` table.
@Suite("record import on a PostgreSQL log, end to end", .enabled(if: PostgresTestServer.isEnabled))
struct PostgresActivityTests {
    @Test("import once, again adds nothing, bests, verify, and export carries the files into SQLite")
    func importOnServer() throws {
        let server = try PostgresTestServer.shared()
        let tally = TallyRunner(now: "2026-11-21T12:00:00Z")
        tally.environment["TALLY_DB"] = try server.makeDatabase()
        let folder = try RecordImportCommandTests.stravaExport(in: tally)
        let first = tally.run("record", "import", folder)
        #expect(first.status == 0 && first.stdout.hasPrefix("Imported 4 activities"), "\(first.stderr)")
        #expect(tally.run("record", "import", folder).stdout.hasPrefix("No new activities.\n4 activities were imported before; skipped.\n"))
        let bests = tally.run("record", "bests", "--category", "running", "--json").json?.objectValue?["bests"]?.arrayValue
        #expect(bests?.first?.objectValue?["efforts"]?.arrayValue?.first?.objectValue?["seconds"] == 100)
        #expect(tally.run("verify").status == 0)
        let exported = tally.run("export")
        #expect(exported.stdout.split(separator: "\n").filter { $0.hasPrefix("{\"blob\":") }.count == 3)
        let file = tally.directory.path("backup.jsonl")
        try exported.stdout.write(toFile: file, atomically: true, encoding: .utf8)
        let copy = TallyRunner(now: "2026-11-21T12:00:00Z")
        #expect(copy.run("import", file).stdout.contains("Stored 3 original activity files."))
        #expect(copy.run("export").stdout == exported.stdout)
    }
}
