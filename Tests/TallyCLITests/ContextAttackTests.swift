import Foundation
import Testing
import TallyDomain
import TallyTestSupport

/// Hostile input to the context, calendar, summary, burndown and record-filter doors: every refusal
/// is a message with exit 64 or 65, nothing is appended, and nothing traps.
@Suite("contexts, reports and record filters under hostile input")
struct ContextAttackTests {
    /// A status a trap or a signal would give (a crash is never 64 or 65).
    static func crashed(_ result: RunResult) -> Bool {
        result.status > 128 || result.stderr.contains("Fatal error") || result.stderr.contains("Swift runtime failure")
    }

    static let hostileWords: [String] = [
        "\u{1B}[2J\u{1B}]0;pwned\u{07}", "a\u{202E}b", "list", "LIST", "None", "define", "(", "\"", "\\",
        String(repeating: "x", count: 33), String(repeating: "é", count: 10_000), "a b", "tag:x", "\u{FEFF}", " ",
    ]

    /// Names like tags of any script: accepted, and usable by the same spelling.
    static let oddButValid = ["-", "ｗｏｒｋ", "e\u{301}", "日本語", "Práce"]

    @Test("hostile context names are refused with a message, escaped, appending nothing")
    func names() {
        let tally = TallyRunner()
        tally.run("add", "x")
        let count = tally.eventCount
        for name in Self.hostileWords {
            // An action word alone is that action (`context list`), not a name.
            let forms = TodoContexts.reservedNames.contains(name) ? [["context", "define", name, "tag:x"]]
                : [["context", "define", name, "tag:x"], ["context", name], ["context", "delete", name]]
            for arguments in forms {
                let result = tally.run(arguments)
                #expect(!Self.crashed(result), "\(arguments)")
                #expect([64, 65].contains(result.status), "\(arguments.map { Array($0.unicodeScalars) }): \(result.status) \(result.stdout)")
                #expect(!result.stderr.contains("\u{1B}") && !result.stderr.contains("\u{202E}"), "\(arguments)")
            }
        }
        #expect(tally.eventCount == count)
        for name in Self.oddButValid {
            #expect(tally.run("context", "define", name, "tag:x").status == 0, "\(name)")
            #expect(tally.run("context", name).status == 0, "\(name)")
            #expect(tally.run("context", "delete", name).status == 0, "\(name)")
        }
        #expect(tally.run("context").stdout == "No context is active: lists show every todo.\n")
    }

    @Test("the contexts stop at the limit; the one past it is refused")
    func limit() {
        let tally = TallyRunner()
        for number in 0..<TodoContexts.maxContexts {
            #expect(tally.run("context", "define", "c\(number)", "tag:t\(number)").status == 0)
        }
        let count = tally.eventCount
        let refused = tally.run("context", "define", "one-more", "tag:x")
        #expect(refused.status == 65)
        #expect(refused.stderr == "Error: There are 50 contexts already; delete one first ('tally context delete NAME').\n")
        #expect(tally.eventCount == count)
        // Redefining one that exists is still allowed.
        #expect(tally.run("context", "define", "c0", "tag:other").status == 0)
    }

    @Test("an imported todos' view with forged contexts is refused, appending nothing")
    func forgedImport() {
        let source = TallyRunner()
        source.run("add", "x")
        let base = source.run("export").stdout.split(separator: "\n").map(String.init)
        source.run("context", "define", "work", "tag:shop")
        let full = source.run("export").stdout.split(separator: "\n").map(String.init)
        guard let view = full.last, view.contains("\"contexts\":{\"work\":{\"expression\":\"tag:shop\"}}") else {
            Issue.record("no context event: \(full)")
            return
        }
        let forgeries = [
            view.replacingOccurrences(of: "\"work\":", with: "\"list\":"),
            view.replacingOccurrences(of: "\"work\":", with: "\"a\\u001b[2J\":"),
            view.replacingOccurrences(of: "\"expression\":\"tag:shop\"", with: "\"expression\":\"(((\""),
            view.replacingOccurrences(of: "\"expression\":\"tag:shop\"", with: "\"expression\":\"category:running\""),
            view.replacingOccurrences(of: "\"contexts\":{", with: "\"active\":\"home\",\"contexts\":{"),
            view.replacingOccurrences(of: "{\"work\":{\"expression\":\"tag:shop\"}}", with: "[\"work\"]"),
            view.replacingOccurrences(of: "{\"work\":{\"expression\":\"tag:shop\"}}", with: "{" + (0...TodoContexts.maxContexts).map { "\"c\($0)\":{}" }.joined(separator: ",") + "}"),
        ]
        for forged in forgeries {
            let tally = TallyRunner()
            let imported = tally.run(["import", "-"], input: (base + [forged]).joined(separator: "\n") + "\n")
            #expect(imported.status == 65, "\(forged): \(imported.stderr)")
            #expect(!Self.crashed(imported))
            #expect(tally.eventCount <= 0, "\(forged)")
        }
    }

    @Test("random words as MONTH, filters of reports and record filters never trap")
    func randomArguments() {
        let tally = TallyRunner()
        tally.run("add", "x", "--due", "today", "--project", "p")
        tally.run("record", "add", "Run", "--category", "running", "--duration", "30m")
        let count = tally.eventCount
        var random = SeededRandom(seed: 0x25)
        let pieces = ["category:", "date.after:", "date:", "tag:", "(", ")", "\"", "-", "not", "or", "nebo", "@1", "9999-12", "0000-01",
                      "-99999999999999999999", "2026-02-30", "status:deleted", "source:import", "is:ready", "\u{301}", "日本", "+"]
        for _ in 0..<AttackScale.count(short: 40, full: 400) {
            let word = (0..<Int.random(in: 1...4, using: &random)).map { _ in pieces.randomElement(using: &random)! }.joined(separator: Bool.random(using: &random) ? "" : " ")
            for arguments in [["calendar", word], ["summary", word], ["burndown", word], ["record", "list", word], ["projects", word], ["export", word]] {
                let result = tally.run(arguments)
                #expect(!Self.crashed(result), "\(arguments): \(result.stderr)")
                #expect([0, 64, 65].contains(result.status), "\(arguments): \(result.status) \(result.stderr)")
            }
        }
        #expect(tally.eventCount == count)
    }
}
