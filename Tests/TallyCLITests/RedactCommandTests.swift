import Foundation
import Testing
import TallyDomain
import TallyTestSupport
@testable import TallyEssentials

/// `tally redact` on the built binary, on a file or (with `TALLY_TEST_BACKEND=postgresql`) a shared log.
@Suite("tally redact, end to end", .tags(.postgresql))
struct RedactCommandTests {
    /// Todo 1 with two notes holding a password, a title edit, and todo 2 untouched.
    func history() -> TallyRunner {
        let tally = TallyRunner()
        #expect(tally.run("add", "Router settings", "--note", "admin pw hunter2-QX7").status == 0)
        #expect(tally.run("edit", "1", "--note", "admin pw hunter3-QX7").status == 0)
        #expect(tally.run("edit", "1", "--title", "Router at home").status == 0)
        #expect(tally.run("add", "Buy milk", "--note", "2 litres").status == 0)
        return tally
    }

    func eventCount(_ tally: TallyRunner) -> Int {
        tally.run("--json", "log", "--limit", "1000").json?.arrayValue?.count ?? -1
    }

    /// Every byte the store keeps: the file and its WAL on SQLite, every table's rows on PostgreSQL.
    func storedBytes(_ tally: TallyRunner) throws -> String {
        if TallyRunner.onPostgres {
            let server = try PostgresTestServer.shared()
            let database = PostgresTestServer.databaseName(tally.databasePath)
            var text = ""
            for table in ["events", "snapshots", "snapshot_chunks", "redactions"] {
                text += try server.psql("SELECT COALESCE(string_agg(t::text, E'\\n'), '') FROM \(table) t", database: database)
            }
            // Kept files as their bytes (escaped where not printable), not as BYTEA's hex.
            text += try server.psql("SELECT COALESCE(string_agg(encode(body, 'escape'), E'\\n'), '') FROM blobs", database: database)
            return text
        }
        let files = [tally.databasePath, tally.databasePath + "-wal"]
        return files.map { (try? Data(contentsOf: URL(fileURLWithPath: $0))).map { String(decoding: $0, as: UTF8.self) } ?? "" }.joined()
    }

    @Test("erases every past note of the todo: show, log, blame, diff, --as-of and export say redacted; verify passes; nothing else changed")
    func erasesEveryValue() throws {
        let tally = history()
        #expect(try storedBytes(tally).contains("hunter2-QX7"))
        let before = tally.run("--json", "log", "--limit", "1000").json?.arrayValue ?? []
        let result = tally.run("redact", "1", "--field", "note", "--reason", "pasted a password")
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout == "Redacted the note of 1: erased from 2 events (seq 1, 2) for good; 'tally verify' still proves the rest.\n")
        let verify = tally.run("verify")
        #expect(verify.status == 0 && verify.stdout.hasPrefix("OK: 5 events, chain intact (2 values redacted)"), "\(verify.stdout)\(verify.stderr)")

