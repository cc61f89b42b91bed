import Foundation
import Testing
import TallyDomain
import TallyTestSupport
import TallyEssentials

@Suite("next: ready todos by urgency, --explain, TALLY_URGENCY, end to end", .tags(.postgresql))
struct NextCommandTests {
    /// 1 due soon and high, 2 plain, 3 waits for 1, 4 completed, 5 tagged next, 6 waiting.
    func seeded() -> TallyRunner {
        let tally = TallyRunner()
        tally.run("add", "Pay rent", "--due", "2026-11-22T12:00:00Z", "--priority", "high", "--project", "home")
        tally.run("add", "Read")
        tally.run("add", "Frame receipt", "--after", "1")
        tally.run("add", "Old", "--priority", "high")
        tally.run("done", "4")
        tally.run("add", "Call Bob", "--tag", "next")
        tally.run("add", "Renew passport", "--wait", "2026-12-01", "--priority", "high")
        return tally
    }

    func numbers(_ result: RunResult) -> [Int64] {
        result.json?.arrayValue?.compactMap { $0.objectValue?["number"]?.intValue } ?? []
    }

    @Test("only ready todos, highest urgency first, with the score; blocked, completed and waiting ones are left out")
    func list() {
        let tally = seeded()
        let text = tally.run("next").stdout
        #expect(text == """
            #  Urgency  Title     Project  Tags  Due
            1     23.3  Pay rent  home           2026-11-22 12:00
            5     15.8  Call Bob           next
            2      0.0  Read

            """, "\(text)")
        let json = tally.run("--json", "next")
        #expect(numbers(json) == [1, 5, 2])
        // Due in a day (0.70 × 12 ≈ 8.34), high (6), blocking 3 (8), a project (1).
        let urgency = json.json?.arrayValue?.first?.objectValue?["urgency"]?.doubleValue ?? 0
        #expect(abs(urgency - (12 * ((-1.0 + 14) * 0.8 / 21 + 0.2) + 6 + 8 + 1)) < 0.001, "\(urgency)")
        #expect(numbers(tally.run("--json", "next", "--limit", "1")) == [1])
        #expect(tally.run("next", "--limit", "2").stdout.hasSuffix("(showing 2 of 3 ready)\n"))
        #expect(numbers(tally.run("--json", "next", "not", "project:home")) == [5, 2])
        tally.run("done", "1")
        // 3 is ready now; it and 2 score alike (created at the same time), so creation order decides.
        #expect(numbers(tally.run("--json", "next")) == [5, 2, 3])
        #expect(numbers(tally.run("--json", "next", "--as-of", "@7")) == [1, 5, 2])
        #expect(tally.run("next", "nothing-matches").stdout == "Nothing is ready.\n")
    }

    @Test("--explain shows every term; TALLY_URGENCY changes coefficients and the order; bad values are refused")
    func explain() {
        let tally = seeded()
        let text = tally.run("next", "--explain", "1").stdout
        #expect(text == """
            Urgency of 1: Pay rent

            Term           Factor  Coefficient  Value
            due              0.70         12.0   8.34
            priority.high    1.00          6.0   6.00
            blocking         1.00          8.0   8.00
            project          1.00          1.0   1.00
            Total                               23.34

            """, "\(text)")
        let terms = tally.run("--json", "next", "--explain", "1").json?.objectValue?["terms"]?.arrayValue?.compactMap { $0.objectValue?["term"]?.stringValue }
        #expect(terms == ["due", "priority.high", "blocking", "project"])
        let changed = tally.run(["--json", "next"], environment: ["TALLY_URGENCY": "tag.next=40, due=0 project.home=-3"])
        #expect(numbers(changed) == [5, 1, 2])
        let explained = tally.run(["next", "--explain", "1"], environment: ["TALLY_URGENCY": "project.home=-3"]).stdout
        #expect(explained.contains("project.home     1.00         -3.0  -3.00"), "\(explained)")
        for bad in ["due", "due=x", "due=101", "age.max=0", "colour=3", "tag.=2", "due=nan"] {
            let refused = tally.run(["next"], environment: ["TALLY_URGENCY": bad])
            #expect(refused.status == 65 && refused.stderr.hasPrefix("Error: Invalid value '\(bad)' for TALLY_URGENCY"), "\(bad): \(refused.stderr)")
        }
        #expect(tally.run("next", "--explain", "1", "--limit", "2").status == 64)
        #expect(tally.run("next", "--explain", "99").status == 1)
        #expect(tally.run("next", "--limit", "0").status == 65)
    }
}
