#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Text operations the product needs, written on the standard library so they behave the same with
/// FoundationEssentials (which has no `CharacterSet`, `trimmingCharacters` or Unicode normalization) and on
/// every platform.
public enum TextScalars {
    /// `CharacterSet.whitespaces`: spaces (general category Zs), the tab, and the zero-width space U+200B, which
    /// Foundation still counts as a space.
    public static func isSpace(_ scalar: Unicode.Scalar) -> Bool {
        scalar == "\t" || scalar == "\u{200B}" || scalar.properties.generalCategory == .spaceSeparator
    }

    /// `CharacterSet.whitespacesAndNewlines`: the Unicode White_Space property (spaces, tab, line breaks U+000A...U+000D,
    /// U+0085, U+2028, U+2029) and U+200B, as in `isSpace`.
    public static func isSpaceOrNewline(_ scalar: Unicode.Scalar) -> Bool {
        scalar == "\u{200B}" || scalar.properties.isWhitespace
    }

    /// `CharacterSet.letters`: general categories L* and M*.
    public static func isLetter(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.properties.generalCategory {
        case .uppercaseLetter, .lowercaseLetter, .titlecaseLetter, .modifierLetter, .otherLetter,
             .nonspacingMark, .spacingMark, .enclosingMark:
            true
        default:
            false
        }
    }

    /// `CharacterSet.alphanumerics`: letters, marks and numbers (general categories L*, M*, N*).
    public static func isLetterOrDigit(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.properties.generalCategory {
        case .decimalNumber, .letterNumber, .otherNumber: true
        default: isLetter(scalar)
        }
    }

    /// Order ignoring case, for sorting titles and names: the lowercased texts compared as Swift compares strings
    /// (canonically equivalent texts are equal, otherwise by Unicode scalar values of their NFC forms).
    public static func compareIgnoringCase(_ lhs: String, _ rhs: String) -> ComparisonResult {
        let left = lhs.lowercased()
        let right = rhs.lowercased()
        return left == right ? .orderedSame : left < right ? .orderedAscending : .orderedDescending
    }

    /// The text in Unicode Normalization Form C.
    public static func nfc(_ text: String) -> String {
        String(decoding: text._nfcCodeUnits, as: UTF8.self)
    }

    /// The text without diacritics on Latin letters: each precomposed letter of Latin-1 Supplement, Latin
    /// Extended-A and -B and Latin Extended Additional becomes its base letter (`á` → `a`, `ř` → `r`, `ǖ` → `u`),
    /// and combining diacritical marks (U+0300...U+036F) are dropped. For Latin text this is the canonical
    /// decomposition without its marks; letters of other scripts are kept as they are.
    public static func withoutDiacritics(_ text: String) -> String {
        var scalars = String.UnicodeScalarView()
        for scalar in text.unicodeScalars where !(0x300...0x36F).contains(scalar.value) {
            scalars.append(latinBases[scalar] ?? scalar)
        }
        return String(scalars)
    }

    /// Precomposed Latin letter → base letter, from the Unicode canonical decompositions (generated once from the
    /// Unicode Character Database; `TextScalarsTests` checks it against Foundation's decomposition).
    public static let latinBases: [Unicode.Scalar: Unicode.Scalar] = {
        var table: [Unicode.Scalar: Unicode.Scalar] = [:]
        for chunk in latinBaseChunks {
            var scalars = chunk.unicodeScalars.makeIterator()
            while let composed = scalars.next(), let base = scalars.next() {
                table[composed] = base
            }
        }
        return table
    }()

