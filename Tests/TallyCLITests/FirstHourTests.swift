import Foundation
import Testing
import TallyDomain
import TallyTestSupport
@testable import TallyCLI
@testable import TallyEssentials

/// What a new user meets in the first hour: failed commands leave no file, read-only files stay
/// usable, deleted things come back, and the numbers read well.
@Suite("The first hour, end to end")
struct FirstHourTests {
    @Test("a failed command creates no database file; --db \"\" is a usage error", arguments: [
        ["done", "1"], ["add", ""], ["undo"], ["record", "add", "Run", "--category", "run", "--duration", "-5m"], ["restore", "1"],
    ])
    func failedCommandsCreateNothing(arguments: [String]) {
        let tally = TallyRunner()
        let typo = tally.directory.path("typo.db")
        let result = tally.run(["--db", typo] + arguments)
        #expect(result.status != 0)
        let left = (try? FileManager.default.contentsOfDirectory(atPath: tally.directory.url.path)) ?? []
        #expect(left.isEmpty, "\(arguments) left \(left)")
    }

    @Test("a command that succeeds without writing creates no database file either", arguments: [
        ["toggle", "--all"], ["delete", "--completed"], ["filter", "reset"], ["record", "filter", "reset"], ["list"], ["stats"],
    ])
    func noOpCommandsCreateNothing(arguments: [String]) {
        let tally = TallyRunner()
        let result = tally.run(arguments)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(!FileManager.default.fileExists(atPath: tally.databasePath), "\(arguments) created the database")
    }

    @Test("--db with an empty path is a usage error that names the option")
    func emptyDatabaseOption() {
        let tally = TallyRunner()
        let result = tally.run("--db", "", "add", "milk")
        #expect(result.status == 64)
        #expect(result.stderr.hasPrefix("Error: Missing value for option '--db'.\nUsage: tally add"))
        #expect(!FileManager.default.fileExists(atPath: tally.databasePath))
        #expect(tally.run("--db", "x.db", "add", "milk").status == 0, "a successful write still creates its file")
    }

    @Test("reading a read-only database leaves nothing that stops a later writer")
    func readOnlyLeavesNothingBehind() throws {
        let tally = TallyRunner()
        let manager = FileManager.default
        // As root, permissions do not apply: run every command as nobody, in a directory nobody may write.
        var launcher: [String] = []
        if getuid() == 0 {
            guard manager.isExecutableFile(atPath: "/usr/bin/setpriv") else { return }
            launcher = ["/usr/bin/setpriv", "--reuid=nobody", "--regid=nogroup", "--clear-groups"]
            try manager.setAttributes([.posixPermissions: 0o777], ofItemAtPath: tally.directory.url.path)
        }
        #expect(tally.run(["add", "first"], launcher: launcher).status == 0)
        try manager.setAttributes([.posixPermissions: 0o444], ofItemAtPath: tally.databasePath)
        let list = tally.run(["list"], launcher: launcher)
        #expect(list.status == 0 && list.stdout.contains("first"), "\(list.stderr)")
        #expect(tally.run(["info"], launcher: launcher).status == 0)
        #expect(tally.run(["list"]).status == 0, "and as whoever runs the tests, root included")
        for suffix in ["-shm", "-wal"] {
            #expect(!manager.fileExists(atPath: tally.databasePath + suffix), "reading left \(suffix) behind")
        }
        let refused = tally.run(["add", "refused"], launcher: launcher)
        #expect(refused.status != 0, "a read-only file refuses a write")
        try manager.setAttributes([.posixPermissions: 0o644], ofItemAtPath: tally.databasePath)
        let later = tally.run(["add", "second"], launcher: launcher)
        #expect(later.status == 0, "a writer after chmod 644: \(later.stderr)")
        #expect(tally.run(["list", "--json"], launcher: launcher).json?.arrayValue?.count == 2)
    }

