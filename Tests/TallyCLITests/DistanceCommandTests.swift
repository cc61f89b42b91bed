import Foundation
import Testing
import TallyDomain
import TallyTestSupport
@testable import TallyCLI
@testable import TallyEssentials

@Suite("distances in records, end to end")
struct DistanceCommandTests {
    @Test("distances are stored to the millimetre and printed in their shortest form")
    func distances() {
        let tally = TallyRunner()
        for distance in ["3.1mi", "3.1mi", "10.1km", "0.3333333km"] {
            tally.run("record", "add", "Run", "--category", "running", "--duration", "30m", "--distance", distance)
        }
        let list = tally.run("record", "list", "--json").stdout
        for stored in ["\"distanceMeters\": 333.333,", "\"distanceMeters\": 10100,", "\"distanceMeters\": 4988.966,"] {
            #expect(list.contains(stored), "\(stored) in \(list)")
        }
        let stats = tally.run("stats", "--json")
        #expect(stats.stdout.contains("\"distanceMeters\": 20411.265"), "\(stats.stdout)")
    }
}
