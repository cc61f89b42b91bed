import Testing
@testable import TallyCLI
import TallyEssentials

private let red = "\u{1B}[31m"
private let bold = "\u{1B}[1m"
private let reset = "\u{1B}[0m"

/// Removes ANSI escape sequences, for checking layout by eye.
private func plain(_ s: String) -> String {
    var out = ""
    var inEscape = false
    for scalar in s.unicodeScalars {
        if scalar == "\u{1B}" { inEscape = true; continue }
        if inEscape {
            if (0x40...0x7E).contains(scalar.value) && scalar != "[" { inEscape = false }
            continue
        }
        out.unicodeScalars.append(scalar)
    }
    return out
}

@Suite("Table")
struct TableTests {
    private let columns = [
        Table.Column(title: "ID", alignRight: true),
        Table.Column(title: "TITLE", truncatable: true, minWidth: 5),
        Table.Column(title: "TAGS"),
    ]

    @Test func alignsColumnsWithoutTrailingSpaces() {
        let table = Table(columns: columns, rows: [
            ["1", "Buy milk", "home"],
            ["12", "Call mom", ""],
            ["103", "File taxes", "admin,money"],
        ])
        #expect(table.render(maxWidth: nil) == """
             ID  TITLE       TAGS
              1  Buy milk    home
             12  Call mom
            103  File taxes  admin,money
            """)
    }

    @Test func wideCharactersAndColorsLineUp() {
        let table = Table(columns: columns, rows: [
            ["1", "買い物", red + "home" + reset],
            ["2", red + "Buy milk" + reset, "🍎"],
            ["3", "Cafe\u{301}", "x"],
        ])
        let rendered = table.render(maxWidth: nil)
        #expect(plain(rendered) == """
            ID  TITLE     TAGS
             1  買い物    home
             2  Buy milk  🍎
             3  Cafe\u{301}      x
            """)
        #expect(rendered.contains("2  " + red + "Buy milk" + reset + "  🍎"))
    }

    @Test func shrinksTruncatableColumnsToFit() {
        let table = Table(columns: columns, rows: [
            ["1", "Renew the passport before the summer trip", "admin"],
            ["2", "短い", "x"],
        ])
        let rendered = table.render(maxWidth: 24)
        #expect(rendered == """
            ID  TITLE          TAGS
             1  Renew the pa…  admin
             2  短い           x
            """)
        for line in rendered.split(separator: "\n") {
            #expect(TextWidth.of(String(line)) <= 24)
        }
    }

    @Test func doesNotShrinkWhenItFits() {
        let table = Table(columns: columns, rows: [["1", "Short", "a"]])
        #expect(table.render(maxWidth: 80) == table.render(maxWidth: nil))
        #expect(table.render(maxWidth: 16) == table.render(maxWidth: nil))
    }

    @Test func stopsAtMinWidthAndOverflowsRatherThanBreak() {
        let table = Table(columns: columns, rows: [["1", "A rather long title", "tag"]])
        #expect(table.render(maxWidth: 5) == """
            ID  TITLE  TAGS
             1  A ra…  tag
            """)
    }

    @Test func truncatesWideCharactersAndColoredCells() {
        let table = Table(columns: columns, rows: [
            ["1", "買い物リストを作る", "a"],
            ["2", bold + "Important meeting" + reset, "b"],
        ])
        let rendered = table.render(maxWidth: 18)
        #expect(plain(rendered) == """
            ID  TITLE     TAGS
             1  買い物…   a
             2  Importa…  b
            """)
        #expect(rendered.contains(bold + "Importa…" + reset + "  b"))
    }

    @Test func shrinksTheWidestTruncatableColumnFirst() {
        let table = Table(
            columns: [
                Table.Column(title: "A", truncatable: true),
                Table.Column(title: "B", truncatable: true),
            ],
            rows: [["aaaaaaaaaa", "bbbbbb"]]
        )
        #expect(table.columnWidths(maxWidth: 14) == [6, 6])
        #expect(table.columnWidths(maxWidth: 12) == [5, 5])
        #expect(table.render(maxWidth: 14) == "A       B\naaaaa…  bbbbbb")
    }

    @Test func headerOnlyAndRaggedRows() {
        #expect(Table(columns: columns, rows: []).render(maxWidth: nil) == "ID  TITLE  TAGS")
        let ragged = Table(columns: columns, rows: [["1"], ["2", "b", "c", "ignored"]])
        #expect(ragged.render(maxWidth: nil) == """
            ID  TITLE  TAGS
             1
             2  b      c
            """)
        #expect(Table(columns: [], rows: [["x"]]).render(maxWidth: nil) == "")
    }
}
