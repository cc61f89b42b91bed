import Testing
@testable import TallyCLI
@testable import TallyEssentials
@testable import TallyDomain

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
             1  Renew the…     admin
             2  短い           x
            """)
        for line in rendered.split(separator: "\n") {
            #expect(TextWidth.of(String(line)) <= 24)
        }
    }

    @Test("a cut falls after the last whole word when that keeps two thirds of the room")
    func cutsAtWords() {
        #expect(TextWidth.truncate("Call the dentist about the crown", to: 19, ellipsis: "…", atWord: true) == "Call the dentist…")
        #expect(TextWidth.truncate("Call the dentist about the crown", to: 19, ellipsis: "…") == "Call the dentist a…")
        // Too little would be left: the cut stays inside the word.
        #expect(TextWidth.truncate("Write the quarterly report", to: 19, ellipsis: "…", atWord: true) == "Write the quarterl…")
        // A cut right at a space loses the space, not a word.
        #expect(TextWidth.truncate("Buy oat milk today", to: 9, ellipsis: "…", atWord: true) == "Buy oat…")
        #expect(TextWidth.truncate("work quarterly", to: 4, ellipsis: "…", atWord: true) == "wor…")
        // Colours around the text survive the cut.
        let red = "\u{1B}[31m", reset = "\u{1B}[0m"
        #expect(TextWidth.truncate(red + "Call the dentist about" + reset, to: 19, ellipsis: "…", atWord: true) == red + "Call the dentist…" + reset)
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

@Suite("Table at narrow widths")
struct NarrowTableTests {
    @Test("a column with a lower shrink order gives up its room first, down to its minimum")
    func shrinkOrder() {
        let table = Table(
            columns: [
                Table.Column(title: "Title", truncatable: true, minWidth: 5, shrinkOrder: 1),
                Table.Column(title: "Tags", truncatable: true, minWidth: 4),
            ],
            rows: [["Write the quarterly report", "work finance"]]
        )
        // Natural: 26 + 2 + 12 = 40. At 34 the tags lose 8 columns before the title loses any.
        #expect(table.columnWidths(maxWidth: 34) == [26, 6])
        #expect(table.columnWidths(maxWidth: 32) == [26, 4])
        #expect(table.columnWidths(maxWidth: 30) == [24, 4])
    }

    @Test("a dropped column comes back, most important first, where it fits again")
    func putBack() {
        let table = Table(
            columns: [
                Table.Column(title: "Category"),
                Table.Column(title: "Count", alignRight: true, dropOrder: 1),
                Table.Column(title: "Previous distance", alignRight: true, dropOrder: 2),
                Table.Column(title: "Change", alignRight: true, dropOrder: 3),
            ],
            rows: [["running", "3", "21.10 km", "-76%"]]
        )
        // 8 + 5 + 17 + 6 + 6 = 42. At 40 Count goes and cannot come back.
        #expect(table.render(maxWidth: 40) == "Category  Previous distance  Change\nrunning            21.10 km    -76%")
        // At 30 Count and then Previous distance go; Previous distance does not fit again, Count does.
        #expect(table.render(maxWidth: 30) == "Category  Count  Change\nrunning       3    -76%")
    }

    @Test("the form that loses the least important things is chosen; a form wider than the width loses most")
    func leastLoss() {
        let columns = [
            Table.Column(title: "Date"),
            Table.Column(title: "Name", truncatable: true, minWidth: 4),
            Table.Column(title: "Place", dropOrder: 1),
            Table.Column(title: "Distance", alignRight: true, dropOrder: 5),
        ]
        let long = Table(columns: columns, rows: [["2026-11-24 07:30", "Run", "Park", "5.00 km"]])
        let short = Table(columns: columns, rows: [["2026-11-24", "Run", "Park", "5.00 km"]])
        func chosen(_ width: Int) -> String {
            String(Table.leastLoss([(long, nil), (short, 3)], maxWidth: width).render(maxWidth: width).split(separator: "\n")[1])
        }
        // Wide: the richer form. Losing Place (1) costs less than losing the time of day (3).
        #expect(chosen(80) == "2026-11-24 07:30  Run   Park    5.00 km")
        #expect(chosen(33) == "2026-11-24 07:30  Run    5.00 km")
        // Losing the time of day (3) costs less than losing Distance (5).
        #expect(chosen(28) == "2026-11-24  Run    5.00 km")
        // Neither fits with Distance: the long form drops it and is still the better of the two.
        #expect(chosen(20).hasPrefix("2026-11-24"))
        #expect(Table.leastLoss([(long, nil)], maxWidth: 10).render(maxWidth: nil) == long.render(maxWidth: nil))
    }

    @Test("prose under a table wraps between words, never inside one")
    func wordWrap() {
        let footer = "11 active, 0 completed, 11 waiting (showing 3 of 11)"
        #expect(WordWrap.wrapped(footer, width: nil) == footer)
        #expect(WordWrap.wrapped(footer, width: 80) == footer)
        #expect(WordWrap.wrapped(footer, width: 40) == "11 active, 0 completed, 11 waiting\n(showing 3 of 11)")
        #expect(WordWrap.wrapped(footer, width: 12) == "11 active, 0\ncompleted,\n11 waiting\n(showing 3\nof 11)")
        let words = Set(footer.split(separator: " "))
        for width in 8...60 {
            let lines = WordWrap.wrapped(footer, width: width).split(separator: "\n")
            for line in lines {
                #expect(TextWidth.of(String(line)) <= width || !line.contains(" "), "\(width): \(line)")
                #expect(line.split(separator: " ").allSatisfy { words.contains($0) }, "a word was broken at \(width): \(line)")
            }
        }
    }
}
