import Foundation
import Testing
import TallyDomain
import TallySQLite
@testable import TallyCLI
import TallyTestSupport
@testable import TallyEssentials

/// Titles, notes, tags, actors, record names, file names and typed arguments holding every control
/// character (ESC sequences that clear the screen or set the window title, NUL, CR, line feeds, C1
/// controls, bidirectional overrides) never reach the terminal raw: human output shows them escaped,
/// JSON keeps them as JSON escapes, and no message shows a Swift type dump.
@Suite("Control characters never reach the terminal")
struct ControlCharacterAttackTests {
    /// Every C0 control, DEL, a few C1 controls and the bidirectional overrides, between letters.
    static let hostile: String = {
        var text = "A"
        for value in Array(0x00..<0x20) + [0x7F, 0x85, 0x9B, 0x9D, 0x202E, 0x2066] {
            text.unicodeScalars.append(Unicode.Scalar(UInt32(value))!)
            text += "x"
        }
        return text + "\u{1B}[2J\u{1B}]0;pwned\u{07}\r\nFORGED line"
    }()

    /// Bytes a terminal acts on: C0 controls other than line feed, DEL, C1 controls (as UTF-8), and
    /// the bidirectional controls. Colour sequences are off in these runs (not a terminal).
    static func rawControls(_ text: String) -> [Unicode.Scalar] {
        text.unicodeScalars.filter { scalar in
            scalar != "\n" && TerminalText.needsEscape(scalar)
        }
    }

    /// Appends events straight to the log, as a forged or older store might hold them (the doors
    /// that validate input refuse these titles).
    static func forgedStore(_ tally: TallyRunner, count: Int) throws {
        let log = try SQLiteEventLog.openForWriting(path: tally.databasePath, now: Fixtures.epoch)
        defer { log.close() }
        var head = try log.head()
        var random = SeededRandom(seed: 0xC0)
        func append(_ event: DomainEvent, stream: String, version: Int, actor: String) throws {
            let type = EventCatalog.typeName(of: event)
            var envelope = EventEnvelope(
                seq: head.seq + 1, id: GeneratedExport.uuid(&random), stream: stream, version: version, type: type,
                schema: EventCatalog.currentSchemas[type] ?? 1,
                data: JSON.object(EventCatalog.payload(of: event)).serialized(.canonical),
                recordedAt: Fixtures.epoch + head.seq * 1000, actor: actor, command: GeneratedExport.uuid(&random), hash: ""
            )
            envelope.hash = EventHash.link(previous: head.hash, envelope)
            try log.write { try log.append([envelope]) }
            head = LogHead(seq: envelope.seq, hash: envelope.hash)
        }
        for index in 0..<count {
            let text = hostile + " \(index)"
            let todo = GeneratedExport.uuid(&random)
            try append(.todoCreated(TodoFields(title: text, tags: ["t\u{1B}[31m\(index)"], note: "first\n" + text)), stream: todo, version: 1, actor: "actor\u{1B}]0;x\u{07}\(index)")
            try append(.todoEdited(TodoChanges(title: text + " edited")), stream: todo, version: 2, actor: hostile)
            try append(.recordLogged(RecordFields(name: text, category: "running", durationSeconds: 1800, place: text, date: Fixtures.epoch, note: text)),
                       stream: GeneratedExport.uuid(&random), version: 1, actor: hostile)
        }
    }

    static func expectClean(_ result: RunResult, _ what: String) {
        for (stream, text) in [("stdout", result.stdout), ("stderr", result.stderr)] {
            let raw = rawControls(text)
            #expect(raw.isEmpty, "\(what): \(stream) holds raw control characters \(raw.map { String($0.value, radix: 16) })")
            #expect(!text.split(separator: "\n").contains { $0.hasPrefix("FORGED") }, "\(what): a title forged a line of its own on \(stream)")
            #expect(!text.contains("Error(") && !text.contains("(reason:"), "\(what): a Swift type dump: \(text)")
        }
    }

