import Foundation
import Testing
import TallyTestSupport

@Suite("The command reference in docs/")
struct CommandReferenceTests {
    @Test("docs/reference/commands.md is what `tally __reference` prints: regenerate it with `make docs`")
    func referenceIsCurrent() throws {
        let tally = TallyRunner()
        let generated = tally.run("__reference")
        #expect(generated.status == 0)
        let committed = try String(contentsOf: PackageFiles.url("docs/reference/commands.md"), encoding: .utf8)
        #expect(committed == generated.stdout, "docs/reference/commands.md is stale: run `make docs`")
    }

    @Test("every visible command has a section, with its usage line, and every visible option is listed")
    func everyCommandAndOption() {
        let page = TallyRunner().run("__reference").stdout
        for name in ["add", "list", "record import", "record bests", "sync", "remote set", "verify", "import"] {
            #expect(page.contains("\n### tally \(name)\n"), "no section for tally \(name)")
        }
        for option in ["`--as-of WHEN`", "`--db PATH`", "`--remote URL`"] {
            #expect(page.contains(option), "option \(option) missing")
        }
        #expect(!page.contains("### tally __"), "hidden commands are not documented")
        #expect(page.contains("| `TALLY_BUSY_TIMEOUT` |") && page.contains("| `75` |"))
    }
}
