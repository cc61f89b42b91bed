/// Measures, truncates and pads text by the columns it occupies in a terminal.
///
/// Widths are per grapheme cluster: East Asian wide/fullwidth characters and emoji take 2,
/// clusters made only of combining marks, format or control characters take 0, the rest 1.
/// ANSI escape sequences (CSI such as colors, and OSC such as hyperlinks) take 0.
public enum TextWidth {
    /// The display width of `s`. Inlinable with its ASCII count: a table measures every cell with it.
    @inlinable
    public static func of(_ s: String) -> Int {
        if let width = asciiWidth(s) { return width }
        return measured(s)
    }

    /// The display width of `s` counted per grapheme cluster.
    @usableFromInline
    static func measured(_ s: String) -> Int {
        var total = 0
        for token in tokens(s) {
            if case .text(_, let width) = token { total += width }
        }
        return total
    }

    /// `s` cut to at most `width` columns, ending in `ellipsis` when anything was cut.
    ///
    /// Escape sequences after the cut are kept, so a trailing color reset still applies.
    /// When even the ellipsis does not fit, the text is cut without one.
    ///
    /// With `atWord`, a cut that would fall inside a word falls after the last whole word instead,
    /// when that keeps at least two thirds of the room (`Call the dentist…`, not `Call the dentist a…`).
    public static func truncate(_ s: String, to width: Int, ellipsis: String = "…", atWord: Bool = false) -> String {
        guard width > 0 else { return "" }
        guard of(s) > width else { return s }
        let ellipsisWidth = of(ellipsis)
        let marker = ellipsisWidth <= width ? ellipsis : ""
        let budget = width - (ellipsisWidth <= width ? ellipsisWidth : 0)
        var result = ""
        var used = 0
        var cut = false
        // Where the text before the last space ends in `result`, and the width used up to there.
        var wordEnd: (index: String.Index, used: Int)? = nil
        var previous: Character = " "
        for token in tokens(s) {
            switch token {
            case .escape(let sequence):
                result += sequence
            case .text(let character, let characterWidth):
                if cut { continue }
                if used + characterWidth <= budget {
                    if atWord, character == " ", previous != " " { wordEnd = (result.endIndex, used) }
                    result.append(character)
                    used += characterWidth
                    previous = character
                } else {
                    if atWord, character != " ", previous != " ", let end = wordEnd, end.used * 3 >= budget * 2 {
                        result.removeSubrange(end.index...)
                    }
                    while atWord, result.last == " " { result.removeLast() }
                    result += marker
                    cut = true
                }
            }
        }
        return result
    }

    /// The width of text that is printable ASCII and escape sequences, counted on its bytes without
    /// grapheme segmentation (every such byte is one column); nil for any other text.
    /// - Complexity: O(bytes), a few instructions each.
    @inlinable
    public static func asciiWidth(_ s: String) -> Int? {
        s.utf8.withContiguousStorageIfAvailable { bytes -> Int? in
            var width = 0
            var index = 0
            while index < bytes.count {
                let byte = bytes[index]
                if byte >= 0x20 && byte < 0x7F {
                    width += 1
                    index += 1
                    continue
                }
                guard byte == 0x1B, let end = endOfASCIIEscape(bytes, startingAt: index) else { return nil }
                index = end
            }
            return width
        } ?? nil
    }

    /// `endOfEscape` on bytes; nil when the sequence holds a non-ASCII byte.
    @usableFromInline
    static func endOfASCIIEscape(_ bytes: UnsafeBufferPointer<UInt8>, startingAt start: Int) -> Int? {
        var index = start + 1
        guard index < bytes.count else { return index }
        let kind = bytes[index]
        index += 1
        guard kind < 0x80 else { return nil }
        switch kind {
        case UInt8(ascii: "["):
            while index < bytes.count {
                let byte = bytes[index]
                index += 1
                if byte >= 0x80 { return nil }
                if (0x40...0x7E).contains(byte) { break }
            }
        case UInt8(ascii: "]"):
            while index < bytes.count {
                let byte = bytes[index]
                index += 1
                if byte >= 0x80 { return nil }
                if byte == 0x07 { break }
                if byte == 0x1B, index < bytes.count, bytes[index] == UInt8(ascii: "\\") {
                    index += 1
                    break
                }
            }
        default:
            break
        }
        return index
    }

    /// `s` padded with spaces to `width` columns, on the left when `alignRight`; never cut.
    public static func pad(_ s: String, to width: Int, alignRight: Bool) -> String {
        let missing = width - of(s)
        guard missing > 0 else { return s }
        let spaces = String(repeating: " ", count: missing)
        return alignRight ? spaces + s : s + spaces
    }

