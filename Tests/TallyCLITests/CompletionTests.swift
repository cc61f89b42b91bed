import Foundation
import Testing
import TallyDomain
import TallyTestSupport
@testable import TallyCLI
@testable import TallyEssentials

@Suite("completions, man page and terminal manners", .tags(.postgresql))
struct ShellAndTerminalTests {
    /// The path of `name` on this machine, or nil when it is not installed.
    static func tool(_ name: String) -> String? {
        ["/usr/bin/", "/bin/", "/usr/local/bin/", "/opt/homebrew/bin/"].map { $0 + name }.first { FileManager.default.isExecutableFile(atPath: $0) }
    }

    static func check(_ tool: String, _ arguments: [String], script: String, in directory: TemporaryDirectory) throws -> (Int32, String) {
        let file = directory.path("script")
        try Data(script.utf8).write(to: URL(fileURLWithPath: file))
        let process = Process()
        process.executableURL = URL(fileURLWithPath: tool)
        process.arguments = arguments + [file]
        let err = Pipe()
        process.standardError = err
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        let message = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        return (process.terminationStatus, message)
    }

    @Test("each completion script parses in its shell", arguments: [("bash", ["-n"]), ("zsh", ["-n"]), ("fish", ["--no-execute"])])
    func scriptsParse(_ shell: String, _ flags: [String]) throws {
        let tally = TallyRunner()
        let script = tally.run("completions", shell)
        #expect(script.status == 0 && script.stdout.contains("__complete tags"))
        guard let path = Self.tool(shell) else {
            print("skipped: \(shell) is not installed, so its completion script was not parsed")
            return
        }
        let (status, message) = try Self.check(path, flags, script: script.stdout, in: tally.directory)
        #expect(status == 0, "\(shell) rejects the script: \(message)")
    }