    /// Pairs of (precomposed letter, base letter).
    private static let latinBaseChunks: [String] = [
        "\u{C0}A\u{C1}A\u{C2}A\u{C3}A\u{C4}A\u{C5}A\u{C7}C\u{C8}E\u{C9}E\u{CA}E\u{CB}E\u{CC}I\u{CD}I\u{CE}I",
        "\u{CF}I\u{D1}N\u{D2}O\u{D3}O\u{D4}O\u{D5}O\u{D6}O\u{D9}U\u{DA}U\u{DB}U\u{DC}U\u{DD}Y\u{E0}a\u{E1}a",
        "\u{E2}a\u{E3}a\u{E4}a\u{E5}a\u{E7}c\u{E8}e\u{E9}e\u{EA}e\u{EB}e\u{EC}i\u{ED}i\u{EE}i\u{EF}i\u{F1}n",
        "\u{F2}o\u{F3}o\u{F4}o\u{F5}o\u{F6}o\u{F9}u\u{FA}u\u{FB}u\u{FC}u\u{FD}y\u{FF}y\u{100}A\u{101}a",
        "\u{102}A\u{103}a\u{104}A\u{105}a\u{106}C\u{107}c\u{108}C\u{109}c\u{10A}C\u{10B}c\u{10C}C\u{10D}c",
        "\u{10E}D\u{10F}d\u{112}E\u{113}e\u{114}E\u{115}e\u{116}E\u{117}e\u{118}E\u{119}e\u{11A}E\u{11B}e",
        "\u{11C}G\u{11D}g\u{11E}G\u{11F}g\u{120}G\u{121}g\u{122}G\u{123}g\u{124}H\u{125}h\u{128}I\u{129}i",
        "\u{12A}I\u{12B}i\u{12C}I\u{12D}i\u{12E}I\u{12F}i\u{130}I\u{134}J\u{135}j\u{136}K\u{137}k\u{139}L",
        "\u{13A}l\u{13B}L\u{13C}l\u{13D}L\u{13E}l\u{143}N\u{144}n\u{145}N\u{146}n\u{147}N\u{148}n\u{14C}O",
        "\u{14D}o\u{14E}O\u{14F}o\u{150}O\u{151}o\u{154}R\u{155}r\u{156}R\u{157}r\u{158}R\u{159}r\u{15A}S",
        "\u{15B}s\u{15C}S\u{15D}s\u{15E}S\u{15F}s\u{160}S\u{161}s\u{162}T\u{163}t\u{164}T\u{165}t\u{168}U",
        "\u{169}u\u{16A}U\u{16B}u\u{16C}U\u{16D}u\u{16E}U\u{16F}u\u{170}U\u{171}u\u{172}U\u{173}u\u{174}W",
        "\u{175}w\u{176}Y\u{177}y\u{178}Y\u{179}Z\u{17A}z\u{17B}Z\u{17C}z\u{17D}Z\u{17E}z\u{1A0}O\u{1A1}o",
        "\u{1AF}U\u{1B0}u\u{1CD}A\u{1CE}a\u{1CF}I\u{1D0}i\u{1D1}O\u{1D2}o\u{1D3}U\u{1D4}u\u{1D5}U\u{1D6}u",
        "\u{1D7}U\u{1D8}u\u{1D9}U\u{1DA}u\u{1DB}U\u{1DC}u\u{1DE}A\u{1DF}a\u{1E0}A\u{1E1}a\u{1E2}\u{C6}",
        "\u{1E3}\u{E6}\u{1E6}G\u{1E7}g\u{1E8}K\u{1E9}k\u{1EA}O\u{1EB}o\u{1EC}O\u{1ED}o\u{1EE}\u{1B7}",
        "\u{1EF}\u{292}\u{1F0}j\u{1F4}G\u{1F5}g\u{1F8}N\u{1F9}n\u{1FA}A\u{1FB}a\u{1FC}\u{C6}\u{1FD}\u{E6}",
        "\u{1FE}\u{D8}\u{1FF}\u{F8}\u{200}A\u{201}a\u{202}A\u{203}a\u{204}E\u{205}e\u{206}E\u{207}e\u{208}I",
        "\u{209}i\u{20A}I\u{20B}i\u{20C}O\u{20D}o\u{20E}O\u{20F}o\u{210}R\u{211}r\u{212}R\u{213}r\u{214}U",
        "\u{215}u\u{216}U\u{217}u\u{218}S\u{219}s\u{21A}T\u{21B}t\u{21E}H\u{21F}h\u{226}A\u{227}a\u{228}E",
        "\u{229}e\u{22A}O\u{22B}o\u{22C}O\u{22D}o\u{22E}O\u{22F}o\u{230}O\u{231}o\u{232}Y\u{233}y\u{1E00}A",
        "\u{1E01}a\u{1E02}B\u{1E03}b\u{1E04}B\u{1E05}b\u{1E06}B\u{1E07}b\u{1E08}C\u{1E09}c\u{1E0A}D\u{1E0B}d",
        "\u{1E0C}D\u{1E0D}d\u{1E0E}D\u{1E0F}d\u{1E10}D\u{1E11}d\u{1E12}D\u{1E13}d\u{1E14}E\u{1E15}e\u{1E16}E",
        "\u{1E17}e\u{1E18}E\u{1E19}e\u{1E1A}E\u{1E1B}e\u{1E1C}E\u{1E1D}e\u{1E1E}F\u{1E1F}f\u{1E20}G\u{1E21}g",
        "\u{1E22}H\u{1E23}h\u{1E24}H\u{1E25}h\u{1E26}H\u{1E27}h\u{1E28}H\u{1E29}h\u{1E2A}H\u{1E2B}h\u{1E2C}I",
        "\u{1E2D}i\u{1E2E}I\u{1E2F}i\u{1E30}K\u{1E31}k\u{1E32}K\u{1E33}k\u{1E34}K\u{1E35}k\u{1E36}L\u{1E37}l",
        "\u{1E38}L\u{1E39}l\u{1E3A}L\u{1E3B}l\u{1E3C}L\u{1E3D}l\u{1E3E}M\u{1E3F}m\u{1E40}M\u{1E41}m\u{1E42}M",
        "\u{1E43}m\u{1E44}N\u{1E45}n\u{1E46}N\u{1E47}n\u{1E48}N\u{1E49}n\u{1E4A}N\u{1E4B}n\u{1E4C}O\u{1E4D}o",
        "\u{1E4E}O\u{1E4F}o\u{1E50}O\u{1E51}o\u{1E52}O\u{1E53}o\u{1E54}P\u{1E55}p\u{1E56}P\u{1E57}p\u{1E58}R",
        "\u{1E59}r\u{1E5A}R\u{1E5B}r\u{1E5C}R\u{1E5D}r\u{1E5E}R\u{1E5F}r\u{1E60}S\u{1E61}s\u{1E62}S\u{1E63}s",
        "\u{1E64}S\u{1E65}s\u{1E66}S\u{1E67}s\u{1E68}S\u{1E69}s\u{1E6A}T\u{1E6B}t\u{1E6C}T\u{1E6D}t\u{1E6E}T",
        "\u{1E6F}t\u{1E70}T\u{1E71}t\u{1E72}U\u{1E73}u\u{1E74}U\u{1E75}u\u{1E76}U\u{1E77}u\u{1E78}U\u{1E79}u",
        "\u{1E7A}U\u{1E7B}u\u{1E7C}V\u{1E7D}v\u{1E7E}V\u{1E7F}v\u{1E80}W\u{1E81}w\u{1E82}W\u{1E83}w\u{1E84}W",
        "\u{1E85}w\u{1E86}W\u{1E87}w\u{1E88}W\u{1E89}w\u{1E8A}X\u{1E8B}x\u{1E8C}X\u{1E8D}x\u{1E8E}Y\u{1E8F}y",
        "\u{1E90}Z\u{1E91}z\u{1E92}Z\u{1E93}z\u{1E94}Z\u{1E95}z\u{1E96}h\u{1E97}t\u{1E98}w\u{1E99}y",
        "\u{1E9B}\u{17F}\u{1EA0}A\u{1EA1}a\u{1EA2}A\u{1EA3}a\u{1EA4}A\u{1EA5}a\u{1EA6}A\u{1EA7}a\u{1EA8}A",
        "\u{1EA9}a\u{1EAA}A\u{1EAB}a\u{1EAC}A\u{1EAD}a\u{1EAE}A\u{1EAF}a\u{1EB0}A\u{1EB1}a\u{1EB2}A\u{1EB3}a",
        "\u{1EB4}A\u{1EB5}a\u{1EB6}A\u{1EB7}a\u{1EB8}E\u{1EB9}e\u{1EBA}E\u{1EBB}e\u{1EBC}E\u{1EBD}e\u{1EBE}E",
        "\u{1EBF}e\u{1EC0}E\u{1EC1}e\u{1EC2}E\u{1EC3}e\u{1EC4}E\u{1EC5}e\u{1EC6}E\u{1EC7}e\u{1EC8}I\u{1EC9}i",
        "\u{1ECA}I\u{1ECB}i\u{1ECC}O\u{1ECD}o\u{1ECE}O\u{1ECF}o\u{1ED0}O\u{1ED1}o\u{1ED2}O\u{1ED3}o\u{1ED4}O",
        "\u{1ED5}o\u{1ED6}O\u{1ED7}o\u{1ED8}O\u{1ED9}o\u{1EDA}O\u{1EDB}o\u{1EDC}O\u{1EDD}o\u{1EDE}O\u{1EDF}o",
        "\u{1EE0}O\u{1EE1}o\u{1EE2}O\u{1EE3}o\u{1EE4}U\u{1EE5}u\u{1EE6}U\u{1EE7}u\u{1EE8}U\u{1EE9}u\u{1EEA}U",
        "\u{1EEB}u\u{1EEC}U\u{1EED}u\u{1EEE}U\u{1EEF}u\u{1EF0}U\u{1EF1}u\u{1EF2}Y\u{1EF3}y\u{1EF4}Y\u{1EF5}y",
        "\u{1EF6}Y\u{1EF7}y\u{1EF8}Y\u{1EF9}y",
    ]
}

