import Foundation
import Testing
import TallyDomain
import TallyTestSupport
@testable import TallyEssentials

/// Hostile editor output: control characters, NUL, invalid UTF-8, huge files, oversized fields, random
/// bytes. Each is refused with exit 65 and the text kept, or applied within tally's limits; nothing
/// crashes, nothing outside the limits is appended, and `verify` passes.
@Suite("tally edit in $EDITOR: hostile editor output")
struct TodoEditorAttackTests {
    /// An editor that replaces the file with `bytes`.
    static func writer(_ folder: TemporaryDirectory, _ bytes: [UInt8], name: String = "out") throws -> String {
        let data = folder.path(name + ".bin")
        _ = FileManager.default.createFile(atPath: data, contents: Data(bytes))
        return "cp '\(data)'"
    }

    static func form(title: String = "Buy milk", note: String = "") -> String {
        "Title: \(title)\nTags: shop\nProject:\nPriority: high\nDue: 2026-11-25\nWait:\nAfter:\nNote:\n\(note)"
    }

    @Test("control characters, NUL, invalid UTF-8, oversized fields and a huge file are refused; nothing appended")
    func refused() throws {
        let tally = TodoEditorCommandTests.seeded()
        let folder = TemporaryDirectory("tally-editor-attack")
        let cases: [(String, [UInt8], String)] = [
            ("escape in the title", Array(Self.form(title: "a\u{1B}[2Jb").utf8), "control character (U+001B)"),
            ("bell in a tag", Array(Self.form().replacingOccurrences(of: "Tags: shop", with: "Tags: sh\u{7}op").utf8), "control character (U+0007)"),
            ("C1 control in the note", Array(Self.form(note: "x\u{9B}y").utf8), "control character (U+009B)"),
            ("NUL", Array(Self.form().utf8) + [0, 0x41], "not UTF-8 text"),
            ("invalid UTF-8", Array(Self.form(title: "abc").utf8) + [0xC3, 0x28, 0xFF], "not UTF-8 text"),
            ("a title over 500 characters", Array(Self.form(title: String(repeating: "t", count: 501)).utf8), "500"),
            ("a note over 10,000 characters", Array(Self.form(note: String(repeating: "n", count: 10_001)).utf8), "10000"),
            ("a tag that is not one", Array(Self.form().replacingOccurrences(of: "Tags: shop", with: "Tags: sh/op").utf8), "sh/op"),
            ("a 2 MB file", Array(Self.form(note: String(repeating: "n", count: 2 << 20)).utf8), "longer than 1 MB"),
            ("a field name of 10,000 characters", Array((String(repeating: "F", count: 10_000) + ": x\n" + Self.form()).utf8), "is not a field of the form"),
        ]
        let events = tally.eventCount
        for (index, (name, bytes, words)) in cases.enumerated() {
            let editor = try Self.writer(folder, bytes, name: "case\(index)")
            let result = tally.run(["edit", "1"], environment: TodoEditorCommandTests.environment(tally, editor: editor))
            #expect(result.status == 65, "\(name): \(result.status) \(result.stderr.prefix(300))")
            #expect(result.stderr.replacingOccurrences(of: ",", with: "").contains(words.replacingOccurrences(of: ",", with: "")), "\(name): \(result.stderr.prefix(300))")
            #expect(!result.stderr.contains("\u{1B}[2J") && !result.stderr.utf8.contains(0), "\(name): no control character reaches the terminal")
            #expect(result.stderr.utf8.count < 2_000, "\(name): the message does not repeat the file")
        }
        #expect(tally.eventCount == events)
        #expect(TodoEditorCommandTests.leftovers(tally).count == cases.count)
        #expect(tally.run("verify").status == 0)
    }

    @Test("CRLF line ends and a note with tabs are read as the user meant")
    func lineEnds() throws {
        let tally = TodoEditorCommandTests.seeded()
        let folder = TemporaryDirectory("tally-editor-attack")
        let text = Self.form(title: "Buy oat milk", note: "one\ttab\nsecond").replacingOccurrences(of: "\n", with: "\r\n")
        let result = tally.run(["edit", "1"], environment: TodoEditorCommandTests.environment(tally, editor: try Self.writer(folder, Array(text.utf8))))
        #expect(result.status == 0, "\(result.stderr)")
        let todo = tally.run("--json", "show", "1").json?.objectValue?["todo"]?.objectValue
        #expect(todo?["title"] == "Buy oat milk" && todo?["note"] == "one\ttab\nsecond")
    }

    @Test("random bytes and random forms: exit 0 or 65, never a crash; verify passes")
    func randomOutput() throws {
        let tally = TodoEditorCommandTests.seeded()
        let folder = TemporaryDirectory("tally-editor-attack")
        var random = SeededRandom(seed: 25)
        let pieces = ["Title:", "Tags:", "Note:", "Due:", "Priority:", "After:", "Wait:", "Project:", "#", "\n", "\r", " ", ":", "x", "é", "\u{1B}", "\t",
                      "2026-11-25", "none", "high", "1", "99999999999999999999", "-", ",", "\u{FEFF}", "\u{202E}", "😀"]
        for round in 0..<AttackScale.count(short: 12, full: 200) {
            var bytes: [UInt8]
            if round % 3 == 0 {
                bytes = (0..<Int.random(in: 0..<400, using: &random)).map { _ in UInt8.random(in: 0...255, using: &random) }
            } else {
                bytes = Array((0..<Int.random(in: 1..<60, using: &random)).map { _ in pieces.randomElement(using: &random)! }.joined().utf8)
            }
            let result = tally.run(["edit", "1"], environment: TodoEditorCommandTests.environment(tally, editor: try Self.writer(folder, bytes, name: "r\(round)")))
            #expect([0, 65].contains(result.status), "round \(round): \(result.status) \(result.stderr.prefix(300))")
        }
        #expect(tally.run("verify").status == 0)
    }
}
