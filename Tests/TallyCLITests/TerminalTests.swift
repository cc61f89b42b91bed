import Foundation
import Testing
import TallyDomain
import TallyTestSupport
@testable import TallyCLI
@testable import TallyEssentials

/// What depends on a real terminal, run on a pseudo-terminal: the width tables fit, the progress
/// bar's redraws, and Ctrl-C during an import.
@Suite("tally on a real terminal", .enabled(if: PseudoTerminal.isAvailable))
struct TerminalTests {
    /// The runner's environment without `COLUMNS`, as bash and zsh leave it: the width must come from the terminal.
    static func terminalEnvironment(_ tally: TallyRunner) -> [String: String] {
        var environment = tally.environment
        environment["TERM"] = "xterm-256color"
        environment["COLUMNS"] = nil
        return environment
    }

    static let longTitle = "Write the quarterly report for the finance department before the board meeting"

    /// A store with long titles, tags, priorities, dates, records and history.
    static func seeded() -> TallyRunner {
        let tally = TallyRunner()
        tally.run("add", longTitle, "--tag", "work", "--tag", "finance", "--priority", "high", "--due", "2026-11-20")
        tally.run("add", "Buy oat milk", "--tag", "shop", "--due", "2026-11-22T18:00")
        tally.run("add", "Call the dentist", "--priority", "low")
        tally.run("done", "3")
        tally.run("delete", "3")
        tally.run("record", "add", "Morning run along the river", "--category", "running", "--duration", "27:30", "--distance", "5km", "--place", "Stromovka park and back")
        tally.run("record", "add", "Ride to work", "--category", "cycling", "--duration", "35m", "--distance", "12.4km", "--date", "-8d")
        return tally
    }

    @Test("tables fit the terminal's own width at 40, 80 and 200 columns, with COLUMNS unset", arguments: [40, 80, 200])
    func tablesFit(columns: Int) throws {
        let tally = Self.seeded()
        let environment = Self.terminalEnvironment(tally)
        let czech = environment.merging(["LANG": "cs_CZ.UTF-8"]) { $1 }
        for language in [environment, czech] {
            for arguments in [["list", "--deleted"], ["record", "list"], ["stats"], ["stats", "--by", "category"], ["log"]] {
                let (screen, status) = try PseudoTerminal.run(columns: columns, arguments, environment: language)
                #expect(status == 0, "\(arguments)")
                #expect(screen.wraps == 0, "a line of \(arguments) is wider than \(columns) columns:\n\(screen.lines.joined(separator: "\n"))")
                #expect(screen.lines.count > 2, "\(arguments)")
            }
        }
        let list = try PseudoTerminal.run(columns: columns, ["list"], environment: environment).screen.lines.joined(separator: "\n")
        #expect(list.contains("Buy oat milk") && list.contains("#  Done  Title"))
        if columns == 200 {
            #expect(list.contains(Self.longTitle), "a wide terminal shows the whole title:\n\(list)")
            #expect(list.contains("Priority") && list.contains("Tags"))
        }
        if columns == 40 {
            #expect(!list.contains("Tags"), "tags are the first column to go:\n\(list)")
        }
    }

    @Test("on a terminal, overdue dates, high priority and Error: are colored; NO_COLOR and --no-color turn it all off")
    func color() throws {
        let tally = Self.seeded()
        let environment = Self.terminalEnvironment(tally)
        let red = "\u{1B}[31m"
        func run(_ arguments: [String], _ extra: [String: String] = [:]) throws -> String {
            let terminal = try PseudoTerminal(columns: 200, arguments, environment: environment.merging(extra) { $1 })
            _ = terminal.finish()
            return String(decoding: terminal.output, as: UTF8.self)
        }
        let list = try run(["list"])
        #expect(list.contains(red + "2026-11-20"), "the overdue date is red")
        #expect(list.contains("\u{1B}[1m\u{1B}[33mhigh"), "high priority is bold yellow")
        #expect(!list.contains(red + "2026-11-22 18:00"), "a date still to come is not red")
        let error = try run(["show", "99"])
        #expect(error.hasPrefix(red + "Error:\u{1B}[0m No todo matches '99'."), "\(error)")
        for (arguments, extra) in [(["list"], ["NO_COLOR": "1"]), (["--no-color", "list"], [:]), (["show", "99"], ["NO_COLOR": "1"]), (["list"], ["TERM": "dumb"])] {
            #expect(!(try run(arguments, extra)).contains("\u{1B}["), "\(arguments) \(extra)")
        }
        let piped = tally.run("list")
        #expect(!piped.stdout.contains("\u{1B}") && piped.stdout.contains("2026-11-20"), "no color when not a terminal")
    }

    @Test("a due date is overdue once its day is over in the local zone, not in UTC")
    func overdueByLocalDay() throws {
        let tally = TallyRunner()
        tally.environment["TZ"] = "Europe/Prague"
        tally.run("add", "yesterday", "--due", "2026-11-21")
        tally.run("add", "today", "--due", "2026-11-22")
        tally.run("add", "in an hour", "--due", "2026-11-22T01:30")
        tally.run("add", "half an hour ago", "--due", "2026-11-22T00:00")
        var environment = Self.terminalEnvironment(tally)
        // 00:30 on the 22nd in Prague, still the 21st in UTC.
        environment["TALLY_NOW"] = "2026-11-21T23:30:00Z"
        let terminal = try PseudoTerminal(columns: 120, ["list"], environment: environment)
        #expect(terminal.finish() == 0)
        let list = String(decoding: terminal.output, as: UTF8.self)
        let red = "\u{1B}[31m"
        #expect(list.contains(red + "2026-11-21"), "the 21st is over in Prague: \(list)")
        #expect(!list.contains(red + "2026-11-22\u{1B}") && list.contains("2026-11-22"), "today is not overdue: \(list)")
        #expect(list.contains(red + "2026-11-22 00:00"), "an instant half an hour ago is overdue")
        #expect(!list.contains(red + "2026-11-22 01:30"), "an instant still to come is not")
    }