/// Which characters `trimming(_:)` removes.
public enum TrimmedCharacters: Sendable {
    /// Spaces and tabs, as `CharacterSet.whitespaces`.
    case whitespaces
    /// Spaces, tabs and line breaks, as `CharacterSet.whitespacesAndNewlines`.
    case whitespacesAndNewlines
}

extension StringProtocol {
    /// The text without leading and trailing `characters`, scalar by scalar as `trimmingCharacters(in:)` does.
    public func trimming(_ characters: TrimmedCharacters) -> String {
        let isTrimmed: (Unicode.Scalar) -> Bool
        switch characters {
        case .whitespaces: isTrimmed = TextScalars.isSpace
        case .whitespacesAndNewlines: isTrimmed = TextScalars.isSpaceOrNewline
        }
        let scalars = Substring(self).unicodeScalars
        guard let first = scalars.firstIndex(where: { !isTrimmed($0) }),
              let last = scalars.lastIndex(where: { !isTrimmed($0) })
        else { return "" }
        return String(Substring(scalars[first...last]))
    }
}

extension String {
    /// The text with every occurrence of `target` replaced by `replacement`, matched byte for byte in UTF-8
    /// (so a quote followed by a combining mark is still found, unlike a match by characters).
    public func replacingAll(_ target: String, with replacement: String) -> String {
        let needle = Array(target.utf8)
        guard !needle.isEmpty else { return self }
        let haystack = Array(utf8)
        var result: [UInt8] = []
        result.reserveCapacity(haystack.count)
        var index = 0
        var changed = false
        while index < haystack.count {
            if haystack[index] == needle[0], index + needle.count <= haystack.count,
               haystack[index..<index + needle.count].elementsEqual(needle) {
                result.append(contentsOf: replacement.utf8)
                index += needle.count
                changed = true
            } else {
                result.append(haystack[index])
                index += 1
            }
        }
        return changed ? String(decoding: result, as: UTF8.self) : self
    }
}