    @Test("restore and record restore bring deleted items back as one command, with notices for live ones")
    func restore() {
        let tally = TallyRunner()
        for title in ["a", "b", "c"] { tally.run("add", title) }
        tally.run("delete", "1", "2")
        let refused = tally.run("done", "1")
        #expect(refused.status == 1 && refused.stderr == "Error: Todo 1 is deleted; 'tally restore 1' brings it back.\n")
        let restored = tally.run("restore", "1", "2", "3")
        #expect(restored.status == 0)
        #expect(restored.stdout == "Restored 1: a\nRestored 2: b\nTodo 3 is not deleted; nothing changed.\n")
        #expect(tally.run("list", "--json").json?.arrayValue?.count == 3)
        #expect(tally.run("restore", "9").status == 1)
        #expect(tally.run("undo").status == 0)
        #expect(tally.run("list", "--json").json?.arrayValue?.count == 1, "one undo takes the whole restore back")

        tally.run("record", "add", "Run", "--category", "running", "--duration", "30m", "--distance", "5km")
        tally.run("record", "add", "Swim", "--category", "swimming", "--duration", "40m")
        tally.run("record", "delete", "1")
        #expect(tally.run("record", "edit", "1", "--name", "x").stderr == "Error: Record 1 is deleted; 'tally record restore 1' brings it back.\n")
        let listed = tally.run("record", "list", "--deleted")
        #expect(listed.stdout.contains("Run (deleted)") && listed.stdout.contains("2 records, 40:00"), "\(listed.stdout)")
        #expect(!tally.run("record", "list").stdout.contains("Run"))
        #expect(tally.run("record", "list", "--deleted", "--json").json?.arrayValue?.count == 2)
        let back = tally.run("--json", "record", "restore", "1")
        #expect(back.json?.arrayValue?.first?.objectValue?["deleted"] == false)
        #expect(tally.run("record", "restore", "2").stdout == "Record 2 is not deleted; nothing changed.\n")
        #expect(tally.run("record", "list").stdout.contains("2 records, 1:10:00, 5.00 km"))
    }

    @Test("list --deleted counts deleted todos as deleted, in English and Czech")
    func deletedFooter() {
        let tally = TallyRunner()
        for title in ["a", "b", "c", "d", "e", "f", "g"] { tally.run("add", title) }
        tally.run("done", "3", "4")
        tally.run("delete", "4", "5", "6", "7")
        #expect(tally.run("list", "--deleted").stdout.hasSuffix("\n\n2 active, 1 completed, 4 deleted\n"))
        #expect(tally.run("list").stdout.hasSuffix("\n\n2 active, 1 completed\n"))
        let czech = tally.run(["list", "--deleted"], environment: ["LANG": "cs_CZ.UTF-8"])
        #expect(czech.stdout.hasSuffix("\n\n2 aktivní, 1 hotový, 4 smazané\n"), "\(czech.stdout)")
    }

    @Test("distances are stored to the millimetre and printed in their shortest form")
    func distances() {
        let tally = TallyRunner()
        for distance in ["3.1mi", "3.1mi", "10.1km", "0.3333333km"] {
            tally.run("record", "add", "Run", "--category", "running", "--duration", "30m", "--distance", distance)
        }
        let list = tally.run("record", "list", "--json").stdout
        for stored in ["\"distanceMeters\": 333.333,", "\"distanceMeters\": 10100,", "\"distanceMeters\": 4988.966,"] {
            #expect(list.contains(stored), "\(stored) in \(list)")
        }
        let stats = tally.run("stats", "--json")
        #expect(stats.stdout.contains("\"distanceMeters\": 20411.265"), "\(stats.stdout)")
    }
}

@Suite("Layout at narrow widths")
struct NarrowLayoutTests {
    @Test func dropsColumnsInTheirOrderBeforeOverflowing() {
        let table = Table(
            columns: [
                Table.Column(title: "#", alignRight: true),
                Table.Column(title: "Title", truncatable: true, minWidth: 5),
                Table.Column(title: "Tags", dropOrder: 1),
                Table.Column(title: "Due", dropOrder: 2),
            ],
            rows: [["1", "A long title indeed", "work home", "2026-11-21"]]
        )
        #expect(table.render(maxWidth: nil) == "#  Title                Tags       Due\n1  A long title indeed  work home  2026-11-21")
        func header(_ width: Int) -> String { String(table.render(maxWidth: width).split(separator: "\n")[0]) }
        #expect(header(34) == "#  Title     Tags       Due", "every column fits once the title is cut")
        #expect(header(24) == "#  Title      Due", "tags go first")
        #expect(header(12) == "#  Title", "then the due date")
        for width in [12, 16, 20, 24, 30, 34, 40] {
            #expect(table.renderedWidth(maxWidth: width) <= width)
            for line in table.render(maxWidth: width).split(separator: "\n") {
                #expect(TextWidth.of(String(line)) <= width, "\(width): \(line)")
            }
        }
    }

    @Test func progressBarGivesUpSuffixCountsAndLabelInThatOrder() {
        let wide = ProgressBar.line(done: 5, total: 10, label: "Replaying", width: 80, unicode: false, suffix: "1200 events/s  ETA 3 s")
        #expect(wide.hasSuffix("]  50%  5/10  1200 events/s  ETA 3 s") && wide.count < 80)
        let forty = ProgressBar.line(done: 5, total: 10, label: "Replaying", width: 40, unicode: false, suffix: "1200 events/s  ETA 3 s")
        #expect(forty == "Replaying [#############-------------]  50%  5/10".prefix(39) || forty.hasSuffix("50%  5/10"), "\(forty)")
        #expect(!forty.contains("events/s") && forty.count <= 39)
        let tiny = ProgressBar.line(done: 5, total: 10, label: "Replaying", width: 14, unicode: false, suffix: "x")
        #expect(tiny == "[###---]  50%", "\(tiny)")
        for width in 1...120 {
            let line = ProgressBar.line(done: 3, total: 7, label: "Importing", width: width, unicode: true, suffix: "12 events/s  ETA 1 s") { ByteSize.format(Int64($0)) }
            #expect(TextWidth.of(line) < max(width, 2), "\(width): \(line)")
        }
    }
}

