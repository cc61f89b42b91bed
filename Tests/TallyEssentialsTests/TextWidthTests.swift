import Testing
@testable import TallyEssentials

private let red = "\u{1B}[31m"
private let reset = "\u{1B}[0m"

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
