import Foundation
import Testing
import TallyTestSupport

@Suite("calendar, summary, burndown and context list on a real terminal", .enabled(if: PseudoTerminal.isAvailable))
struct TodoReportTerminalTests {
    static func seeded() -> TallyRunner {
        let tally = TallyRunner(now: "2026-11-25T12:00:00Z")
        tally.run("add", "Write the quarterly report for the finance department", "--project", "work.finance.quarterly", "--due", "2026-11-25")
        tally.run("add", "Dig", "--project", "home.garden", "--due", "2026-11-03")
        tally.run("done", "2")
        for day in 1...28 {
            tally.run(["add", "Chore \(day)", "--due", "2026-11-\(day < 10 ? "0" : "")\(day)"], environment: ["TALLY_NOW": "2026-10-\(day < 10 ? "0" : "")\(day)T08:00:00Z"])
        }
        tally.run("context", "define", "finance", "project:work.finance or tag:money or (due.before:eom -status:completed)")
        return tally
    }

    @Test("calendar marks today in bold on a colour terminal, plainly without colour, and fits 80 columns")
    func calendarColour() throws {
        let tally = Self.seeded()
        var environment = TerminalTests.terminalEnvironment(tally)
        let terminal = try PseudoTerminal(columns: 80, ["calendar"], environment: environment)
        #expect(terminal.finish() == 0)
        let raw = String(decoding: terminal.output, as: UTF8.self)
        #expect(raw.contains("\u{1B}[1m[25]\u{1B}[0m"), "\(raw)")
        #expect(raw.contains("\u{1B}[1mNovember 2026\u{1B}[0m"))
        environment["NO_COLOR"] = "1"
        let plain = try PseudoTerminal(columns: 80, ["calendar"], environment: environment)
        #expect(plain.finish() == 0)
        let text = String(decoding: plain.output, as: UTF8.self)
        #expect(!text.contains("\u{1B}[") && text.contains("[25]"))
        for language in ["C.UTF-8", "cs_CZ.UTF-8"] {
            let (screen, status) = try PseudoTerminal.run(columns: 80, ["calendar"], environment: environment.merging(["LANG": language]) { $1 })
            #expect(status == 0)
            #expect(screen.wraps == 0, "\(screen.lines.joined(separator: "\n"))")
            #expect(screen.lines.count >= 15)
        }
    }

    @Test("summary, burndown and context list fit 40 and 80 columns", arguments: [40, 80])
    func fits(columns: Int) throws {
        let tally = Self.seeded()
        let environment = TerminalTests.terminalEnvironment(tally)
        for arguments in [["summary"], ["burndown", "--daily"], ["burndown"], ["context", "list"], ["projects"]] {
            let (screen, status) = try PseudoTerminal.run(columns: columns, arguments, environment: environment)
            #expect(status == 0, "\(arguments)")
            #expect(screen.wraps == 0, "\(arguments) at \(columns):\n\(screen.lines.joined(separator: "\n"))")
        }
        let burndown = try PseudoTerminal.run(columns: columns, ["burndown", "--daily"], environment: environment).screen.lines
        // Every day shows a column; at 40 columns without the gaps between them.
        #expect(burndown.contains { $0.hasPrefix("29 │") }, "\(burndown.joined(separator: "\n"))")
    }
}