@Suite("The value parsers' reasons go through the catalog")
struct ValueReasonCatalogTests {
    @Test("every reason key has an English message equal to the parser's own phrase, and a Czech translation")
    func everyReasonTranslated() {
        for key in ValueReasonKey.allCases {
            guard let id = ValueReasonMessages.id(key) else {
                Issue.record("no MessageID for value reason \(key.rawValue)")
                continue
            }
            if case .text(let english)? = Language.english.templates[id] {
                #expect(english == key.english, "English message of \(key.rawValue) differs from the parser's phrase")
            } else {
                Issue.record("no English text for \(id.rawValue)")
            }
            if case .text(let czech)? = Language.czech.templates[id] {
                #expect(czech != key.english, "\(id.rawValue) is not translated")
            } else {
                Issue.record("no Czech text for \(id.rawValue)")
            }
        }
    }

    @Test("Czech errors carry no English fragments; info uses Czech plurals", arguments: [
        (["add", "x", "--due", "2026-02-30"], "měsíc 02/2026 má 28 dní", "February"),
        (["record", "add", "R", "--category", "run", "--duration", "-5m"], "nesmí být záporné", "must not be negative"),
        (["record", "add", "R", "--category", "run", "--duration", "5d"], "neznámá jednotka 'd' (použijte h, m nebo s)", "unknown unit"),
        (["record", "add", "R", "--category", "run", "--duration", "5m", "--distance", "5"], "chybí jednotka (km, m nebo mi)", "a unit is required"),
        (["add", "x", "--due", "25:00"], "očekává se datum ve tvaru RRRR-MM-DD", "expected a date"),
        (["record", "add", "R", "--category", "run", "--duration", "5m", "--distance", "far"], "očekává se číslo a jednotka", "expected a number"),
    ])
    func czechErrors(arguments: [String], czech: String, english: String) {
        let tally = TallyRunner()
        let result = tally.run(arguments, environment: ["LANG": "cs_CZ.UTF-8"])
        #expect(result.status == 65)
        #expect(result.stderr.contains(czech) && !result.stderr.contains(english), "\(result.stderr)")
    }

    @Test("a reason that already shows examples is not followed by the same examples again")
    func noDuplicatedHints() {
        let tally = TallyRunner()
        let distance = tally.run("record", "add", "R", "--category", "run", "--duration", "5m", "--distance", "far")
        #expect(distance.stderr == "Error: Invalid distance 'far': expected a number and a unit, like 5km, 800m or 3.1mi.\n")
        let duration = tally.run("record", "add", "R", "--category", "run", "--duration", "soon")
        #expect(duration.stderr == "Error: Invalid duration 'soon': expected a duration like 45m, 1h30m, 1:30:00 or 27:30.\n")
        let negative = tally.run("record", "add", "R", "--category", "run", "--duration", "5m", "--distance", "-1km")
        #expect(negative.stderr == "Error: Invalid distance '-1km': must not be negative. Use 5km, 800m or 3.1mi.\n")
    }

    @Test("info counts todos with the plural forms of the language")
    func infoPlurals() {
        let tally = TallyRunner()
        tally.run("add", "a")
        tally.run("add", "b")
        tally.run("delete", "2")
        tally.run("record", "add", "R", "--category", "run", "--duration", "5m")
        let czech = tally.run(["info"], environment: ["LANG": "cs_CZ.UTF-8"]).stdout
        #expect(czech.contains("2 (1 aktivní, 0 hotových, 1 smazaný)") && czech.contains("1 (0 smazaných)"), "\(czech)")
        let english = tally.run("info").stdout
        #expect(english.contains("2 (1 active, 0 completed, 1 deleted)") && english.contains("1 (0 deleted)"), "\(english)")
    }
}

@Suite("Help and messages that say what they mean")
struct PlainMessagesTests {
    @Test("log shows a saved view as the options that make it, like filter show")
    func savedViewInLog() {
        let tally = TallyRunner()
        tally.run("filter", "set", "--status", "active", "--sort", "due")
        #expect(tally.run("filter", "show").stdout.contains("--status active --sort due"))
        let log = tally.run("log").stdout
        #expect(log.contains("saved the todos view --status active --sort due") && !log.contains("{"), "\(log)")
    }