    @Test("the progress bar redraws in place and leaves nothing behind, at 40 and 200 columns", arguments: [40, 200])
    func progressBar(columns: Int) throws {
        let tally = TallyRunner()
        var random = SeededRandom(seed: 15)
        let export = tally.directory.path("export.jsonl")
        _ = try GeneratedExport(events: 10_000, path: export, random: &random)
        let terminal = try PseudoTerminal(columns: columns, ["import", export], environment: Self.terminalEnvironment(tally))
        #expect(terminal.finish() == 0)
        let output = terminal.output
        let text = String(decoding: output, as: UTF8.self)
        let frames = text.components(separatedBy: "\r").filter { $0.hasPrefix("Importing [") || $0.hasPrefix("[") }
        #expect(frames.count >= 5, "the bar redraws as the import goes on")
        // Up to the bar's last erase, nothing went past the right margin.
        var bar = VirtualScreen(columns: columns)
        let lastErase = text.range(of: "\r\u{1B}[K", options: .backwards).map { text[..<$0.upperBound] } ?? ""
        bar.feed(Array(lastErase.utf8))
        #expect(bar.wraps == 0, "a bar frame is wider than \(columns) columns")
        var screen = VirtualScreen(columns: columns)
        screen.feed(output)
        let result = screen.lines.joined()
        #expect(result.hasPrefix("Imported 1000") && result.hasSuffix("events (0 already present)."), "only the result is left: \(screen.lines)")

        let rebuilding = try PseudoTerminal(columns: columns, ["rebuild"], environment: Self.terminalEnvironment(tally))
        #expect(rebuilding.finish() == 0)
        let rebuildText = String(decoding: rebuilding.output, as: UTF8.self)
        var rebuildBar = VirtualScreen(columns: columns)
        rebuildBar.feed(Array((rebuildText.range(of: "\r\u{1B}[K", options: .backwards).map { rebuildText[..<$0.upperBound] } ?? "").utf8))
        #expect(rebuildBar.wraps == 0, "a rebuild bar frame is wider than \(columns) columns")
        #expect(rebuildText.range(of: "[0-9]{8,} events/s", options: .regularExpression) == nil, "no absurd rate before it is measured")
        var rebuildScreen = VirtualScreen(columns: columns)
        rebuildScreen.feed(rebuilding.output)
        #expect(rebuildScreen.lines.joined().hasPrefix("Rebuilt the read models from"), "\(rebuildScreen.lines)")
        #expect(!rebuildScreen.lines.joined().contains("["), "no bar left on screen: \(rebuildScreen.lines)")
    }

    @Test("Ctrl-C during an import says nothing was imported, exits 130 and leaves no database or write-ahead log")
    func interruptedImport() throws {
        let tally = TallyRunner()
        var random = SeededRandom(seed: 130)
        let export = tally.directory.path("export.jsonl")
        _ = try GeneratedExport(events: 20_000, path: export, random: &random)
        let terminal = try PseudoTerminal(columns: 80, ["import", export], environment: Self.terminalEnvironment(tally))
        #expect(terminal.waitFor("Importing [", seconds: 60), "the bar appears")
        terminal.type("\u{03}")
        #expect(terminal.finish() == 130)
        var screen = VirtualScreen(columns: 80)
        screen.feed(terminal.output)
        #expect(screen.lines == ["Error: Interrupted; nothing was imported."], "\(screen.lines)")
        let manager = FileManager.default
        #expect(!manager.fileExists(atPath: tally.databasePath), "a new database that got nothing is not left behind")
        #expect(!manager.fileExists(atPath: tally.databasePath + "-wal"))
        #expect(tally.eventCount == 0)
    }

    @Test("an interrupted import into an existing store keeps it as it was, without a large write-ahead log")
    func interruptedImportKeepsStore() throws {
        let tally = TallyRunner()
        tally.run("add", "kept")
        var random = SeededRandom(seed: 131)
        let export = tally.directory.path("export.jsonl")
        _ = try GeneratedExport(events: 20_000, path: export, random: &random)
        let terminal = try PseudoTerminal(columns: 80, ["import", export], environment: Self.terminalEnvironment(tally))
        #expect(terminal.waitFor("Importing [", seconds: 60))
        terminal.type("\u{03}")
        #expect(terminal.finish() == 130)
        let wal = (try? FileManager.default.attributesOfItem(atPath: tally.databasePath + "-wal")[.size] as? Int) ?? 0
        #expect(wal < 1 << 20, "write-ahead log of \(wal) bytes left behind")
        #expect(tally.eventCount == 1)
    }
}

@Suite("Where the width comes from")
struct WidthSourceTests {
    @Test("piped output is cut to COLUMNS when it is set, and not cut otherwise")
    func columnsWhenPiped() {
        let tally = TerminalTests.seeded()
        let narrow = tally.run(["list"], environment: ["COLUMNS": "40"])
        #expect(narrow.status == 0)
        for line in narrow.stdout.split(separator: "\n") {
            #expect(TextWidth.of(String(line)) <= 40, "\(line)")
        }
        let piped = tally.run("list")
        #expect(piped.stdout.contains(TerminalTests.longTitle))
        for arguments in [["record", "list"], ["stats"], ["log"]] {
            let result = tally.run(arguments, environment: ["COLUMNS": "40"])
            for line in result.stdout.split(separator: "\n") {
                #expect(TextWidth.of(String(line)) <= 40, "\(arguments): \(line)")
            }
        }
    }
}
