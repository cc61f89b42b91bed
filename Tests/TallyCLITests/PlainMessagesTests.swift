import Foundation
import Testing
import TallyDomain
import TallyTestSupport
@testable import TallyCLI
@testable import TallyEssentials

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
