import Foundation
import Testing
import TallyDomain
import TallyTestSupport
@testable import TallyCLI
@testable import TallyEssentials

@Suite("Czech messages", .tags(.postgresql))
struct CzechMessageTests {
    @Test("every message id has a Czech translation")
    func complete() {
        let missing = MessageID.allCases.filter { Language.czech.template($0) == nil }.map(\.rawValue)
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
            guard case .plural(let forms)? = Language.czech.template(id) else { continue }
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
