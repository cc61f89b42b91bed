import Testing
import TallyDomain

extension TallyRunner {
    /// The numbers `list --json` shows with these arguments, in order; records an issue when list fails.
    func listNumbers(_ arguments: [String]) -> [Int64] {
        let result = run(["list", "--json"] + arguments)
        #expect(result.status == 0, "\(arguments): \(result.stderr)")
        return result.json?.arrayValue?.compactMap { $0.objectValue?["number"]?.intValue } ?? []
    }
}
