/// JSON text output.
///
/// Canonical form (`JSON.Style.canonical`), the byte-exact text that is hashed:
/// - No whitespace anywhere: no spaces, no newlines, no trailing newline.
/// - Object members are ordered by their keys' UTF-8 byte sequences, compared
///   lexicographically as unsigned bytes, a proper prefix first:
///   "" < "B" < "a" < "ab" < "z" < "é" < "日" < "😀". This is not Swift's
///   `String <`, which compares Unicode-normalized forms (it puts U+212B ANGSTROM
///   SIGN before "Æ"; bytes put it after). Keys are unique by bytes, so the order is total.
/// - Strings are written between `"` with exactly these escapes: `"` as `\"`,
///   `\` as `\\`, U+0008 `\b`, U+000C `\f`, U+000A `\n`, U+000D `\r`, U+0009 `\t`,
///   every other U+0000–U+001F as `\u00xx` with two lowercase hex digits. All
///   other scalars, including `/`, U+007F and non-ASCII, are written as their raw
///   UTF-8 bytes. No Unicode normalization is applied.
/// - `.int` is written in decimal: optional `-`, no leading zeros, no `+`.
/// - `.double` whose value is integral with magnitude below 2^53 is written as
///   that integer (5000.0 → `5000`, -0.0 → `0`); any other finite double is
///   written as Swift's shortest round-trip `description` (3.1 → `3.1`,
///   1e-05 → `1e-05`, 1e300 → `1e+300`, 2^53 → `9007199254740992.0`), all of
///   which are valid JSON numbers that parse back to the same Double.
///   Non-finite doubles cannot come from the parser; they are written as `null`.
/// - `true`, `false`, `null` as literals; arrays keep element order.
///
/// Consequence: `JSON ==` holds exactly when canonical texts are equal (for
/// finite numbers), and `parse(x.serialized(.canonical)) == x`.
///
/// `.compact` is canonical without key sorting (insertion order). `.pretty` keeps
/// insertion order and puts every element and member on its own line, indented two
/// spaces per nesting level, as `"key": value`, with the closing bracket on its own
/// line at the parent's indentation; empty containers are `[]` / `{}`; there is no
/// trailing newline. All styles share string and number formatting.
extension JSON {
    /// Output layout; see the documentation at the top of this file.
    public enum Style: Sendable {
        case compact, pretty, canonical
    }

    /// The JSON text of this value in `style`; O(n), plus O(k log k) per object of k keys for canonical.
    public func serialized(_ style: Style = .compact) -> String {
        var writer = JSONWriter(style: style)
        writer.write(self, level: 0)
        return String(decoding: writer.output, as: UTF8.self)
    }
}

public struct JSONWriter {
    public let style: JSON.Style
    public var output: [UInt8] = []

    public init(style: JSON.Style) {
        self.style = style
        output.reserveCapacity(128)
    }

    public mutating func write(_ value: JSON, level: Int) {
        switch value {
        case .null:
            append("null")
        case let .bool(flag):
            append(flag ? "true" : "false")
        case let .int(number):
            writeInteger(number)
        case let .double(number):
            writeDouble(number)
        case let .string(string):
            writeString(string)
        case let .array(elements):
            writeArray(elements, level: level)
        case let .object(object):
            writeObject(object, level: level)
        }
    }

    public mutating func writeArray(_ elements: [JSON], level: Int) {
        output.append(UInt8(ascii: "["))
        if elements.isEmpty {
            output.append(UInt8(ascii: "]"))
            return
        }
        for (position, element) in elements.enumerated() {
            if position > 0 { output.append(UInt8(ascii: ",")) }
            newline(level: level + 1)
            write(element, level: level + 1)
        }
        newline(level: level)
        output.append(UInt8(ascii: "]"))
    }

    public mutating func writeObject(_ object: JSONObject, level: Int) {
        output.append(UInt8(ascii: "{"))
        if object.count == 0 {
            output.append(UInt8(ascii: "}"))
            return
        }
        var members = object.members
        if style == .canonical {
            members.sort { $0.key.utf8.lexicographicallyPrecedes($1.key.utf8) }
        }
        for (position, member) in members.enumerated() {
            if position > 0 { output.append(UInt8(ascii: ",")) }
            newline(level: level + 1)
            writeString(member.key)
            output.append(UInt8(ascii: ":"))
            if style == .pretty { output.append(UInt8(ascii: " ")) }
            write(member.value, level: level + 1)
        }
        newline(level: level)
        output.append(UInt8(ascii: "}"))
    }

    /// Pretty style only: a line break followed by the indentation of `level`.
    public mutating func newline(level: Int) {
        guard style == .pretty else { return }
        output.append(UInt8(ascii: "\n"))
        output.append(contentsOf: repeatElement(UInt8(ascii: " "), count: 2 * level))
    }

    public mutating func append(_ literal: StaticString) {
        output.append(contentsOf: UnsafeBufferPointer(start: literal.utf8Start, count: literal.utf8CodeUnitCount))
    }

    public mutating func writeInteger(_ number: Int64) {
        if number < 0 { output.append(UInt8(ascii: "-")) }
        var magnitude = number.magnitude
        let start = output.count
        repeat {
            output.append(UInt8(ascii: "0") &+ UInt8(magnitude % 10))
            magnitude /= 10
        } while magnitude > 0
        output[start...].reverse()
    }

    public mutating func writeDouble(_ number: Double) {
        guard number.isFinite else {
            append("null")
            return
        }
        if let integer = number.canonicalInteger {
            writeInteger(integer)
        } else {
            output.append(contentsOf: number.description.utf8)
        }
    }

    /// Copies runs of bytes that need no escape in bulk.
    public mutating func writeString(_ string: String) {
        output.append(UInt8(ascii: "\""))
        var string = string
        string.withUTF8 { bytes in
            var runStart = 0
            for (index, byte) in bytes.enumerated() where byte < 0x20 || byte == 0x22 || byte == 0x5C {
                output.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[runStart..<index]))
                runStart = index + 1
                output.append(UInt8(ascii: "\\"))
                switch byte {
                case 0x22: output.append(UInt8(ascii: "\""))
                case 0x5C: output.append(UInt8(ascii: "\\"))
                case 0x08: output.append(UInt8(ascii: "b"))
                case 0x0C: output.append(UInt8(ascii: "f"))
                case 0x0A: output.append(UInt8(ascii: "n"))
                case 0x0D: output.append(UInt8(ascii: "r"))
                case 0x09: output.append(UInt8(ascii: "t"))
                default:
                    let digits: StaticString = "0123456789abcdef"
                    append("u00")
                    output.append(digits.utf8Start[Int(byte >> 4)])
                    output.append(digits.utf8Start[Int(byte & 0x0F)])
                }
            }
            output.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[runStart...]))
        }
        output.append(UInt8(ascii: "\""))
    }
}
