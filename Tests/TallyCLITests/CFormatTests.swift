import Foundation
import Testing
@testable import TallyCLI
@testable import TallyArguments

/// The replacements of `String(format:)`, `NSError.localizedDescription` and a regular expression in the CLI,
/// checked against full Foundation.
@Suite("decimals, system errors and man page commas without full Foundation")
struct CFormatTests {
    @Test(arguments: [0.0, 0.05, 0.15, 0.25, 1.005, 2.345, 2.5, 3.5, 12.3456, 999.95, 1e15, -0.004, -1.25, 123_456.789])
    func decimalsLikePrintf(_ value: Double) {
        #expect(CFormat.fixed(value, places: 1) == String(format: "%.1f", value))
        #expect(CFormat.fixed(value, places: 2) == String(format: "%.2f", value))
        #expect(CFormat.fixed(value, places: 0) == String(format: "%.0f", value))
    }

    @Test func longNumbersAreNotCut() {
        #expect(CFormat.fixed(1e80, places: 2) == String(format: "%.2f", 1e80))
    }

    @Test(arguments: [Int64(0), 999, 1000, 1049, 1050, 999_949, 999_950, 1_500_000, 61_251_320, 7_300_000_000_000])
    func byteSizes(_ bytes: Int64) {
        let units = ["B", "KB", "MB", "GB", "TB"]
        var value = Double(bytes)
        var unit = 0
        while value >= 1000, unit < units.count - 1 {
            value /= 1000
            unit += 1
        }
        let expected = unit == 0 ? "\(bytes) B" : String(format: "%.1f %@", value, units[unit])
        #expect(ByteSize.format(bytes) == expected)
    }

    @Test func systemReasons() {
        #expect(CFormat.reason(POSIXError(.ENOENT)) == "No such file or directory")
        let cocoa = CocoaError(.fileWriteNoPermission, userInfo: [NSUnderlyingErrorKey: POSIXError(.EACCES)])
        #expect(CFormat.reason(cocoa) == "Permission denied")
        do {
            try Data("x".utf8).write(to: URL(fileURLWithPath: "/nonexistent-\(UUID().uuidString)/out.csv"), options: .atomic)
            Issue.record("the write should fail")
        } catch {
            #expect(CFormat.reason(error) == "No such file or directory")
        }
    }

    @Test(arguments: ["a,b", "a, b", "a,", ",x", "id,title,tags, due", "no commas", ",,", "a,\nb", "é,ř"])
    func commasLikeTheRegularExpression(_ text: String) {
        let expected = text.replacingOccurrences(of: ",(?=[^ ])", with: ",\\\\:", options: .regularExpression)
        #expect(ManPage.breakableCommas(text) == expected)
    }
}
