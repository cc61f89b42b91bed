import Foundation
import Testing
import TallyDomain
import TallyTestSupport
@testable import TallyCLI
@testable import TallyEssentials

@Suite("Layout at narrow widths")
struct NarrowLayoutTests {
    @Test func dropsColumnsInTheirOrderBeforeOverflowing() {
        let table = Table(
            columns: [
                Table.Column(title: "#", alignRight: true),
                Table.Column(title: "Title", truncatable: true, minWidth: 5),
                Table.Column(title: "Tags", dropOrder: 1),
                Table.Column(title: "Due", dropOrder: 2),
            ],
            rows: [["1", "A long title indeed", "work home", "2026-11-21"]]
        )
        #expect(table.render(maxWidth: nil) == "#  Title                Tags       Due\n1  A long title indeed  work home  2026-11-21")
        func header(_ width: Int) -> String { String(table.render(maxWidth: width).split(separator: "\n")[0]) }
        #expect(header(34) == "#  Title     Tags       Due", "every column fits once the title is cut")
        #expect(header(24) == "#  Title      Due", "tags go first")
        #expect(header(12) == "#  Title", "then the due date")
        for width in [12, 16, 20, 24, 30, 34, 40] {
            #expect(table.renderedWidth(maxWidth: width) <= width)
            for line in table.render(maxWidth: width).split(separator: "\n") {
                #expect(TextWidth.of(String(line)) <= width, "\(width): \(line)")
            }
        }
    }

    @Test func progressBarGivesUpSuffixCountsAndLabelInThatOrder() {
        let wide = ProgressBar.line(done: 5, total: 10, label: "Replaying", width: 80, unicode: false, suffix: "1200 events/s  ETA 3 s")
        #expect(wide.hasSuffix("]  50%  5/10  1200 events/s  ETA 3 s") && wide.count < 80)
        let forty = ProgressBar.line(done: 5, total: 10, label: "Replaying", width: 40, unicode: false, suffix: "1200 events/s  ETA 3 s")
        #expect(forty == "Replaying [#############-------------]  50%  5/10".prefix(39) || forty.hasSuffix("50%  5/10"), "\(forty)")
        #expect(!forty.contains("events/s") && forty.count <= 39)
        let tiny = ProgressBar.line(done: 5, total: 10, label: "Replaying", width: 14, unicode: false, suffix: "x")
        #expect(tiny == "[###---]  50%", "\(tiny)")
        for width in 1...120 {
            let line = ProgressBar.line(done: 3, total: 7, label: "Importing", width: width, unicode: true, suffix: "12 events/s  ETA 1 s") { ByteSize.format(Int64($0)) }
            #expect(TextWidth.of(line) < max(width, 2), "\(width): \(line)")
        }
    }
}
