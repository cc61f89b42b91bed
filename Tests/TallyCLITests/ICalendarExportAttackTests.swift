import Foundation
import Testing
import TallyDomain
import TallyTestSupport
@testable import TallyEssentials

/// The longest titles and notes tally keeps, made of what iCalendar must escape or must not split
/// (backslashes, semicolons, commas, line breaks, tabs, emoji, combining marks):
/// every line stays within 75 octets and the parser reads every text back exactly. Needs icalendar 6 or
/// later: 4.x (Debian 12's python3-icalendar) unescapes twice and reads the text `\n` as a line break.
@Suite("export --ical: hostile text")
struct ICalendarExportAttackTests {
    @Test("generated titles and notes at their limits read back exactly", .enabled(if: (ICalendarExportTests.parser?.major ?? 0) >= 6))
    func hostileText() throws {
        let tally = TallyRunner()
        var random = SeededRandom(seed: 2545)
        let pieces = ["\\", ";", ",", ":", "\\n", "\"", "é", "e\u{301}", "😀", "👩‍👩‍👧", "字", " ", "a", "BEGIN:VTODO"]
        var expected: [String: (String, String)] = [:]
        for index in 0..<AttackScale.count(short: 6, full: 120) {
            func text(_ limit: Int, lines: Bool) -> String {
                var result = ""
                // (Limits count code points, `Validation.length`: an emoji sequence counts as several.)
                while Validation.length(result) < limit {
                    let piece = lines && Int.random(in: 0..<20, using: &random) == 0 ? (Bool.random(using: &random) ? "\n" : "\t") : pieces.randomElement(using: &random)!
                    guard Validation.length(result + piece) <= limit else { break }
                    result += piece
                }
                return result.trimmingCharacters(in: .whitespacesAndNewlines)
            }
            let title = "t\(index) " + text(index % 3 == 0 ? 490 : 60, lines: false)
            let note = "n " + text(index % 3 == 0 ? 9_990 : 200, lines: true)
            let result = tally.run("add", title, "--note", note, "--due", "2026-12-0\(index % 9 + 1)")
            guard result.status == 0 else { Issue.record("add \(index): \(result.stderr.prefix(200))"); continue }
            let todo = tally.run("--json", "show", String(index + 1)).json?.objectValue?["todo"]?.objectValue
            if let id = todo?["id"]?.stringValue, let storedTitle = todo?["title"]?.stringValue, let storedNote = todo?["note"]?.stringValue {
                expected[id] = (storedTitle, storedNote)
            }
        }
        #expect(expected.count >= AttackScale.count(short: 6, full: 120) / 2)
        let file = tally.directory.path("todos.ics")
        #expect(tally.run("export", "--ical", "--output", file).status == 0)
        let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: file)))
        let lines = String(decoding: bytes, as: UTF8.self).components(separatedBy: "\r\n")
        #expect(lines.allSatisfy { $0.utf8.count <= 75 })
        let parsed = try ICalendarExportTests.parsed(file)
        for (id, (title, note)) in expected {
            #expect(parsed[id]?["summary"]?.stringValue == title, "\(id)")
            #expect(parsed[id]?["description"]?.stringValue == note, "\(id)")
        }
    }
}