    /// The display width of one grapheme cluster.
    public static func width(of character: Character) -> Int {
        let scalars = character.unicodeScalars
        guard let first = scalars.first else { return 0 }
        if scalars.allSatisfy(isZeroWidth) { return 0 }
        if scalars.contains(textPresentationSelector) { return 1 }
        if first.properties.isEmojiPresentation { return 2 }
        if first.properties.isEmoji && scalars.contains(emojiPresentationSelector) { return 2 }
        return isWide(first) ? 2 : 1
    }

    /// A piece of text: either a visible cluster with its width, or an escape sequence.
    private enum Token {
        case text(Character, width: Int)
        case escape(Substring)
    }

    private static let escape: Unicode.Scalar = "\u{1B}"
    private static let bell: Unicode.Scalar = "\u{07}"
    private static let emojiPresentationSelector: Unicode.Scalar = "\u{FE0F}"
    private static let textPresentationSelector: Unicode.Scalar = "\u{FE0E}"

    /// Splits `s` into escape sequences and grapheme clusters.
    private static func tokens(_ s: String) -> [Token] {
        var result: [Token] = []
        let scalars = s.unicodeScalars
        var textStart = scalars.startIndex
        var index = scalars.startIndex

        func flushText(upTo end: String.Index) {
            guard textStart < end else { return }
            for character in s[textStart..<end] {
                result.append(.text(character, width: width(of: character)))
            }
        }

        while index < scalars.endIndex {
            guard scalars[index] == escape else {
                index = scalars.index(after: index)
                continue
            }
            flushText(upTo: index)
            let end = endOfEscape(in: scalars, startingAt: index)
            result.append(.escape(s[index..<end]))
            index = end
            textStart = end
        }
        flushText(upTo: scalars.endIndex)
        return result
    }

    /// The index just past the escape sequence that starts at `start` (an ESC).
    ///
    /// CSI is `ESC [` parameters, intermediates and one final byte in 0x40–0x7E; OSC is `ESC ]`
    /// up to BEL or `ESC \`; any other escape is ESC plus one character.
    private static func endOfEscape(in scalars: String.UnicodeScalarView, startingAt start: String.Index) -> String.Index {
        var index = scalars.index(after: start)
        guard index < scalars.endIndex else { return index }
        let kind = scalars[index]
        index = scalars.index(after: index)
        switch kind {
        case "[":
            while index < scalars.endIndex {
                let value = scalars[index].value
                index = scalars.index(after: index)
                if (0x40...0x7E).contains(value) { break }
            }
        case "]":
            while index < scalars.endIndex {
                let scalar = scalars[index]
                index = scalars.index(after: index)
                if scalar == bell { break }
                if scalar == escape, index < scalars.endIndex, scalars[index] == "\\" {
                    index = scalars.index(after: index)
                    break
                }
            }
        default:
            break
        }
        return index
    }

    /// Combining marks, format characters (ZWJ, ZWSP, variation selectors) and controls.
    private static func isZeroWidth(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.properties.generalCategory {
        case .nonspacingMark, .enclosingMark, .format, .control: true
        default: false
        }
    }

    /// East Asian Wide and Fullwidth ranges (Unicode 15), excluding emoji, which are handled above.
    private static func isWide(_ scalar: Unicode.Scalar) -> Bool {
        let value = scalar.value
        guard value >= 0x1100 else { return false }
        return wideRanges.contains { $0.contains(value) }
    }

    private static let wideRanges: [ClosedRange<UInt32>] = [
        0x1100...0x115F,   // Hangul Jamo initial consonants
        0x2329...0x232A,   // angle brackets
        0x2E80...0x303E,   // CJK radicals, Kangxi, ideographic description, CJK symbols and punctuation
        0x3041...0x33FF,   // Hiragana, Katakana, Bopomofo, Hangul compatibility Jamo, Kanbun, CJK compatibility
        0x3400...0x4DBF,   // CJK extension A
        0x4E00...0x9FFF,   // CJK unified ideographs
        0xA000...0xA4CF,   // Yi
        0xA960...0xA97F,   // Hangul Jamo extended A
        0xAC00...0xD7A3,   // Hangul syllables
        0xF900...0xFAFF,   // CJK compatibility ideographs
        0xFE10...0xFE19,   // vertical forms
        0xFE30...0xFE6F,   // CJK compatibility forms, small form variants
        0xFF00...0xFF60,   // fullwidth forms
        0xFFE0...0xFFE6,   // fullwidth signs
        0x16FE0...0x16FE4, // ideographic symbols
        0x17000...0x18CFF, // Tangut, Khitan
        0x1AFF0...0x1B2FF, // Kana supplement and extensions, Nushu
        0x1F200...0x1F2FF, // enclosed ideographic supplement
        0x20000...0x2FFFD, // CJK extensions B–F
        0x30000...0x3FFFD, // CJK extension G and later
    ]
}