    @Test("list, show, log, record list and record show escape every field")
    func storedFields() throws {
        let tally = TallyRunner()
        let count = AttackScale.count(short: 3, full: 40)
        try Self.forgedStore(tally, count: count)
        for arguments in [["list"], ["list", "--deleted"], ["show", "1"], ["log"], ["record", "list"], ["record", "show", "1"],
                          ["stats"], ["info"], ["record", "bests"], ["done", "1"], ["undo"], ["delete", "2"], ["log", "1"]] {
            let result = tally.run(arguments)
            Self.expectClean(result, arguments.joined(separator: " "))
        }
        let show = tally.run("show", "1")
        #expect(show.stdout.contains("A\\0x\\x01x"), "the title is shown with its controls escaped: \(show.stdout)")
        #expect(show.stdout.contains("\\e[2J\\e]0;pwned\\x07\\r\\nFORGED line"), "\(show.stdout)")
        // JSON keeps the text itself, escaped the JSON way.
        let json = tally.run(["--json", "list", "--deleted"])
        #expect(Self.rawControls(json.stdout).isEmpty)
        #expect(json.stdout.lowercased().contains("\\u001b[2j\\u001b]0;pwned\\u0007\\r\\nforged line"), "\(json.stdout.prefix(400))")
        // Every line of `--json` and of `export` stays JSON a parser reads, and gives the text back itself:
        // DEL, the C1 controls and the bidirectional overrides are written the JSON way (`\u202E`).
        for (arguments, linewise) in [(["--json", "list", "--deleted"], false), (["export"], true), (["--json", "show", "1"], false)] {
            let output = tally.run(arguments).stdout
            let texts = linewise ? output.split(separator: "\n").map(String.init).filter { !$0.isEmpty } : [output]
            #expect(!texts.isEmpty, "\(arguments)")
            for text in texts {
                #expect((try? JSON.parse(text)) != nil, "\(arguments): not JSON: \(text.prefix(200))")
            }
            #expect(output.contains("\\u202E") || output.contains("\\u202e"), "\(arguments): \(output.prefix(300))")
        }
    }

    @Test("typed arguments and file names in errors and import reports are escaped")
    func messages() throws {
        let tally = TallyRunner()
        tally.run("add", "plain")
        // An argument cannot hold NUL: the system ends it there.
        let typed = Self.hostile.replacingOccurrences(of: "\0", with: "")
        var cases: [[String]] = [
            ["show", typed], [typed], ["list", "--" + typed], ["add", typed], ["add", "ok", "--due", typed],
            ["record", "import", typed], ["import", typed], ["--db", "/nonexistent/" + typed, "list"],
            ["edit", "1", "--title", typed], ["list", "--tag", typed],
        ]
        let folder = tally.directory.path("files")
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        // A file name may hold any byte but `/` and NUL.
        let name = Self.hostile.replacingOccurrences(of: "/", with: "").replacingOccurrences(of: "\0", with: "") + ".gpx"
        try "<gpx>broken".write(toFile: PathText.appending(folder, name), atomically: true, encoding: .utf8)
        try Data([0x1F, 0x8B, 0x08, 0x00, 1, 2, 3]).write(to: URL(fileURLWithPath: PathText.appending(folder, "bad\u{1B}[2J.fit.gz")))
        cases.append(["record", "import", folder])
        for arguments in cases {
            let result = tally.run(arguments)
            Self.expectClean(result, arguments.joined(separator: " ").debugDescription)
            #expect(result.status != 0 || arguments.first == "record" || arguments.first == "--db", "\(arguments.debugDescription) exit \(result.status)")
        }
        let report = tally.run("record", "import", folder)
        #expect(report.stdout.contains("\\e[2J.fit.gz"), "\(report.stdout)")
        #expect(report.stdout.contains("the gzip data cannot be read"), "\(report.stdout)")
        #expect(tally.eventCount == 1, "nothing was appended")
    }

    @Test("the escaping function: every control character visible, idempotent, plain text untouched")
    func escaping() {
        for value in Array(0..<0x20) + [0x7F] + Array(0x80..<0xA0) + [0x202A, 0x202E, 0x2066, 0x2069] {
            let text = "a" + String(Unicode.Scalar(UInt32(value))!) + "b"
            let escaped = TerminalText.escaped(text)
            #expect(Self.rawControls(escaped).isEmpty && escaped.unicodeScalars.allSatisfy { $0 != "\n" }, "U+\(String(value, radix: 16))")
            #expect(TerminalText.escaped(escaped) == escaped)
        }
        for plain in ["", "Buy milk", "Příliš žluťoučký kůň", "→ … – ✓ █░", "日本語", "emoji 👩‍👩‍👧"] {
            #expect(TerminalText.escaped(plain) == plain)
        }
    }
}
