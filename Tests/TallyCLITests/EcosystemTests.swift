import Foundation
import Testing
import TallyDomain
import TallyTestSupport
@testable import TallyCLI
@testable import TallyEssentials

@Suite("Czech messages", .tags(.postgresql))
struct CzechTests {
    @Test("every message id has a Czech translation")
    func complete() {
        let missing = MessageID.allCases.filter { Language.czech.templates[$0] == nil }.map(\.rawValue)
        #expect(missing.isEmpty, "MessageIDs without a Czech translation in Czech.swift: \(missing.joined(separator: ", "))")
    }

    @Test("plural forms follow CLDR: one = 1, few = 2-4, other = 0 and 5+")
    func plurals() {
        let catalog = Catalog(language: .czech)
        let forms = [0, 1, 2, 3, 4, 5, 11, 22, 25].map { catalog.plural(.importImported, count: $0, ["path": "x", "detail": ""]) }
        #expect(forms == [
            "Importováno 0 úkolů z x.", "Importován 1 úkol z x.", "Importovány 2 úkoly z x.", "Importovány 3 úkoly z x.",
            "Importovány 4 úkoly z x.", "Importováno 5 úkolů z x.", "Importováno 11 úkolů z x.", "Importováno 22 úkolů z x.",
            "Importováno 25 úkolů z x.",
        ])
        for id in MessageID.allCases {
            guard case .plural(let forms)? = Language.czech.templates[id] else { continue }
            #expect(forms[.one] != nil && forms[.few] != nil && forms[.other] != nil, "\(id.rawValue) needs one, few and other forms")
        }
    }

    @Test("the language is the first non-empty of LC_ALL, LC_MESSAGES, LANG")
    func selection() {
        #expect(Catalog.forEnvironment(["LANG": "cs_CZ.UTF-8"]).language.code == "cs")
        #expect(Catalog.forEnvironment(["LC_MESSAGES": "cs_CZ", "LANG": "en_US.UTF-8"]).language.code == "cs")
        #expect(Catalog.forEnvironment(["LC_ALL": "C.UTF-8", "LANG": "cs_CZ.UTF-8"]).language.code == "en")
        #expect(Catalog.forEnvironment(["LC_ALL": "", "LANG": "cs"]).language.code == "cs")
        #expect(Catalog.forEnvironment([:]).language.code == "en")
    }

    @Test("Czech human output end to end; JSON is unchanged")
    func endToEnd() {
        let tally = TallyRunner()
        let czech = ["LANG": "cs_CZ.UTF-8"]
        for title in ["Koupit mléko", "Zavolat mámě", "Uklidit"] { tally.run(["add", title], environment: czech) }
        tally.run(["done", "1"], environment: czech)
        let list = tally.run(["list"], environment: czech)
        #expect(list.stdout.hasPrefix("#  Hotovo  Název"))
        #expect(list.stdout.hasSuffix("\n2 aktivní, 1 hotový\n"))
        let missing = tally.run(["show", "9"], environment: czech)
        #expect(missing.status == 1 && missing.stderr == "Chyba: Žádný úkol neodpovídá '9'.\n")
        let english = tally.run(["--json", "list"])
        #expect(tally.run(["--json", "list"], environment: czech).stdout == english.stdout)
    }
}

@Suite("imports from Taskwarrior and todo.txt, end to end", .tags(.postgresql))
struct ForeignImportTests {
    static let taskwarrior = PackageFiles.url("Tests/TallyCLITests/Fixtures/taskwarrior-export.json").path
    static let todoTxt = PackageFiles.url("Tests/TallyCLITests/Fixtures/todo.txt").path

    @Test("a real 'task export' comes in as one command, with fields, times and a report")
    func taskwarrior() throws {
        let tally = TallyRunner()
        let result = tally.run("import", "--from", "taskwarrior", Self.taskwarrior)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.hasPrefix("Imported 8 todos from \(Self.taskwarrior) (1 completed, 1 deleted).\n"))
        // The recurring template is a series now, its pending instance a todo of it; wait is the wait date.
        #expect(!result.stdout.contains("Skipped") && !result.stdout.contains("'wait'") && !result.stdout.contains("'recur'"))
        let czech = tally.run(["import", "--from", "taskwarrior", Self.taskwarrior], environment: ["LANG": "cs_CZ.UTF-8"])
        #expect(czech.stdout.contains("Importováno 0 úkolů"), "\(czech.stdout)")
        let plantsNumber = tally.run("--json", "list", "--search", "plants").json?.arrayValue?.first?.objectValue?["number"]?.intValue ?? 0
        let plants = tally.run("show", String(plantsNumber))
        #expect(plants.stdout.contains("every week from the due date") && plants.stdout.contains("2026-11-30, 2026-12-07, 2026-12-14"), "\(plants.stdout)")
        #expect(tally.run("list").stdout.contains("1 waiting"))
        let list = tally.run("--json", "list", "--deleted", "--status", "all")
        guard case .array(let todos)? = list.json else { Issue.record("not JSON: \(list.stdout)"); return }
        #expect(todos.count == 8)
        let milk = todos.first { $0.objectValue?["title"] == "Buy oat milk" }?.objectValue
        #expect(milk?["tags"] == ["groceries", "shop"] && milk?["project"] == "home.kitchen" && milk?["priority"] == "high")
        #expect(milk?["due"] == "2026-11-25" && milk?["createdAt"] == "2026-11-01T09:15:00Z")
        #expect(milk?["note"]?.stringValue?.hasSuffix("only the unsweetened one") == true)
        let origin = milk?["origin"]?.objectValue
        #expect(origin?["tool"] == "taskwarrior" && origin?["id"]?.stringValue?.count == 36 && origin?["createdAt"] == "2026-11-01T09:15:00Z")
        let human = tally.run("show", "1")
        #expect(human.stdout.contains("Imported from  Taskwarrior task \(origin?["id"]?.stringValue ?? "?")\n"), "\(human.stdout)")
        let show = tally.run("--json", "show", "1")
        let commands = Set((show.json?.objectValue?["history"]?.arrayValue ?? []).compactMap { $0.objectValue?["command"]?.stringValue })
        let other = tally.run("--json", "show", "8")
        let otherCommands = Set((other.json?.objectValue?["history"]?.arrayValue ?? []).compactMap { $0.objectValue?["command"]?.stringValue })
        #expect(commands.count == 1 && commands == otherCommands, "one import is one command id")