    @Test("--as-of past the end of the log and before an item existed say so")
    func timeTravelEdges() {
        let tally = TallyRunner()
        for title in ["a", "b", "c"] { tally.run("add", title) }
        let past = tally.run("list", "--as-of", "@99999")
        #expect(past.status == 65 && past.stderr == "Error: Invalid date or time '@99999': the log ends at @3.\n")
        #expect(tally.run("list", "--as-of", "@3").status == 0)
        let early = tally.run("show", "3", "--as-of", "@2")
        #expect(early.status == 1 && early.stderr == "Error: Todo 3 did not exist yet at @2.\n")
        #expect(tally.run("show", "3", "--as-of", "@3").status == 0)
        #expect(tally.run("show", "7", "--as-of", "@2").stderr == "Error: No todo matches '7'.\n")
        let czech = tally.run(["show", "3", "--as-of", "@2"], environment: ["LANG": "cs_CZ.UTF-8"])
        #expect(czech.stderr == "Chyba: Úkol 3 v čase @2 ještě neexistoval.\n")
    }

    @Test("record add shows its required options in the usage line")
    func requiredOptionsInUsage() {
        let tally = TallyRunner()
        let help = tally.run("record", "add", "--help").stdout
        #expect(help.contains("USAGE: tally record add <name> ... --category <category> --duration <duration>"), "\(help)")
        let missing = tally.run("record", "add", "Run")
        #expect(missing.status == 64 && missing.stderr.hasPrefix("Error: Missing required options '--category' and '--duration'.\n"))
    }
}

@Suite("The manual page")
struct ManPageTests {
    @Test("no word is hyphenated at a line end, TALLY_BUSY_TIMEOUT is documented, SEE ALSO names todo-txt(1)")
    func manPage() throws {
        let tally = TallyRunner()
        let page = tally.run("__man").stdout
        #expect(page.contains(".TP\n\\fBTALLY_BUSY_TIMEOUT\\fR"))
        #expect(page.contains(".BR todo\\-txt (1),") && !page.contains("todo.sh (1)"))
        guard let groff = TerminalEcosystemTests.tool("groff") else { return }
        let file = tally.directory.path("tally.1")
        try Data(page.utf8).write(to: URL(fileURLWithPath: file))
        let process = Process()
        process.executableURL = URL(fileURLWithPath: groff)
        process.arguments = ["-man", "-Tutf8", "-rLL=50n", file]
        let out = Pipe()
        process.standardOutput = out
        process.standardError = FileHandle.nullDevice
        try process.run()
        let text = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        let plain = text.replacingOccurrences(of: "\u{8}.", with: "", options: .regularExpression)
        let broken = plain.split(separator: "\n").filter { $0.hasSuffix("\u{2010}") }
        #expect(text.count > 10_000 && broken.isEmpty, "hyphenated lines: \(broken.prefix(5))")
        #expect(plain.contains("~/.local/share/tally/tally.db"))
    }
}

@Suite("fish completion")
struct FishCompletionTests {
    /// `complete -C` for each line, through fish with the generated script; nil when fish is not installed.
    static func complete(_ lines: [String], tally: TallyRunner) throws -> [String]? {
        guard let fish = TerminalEcosystemTests.tool("fish") else { return nil }
        let script = tally.directory.path("tally.fish")
        try Data(tally.run("completions", "fish").stdout.utf8).write(to: URL(fileURLWithPath: script))
        let process = Process()
        process.executableURL = URL(fileURLWithPath: fish)
        process.arguments = ["--no-config", "-c", "source \(script); " + lines.map { "complete -C'\($0)'; echo ---" }.joined(separator: "; ")]
        var environment = tally.environment
        environment["PATH"] = TallyRunner.binary.deletingLastPathComponent().path + ":/usr/bin:/bin"
        process.environment = environment
        let out = Pipe()
        process.standardOutput = out
        try process.run()
        let text = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        return text.components(separatedBy: "---\n").dropLast()
    }

    @Test("tags and categories complete from the database named by --db, and values carry no repeated description")
    func withDatabaseOption() throws {
        let tally = TallyRunner()
        tally.run("add", "Milk", "--tag", "shop")
        let other = tally.directory.path("other.db")
        tally.run("--db", other, "add", "Elsewhere", "--tag", "garden")
        tally.run("--db", other, "record", "add", "Ride", "--category", "cycling", "--duration", "1h")
        guard let results = try Self.complete([
            "tally add x --tag ", "tally --db \(other) add x --tag ", "tally --db \(other) record add R --category ",
            "tally list --sort ", "tally list --so",
        ], tally: tally) else { return }
        #expect(results[0] == "shop\n")
        #expect(results[1] == "garden\n", "--db on the line picks the database: \(results[1])")
        #expect(results[2] == "cycling\n")
        #expect(results[3] == "created\ndue\npriority\ntitle\nupdated\n", "values without the option's description: \(results[3])")
        #expect(results[4] == "--sort\tSort order.\n")
    }
}
