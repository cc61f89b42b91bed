import Foundation
import Testing
import TallyTestSupport
@testable import TallyCLI
@testable import TallyEssentials
@testable import TallyDomain

/// Every table at 40 and 80 columns (`COLUMNS`), the way a new user meets them: nothing wider than
/// the terminal (so it never wraps inside a word), and the columns that matter kept.
@Suite("Tables at 40 and 80 columns")
struct NarrowTerminalTests {
    static let longTitle = "Write the quarterly report for the finance department before the board meeting"

    static func seeded() -> TallyRunner {
        let tally = TallyRunner()
        tally.run("add", longTitle, "--tag", "work", "--tag", "finance", "--tag", "quarterly", "--priority", "high", "--due", "2026-11-25")
        tally.run("add", "Buy oat milk", "--tag", "shop")
        for index in 1...11 { tally.run("add", "Later \(index)", "--wait", "+3d") }
        tally.run("done", "2")
        tally.run("delete", "2")
        tally.run("restore", "2")
        tally.run("gear", "add", "Pegasus 40 trail edition for long runs", "--category", "running", "--default", "--retire-at", "10km")
        tally.run("goal", "set", "--per", "week", "--distance", "40km", "--category", "running", "--from", "2026-10-01")
        tally.run("record", "add", "Morning run along the river", "--category", "running", "--duration", "27:30", "--distance", "5km", "--place", "Stromovka park", "--date", "2026-11-20T07:30")
        tally.run("record", "add", "Ride to work", "--category", "cycling", "--duration", "35m", "--distance", "12.4km", "--date", "2026-11-19T08:10")
        tally.run("record", "add", "Long run", "--category", "running", "--duration", "1:50:00", "--distance", "21.1km", "--date", "2025-10-20T09:00")
        return tally
    }

    static let tables: [[String]] = [
        ["list"], ["list", "--status", "all", "--limit", "3"], ["log"], ["record", "list"], ["record", "bests"],
        ["stats"], ["stats", "--ytd"], ["stats", "--streaks"], ["stats", "--by", "category"],
        ["gear", "list"], ["gear", "show", "pegasus 40 trail edition for long runs"], ["goal"],
    ]

    @Test("no line is wider than the terminal, in English and Czech", arguments: [40, 80])
    func fits(columns: Int) {
        let tally = Self.seeded()
        for language in ["C.UTF-8", "cs_CZ.UTF-8"] {
            for arguments in Self.tables {
                let run = tally.run(arguments, environment: ["COLUMNS": String(columns), "LANG": language])
                #expect(run.status == 0 && !run.stdout.isEmpty, "\(arguments)")
                for line in run.stdout.split(separator: "\n") {
                    #expect(TextWidth.of(String(line)) <= columns, "\(arguments) at \(columns) in \(language): \(line)")
                }
            }
        }
    }

    @Test("at 40 columns each table keeps what matters most")
    func narrow() throws {
        let tally = Self.seeded()
        func lines(_ arguments: String...) -> [String] {
            tally.run(arguments, environment: ["COLUMNS": "40"]).stdout.split(separator: "\n").map(String.init)
        }
        // log: the item says what a "restored" row is about; the time of day goes first.
        let log = lines("log")
        #expect(log.first?.contains("Item") == true && log.first?.contains("Summary") == true, "\(log)")
        let restored = try #require(log.first { $0.contains("restored") })
        #expect(restored.contains("2: Buy") && !restored.contains(":0") && !restored.contains(":1"), "\(restored)")
        // record list: the distance stays, the time of day goes.
        let records = lines("record", "list")
        #expect(records.first?.contains("Distance") == true, "\(records)")
        #expect(records.contains { $0.contains("2026-11-20") && $0.contains("5.00 km") && !$0.contains("07:30") }, "\(records)")
        // list: the footer wraps between words.
        let list = lines("list", "--status", "all", "--limit", "3")
        #expect(list.suffix(2) == ["12 active, 1 completed, 11 waiting", "(showing 3 of 13)"], "\(list)")
        // stats --ytd, --streaks and record bests drop columns instead of running past the edge.
        let ytd = lines("stats", "--ytd")
        #expect(ytd.contains { $0.hasPrefix("Category") && $0.contains("2026 Distance") && $0.contains("2025 Distance") }, "\(ytd)")
        #expect(ytd.contains { $0.hasPrefix("running") && $0.contains("5.00 km") && $0.contains("21.10 km") }, "\(ytd)")
        let streaks = lines("stats", "--streaks")
        #expect(streaks.first?.contains("Days now") == true && streaks.first?.contains("Active days") == false, "\(streaks)")
        let bests = lines("record", "bests")
        #expect(bests.first?.contains("Distance") == true && bests.first?.contains("Time") == true, "\(bests)")
        #expect(bests.contains { $0.contains("half marathon") && $0.contains("1:50:00") }, "\(bests)")
    }

    @Test("at 80 columns list gives the title the room before the tags, and stats --ytd keeps both years")
    func wide() throws {
        let tally = Self.seeded()
        let list = tally.run(["list"], environment: ["COLUMNS": "80"]).stdout
        let row = try #require(list.split(separator: "\n").first { $0.contains("Write the") })
        #expect(row.contains("Write the quarterly report for the"), "the title is cut before the tags give up their room:\n\(list)")
        #expect(list.contains("Tags"))
        let ytd = tally.run(["stats", "--ytd"], environment: ["COLUMNS": "80"]).stdout
        #expect(ytd.contains("2026 Time") && ytd.contains("2025 Time") && ytd.contains("Change"), "\(ytd)")
    }
}
