import Foundation
import Testing
import TallyDomain
@testable import TallySQLite
import TallyTestSupport
@testable import TallyEssentials

/// Damaged databases, hostile files and hostile import lines, driven end to end: every message is
/// words, never a Swift type dump (`GzipError(reason: ...)`, `io("...")`, `TallyDomain.EventLogError`).
@Suite("No type dumps in messages")
struct MessageDumpAttackTests {
    /// What a dump looks like: a type or case name and its fields, or a module-qualified name.
    static let dumpPatterns = [
        #"[A-Z][A-Za-z]+Error\("#, #"Error\("#, #"\(reason:"#, #"Tally[A-Z][a-z]+\."#,
        #"\b[a-z][A-Za-z]*\(""#, #"Optional\("#, #"Error Domain="#,
    ]

    /// Records an issue for every dump in the output of `result`.
    static func expectNoDump(_ result: RunResult, _ label: String, sourceLocation: SourceLocation = #_sourceLocation) {
        let output = result.stdout + result.stderr
        for pattern in dumpPatterns where output.range(of: pattern, options: .regularExpression) != nil {
            Issue.record("\(label): output matches \(pattern): \(output)", sourceLocation: sourceLocation)
        }
    }

    static func execute(_ path: String, _ sql: String) throws {
        let connection = try Connection(path: path, access: .readWrite)
        try connection.execute(sql)
        connection.close()
    }

    @Test("a snapshots table that cannot be read: a warning in words, verify reports it, writes refuse in words; the events stay")
    func damagedSnapshots() throws {
        for language in ["C", "cs_CZ.UTF-8"] {
            let tally = TallyRunner()
            tally.environment["LC_ALL"] = language
            for title in ["one", "two", "three"] { tally.run("add", title) }
            #expect(tally.run("snapshot").status == 0)
            try Self.execute(tally.databasePath, "ALTER TABLE snapshots RENAME COLUMN chunk_sums TO damaged")
            let list = tally.run("list")
            #expect(list.status == 0 && list.stdout.contains("three"), "\(list.stderr)")
            #expect(list.stderr.contains("SQLite error 1: no such column: chunk_sums"), "\(list.stderr)")
            Self.expectNoDump(list, "list")
            let verify = tally.run("verify")
            #expect(verify.status == 1)
            Self.expectNoDump(verify, "verify")
            let snapshot = tally.run("snapshot")
            #expect(snapshot.status == 74 && snapshot.stderr.contains("chunk_sums"), "\(snapshot.stderr)")
            Self.expectNoDump(snapshot, "snapshot")
            #expect(tally.eventCount == 3)

            try Self.execute(tally.databasePath, "ALTER TABLE snapshots RENAME TO kept_snapshots; CREATE VIEW snapshots AS SELECT * FROM kept_snapshots")
            let rebuild = tally.run("rebuild")
            #expect(rebuild.status == 74 && rebuild.stderr.contains("is a view"), "\(rebuild.stderr)")
            Self.expectNoDump(rebuild, "rebuild")
            #expect(tally.eventCount == 3)
        }
    }

    @Test("a stored original file of an unknown encoding, and a file that is no database: refused in words")
    func damagedStores() throws {
        let tally = TallyRunner()
        #expect(tally.run("record", "import", PackageFiles.url("Tests/Fixtures/activities/cerknicko-jezero.gpx").path).status == 0)
        try Self.execute(tally.databasePath, """
            ALTER TABLE blobs RENAME TO old_blobs;
            CREATE TABLE blobs(sha256 TEXT PRIMARY KEY, encoding TEXT, body BLOB) WITHOUT ROWID;
            INSERT INTO blobs SELECT sha256, 'brotli', body FROM old_blobs;
            DROP TABLE old_blobs
            """)
        for arguments in [["export"], ["verify"]] {
            let result = tally.run(arguments)
            #expect(result.status == 74 && result.stderr.contains("has an unknown encoding"), "\(arguments): \(result.stderr)")
            Self.expectNoDump(result, arguments[0])
        }
        #expect(tally.eventCount == 1)

        let other = TallyRunner()
        try String(repeating: "not a database ", count: 20).write(toFile: other.databasePath, atomically: true, encoding: .utf8)
        for arguments in [["list"], ["verify"], ["add", "x"], ["import", "-"]] {
            let result = other.run(arguments, input: "")
            #expect(result.status == 74 && result.stderr.contains("not a tally database"), "\(arguments): \(result.stderr)")
            Self.expectNoDump(result, arguments[0])
        }
    }

