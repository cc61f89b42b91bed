import Foundation
import Testing
import TallyDomain
import TallyTestSupport
@testable import TallyEssentials

/// The bulk paths into a PostgreSQL log: an import sends its events with COPY in batches and a
/// push of several events is one COPY; the insert trigger still checks every row, and a refused
/// row is reported as the one-event path reports it.
@Suite("bulk appends into a PostgreSQL log, end to end", .enabled(if: PostgresTestServer.isEnabled))
struct PostgresBulkAppendTests {
    let server: PostgresTestServer

    init() throws {
        server = try PostgresTestServer.shared()
    }

    func runner(_ database: String, actor: String = "alice@laptop") -> TallyRunner {
        let tally = TallyRunner()
        tally.environment["TALLY_DB"] = database
        tally.environment["TALLY_ACTOR"] = actor
        return tally
    }

    /// A runner on a SQLite file in its own directory.
    func fileRunner(actor: String = "alice@laptop") -> TallyRunner {
        let tally = TallyRunner()
        tally.environment["TALLY_DB"] = tally.directory.path("replica.db")
        tally.environment["TALLY_ACTOR"] = actor
        return tally
    }

    /// An export line with its id, stream and version replaced.
    func line(_ exported: String, id: String, stream: String, version: Int = 1) -> String {
        guard case .object(var object)? = try? JSON.parse(exported) else { return exported }
        object["id"] = .string(id)
        object["stream"] = .string(stream)
        object["version"] = .int(Int64(version))
        return JSON.object(object).serialized(.canonical)
    }

    @Test("an import whose second line repeats an id of the log under a new stream: the same refusal as on SQLite, naming line 2; nothing appended")
    func deferredDuplicateNamesItsLine() throws {
        let shared = runner(try server.makeDatabase())
        let file = fileRunner()
        for tally in [shared, file] {
            #expect(tally.run("add", "first").status == 0)
            #expect(tally.run("add", "second").status == 0)
        }
        let exported = shared.run("export").stdout.split(separator: "\n").map(String.init)
        #expect(exported.count == 2)
        guard case .object(let first)? = try? JSON.parse(exported[0]), let takenID = first["id"]?.stringValue else {
            Issue.record("no export line")
            return
        }
        let input = [
            line(exported[0], id: UUID().uuidString.lowercased(), stream: UUID().uuidString.lowercased()),
            line(exported[0], id: takenID, stream: UUID().uuidString.lowercased()),
            line(exported[1], id: UUID().uuidString.lowercased(), stream: UUID().uuidString.lowercased()),
        ].joined(separator: "\n") + "\n"
        // The SQLite file has other ids: give it the same one at seq 1.
        let fileExport = file.run("export").stdout.split(separator: "\n").map(String.init)
        guard case .object(let fileFirst)? = try? JSON.parse(fileExport[0]), let fileID = fileFirst["id"]?.stringValue else {
            Issue.record("no export line")
            return
        }
        let onServer = shared.run(["import", "-"], input: input)
        let onFile = file.run(["import", "-"], input: input.replacingOccurrences(of: takenID, with: fileID))
        #expect(onServer.status != 0 && onServer.status == onFile.status)
        #expect(onServer.stderr.contains("Line 2:"), "\(onServer.stderr)")
        #expect(onServer.stderr == onFile.stderr.replacingOccurrences(of: fileID, with: takenID), "\(onServer.stderr) vs \(onFile.stderr)")
        #expect(shared.run("export").stdout.split(separator: "\n").count == 2)
        #expect(shared.run("verify").status == 0)
    }

    @Test("an import of sixty-one events into a non-empty log: every event lands in order with its hash, and a second import of the same file skips them all")
    func bulkImportLands() throws {
        let source = fileRunner()
        for index in 0 ..< 60 {
            #expect(source.run("add", "todo \(index)", "--tag", "t\(index % 7)").status == 0)
        }
        #expect(source.run("done", "3").status == 0)
        let exported = source.run("export").stdout
        let shared = runner(try server.makeDatabase())
        #expect(shared.run("add", "already there").status == 0)
        let imported = shared.run(["import", "-"], input: exported)
        #expect(imported.status == 0, "\(imported.stderr)")
        let lines = shared.run("export").stdout.split(separator: "\n")
        #expect(lines.count == 1 + exported.split(separator: "\n").count)
        #expect(shared.run("verify").status == 0)
        let again = shared.run(["import", "-"], input: exported)
        #expect(again.status == 0 && shared.run("export").stdout.split(separator: "\n").count == lines.count)
        #expect(shared.run("list", "--json", "--status", "all").titles.count == 61)
    }

    @Test("a push of many offline events is one COPY: they arrive in order, with the pushing role recorded, and another replica pulls every one")
    func pushOfManyEvents() throws {
        let uri = try server.makeDatabase()
        let laptop = fileRunner()
        #expect(laptop.run("remote", "set", uri).status == 0)
        #expect(laptop.run("add", "online").status == 0)
        #expect(laptop.run("sync").status == 0)
        for index in 0 ..< 40 { _ = laptop.run("add", "offline \(index)") }
        let pushed = laptop.run("sync")
        #expect(pushed.status == 0, "\(pushed.stderr)")
        let shared = runner(uri)
        #expect(shared.run("verify").status == 0)
        let events = shared.run("log", "--json").json?.arrayValue?.compactMap(\.objectValue) ?? []
        #expect(events.count == 41)
        #expect(events.allSatisfy { $0["role"]?.stringValue == PostgresTestServer.superuser })
        let phone = fileRunner(actor: "alice@phone")
        #expect(phone.run("remote", "set", uri).status == 0)
        #expect(phone.run("sync").status == 0)
        #expect(phone.run("list", "--json").titles == laptop.run("list", "--json").titles)
    }
}
