/// Text from outside (titles, notes, tags, actors, file names, what a user typed, a server's
/// reason) made safe for a terminal: control characters never reach it raw.
///
/// A terminal obeys what it is sent: ESC starts sequences that move the cursor, clear the screen,
/// set the window title or write to the clipboard; CR and LF let a title forge other lines; NUL
/// and the C1 controls confuse pagers. Every human renderer and message formatter passes outside
/// text through `escaped` (JSON output has its own escaping), and `Console` checks every line once
/// more with `safeLine`, so a renderer that forgets cannot open the door.
enum TerminalText {
    /// `text` with every control character written as a visible escape: `\n`, `\r`, `\t`, `\0`,
    /// `\e`, other C0 controls as `\xHH`, and DEL, the C1 controls and the bidirectional overrides and
    /// isolates (which reorder what is shown) as `\uHHHH`, which JSON reads as the same character. Idempotent; text without such
    /// characters comes back unchanged without a copy.
    /// - Complexity: O(n).
    static func escaped(_ text: String) -> String {
        guard mayNeedEscape(text, keepingLayout: false) else { return text }
        var result = ""
        result.reserveCapacity(text.utf8.count + 8)
        for scalar in text.unicodeScalars {
            if needsEscape(scalar) { result += escape(scalar) } else { result.unicodeScalars.append(scalar) }
        }
        return result
    }

    /// `escaped` line by line: a note's line breaks stay line breaks, everything else is escaped.
    static func escapedKeepingLines(_ text: String) -> String {
        guard mayNeedEscape(text, keepingLayout: false) else { return text }
        return text.split(separator: "\n", omittingEmptySubsequences: false).map { escaped(String($0)) }.joined(separator: "\n")
    }

    /// Whether the UTF-8 of `text` holds a character `needsEscape` (line breaks and tabs aside when
    /// `keepingLayout`), checked on the bytes: C0, DEL, C1 (`C2 80`-`C2 9F`) and the bidirectional
    /// controls (`E2 80 AA`-`AE`, `E2 81 A6`-`A9`).
    private static func mayNeedEscape(_ text: String, keepingLayout: Bool) -> Bool {
        // Printable ASCII, the common case (every cell and line of a table), answered over the
        // contiguous bytes without the per-byte state below.
        // A whole table is one text: with the layout kept, line feeds and tabs pass too.
        var text = text
        let plain = text.withUTF8 { bytes in
            keepingLayout
                ? bytes.allSatisfy { ($0 >= 0x20 && $0 < 0x7F) || $0 == 0x0A || $0 == 0x09 }
                : bytes.allSatisfy { $0 >= 0x20 && $0 < 0x7F }
        }
        if plain { return false }
        var previous: UInt8 = 0
        var beforePrevious: UInt8 = 0
        for byte in text.utf8 {
            // A carriage return passes only right before a line feed.
            if keepingLayout, previous == 0x0D, byte != 0x0A { return true }
            if byte < 0x20 || byte == 0x7F {
                if !(keepingLayout && (byte == 0x0A || byte == 0x09 || byte == 0x0D)) { return true }
            } else if previous == 0xC2, byte < 0xA0 {
                return true
            } else if beforePrevious == 0xE2,
                      (previous == 0x80 && (0xAA...0xAE).contains(byte)) || (previous == 0x81 && (0xA6...0xA9).contains(byte)) {
                return true
            }
            beforePrevious = previous
            previous = byte
        }
        return keepingLayout && previous == 0x0D
    }

    /// Whether `scalar` is written escaped.
    static func needsEscape(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0..<0x20, 0x7F..<0xA0, 0x202A...0x202E, 0x2066...0x2069: true
        default: false
        }
    }

    private static func escape(_ scalar: Unicode.Scalar) -> String {
        switch scalar {
        case "\n": return "\\n"
        case "\r": return "\\r"
        case "\t": return "\\t"
        case "\0": return "\\0"
        case "\u{1B}": return "\\e"
        default:
            let digits = String(scalar.value, radix: 16, uppercase: true)
            if scalar.value < 0x7F { return "\\x" + String(repeating: "0", count: 2 - digits.count) + digits }
            // DEL, C1 and the bidirectional controls may stand raw inside a JSON string, so `--json` and
            // `export` lines can hold them: their escape is JSON's own, and such a line stays valid JSON.
            return "\\u" + String(repeating: "0", count: 4 - digits.count) + digits
        }
    }

    /// A line tally built, checked before it is written: line breaks (CSV's CR LF too), tabs and the colour
    /// sequences tally itself writes (`ESC [ digits;... m`) pass; every other control character is
    /// escaped as `escaped` does.
    /// - Complexity: O(n); a line without control bytes is not copied.
    static func safeLine(_ text: String) -> String {
        guard mayNeedEscape(text, keepingLayout: true) else { return text }
        let scalars = Array(text.unicodeScalars)
        var result = ""
        var index = 0
        while index < scalars.count {
            let scalar = scalars[index]
            if scalar == "\n" || scalar == "\t" || !needsEscape(scalar) || (scalar == "\r" && index + 1 < scalars.count && scalars[index + 1] == "\n") {
                result.unicodeScalars.append(scalar)
            } else if scalar == "\u{1B}", let end = colorSequenceEnd(scalars, from: index) {
                result.unicodeScalars.append(contentsOf: scalars[index...end])
                index = end
            } else {
                result += escape(scalar)
            }
            index += 1
        }
        return result
    }

    /// The index of the `m` ending a colour sequence `ESC [ digits;digits m` that starts at `start`.
    private static func colorSequenceEnd(_ scalars: [Unicode.Scalar], from start: Int) -> Int? {
        var index = start + 1
        guard index < scalars.count, scalars[index] == "[" else { return nil }
        index += 1
        while index < scalars.count, index - start < 32 {
            let scalar = scalars[index]
            if scalar == "m" { return index }
            guard ("0"..."9").contains(scalar) || scalar == ";" else { return nil }
            index += 1
        }
        return nil
    }
}
