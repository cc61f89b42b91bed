/// Packs lowercase UUID text (`8-4-4-4-12` hex digits) into 16 bytes and back.
enum UUIDBytes {
    typealias Packed = (UInt64, UInt64)

    /// The 16 bytes of a lowercase UUID, or nil for any other text (so unpacking gives the same text back).
    static func pack(_ text: String) -> Packed? {
        var text = text
        return text.withUTF8 { utf8 -> Packed? in
            guard utf8.count == 36 else { return nil }
            var high: UInt64 = 0
            var low: UInt64 = 0
            var digits = 0
            for (index, char) in utf8.enumerated() {
                if index == 8 || index == 13 || index == 18 || index == 23 {
                    guard char == UInt8(ascii: "-") else { return nil }
                    continue
                }
                let nibble: UInt8
                switch char {
                case UInt8(ascii: "0")...UInt8(ascii: "9"): nibble = char - UInt8(ascii: "0")
                case UInt8(ascii: "a")...UInt8(ascii: "f"): nibble = char - UInt8(ascii: "a") + 10
                default: return nil
                }
                if digits < 16 {
                    high = high << 4 | UInt64(nibble)
                } else {
                    low = low << 4 | UInt64(nibble)
                }
                digits += 1
            }
            return (high.bigEndian, low.bigEndian)
        }
    }

    /// The lowercase UUID text of 16 packed bytes.
    static func unpack(_ bytes: UnsafeRawBufferPointer) -> String {
        String(unsafeUninitializedCapacity: 36) { out in
            var position = 0
            for index in 0..<16 {
                if index == 4 || index == 6 || index == 8 || index == 10 {
                    out[position] = UInt8(ascii: "-")
                    position += 1
                }
                let byte = bytes[index]
                out[position] = hexDigit(byte >> 4)
                out[position + 1] = hexDigit(byte & 0x0f)
                position += 2
            }
            return 36
        }
    }

    @inline(__always)
    private static func hexDigit(_ nibble: UInt8) -> UInt8 {
        nibble &+ (nibble < 10 ? UInt8(ascii: "0") : UInt8(ascii: "a") &- 10)
    }
}