        let events = tally.eventCount
        let again = tally.run("import", "--from", "taskwarrior", Self.taskwarrior)
        #expect(again.status == 0)
        #expect(again.stdout.hasPrefix("Imported 0 todos from \(Self.taskwarrior).\n8 items were imported before; skipped.\n"))
        #expect(tally.eventCount == events)
    }

    @Test("a todo.txt file: done lines, priorities, projects and contexts; JSON report")
    func todoTxt() throws {
        let tally = TallyRunner()
        let result = tally.run("--json", "import", "--from", "todotxt", Self.todoTxt)
        #expect(result.status == 0, "\(result.stderr)")
        guard case .object(let report)? = result.json else { Issue.record("not JSON: \(result.stdout)"); return }
        #expect(report.keys == ["imported", "alreadyPresent", "skipped", "warnings"])
        let imported = report["imported"]?.arrayValue ?? []
        #expect(imported.count == 8)
        let mom = imported.first?.objectValue
        #expect(mom?["title"] == "Call Mom +Family @phone" && mom?["tags"] == ["family", "phone"] && mom?["priority"] == "high" && mom?["due"] == "2026-11-25")
        #expect(imported[6].objectValue?["title"] == "+Errands @town" && imported[6].objectValue?["tags"] == ["errands", "town"])
        let insurance = imported.last?.objectValue
        #expect(insurance?["completed"] == true && insurance?["completedAt"] == "2026-11-10T00:00:00Z" && insurance?["priority"] == "high")
        #expect(report["skipped"] == [])
        #expect(report["warnings"]?.arrayValue?.count == 3)
        let again = tally.run("--json", "import", "--from", "todotxt", Self.todoTxt)
        #expect(again.json?.objectValue?["imported"] == [] && again.json?.objectValue?["alreadyPresent"]?.arrayValue?.count == 8)
    }

    @Test("exit codes: 66 unreadable, 65 malformed naming the line, 64 for an unknown format; nothing appended")
    func failures() throws {
        let tally = TallyRunner()
        let missing = tally.run("import", "--from", "todotxt", tally.directory.path("absent.txt"))
        #expect(missing.status == 66 && missing.stderr.hasPrefix("Error: Cannot open "))
        let broken = tally.directory.path("broken.json")
        try Data("[\n{\"description\": \"a\"},\n{\"description\": }\n]\n".utf8).write(to: URL(fileURLWithPath: broken))
        let malformed = tally.run("import", "--from", "taskwarrior", broken)
        #expect(malformed.status == 65)
        #expect(malformed.stderr.hasPrefix("Error: Malformed input at \(broken), line 3: "))
        let badFormat = tally.run("import", "--from", "csv", Self.todoTxt)
        #expect(badFormat.status == 64)
        #expect(!FileManager.default.fileExists(atPath: tally.databasePath))
        // Without --from the file must be a tally export: another tool's file is refused with the --from to use.
        let noFormat = tally.run("import", Self.todoTxt)
        #expect(noFormat.status == 65, "\(noFormat.stderr)")
        #expect(noFormat.stderr.hasPrefix("Error: \(Self.todoTxt) looks like a todo.txt file, not a tally export. Use 'tally import --from todotxt \(Self.todoTxt)'."))
        let taskwarriorWithoutFrom = tally.run("import", Self.taskwarrior)
        #expect(taskwarriorWithoutFrom.status == 65 && taskwarriorWithoutFrom.stderr.contains("--from taskwarrior"), "\(taskwarriorWithoutFrom.stderr)")
        let jsonAsTodoTxt = tally.run("import", "--from", "todotxt", Self.taskwarrior)
        #expect(jsonAsTodoTxt.status == 65 && jsonAsTodoTxt.stderr.hasPrefix("Error: \(Self.taskwarrior) is JSON, not a todo.txt file."), "\(jsonAsTodoTxt.stderr)")
        #expect(tally.eventCount == 0)
    }

    @Test("standard input is read with '-'")
    func standardInput() {
        let tally = TallyRunner()
        let result = tally.run(["import", "--from", "todotxt", "-"], input: "(B) Water plants @home\n")
        #expect(result.status == 0 && result.stdout == "Imported 1 todo from -.\n")
    }
}

@Suite("completions, man page and terminal manners", .tags(.postgresql))
struct TerminalEcosystemTests {
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
