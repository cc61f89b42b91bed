import Foundation
import Testing
import TallyDomain
import TallyTestSupport
@testable import TallyCLI
@testable import TallyEssentials

@Suite("The value parsers' reasons go through the catalog")
struct ValueReasonCatalogTests {
    @Test("every reason key has an English message equal to the parser's own phrase, and a Czech translation")
    func everyReasonTranslated() {
        for key in ValueReasonKey.allCases {
            guard let id = ValueReasonMessages.id(key) else {
                Issue.record("no MessageID for value reason \(key.rawValue)")
                continue
            }
            if case .text(let english)? = Language.english.template(id) {
                #expect(english == key.english, "English message of \(key.rawValue) differs from the parser's phrase")
            } else {
                Issue.record("no English text for \(id.rawValue)")
            }
            if case .text(let czech)? = Language.czech.template(id) {
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
