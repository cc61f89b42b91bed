import Testing
@testable import TallyEngine
import TallyTestSupport

@Suite("Partial sort")
struct PartialSortTests {
    @Test("the k smallest under a strict order equal the prefix of a full sort")
    func matchesFullSort() {
        var random = SeededRandom(seed: 3)
        for _ in 0..<200 {
            let values = (0..<Int.random(in: 0...60, using: &random)).map { index in (key: Int.random(in: 0...9, using: &random), index: index) }
            let less: ((key: Int, index: Int), (key: Int, index: Int)) -> Bool = { $0.key != $1.key ? $0.key < $1.key : $0.index < $1.index }
            let k = Int.random(in: 0...70, using: &random)
            let expected = Array(values.sorted(by: less).prefix(k))
            #expect(PartialSort.smallest(k, of: values, by: less).map(\.index) == expected.map(\.index))
        }
    }
}