    @Test("hostile activity files: each reported in words, nothing stored")
    func hostileActivityFiles() throws {
        let tally = TallyRunner()
        let folder = tally.directory.path("hostile")
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let point = #"<trkpt lat="1" lon="2"><time>2020-01-01T00:00:00Z</time></trkpt>"#
        var random = SplitMix64(seed: 22)
        let files: [String: [UInt8]] = [
            "cut.gpx": Array("<?xml version=\"1.0\"?><gpx><trk><trkseg>\(point)".utf8),
            "entity.gpx": Array("<?xml version=\"1.0\"?><gpx>&bogus;</gpx>".utf8),
            "doctype.gpx": Array("<!DOCTYPE gpx [<!ENTITY a \"b\">]><gpx/>".utf8),
            "second-root.gpx": Array("<gpx><trk><trkseg>\(point)\(point)</trkseg></trk></gpx><gpx/>".utf8),
            "deep.gpx": Array(("<gpx>" + String(repeating: "<a>", count: 5_000) + "</gpx>").utf8),
            "utf8.gpx": Array("<?xml version=\"1.0\"?><gpx>".utf8) + [0xFF, 0xFE] + Array("</gpx>".utf8),
            "lap.tcx": Array("<TrainingCenterDatabase><Activities><Activity Sport=\"Running\"><Lap StartTime=\"x\"><TotalTimeSeconds>nan</TotalTimeSeconds></Lap></Activity></Activities></TrainingCenterDatabase>".utf8),
            "damaged.gpx.gz": [0x1F, 0x8B, 0x08, 0x00] + Array("not deflate data at all".utf8),
            "noise.fit": (0..<3_000).map { _ in UInt8.random(in: 0...255, using: &random) },
            "header.fit": [14, 0x10, 0x6C, 0x00, 0xFF, 0xFF, 0xFF, 0x7F, 0x2E, 0x46, 0x49, 0x54, 0x00, 0x00] + [UInt8](repeating: 0x40, count: 64),
        ]
        for (name, bytes) in files { try Data(bytes).write(to: URL(fileURLWithPath: folder + "/" + name)) }
        for language in ["C", "cs_CZ.UTF-8"] {
            let result = tally.run(["record", "import", folder], environment: ["LC_ALL": language])
            #expect(result.status == 0, "\(result.stderr)")
            for name in files.keys { #expect(result.stdout.contains(name), "\(name) not reported: \(result.stdout)") }
            Self.expectNoDump(result, "record import (\(language))")
        }
        #expect(tally.eventCount <= 0)
    }

    @Test("hostile import lines: each refused at its line in words, nothing appended")
    func hostileImportLines() throws {
        let tally = TallyRunner()
        tally.run("add", "kept")
        let sha = String(repeating: "a", count: 64)
        let lines = [
            "{\"blob\":\"\(sha)\",\"encoding\":\"gzip\",\"data\":\"H4sIAAAAAAAA\"}",
            "{\"blob\":\"\(sha)\",\"encoding\":\"gzip\",\"data\":\"H4sIAAAAAAAAA2FiYWQAAA==\"}",
            "{\"blob\":\"\(sha)\",\"encoding\":\"identity\",\"data\":\"####\"}",
            "{\"blob\":\"\(sha)\",\"encoding\":\"lzma\",\"data\":\"\"}",
            "{\"blob\":7}",
            "{\"blob\":\"\(sha)\",\"encoding\":\"identity\",\"data\":\"aGk=\"}",
            "{\"seq\":1,\"type\":\"todo.created\"}",
            "{\"id\":\"x\",\"stream\":\"y\",\"version\":1,\"type\":\"todo.created\",\"schema\":99,\"recordedAt\":\"2026-01-01T00:00:00Z\",\"actor\":\"a\",\"command\":\"c\",\"data\":{}}",
            "[1,2,3]",
            "\u{1B}[31m not json",
        ]
        for line in lines {
            for language in ["C", "cs_CZ.UTF-8"] {
                let result = tally.run(["import", "-"], input: line + "\n", environment: ["LC_ALL": language])
                #expect(result.status == 65, "\(line): \(result.stderr)")
                Self.expectNoDump(result, line)
            }
        }
        #expect(tally.eventCount == 1)
        #expect(tally.run("verify").status == 0)
    }

    @Test("an error without words of its own reads as a plain phrase, never its type or fields")
    func errorWords() {
        struct Opaque: Error { var secret = 42 }
        enum Cases: Error { case broken(String) }
        struct Dumping: Error, CustomStringConvertible { var description: String { "Dumping(field: 1)" } }
        struct Worded: Error, CustomStringConvertible { var description: String { "the disk said no (errno 5)" } }
        #expect(ErrorWords.text(Opaque()) == ErrorWords.unknown)
        #expect(ErrorWords.text(Cases.broken("x")) == ErrorWords.unknown)
        #expect(ErrorWords.text(Dumping()) == ErrorWords.unknown)
        #expect(ErrorWords.text(Worded()) == "the disk said no (errno 5)")
        #expect(ErrorWords.text(EventLogError.io("SQLite error 10: disk I/O error")) == "SQLite error 10: disk I/O error")
        #expect(ErrorWords.text(EventLogError.newerSchema(found: 9, known: 4)).hasPrefix("the database was written by a newer tally"))
    }
}
