import TallyEssentials
import Testing
import TallyTestSupport
@testable import TallyDomain

private let now: Int64 = 1_795_271_400_000

/// Hostile filter expressions: deep nesting, long input, many terms and random bytes of the
/// language's own characters. Nothing traps or runs out of stack; every refusal points inside the text.
@Suite struct FilterExpressionAttackTests {
    private func outcome(_ text: String) -> Result<FilterExpression, FilterError> {
        do {
            return .success(try FilterParser.parse(text, syntax: .czech, dates: (now, .utc)))
        } catch {
            return .failure(error)
        }
    }

    @Test("nesting deeper than the limit is refused at the first character too deep", arguments: ["(", "not ", "-", "-(", "ne "])
    func deepNesting(opener: String) {
        for depth in [FilterParser.maxDepth + 1, 200, 100_000] {
            let closer = opener.hasSuffix("(") ? ")" : ""
            let text = String(repeating: opener, count: depth) + "a" + String(repeating: closer, count: depth)
            guard case .failure(let error) = outcome(text) else {
                Issue.record("\(opener) × \(depth) parsed")
                continue
            }
            if text.count > FilterParser.maxLength {
                #expect(error.key == .tooLong)
            } else {
                #expect(error.key == .tooDeep)
                // `-(` nests twice per pair.
                #expect(error.offset == (opener == "-(" ? FilterParser.maxDepth : FilterParser.maxDepth * opener.count))
            }
        }
    }

    @Test("the deepest expression allowed parses, prints and runs")
    func deepestAllowed() throws {
        let depth = FilterParser.maxDepth
        let text = String(repeating: "(", count: depth) + "milk" + String(repeating: ")", count: depth)
        let expression = try FilterParser.parse(text)
        let negated = try FilterParser.parse(String(repeating: "not ", count: depth) + "milk")
        let program = try FilterProgram(negated, now: now, zone: .utc)
        let todo = Todo(id: "t", number: 1, title: "Milk", createdAt: now, updatedAt: now)
        #expect(program.matches(todo) == (depth % 2 == 0))
        #expect(try FilterParser.parse(expression.canonical) == expression)
        #expect(try FilterParser.parse(negated.canonical) == negated)
    }

    @Test("too many terms and too long are refused")
    func size() {
        let many = Array(repeating: "a1", count: FilterParser.maxTerms + 1).joined(separator: " or ")
        guard case .failure(let error) = outcome(many) else { Issue.record("parsed"); return }
        #expect(error.key == .tooManyTerms)
        #expect(error.offset == FilterParser.maxTerms * 6)
        let long = String(repeating: "x", count: FilterParser.maxLength + 1)
        guard case .failure(let longError) = outcome(long) else { Issue.record("parsed"); return }
        #expect(longError.key == .tooLong)
    }

    @Test("random text of the language's characters never traps; what parses reads back, what fails points inside")
    func randomText() {
        var random = SeededRandom(seed: 4242)
        let pieces = ["(", ")", "-", "+", "\"", "\\", ":", " ", "or", "and", "not", "nebo", "ne", "tag", "project", "due", "due.before",
                      "is", "status", "priority", "today", "H", "x", "č", "日本", "👍🏽", "\u{301}", ".", "@5", "blocked", "\t", "\u{7}"]
        for _ in 0..<AttackScale.count(short: 5_000, full: 200_000) {
            let text = (0..<Int.random(in: 0...24, using: &random)).map { _ in pieces.randomElement(using: &random)! }.joined()
            switch outcome(text) {
            case .success(let expression):
                #expect((try? FilterParser.parse(expression.canonical)) == expression, "'\(text)' → '\(expression.canonical)'")
                #expect(expression.terms.count <= FilterParser.maxTerms)
                _ = try? FilterProgram(expression, now: now, zone: .utc)
            case .failure(let error):
                #expect(error.offset >= 0 && error.offset <= text.count, "'\(text)': \(error)")
            }
        }
    }
}
