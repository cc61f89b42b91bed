import Testing
@testable import TallyCLI
@testable import TallyEssentials

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

@Suite("TextWidth")
struct TextWidthTests {
    @Test func asciiAndEmpty() {
        #expect(TextWidth.of("") == 0)
        #expect(TextWidth.of("hello") == 5)
        #expect(TextWidth.of("a b") == 3)
    }

    @Test func eastAsianWideCharactersTakeTwoColumns() {
        #expect(TextWidth.of("買い物") == 6)
        #expect(TextWidth.of("한국어") == 6)
        #expect(TextWidth.of("ＡＢ") == 4)
        #expect(TextWidth.of("\u{3000}") == 2)
        #expect(TextWidth.of("ｶﾀｶﾅ") == 4)
    }

    @Test func emojiTakeTwoColumns() {
        #expect(TextWidth.of("🍎") == 2)
        #expect(TextWidth.of("a🍎b") == 4)
        #expect(TextWidth.of("❤️") == 2)
        #expect(TextWidth.of("❤") == 1)
        #expect(TextWidth.of("👍🏽") == 2)
        #expect(TextWidth.of("👨‍👩‍👧") == 2)
        #expect(TextWidth.of("🇩🇪") == 2)
        #expect(TextWidth.of("1️⃣") == 2)
        #expect(TextWidth.of("☺︎") == 1)
    }

    @Test func combiningAndInvisibleCharactersTakeNone() {
        #expect(TextWidth.of("e\u{301}") == 1)
        #expect(TextWidth.of("Cafe\u{301}") == 4)
        #expect(TextWidth.of("\u{301}") == 0)
        #expect(TextWidth.of("a\u{200B}b") == 2)
        #expect(TextWidth.of("\u{7}") == 0)
    }

    @Test func ansiEscapesTakeNone() {
        #expect(TextWidth.of(red + "done" + reset) == 4)
        #expect(TextWidth.of("\u{1B}[38;5;208m買\u{1B}[0m") == 2)
        #expect(TextWidth.of("\u{1B}]8;;https://example.com\u{7}link\u{1B}]8;;\u{1B}\\") == 4)
        #expect(TextWidth.of("\u{1B}") == 0)
        #expect(TextWidth.of("x\u{1B}[") == 1)
    }

    @Test func truncate() {
        #expect(TextWidth.truncate("hello", to: 5) == "hello")
        #expect(TextWidth.truncate("hello", to: 10) == "hello")
        #expect(TextWidth.truncate("hello world", to: 6) == "hello…")
        #expect(TextWidth.truncate("hello", to: 1) == "…")
        #expect(TextWidth.truncate("hello", to: 0) == "")
        #expect(TextWidth.truncate("hello world", to: 8, ellipsis: "...") == "hello...")
        #expect(TextWidth.truncate("hello", to: 2, ellipsis: "...") == "he")
    }

    @Test func truncateNeverSplitsAWideCharacter() {
        #expect(TextWidth.truncate("買い物リスト", to: 6) == "買い…")
        #expect(TextWidth.truncate("買い物リスト", to: 5) == "買い…")
        #expect(TextWidth.of(TextWidth.truncate("買い物リスト", to: 4)) == 3)
        #expect(TextWidth.truncate("e\u{301}e\u{301}e\u{301}", to: 2) == "e\u{301}…")
    }

    @Test func truncateKeepsEscapesSoColorsAreReset() {
        let cut = TextWidth.truncate(red + "overdue task" + reset, to: 5)
        #expect(cut == red + "over…" + reset)
        #expect(TextWidth.of(cut) == 5)
    }

    @Test func pad() {
        #expect(TextWidth.pad("ab", to: 4, alignRight: false) == "ab  ")
        #expect(TextWidth.pad("ab", to: 4, alignRight: true) == "  ab")
        #expect(TextWidth.pad("買", to: 3, alignRight: false) == "買 ")
        #expect(TextWidth.pad(red + "a" + reset, to: 2, alignRight: true) == " " + red + "a" + reset)
        #expect(TextWidth.pad("abcdef", to: 3, alignRight: false) == "abcdef")
    }
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