        let views = [
            tally.run("show", "1"), tally.run("log", "1"), tally.run("--json", "log", "--limit", "1000"), tally.run("blame", "1"),
            tally.run("show", "1", "--as-of", "@1"), tally.run("show", "1", "--as-of", "@2"), tally.run("diff", "2026-01-01"),
            tally.run("export"), tally.run("list", "--deleted"),
        ]
        for view in views {
            #expect(view.status == 0, "\(view.stderr)")
            #expect(!view.stdout.contains("hunter"), "\(view.stdout)")
        }
        #expect(views[0].stdout.contains("Note      [redacted]"))
        #expect(views[4].stdout.contains("[redacted]") && views[5].stdout.contains("[redacted]"))
        #expect(views[7].stdout.contains(#""redacted":""#) && views[7].stdout.contains("history.redacted"))
        // The other todo, the title and every hash are as they were.
        #expect(tally.run("show", "2").stdout.contains("2 litres"))
        #expect(views[0].stdout.contains("Router at home"))
        let after = views[2].json?.arrayValue ?? []
        #expect(after.count == before.count + 1)
        let hashes = { (events: [JSON]) in Set(events.compactMap { $0.objectValue?["hash"]?.stringValue }) }
        #expect(hashes(before).isSubset(of: hashes(after)))
        // The value is in no byte the store keeps.
        #expect(!(try storedBytes(tally)).contains("hunter"))
    }

    @Test("undo of a redaction is refused (exit 1) and appends nothing; the value stays erased")
    func undoRefused() throws {
        let tally = history()
        #expect(tally.run("redact", "1", "--field", "note").status == 0)
        let count = eventCount(tally)
        let undo = tally.run("undo")
        #expect(undo.status == 1)
        #expect(undo.stderr.contains("a redaction cannot be undone: the values no longer exist anywhere in this store. Nothing changed."), "\(undo.stderr)")
        #expect(eventCount(tally) == count)
        #expect(tally.run("verify").status == 0)
    }

    @Test("refusals: a field that cannot be erased (64), nothing to erase (1), twice (1), a record's field on a todo (64); nothing appended")
    func refusals() throws {
        let tally = history()
        let count = eventCount(tally)
        let priority = tally.run("redact", "1", "--field", "priority")
        #expect(priority.status == 64 && priority.stderr.contains("'priority' cannot be redacted from a todo; choose one of: title, note, tags, project, annotations."), "\(priority.stderr)")
        let place = tally.run("redact", "1", "--field", "place")
        #expect(place.status == 64)
        let project = tally.run("redact", "2", "--field", "project")
        #expect(project.status == 1 && project.stderr.contains("2 has no project to redact. Nothing changed."), "\(project.stderr)")
        let missing = tally.run("redact", "1")
        #expect(missing.status == 64)
        #expect(eventCount(tally) == count)
        #expect(tally.run("redact", "2", "--field", "note").status == 0)
        let again = tally.run("redact", "2", "--field", "note")
        #expect(again.status == 1 && again.stderr.contains("was redacted before (1 event)"), "\(again.stderr)")
        #expect(eventCount(tally) == count + 1)
    }

    @Test("erases the text of every annotation of the todo: views, export and import say redacted; verify passes; the other todo's annotation and every hash unchanged")
    func erasesAnnotations() throws {
        let tally = TallyRunner()
        #expect(tally.run("add", "Call the bank").status == 0)
        #expect(tally.run("annotate", "1", "card PIN 4711-QX9").status == 0)
        #expect(tally.run("add", "Buy milk").status == 0)
        #expect(tally.run("annotate", "2", "2 litres, not 1").status == 0)
        #expect(tally.run("annotate", "1", "IBAN CZ65 0800-QX9").status == 0)
        #expect(tally.run("edit", "1", "--note", "ask for the manager").status == 0)
        #expect(try storedBytes(tally).contains("4711-QX9"))
        let before = tally.run("--json", "log", "--limit", "1000").json?.arrayValue ?? []
        let result = tally.run("redact", "1", "--field", "annotations", "--reason", "pasted bank details")
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout == "Redacted the annotations of 1: erased from 2 events (seq 2, 5) for good; 'tally verify' still proves the rest.\n", "\(result.stdout)")
        let verify = tally.run("verify")
        #expect(verify.status == 0 && verify.stdout.hasPrefix("OK: 7 events, chain intact (2 values redacted)"), "\(verify.stdout)\(verify.stderr)")

        let views = [
            tally.run("show", "1"), tally.run("log", "1"), tally.run("--json", "log", "--limit", "1000"), tally.run("blame", "1"),
            tally.run("show", "1", "--as-of", "@2"), tally.run("show", "1", "--as-of", "@5"), tally.run("diff", "2026-01-01"),
            tally.run("export"), tally.run("--json", "show", "1"),
        ]
        for view in views {
            #expect(view.status == 0, "\(view.stderr)")
            #expect(!view.stdout.contains("QX9"), "\(view.stdout)")
        }
        // Both annotations, and the two history lines that added them.
        #expect(views[0].stdout.components(separatedBy: "[redacted]").count == 5, "\(views[0].stdout)")
        #expect(views[0].stdout.contains("ask for the manager") && views[0].stdout.contains("Call the bank"))
        #expect(views[4].stdout.contains("[redacted]") && views[5].stdout.contains("[redacted]"))
        #expect(views[7].stdout.contains(#""field":"annotations""#))
        #expect(tally.run("show", "2").stdout.contains("2 litres, not 1"))
        let after = views[2].json?.arrayValue ?? []
        #expect(after.count == before.count + 1)
        let hashes = { (events: [JSON]) in Set(events.compactMap { $0.objectValue?["hash"]?.stringValue }) }
        #expect(hashes(before).isSubset(of: hashes(after)))
        #expect(!(try storedBytes(tally)).contains("QX9"))
        // Nothing left to erase; undo refused; an annotation written afterwards is kept.
        let again = tally.run("redact", "1", "--field", "annotations")
        #expect(again.status == 1 && again.stderr.contains("was redacted before (2 events)"), "\(again.stderr)")
        #expect(tally.run("undo").status == 1)
        #expect(tally.run("annotate", "1", "called back on Monday").status == 0)
        #expect(tally.run("show", "1").stdout.contains("called back on Monday"))

        // The export carries the redaction into a fresh store that verifies.
        let copy = TallyRunner()
        let imported = copy.run(["import", "-"], input: views[7].stdout)
        #expect(imported.status == 0, "\(imported.stderr)")
        #expect(copy.run("verify").status == 0)
        #expect(copy.run("show", "1").stdout.contains("[redacted]"))
        #expect(!(try storedBytes(copy)).contains("QX9"))
    }

    @Test("--annotation N erases one annotation's text alone; a bad N (65) or another field (64) is refused with nothing appended")
    func oneAnnotation() throws {
        let tally = TallyRunner()
        #expect(tally.run("add", "Call the bank").status == 0)
        #expect(tally.run("annotate", "1", "card PIN 4711-QX9").status == 0)
        #expect(tally.run("annotate", "1", "ask for Mrs Novak").status == 0)
        let count = eventCount(tally)
        let missing = tally.run("redact", "1", "--annotation", "3")
        #expect(missing.status == 65 && missing.stderr.contains("has no annotation 3"), "\(missing.stderr)")
        #expect(tally.run("redact", "1", "--annotation", "1", "--field", "note").status == 64)
        #expect(tally.run("redact", "1", "--annotation", "1", "--record").status == 64)
        #expect(eventCount(tally) == count)
        let result = tally.run("redact", "1", "--annotation", "1", "--reason", "card PIN")
        #expect(result.stdout == "Redacted the annotation 1 of 1: erased from 1 event (seq 2) for good; 'tally verify' still proves the rest.\n", "\(result.stdout)\(result.stderr)")
        let show = tally.run("show", "1").stdout
        #expect(show.contains("[redacted]") && show.contains("ask for Mrs Novak") && !show.contains("QX9"), "\(show)")
        #expect(tally.run("verify").stdout.hasPrefix("OK: 4 events, chain intact (1 value redacted)"))
        #expect(!(try storedBytes(tally)).contains("QX9"))
        #expect(try storedBytes(tally).contains("Mrs Novak"))
        #expect(tally.run("redact", "1", "--annotation", "1").status == 1)
        #expect(eventCount(tally) == count + 1)
    }

    @Test("a record's place, and the export carries the redaction into a fresh store that verifies")
    func recordAndExport() throws {
        let tally = TallyRunner()
        #expect(tally.run("record", "add", "Morning run", "--category", "run", "--duration", "30m", "--place", "Home 12 Elm St").status == 0)
        #expect(tally.run("record", "edit", "1", "--place", "Home 14 Elm St").status == 0)
        let result = tally.run("redact", "1", "--record", "--field", "place", "--reason", "home address")
        #expect(result.status == 0, "\(result.stderr)")
        #expect(tally.run("record", "show", "1").stdout.contains("[redacted]"))
        let export = tally.run("export")
        #expect(!export.stdout.contains("Elm St"))
        let copy = TallyRunner()
        let imported = copy.run(["import", "-"], input: export.stdout)
        #expect(imported.status == 0, "\(imported.stderr)")
        #expect(copy.run("verify").status == 0)
        #expect(copy.run("record", "show", "1").stdout.contains("[redacted]"))
        #expect(!(try storedBytes(copy)).contains("Elm St"))
        // Importing the same export again changes nothing.
        #expect(copy.run(["import", "-"], input: export.stdout).status == 0)
        #expect(copy.run("verify").status == 0)
    }

    @Test("an older export (before the redaction) imported into the redacted store brings nothing back")
    func olderExportBringsNothingBack() throws {
        let tally = history()
        let old = tally.run("export").stdout
        #expect(old.contains("hunter2"))
        #expect(tally.run("redact", "1", "--field", "note").status == 0)
        let again = tally.run(["import", "-"], input: old)
        #expect(again.status == 0, "\(again.stderr)")
        #expect(tally.run("verify").status == 0)
        #expect(!(try storedBytes(tally)).contains("hunter"))
    }

    @Test("--record --file erases the kept activity file for good: the route is in no byte the store keeps, verify passes, undo refused")
    func keptFile() throws {
        let tally = TallyRunner()
        let gpx = PackageFiles.url("Tests/Fixtures/activities/cerknicko-jezero.gpx").path
        #expect(tally.run("record", "import", gpx).status == 0)
        #expect(try storedBytes(tally).contains("45.795349991"))
        let todo = tally.run("redact", "1", "--file")
        #expect(todo.status == 64 && todo.stderr.contains("use it with --record"), "\(todo.stderr)")
        #expect(tally.run("redact", "1", "--record", "--file", "--field", "note").status == 64)
        let result = tally.run("redact", "1", "--record", "--file", "--reason", "the route shows where I live")
        #expect(result.status == 0 && result.stdout == "Erased 1 kept activity file.\n", "\(result.stdout)\(result.stderr)")
        #expect(!(try storedBytes(tally)).contains("45.795349991"))
        #expect(!tally.run("export").stdout.contains("45.795349991"))
        #expect(tally.run("verify").status == 0)
        #expect(tally.run("record", "show", "1").status == 0)
        let again = tally.run("redact", "1", "--record", "--file")
        #expect(again.status == 1 && again.stderr.contains("nothing is left to erase"), "\(again.stderr)")
        #expect(tally.run("undo").status == 1)
    }
}
