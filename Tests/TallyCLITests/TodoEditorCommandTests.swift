import Foundation
import Testing
import TallyDomain
import TallyTestSupport
@testable import TallyEssentials

/// `tally edit REF` without options, with editors that are shell scripts: on pipes (no terminal) and on
/// a real pseudo-terminal, where a form that does not apply is reopened with the error on top.
@Suite("tally edit in $EDITOR")
struct TodoEditorCommandTests {
    /// An executable shell script in `folder`; its path.
    static func script(_ folder: TemporaryDirectory, _ name: String, _ body: String) throws -> String {
        let path = folder.path(name)
        try ("#!/bin/sh\n" + body).write(toFile: path, atomically: true, encoding: .utf8)
        chmod(path, 0o700)
        return path
    }

    static func seeded() -> TallyRunner {
        let tally = TallyRunner()
        tally.run("add", "Buy milk", "--tag", "shop", "--priority", "high", "--due", "2026-11-25")
        tally.run("add", "Paint the fence")
        return tally
    }

    /// Files the editor sessions may have left in the runner's temporary folder.
    static func leftovers(_ tally: TallyRunner) -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: tally.directory.path("tmp"))) ?? []).filter { $0.hasPrefix("tally-edit-") }
    }

    static func environment(_ tally: TallyRunner, editor: String, name: String = "EDITOR") -> [String: String] {
        try? FileManager.default.createDirectory(atPath: tally.directory.path("tmp"), withIntermediateDirectories: true)
        return [name: editor, "TMPDIR": tally.directory.path("tmp")]
    }

    /// Runs `tally edit 1` on a pseudo-terminal with an editor script that runs `first` the first time and
    /// `later` after (`$1` the file, `$0` the script, in the folder returned); a `count` file counts the runs.
    static func onTerminal(_ tally: TallyRunner, first: String, later: String, columns: Int = 100) throws -> (TemporaryDirectory, VirtualScreen, Int32) {
        let folder = TemporaryDirectory("tally-editor-tty")
        let count = folder.path("count")
        let editor = try script(folder, "edit.sh", """
            n=$(cat '\(count)' 2>/dev/null || echo 0); n=$((n + 1)); echo $n > '\(count)'
            if [ $n = 1 ]; then \(first); else \(later); fi
            """)
        var environment = TerminalTests.terminalEnvironment(tally)
        environment.merge(Self.environment(tally, editor: editor)) { $1 }
        let (screen, status) = try PseudoTerminal.run(columns: columns, ["edit", "1"], environment: environment)
        return (folder, screen, status)
    }

    @Test("the editor's changes are one edit (one undo step); the file it saw was private and is gone")
    func appliesAsOneEdit() throws {
        let tally = Self.seeded()
        let folder = TemporaryDirectory("tally-editor")
        let editor = try Self.script(folder, "edit.sh", """
            cp "$1" '\(folder.path("seen.txt"))'
            stat -c %a "$1" > '\(folder.path("mode.txt"))'
            sed -i -e 's/^Title:.*/Title: Buy oat milk/' -e 's/^Tags:.*/Tags: shop dairy/' -e 's/^Priority:.*/Priority: low/' \
                -e 's/^Due:.*/Due:/' -e 's/^Project:.*/Project: home.kitchen/' -e 's/^After:.*/After: 2/' "$1"
            printf 'first line\\n\\tsecond, indented\\n' >> "$1"
            """)
        let events = tally.eventCount
        let result = tally.run(["edit", "1"], environment: Self.environment(tally, editor: editor))
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.hasPrefix("Updated 1: Buy oat milk"), "\(result.stdout)")
        #expect(tally.eventCount == events + 1)
        let seen = try String(contentsOfFile: folder.path("seen.txt"), encoding: .utf8)
        #expect(seen.contains("\nTitle: Buy milk\nTags: shop\nProject:\nPriority: high\nDue: 2026-11-25\nWait:\nAfter:\nNote:\n"), "\(seen)")
        #expect(try String(contentsOfFile: folder.path("mode.txt"), encoding: .utf8) == "600\n")
        #expect(Self.leftovers(tally).isEmpty)
        let todo = tally.run("--json", "show", "1").json?.objectValue?["todo"]?.objectValue
        #expect(todo?["title"] == "Buy oat milk" && todo?["tags"] == ["shop", "dairy"] && todo?["priority"] == "low" && todo?["due"] == .null)
        #expect(todo?["project"] == "home.kitchen" && todo?["note"] == "first line\n\tsecond, indented")
        #expect(todo?["after"]?.arrayValue?.count == 1)
        #expect(tally.run("undo").status == 0)
        let undone = tally.run("--json", "show", "1").json?.objectValue?["todo"]?.objectValue
        #expect(undone?["title"] == "Buy milk" && undone?["priority"] == "high" && undone?["due"] == "2026-11-25" && undone?["after"] == [])
    }

    @Test("an editor command line with arguments; titles with shell syntax never reach a shell; VISUAL before EDITOR")
    func commandLines() throws {
        let tally = TallyRunner()
        let marker = tally.directory.path("pwned")
        tally.run("add", "x $(touch \(marker)) `touch \(marker)`; touch \(marker) '\"")
        var environment = Self.environment(tally, editor: "sed -i -e 's/^Priority:.*/Priority: high/'", name: "VISUAL")
        environment["EDITOR"] = "false"
        let result = tally.run(["edit", "1"], environment: environment)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(!FileManager.default.fileExists(atPath: marker))
        #expect(tally.run("--json", "show", "1").json?.objectValue?["todo"]?.objectValue?["priority"] == "high")
        // A path with a space, quoted as a shell user would.
        let folder = TemporaryDirectory("tally editor")
        let editor = try Self.script(folder, "my editor.sh", "sed -i 's/^Priority:.*/Priority: low/' \"$1\"\n")
        #expect(tally.run(["edit", "1"], environment: Self.environment(tally, editor: "'\(editor)'")).status == 0)
        #expect(tally.run("--json", "show", "1").json?.objectValue?["todo"]?.objectValue?["priority"] == "low")
    }

    @Test("an unchanged or emptied file, or an editor that fails, changes nothing")
    func nothingChanges() throws {
        let tally = Self.seeded()
        let events = tally.eventCount
        let unchanged = tally.run(["edit", "1"], environment: Self.environment(tally, editor: "true"))
        #expect(unchanged.status == 0 && unchanged.stdout == "Todo 1 already has those values; nothing changed.\n")
        let emptied = tally.run(["edit", "1"], environment: Self.environment(tally, editor: "truncate -s 0"))
        #expect(emptied.status == 0 && emptied.stdout == "The file was emptied; todo 1 is unchanged.\n")
        let comments = tally.run(["edit", "1"], environment: Self.environment(tally, editor: "sed -i '/^[^#]/d'"))
        #expect(comments.status == 0 && comments.stdout == "The file was emptied; todo 1 is unchanged.\n")
        let failed = tally.run(["edit", "1"], environment: Self.environment(tally, editor: "sh -c 'exit 3'"))
        #expect(failed.status == 1 && failed.stderr.contains("exited with status 3; todo 1 is unchanged."), "\(failed.stderr)")
        #expect(tally.eventCount == events)
        #expect(Self.leftovers(tally).isEmpty)
        let deleted = tally.run("delete", "2")
        #expect(deleted.status == 0)
        #expect(tally.run(["edit", "2"], environment: Self.environment(tally, editor: "true")).stderr.contains("Todo 2 is deleted"))
    }

    @Test("without a terminal, a form that does not apply is kept (0600) in a file the message names; nothing is appended")
    func keptWithoutTerminal() throws {
        let tally = Self.seeded()
        let events = tally.eventCount
        for (editor, words) in [
            ("sed -i 's/^Tags:/Tgas:/'", "Line 4: 'Tgas' is not a field of the form"),
            ("sed -i 's/^Due:.*/Due: someday/'", "Invalid date or time 'someday'"),
            ("sed -i 's/^Title:.*/Title:/'", "The Title: line is missing or empty"),
            ("sed -i 's/^After:.*/After: 1/'", "Todo 1 cannot wait for itself"),
            ("sed -i 's/^Tags:.*/Tags: shop\\nTags: more/'", "Tags is given a second time"),
        ] {
            let result = tally.run(["edit", "1"], environment: Self.environment(tally, editor: editor))
            #expect(result.status == 65, "\(editor): \(result.stderr)")
            #expect(result.stderr.contains(words), "\(result.stderr)")
            guard let range = result.stderr.range(of: "the text is kept in ") else { Issue.record("no file named: \(result.stderr)"); continue }
            let path = String(result.stderr[range.upperBound...].prefix { $0 != "\n" }.dropLast())
            let attributes = try FileManager.default.attributesOfItem(atPath: path)
            #expect((attributes[.posixPermissions] as? Int) == 0o600)
            #expect(try String(contentsOfFile: path, encoding: .utf8).contains("Title:"))
            try FileManager.default.removeItem(atPath: path)
        }
        #expect(tally.eventCount == events)
        // Neither a terminal nor an editor: the error that lists every option, as before.
        let none = tally.run(["edit", "1"], environment: ["EDITOR": "", "VISUAL": ""])
        #expect(none.status == 64 && none.stderr.contains("Nothing to change: give at least one of --title, --tag, --priority"), "\(none.stderr)")
        #expect(tally.run("verify").status == 0)
    }

    @Test("on a terminal, a form that does not apply is reopened with the error on top; fixed, it applies",
          .enabled(if: PseudoTerminal.isAvailable))
    func reopensOnTerminal() throws {
        let tally = Self.seeded()
        let (folder, screen, status) = try Self.onTerminal(
            tally,
            first: "sed -i -e 's/^Priority:.*/Priority: urgent/' -e 's/^Title:.*/Title: Buy oat milk/' \"$1\"",
            later: "cp \"$1\" \"$(dirname \"$0\")/second.txt\"; sed -i 's/^Priority:.*/Priority: low/' \"$1\""
        )
        #expect(status == 0, "\(screen.lines.joined(separator: "\n"))")
        let second = try String(contentsOfFile: folder.path("second.txt"), encoding: .utf8)
        #expect(second.hasPrefix("# ! Error: Invalid priority 'urgent'"), "\(second)")
        #expect(second.contains("Title: Buy oat milk"), "the user's text is kept below the error: \(second)")
        let todo = tally.run("--json", "show", "1").json?.objectValue?["todo"]?.objectValue
        #expect(todo?["title"] == "Buy oat milk" && todo?["priority"] == "low")
        #expect(Self.leftovers(tally).isEmpty)
    }

    @Test("on a terminal, saving the reopened form unchanged gives up: the text is kept, nothing appended",
          .enabled(if: PseudoTerminal.isAvailable))
    func givesUpOnTerminal() throws {
        let tally = Self.seeded()
        let events = tally.eventCount
        let (folder, screen, status) = try Self.onTerminal(tally, first: "sed -i 's/^Tags:/Bogus:/' \"$1\"", later: ":", columns: 200)
        let count = folder.path("count")
        let text = screen.lines.joined(separator: "\n")
        #expect(status == 65, "\(text)")
        #expect(text.contains("The form was saved again without a change below its error."), "\(text)")
        #expect(try String(contentsOfFile: count, encoding: .utf8) == "2\n")
        #expect(Self.leftovers(tally).count == 1)
        #expect(tally.eventCount == events)
    }
}