    @Test("bash completion offers commands, fixed values and tags from the database")
    func bashCompletes() throws {
        guard let bash = Self.tool("bash") else { return }
        let tally = TallyRunner()
        tally.run("add", "Milk", "--tag", "shop", "--tag", "home")
        tally.run("add", "Call", "--tag", "phone")
        let script = tally.directory.path("tally.bash")
        try Data(tally.run("completions", "bash").stdout.utf8).write(to: URL(fileURLWithPath: script))
        let probe = """
            source \(script)
            t() { COMP_WORDS=("$@"); COMP_CWORD=$((${#COMP_WORDS[@]} - 1)); COMPREPLY=(); _tally; echo "${COMPREPLY[*]}"; }
            t tally li
            t tally list --sort ""
            t tally ls --tag h
            t tally add x --priority ""
            t tally completions ""
            """
        let process = Process()
        process.executableURL = URL(fileURLWithPath: bash)
        process.arguments = ["-c", probe]
        var environment = tally.environment
        environment["PATH"] = TallyRunner.binary.deletingLastPathComponent().path + ":/usr/bin:/bin"
        process.environment = environment
        let out = Pipe()
        process.standardOutput = out
        try process.run()
        let lines = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self).split(separator: "\n").map(String.init)
        process.waitUntilExit()
        #expect(lines == ["list", "created updated due priority title", "home", "low medium high", "bash zsh fish --db --json --no-color --help"])
    }

    @Test("fish completion offers subcommands, fixed values and tags from the database")
    func fishCompletes() throws {
        guard let fish = Self.tool("fish") else {
            print("skipped: fish is not installed, so its completions were not exercised")
            return
        }
        let tally = TallyRunner()
        tally.run("add", "Milk", "--tag", "shop")
        let script = tally.directory.path("tally.fish")
        try Data(tally.run("completions", "fish").stdout.utf8).write(to: URL(fileURLWithPath: script))
        let process = Process()
        process.executableURL = URL(fileURLWithPath: fish)
        process.arguments = ["--no-config", "-c", "source \(script); complete -C'tally record fi'; complete -C'tally ls --sort t'; complete -C'tally add x --tag s'"]
        var environment = tally.environment
        environment["PATH"] = TallyRunner.binary.deletingLastPathComponent().path + ":/usr/bin:/bin"
        process.environment = environment
        let out = Pipe()
        process.standardOutput = out
        try process.run()
        let lines = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self).split(separator: "\n").map(String.init)
        process.waitUntilExit()
        #expect(lines.map { $0.split(separator: "\t").first.map(String.init) ?? "" } == ["filter", "title", "shop"], "\(lines)")
    }

    @Test("__complete prints tags and categories by prefix, and never creates the database")
    func complete() {
        let tally = TallyRunner()
        #expect(tally.run("__complete", "tags").stdout == "")
        #expect(!FileManager.default.fileExists(atPath: tally.databasePath))
        tally.run("add", "Milk", "--tag", "shop", "--tag", "home")
        tally.run("add", "Call", "--tag", "phone", "--tag", "home")
        tally.run("record", "add", "Run", "--category", "running", "--duration", "30m")
        tally.run("record", "add", "Ride", "--category", "cycling", "--duration", "1h")
        #expect(tally.run("__complete", "tags").stdout == "home\nphone\nshop\n")
        #expect(tally.run("__complete", "tags", "ph").stdout == "phone\n")
        #expect(tally.run("__complete", "categories").stdout == "cycling\nrunning\n")
        #expect(!tally.run("--help").stdout.contains("__complete"))
    }

    @Test("the man page renders with groff without warnings")
    func manPage() throws {
        let tally = TallyRunner()
        let page = tally.run("__man")
        #expect(page.status == 0 && page.stdout.hasPrefix(".TH TALLY 1 \"2026-11-21\""))
        #expect(page.stdout.contains(".SS \"tally import\"") && page.stdout.contains(".SH EXIT STATUS"))
        guard let groff = Self.tool("groff") else {
            print("skipped: groff is not installed, so the man page was not rendered")
            return
        }
        let (status, message) = try Self.check(groff, ["-man", "-Tutf8", "-ww", "-z"], script: page.stdout, in: tally.directory)
        #expect(status == 0 && message.isEmpty, "groff: \(message)")
    }

    @Test("long titles are cut with … in tables (... without UTF-8), never in --json")
    func truncation() {
        let tally = TallyRunner()
        let title = "Write the long overdue letter to the insurance company about the broken window"
        tally.run("add", title, "--tag", "home")
        let narrow = tally.run(["list"], environment: ["COLUMNS": "50"])
        #expect(narrow.stdout.split(separator: "\n").allSatisfy { TextWidth.of(String($0)) <= 50 })
        #expect(narrow.stdout.contains("…") && !narrow.stdout.contains(title))
        let ascii = tally.run(["list"], environment: ["COLUMNS": "50", "LANG": "C"])
        #expect(ascii.stdout.contains("...") && !ascii.stdout.contains("…"))
        let json = tally.run(["--json", "list"], environment: ["COLUMNS": "50"])
        #expect(json.json?.arrayValue?.first?.objectValue?["title"]?.stringValue == title)
    }

    @Test("messages spell symbols in ASCII when the locale is not UTF-8")
    func asciiMessages() {
        #expect(Catalog.forEnvironment(["LANG": "C"]).text(.historyFieldSet, ["field": "title", "value": "'b'"]) == "title -> 'b'")
        #expect(Catalog.forEnvironment(["LANG": "en_US.UTF-8"]).text(.historyFieldSet, ["field": "title", "value": "'b'"]) == "title → 'b'")
        let tally = TallyRunner()
        tally.run("add", "a")
        tally.run("edit", "1", "--title", "b")
        let show = tally.run(["show", "1"], environment: ["LANG": "C"])
        #expect(show.stdout.contains("edited title -> 'b'") && !show.stdout.contains("→"), "\(show.stdout)")
    }

    @Test("the progress bar fits its width and falls back to ASCII")
    func progressBar() {
        let unicode = ProgressBar.line(done: 5, total: 10, label: "Importing", width: 60, unicode: true)
        #expect(unicode.contains("█") && unicode.hasSuffix("]  50%  5/10") && TextWidth.of(unicode) <= 60)
        let ascii = ProgressBar.line(done: 10, total: 10, label: "Rebuilding", width: 40, unicode: false)
        #expect(ascii == "Rebuilding [##############] 100%  10/10" && ascii.count == 39)
        #expect(ProgressBar.line(done: 0, total: 3, label: "x", width: 200, unicode: false).contains("[" + String(repeating: "-", count: 40) + "]"))
        let bytes = ProgressBar.line(done: 1_500_000, total: 19_000_000, label: "Importing", width: 80, unicode: false) { ByteSize.format(Int64($0)) }
        #expect(bytes.hasSuffix("]   7%  1.5 MB/19.0 MB") && bytes.count < 80, "\(bytes)")
    }
}

@Suite("fish completion")
struct FishCompletionTests {
    /// `complete -C` for each line, through fish with the generated script; nil when fish is not installed.
    static func complete(_ lines: [String], tally: TallyRunner) throws -> [String]? {
        guard let fish = ShellAndTerminalTests.tool("fish") else { return nil }
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
