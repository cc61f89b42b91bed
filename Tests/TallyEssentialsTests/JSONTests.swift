import Testing
@testable import TallyDomain
@testable import TallyEssentials

// MARK: Helpers

private func parse(_ text: String) -> JSON? {
    try? JSON.parse(text)
}

private func parseError(_ text: String) -> JSONParseError? {
    do {
        _ = try JSON.parse(text)
        return nil
    } catch {
        return error
    }
}

private func parse(bytes: [UInt8]) throws(JSONParseError) -> JSON {
    let result = bytes.withUnsafeBufferPointer { buffer -> Result<JSON, JSONParseError> in
        do throws(JSONParseError) {
            return .success(try JSON.parse(utf8: buffer))
        } catch {
            return .failure(error)
        }
    }
    return try result.get()
}

private func parseError(bytes: [UInt8]) -> JSONParseError? {
    do {
        _ = try parse(bytes: bytes)
        return nil
    } catch {
        return error
    }
}

/// The case name, to check the kind a number parsed to (`==` treats equal ints and doubles as equal).
private func kind(_ value: JSON) -> String {
    switch value {
    case .null: "null"
    case .bool: "bool"
    case .int: "int"
    case .double: "double"
    case .string: "string"
    case .array: "array"
    case .object: "object"
    }
}

/// Deterministic pseudo-random numbers (64-bit LCG) so that failures reproduce.
private struct Generator {
    var state: UInt64
    mutating func next(_ bound: Int) -> Int {
        state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
        return Int((state >> 33) % UInt64(bound))
    }
}

private let sampleValue: JSON = [
    "name": "tally",
    "version": 2,
    "tags": ["a", "b"],
    "empty": [],
    "nested": ["flag": true, "none": nil, "inner": [:]],
]

// MARK: Parsing

@Suite("JSON parsing")
struct JSONParsingTests {
    @Test("scalars")
    func scalars() throws {
        #expect(try JSON.parse("null") == .null)
        #expect(try JSON.parse("true") == .bool(true))
        #expect(try JSON.parse("false") == .bool(false))
        #expect(try JSON.parse("0") == .int(0))
        #expect(try JSON.parse("-12") == .int(-12))
        #expect(try JSON.parse("\"hi\"") == .string("hi"))
        #expect(try JSON.parse("\"\"") == .string(""))
        #expect(try JSON.parse("[]") == .array([]))
        #expect(try JSON.parse("{}") == .object(JSONObject()))
    }

    @Test("the typical event payload")
    func eventPayload() throws {
        let value = try JSON.parse(#"{"title":"Buy milk","tags":["home"],"priority":null,"due":null,"note":null}"#)
        let object = try #require(value.objectValue)
        #expect(object.keys == ["title", "tags", "priority", "due", "note"])
        #expect(object["title"]?.stringValue == "Buy milk")
        #expect(object["tags"] == ["home"])
        #expect(object["priority"]?.isNull == true)
        #expect(object["due"] == .null)
        #expect(object["note"] == .null)
        #expect(object["missing"] == nil)
    }

    @Test("whitespace is space, tab, CR and LF only")
    func whitespace() throws {
        #expect(try JSON.parse(" \t\r\n[ 1 ,\n\t2 ] \r\n") == [1, 2])
        #expect(try JSON.parse(" { \"a\" : 1 , \"b\" :[ ] } ") == ["a": 1, "b": []])
        #expect(parseError("\u{0C}1") == JSONParseError(offset: 0, reason: "unexpected character U+000C"))
        #expect(parseError("1\u{0B}") == JSONParseError(offset: 1, reason: "trailing characters"))
        #expect(parseError("\u{A0}1") == JSONParseError(offset: 0, reason: "unexpected character '\u{A0}'"))
        #expect(parseError("\u{FEFF}1") == JSONParseError(offset: 0, reason: "unexpected character '\u{FEFF}'"))
    }

    @Test("integers: Int64 bounds and overflow to double")
    func integers() throws {
        #expect(try JSON.parse("9223372036854775807") == .int(.max))
        #expect(try JSON.parse("-9223372036854775808") == .int(.min))
        #expect(try JSON.parse("123456789012345678") == .int(123_456_789_012_345_678))
        #expect(try JSON.parse("-1234567890123456789") == .int(-1_234_567_890_123_456_789))

        let above = try JSON.parse("9223372036854775808")
        #expect(kind(above) == "double")
        #expect(above == .double(9_223_372_036_854_775_808.0))
        let below = try JSON.parse("-9223372036854775809")
        #expect(kind(below) == "double")
        #expect(below.doubleValue == -9_223_372_036_854_775_808.0)
        let huge = try JSON.parse("123456789012345678901234567890")
        #expect(kind(huge) == "double")
        #expect(huge.doubleValue == 1.2345678901234568e29)
        #expect(kind(try JSON.parse("[99999999999999999999]").arrayValue![0]) == "double")
    }

    @Test("numbers with fraction or exponent are doubles")
    func doubles() throws {
        for (text, expected) in [
            ("1.0", 1.0), ("-2.5", -2.5), ("0.1", 0.1), ("1e2", 100), ("1E2", 100), ("1e+2", 100),
            ("1e-2", 0.01), ("-0.0", -0.0), ("3.141592653589793", 3.141592653589793), ("1.7976931348623157e308", .greatestFiniteMagnitude),
            ("5e-324", .leastNonzeroMagnitude), ("0e0", 0), ("1e-400", 0),
        ] {
            let value = try JSON.parse(text)
            #expect(kind(value) == "double", "\(text)")
            #expect(value.doubleValue == expected, "\(text)")
        }
        #expect(try JSON.parse("-0.0").doubleValue?.sign == .minus)
        #expect(kind(try JSON.parse("-0")) == "int")
    }

    @Test("unicode: raw UTF-8 and escapes")
    func unicode() throws {
        #expect(try JSON.parse("\"é\"") == "é")
        #expect(try JSON.parse("\"\\u00e9\"") == "é")
        #expect(try JSON.parse("\"\\u00E9\"") == "é")
        #expect(try JSON.parse("\"日本語\"") == "日本語")
        #expect(try JSON.parse("\"\\u65e5\\u672c\\u8a9e\"") == "日本語")
        #expect(try JSON.parse("\"😀\"") == "😀")
        #expect(try JSON.parse("\"\\ud83d\\ude00\"") == "😀")
        #expect(try JSON.parse("\"\\uD83D\\uDE00\"") == "😀")
        #expect(try JSON.parse("\"a\\ud83d\\ude00b\"").stringValue?.unicodeScalars.count == 3)
        #expect(try JSON.parse("\"\\u0000\"") == .string("\u{0}"))
        #expect(try JSON.parse("\"\\uffff\"") == .string("\u{FFFF}"))
        #expect(try JSON.parse("\"\\udbff\\udfff\"") == .string("\u{10FFFF}"))
        #expect(try JSON.parse("\"mixed é \\n 😀 日本\"") == "mixed é \n 😀 日本")
    }

    @Test("all simple escapes")
    func escapes() throws {
        #expect(try JSON.parse(#""\"\\\/\b\f\n\r\t""#) == .string("\"\\/\u{8}\u{C}\n\r\t"))
        #expect(try JSON.parse(#""abc\ndef""#) == "abc\ndef")
        #expect(try JSON.parse(#""\u0041\u0062""#) == "Ab")
    }

    @Test("strings around the eight-byte scanning boundary")
    func scanBoundaries() throws {
        for length in 0..<40 {
            let plain = String(repeating: "x", count: length)
            #expect(try JSON.parse("\"\(plain)\"") == .string(plain))
            #expect(try JSON.parse("[\"\(plain)\",1]") == [.string(plain), 1])
            #expect(try JSON.parse("\"\(plain)\\n\(plain)\"") == .string(plain + "\n" + plain))
            #expect(try JSON.parse("\"\(plain)é\(plain)\"") == .string(plain + "é" + plain))
            #expect(parseError("\"\(plain)\u{1}\"") == JSONParseError(offset: 1 + length, reason: "control character in string"))
            #expect(parseError("\"\(plain)") == JSONParseError(offset: 0, reason: "unterminated string"))
            #expect(parseError(bytes: [0x22] + Array(plain.utf8) + [0xFF, 0x22]) == JSONParseError(offset: 1 + length, reason: "invalid UTF-8"))
            #expect(parseError(bytes: [0x22] + Array("é\(plain)".utf8) + [0xC3, 0x22]) == JSONParseError(offset: 3 + length, reason: "invalid UTF-8"))
        }
    }

    @Test("random strings survive serialize then parse")
    func randomStrings() throws {
        var generator = Generator(state: 42)
        let pool: [Unicode.Scalar] = ["a", "Z", " ", "\"", "\\", "/", "\u{0}", "\u{1F}", "\n", "\t", "\u{7F}", "é", "ß", "日", "😀", "\u{FFFD}", "\u{10FFFF}", "\u{301}"]
        for _ in 0..<500 {
            var text = String.UnicodeScalarView()
            for _ in 0..<generator.next(30) { text.append(pool[generator.next(pool.count)]) }
            let value = JSON.string(String(text))
            for style in [JSON.Style.compact, .pretty, .canonical] {
                let parsed = try JSON.parse(value.serialized(style))
                #expect(parsed.stringValue.map { Array($0.unicodeScalars) } == Array(text))
            }
        }
    }

    @Test("duplicate keys keep the first position and the last value")
    func duplicateKeys() throws {
        let object = try #require(try JSON.parse(#"{"a":1,"b":2,"a":3}"#).objectValue)
        #expect(object.keys == ["a", "b"])
        #expect(object["a"] == 3)
        #expect(try JSON.parse(#"{"a":1,"a":2}"#) == ["a": 2])
        #expect(try JSON.parse(#"{"ab":1,"a\u0062":2}"#).objectValue?.pairs.map(\.key) == ["ab"])
        #expect(try JSON.parse(#"{"ab":1,"a\u0062":2}"#) == ["ab": 2])
        let long = try #require(try JSON.parse(#"{"abcdefgh_X_abcdefgh":1,"abcdefgh_Y_abcdefgh":2,"abcdefgh_X_abcdefgh":3}"#).objectValue)
        #expect(long.keys == ["abcdefgh_X_abcdefgh", "abcdefgh_Y_abcdefgh"])
        #expect(long["abcdefgh_X_abcdefgh"] == 3)
        #expect(try JSON.parse(#"{"é":1,"e\u0301":2}"#).objectValue?.count == 2)
    }

    @Test("large objects: many keys and duplicates beyond the small-object path")
    func largeObjects() throws {
        let keys = (0..<100).map { "key\($0)" }
        var text = "{" + keys.enumerated().map { "\"\($1)\":\($0)" }.joined(separator: ",")
        text += ",\"key5\":-5,\"key50\":-50,\"key99\":-99}"
        let object = try #require(try JSON.parse(text).objectValue)
        #expect(object.keys == keys)
        #expect(object["key5"] == -5)
        #expect(object["key50"] == -50)
        #expect(object["key99"] == -99)
        #expect(object["key0"] == 0)
        #expect(object["key100"] == nil)
    }

    @Test("nesting up to 256 levels is accepted, 257 is rejected")
    func nesting() throws {
        let deepest = String(repeating: "[", count: 256) + String(repeating: "]", count: 256)
        #expect(parse(deepest) != nil)
        let tooDeep = String(repeating: "[", count: 257) + String(repeating: "]", count: 257)
        #expect(parseError(tooDeep) == JSONParseError(offset: 256, reason: "nesting too deep"))

        let objects = String(repeating: "{\"a\":", count: 256) + "1" + String(repeating: "}", count: 256)
        #expect(parse(objects) != nil)
        let mixed = String(repeating: "{\"a\":[", count: 129) + String(repeating: "]}", count: 129)
        #expect(parseError(mixed) == JSONParseError(offset: 6 * 128, reason: "nesting too deep"))
    }

    @Test("parse(utf8:) on raw bytes, including an empty buffer")
    func rawBytes() throws {
        #expect(try parse(bytes: Array("[1,\"é\"]".utf8)) == [1, "é"])
        #expect(parseError(bytes: []) == JSONParseError(offset: 0, reason: "unexpected end of input"))
    }
}

// MARK: Rejections

@Suite("JSON rejections")
struct JSONRejectionTests {
    @Test(
        "malformed text is rejected with offset and reason",
        arguments: [
            ("", 0, "unexpected end of input"),
            ("   ", 3, "unexpected end of input"),
            ("1 2", 2, "trailing characters"),
            ("{} x", 3, "trailing characters"),
            ("nulll", 4, "trailing characters"),
            ("01", 1, "leading zero"),
            ("-01", 2, "leading zero"),
            ("00", 1, "leading zero"),
            ("[01]", 2, "leading zero"),
            ("+1", 0, "unexpected character '+'"),
            (".5", 0, "unexpected character '.'"),
            ("[.5]", 1, "unexpected character '.'"),
            ("1.", 2, "invalid number"),
            ("1.e5", 2, "invalid number"),
            ("1e", 2, "invalid number"),
            ("1e+", 3, "invalid number"),
            ("-", 1, "invalid number"),
            ("-a", 1, "invalid number"),
            ("NaN", 0, "unexpected character 'N'"),
            ("nan", 1, "unexpected character 'a'"),
            ("Infinity", 0, "unexpected character 'I'"),
            ("-Infinity", 1, "invalid number"),
            ("1e999", 0, "number out of range"),
            ("-1e999", 0, "number out of range"),
            ("[1, 2e400]", 4, "number out of range"),
            ("\"abc", 0, "unterminated string"),
            ("\"abc\\", 0, "unterminated string"),
            ("[\"a\\\"]", 1, "unterminated string"),
            ("\"a\u{1}b\"", 2, "control character in string"),
            ("\"a\tb\"", 2, "control character in string"),
            ("\"a\nb\"", 2, "control character in string"),
            ("\"a\\n\u{1F}\"", 4, "control character in string"),
            ("\"\\x\"", 1, "invalid escape"),
            ("\"\\U0041\"", 1, "invalid escape"),
            ("\"\\u12\"", 1, "invalid escape"),
            ("\"\\u12G4\"", 1, "invalid escape"),
            ("\"ab\\'\"", 3, "invalid escape"),
            ("\"\\ud800\"", 1, "unpaired surrogate"),
            ("\"\\udc00\"", 1, "unpaired surrogate"),
            ("\"\\ud800\\u0041\"", 1, "unpaired surrogate"),
            ("\"\\ud800\\ud800\"", 1, "unpaired surrogate"),
            ("\"\\ud800x\"", 1, "unpaired surrogate"),
            ("\"\\ude00\\ud83d\"", 1, "unpaired surrogate"),
            ("\"x\\ud83d\\u", 2, "unpaired surrogate"),
            ("[1,]", 3, "unexpected character ']'"),
            ("[1 2]", 3, "unexpected character '2'"),
            ("[,1]", 1, "unexpected character ','"),
            ("[", 1, "unexpected end of input"),
            ("[1", 2, "unexpected end of input"),
            ("{\"a\" 1}", 5, "unexpected character '1'"),
            ("{\"a\":1,}", 7, "unexpected character '}'"),
            ("{1:2}", 1, "unexpected character '1'"),
            ("{'a':1}", 1, "unexpected character '''"),
            ("{\"a\":}", 5, "unexpected character '}'"),
            ("{\"a\":", 5, "unexpected end of input"),
            ("{\"a\"", 4, "unexpected end of input"),
            ("{\"a\":1", 6, "unexpected end of input"),
            ("{", 1, "unexpected end of input"),
            ("]", 0, "unexpected character ']'"),
            ("tru", 3, "unexpected end of input"),
            ("trux", 3, "unexpected character 'x'"),
            ("True", 0, "unexpected character 'T'"),
            ("[é]", 1, "unexpected character 'é'"),
            ("\u{0}", 0, "unexpected character U+0000"),
        ])
    func rejected(text: String, offset: Int, reason: String) {
        #expect(parseError(text) == JSONParseError(offset: offset, reason: reason))
    }

    @Test(
        "ill-formed UTF-8 is rejected at the offending byte",
        arguments: [
            ([0xFF] as [UInt8], 0),
            ([0x5B, 0x80, 0x5D], 1),
            ([0x22, 0xFF, 0x22], 1),
            ([0x22, 0xC0, 0xAF, 0x22], 1),
            ([0x22, 0xC1, 0xBF, 0x22], 1),
            ([0x22, 0xE0, 0x80, 0xAF, 0x22], 1),
            ([0x22, 0xED, 0xA0, 0x80, 0x22], 1),
            ([0x22, 0xF0, 0x8F, 0xBF, 0xBF, 0x22], 1),
            ([0x22, 0xF4, 0x90, 0x80, 0x80, 0x22], 1),
            ([0x22, 0xF5, 0x80, 0x80, 0x80, 0x22], 1),
            ([0x22, 0x61, 0xE2, 0x82, 0x22], 2),
            ([0x22, 0xC3, 0xA9, 0xFF, 0x22], 3),
            ([0x22, 0x80, 0x22], 1),
            ([0x22, 0x5C, 0x6E, 0xFF, 0x22], 3),
            ([0x7B, 0x22, 0xC3, 0x22, 0x3A, 0x31, 0x7D], 2),
        ])
    func invalidUTF8(bytes: [UInt8], offset: Int) {
        #expect(parseError(bytes: bytes) == JSONParseError(offset: offset, reason: "invalid UTF-8"))
    }

    @Test("well-formed multi-byte sequences at the edges of Table 3-7 are accepted")
    func validUTF8Edges() throws {
        for scalar: Unicode.Scalar in ["\u{80}", "\u{7FF}", "\u{800}", "\u{D7FF}", "\u{E000}", "\u{FFFF}", "\u{10000}", "\u{10FFFF}"] {
            let text = String(scalar)
            #expect(try parse(bytes: [0x22] + Array(text.utf8) + [0x22]) == .string(text))
        }
    }

    @Test("the error describes itself")
    func errorDescription() {
        #expect(JSONParseError(offset: 3, reason: "trailing characters").description == "trailing characters at byte 3")
    }
}

// MARK: Serialization

@Suite("JSON serialization")
struct JSONSerializationTests {
    @Test("compact keeps insertion order and has no whitespace")
    func compact() {
        #expect(sampleValue.serialized() == #"{"name":"tally","version":2,"tags":["a","b"],"empty":[],"nested":{"flag":true,"none":null,"inner":{}}}"#)
        #expect(JSON.null.serialized() == "null")
        #expect(JSON.array([]).serialized() == "[]")
    }

    @Test("pretty output, exact text")
    func pretty() {
        let expected = """
            {
              "name": "tally",
              "version": 2,
              "tags": [
                "a",
                "b"
              ],
              "empty": [],
              "nested": {
                "flag": true,
                "none": null,
                "inner": {}
              }
            }
            """
        #expect(sampleValue.serialized(.pretty) == expected)
        #expect(JSON.int(1).serialized(.pretty) == "1")
        #expect(JSON.array([[]]).serialized(.pretty) == "[\n  []\n]")
    }

    @Test("canonical sorts keys and has no whitespace")
    func canonical() {
        #expect(sampleValue.serialized(.canonical) == #"{"empty":[],"name":"tally","nested":{"flag":true,"inner":{},"none":null},"tags":["a","b"],"version":2}"#)
    }

    @Test("canonical key order is by UTF-8 bytes")
    func canonicalKeyOrder() {
        let keys = ["é", "b", "~", "z", "ab", "", "a", "B", "😀", "日", "\u{7F}", "A", "Æ", "\u{212B}"]
        var object = JSONObject()
        for (position, key) in keys.enumerated() { object[key] = .int(Int64(position)) }
        let text = JSON.object(object).serialized(.canonical)
        let expectedOrder = ["", "A", "B", "a", "ab", "b", "z", "~", "\u{7F}", "Æ", "é", "\u{212B}", "日", "😀"]
        let expected = "{" + expectedOrder.map { key in
            "\"\(key)\":\(keys.firstIndex(of: key)!)"
        }.joined(separator: ",") + "}"
        #expect(text == expected)

        // Cases where byte order is not what String comparison or intuition gives.
        #expect("B".utf8.lexicographicallyPrecedes("a".utf8))
        #expect(JSON.object(["a": 1, "B": 2]).serialized(.canonical) == #"{"B":2,"a":1}"#)
        #expect(JSON.object(["ab": 1, "a": 2]).serialized(.canonical) == #"{"a":2,"ab":1}"#)
        #expect(JSON.object(["é": 1, "z": 2]).serialized(.canonical) == #"{"z":2,"é":1}"#)
        // U+212B ANGSTROM SIGN normalizes to U+00C5, so Swift's `<` puts it before "Æ"; bytes do not.
        #expect("\u{212B}" < "Æ")
        #expect(JSON.object(["\u{212B}": 1, "Æ": 2]).serialized(.canonical) == "{\"Æ\":2,\"\u{212B}\":1}")
    }

    @Test("string escaping is exact and shared by all styles")
    func stringEscaping() {
        let value = JSON.string("\u{0}\u{1}\u{8}\u{9}\u{A}\u{B}\u{C}\u{D}\u{1F}\"\\/\u{7F}é😀")
        let expected = #""\u0000\u0001\b\t\n\u000b\f\r\u001f\"\\/"# + "\u{7F}é😀\""
        #expect(value.serialized(.canonical) == expected)
        #expect(value.serialized(.compact) == expected)
        #expect(value.serialized(.pretty) == expected)
        #expect(JSON.object(["k\"\n": 1]).serialized() == #"{"k\"\n":1}"#)
        for byte in UInt8(0)..<0x20 {
            let text = JSON.string(String(Unicode.Scalar(byte))).serialized(.canonical)
            #expect(text.utf8.allSatisfy { $0 >= 0x20 }, "U+\(byte) must be escaped")
        }
    }

    @Test("number formatting")
    func numbers() {
        let cases: [(JSON, String)] = [
            (.int(0), "0"), (.int(-7), "-7"), (.int(.max), "9223372036854775807"), (.int(.min), "-9223372036854775808"),
            (.double(5000), "5000"), (.double(-0.0), "0"), (.double(0), "0"), (.double(-3), "-3"),
            (.double(3.1), "3.1"), (.double(1.5), "1.5"), (.double(-2.25), "-2.25"), (.double(0.1 + 0.2), "0.30000000000000004"),
            (.double(1e300), "1e+300"), (.double(1e-5), "1e-05"), (.double(1e16), "1e+16"),
            (.double(9_007_199_254_740_991), "9007199254740991"), (.double(-9_007_199_254_740_991), "-9007199254740991"),
            (.double(9_007_199_254_740_992), "9007199254740992.0"), (.double(.leastNonzeroMagnitude), "5e-324"),
            (.double(.greatestFiniteMagnitude), "1.7976931348623157e+308"),
            (.double(.nan), "null"), (.double(.infinity), "null"), (.double(-.infinity), "null"),
        ]
        for (value, expected) in cases {
            #expect(value.serialized(.canonical) == expected)
            #expect(value.serialized(.compact) == expected)
            #expect(value.serialized(.pretty) == expected)
        }
    }

    @Test("every finite double written reparses to the same value")
    func doubleRoundTrip() throws {
        var generator = Generator(state: 7)
        var samples: [Double] = [0.1, 1 / 3, 123.456, 1e-7, 6.02214076e23, -1e-300, .leastNonzeroMagnitude, 2.5e15 + 0.5]
        for _ in 0..<2000 {
            let bits = UInt64(generator.next(1 << 30)) << 34 | UInt64(generator.next(1 << 30)) << 4 | UInt64(generator.next(16))
            let value = Double(bitPattern: bits)
            if value.isFinite { samples.append(value) }
        }
        for sample in samples {
            let text = JSON.double(sample).serialized(.canonical)
            let parsed = try JSON.parse(text)
            #expect(parsed.doubleValue == sample, "\(text)")
            #expect(parsed == .double(sample))
        }
    }
}

// MARK: Round trips and canonical stability

@Suite("JSON round trips")
struct JSONRoundTripTests {
    static let values: [JSON] = [
        .null, true, false, 0, 42, -1, .int(.max), .int(.min), 3.5, -0.25, 1e300, 1e-5, .double(.greatestFiniteMagnitude),
        "", "plain", "esc\"ape\\s\n\t\u{1}", "é 😀 日本語 \u{10FFFF}", [], [1, "a", nil, true, [[]]], [:],
        sampleValue,
        ["z": ["y": ["x": [1, 2, ["w": "v"]]]], "a": [], "é": 1.25, "": nil],
    ]

    @Test("parse(serialize(x)) == x for every style", arguments: values)
    func roundTrip(value: JSON) throws {
        for style in [JSON.Style.compact, .pretty, .canonical] {
            #expect(try JSON.parse(value.serialized(style)) == value, "\(style)")
        }
    }

    @Test("compact round trip keeps insertion order")
    func insertionOrder() throws {
        let text = #"{"z":1,"a":2,"m":{"y":[],"b":null}}"#
        #expect(try JSON.parse(text).serialized() == text)
    }

    @Test("canonical text is stable: serialize twice, reparse, reserialize", arguments: values)
    func canonicalStability(value: JSON) throws {
        let first = value.serialized(.canonical)
        #expect(value.serialized(.canonical) == first)
        let reparsed = try JSON.parse(first)
        #expect(reparsed == value)
        #expect(reparsed.serialized(.canonical) == first)
    }

    @Test("canonical text does not depend on insertion order")
    func orderIndependence() {
        let forward = JSON.object(JSONObject([("a", 1), ("b", [2, 3]), ("c", ["x": 1, "y": 2])]))
        let backward = JSON.object(JSONObject([("c", ["y": 2, "x": 1]), ("b", [2, 3]), ("a", 1)]))
        #expect(forward == backward)
        #expect(forward.serialized(.canonical) == backward.serialized(.canonical))
        #expect(forward.serialized(.compact) != backward.serialized(.compact))
    }

    @Test("integral doubles and ints are equal exactly when their canonical text is")
    func numericEquality() {
        #expect(JSON.int(5) == .double(5.0))
        #expect(JSON.double(5000) == .int(5000))
        #expect(JSON.int(0) == .double(-0.0))
        #expect(JSON.int(5) != .double(5.5))
        #expect(JSON.int(9_007_199_254_740_992) != .double(9_007_199_254_740_992))
        #expect(JSON.int(1) != .string("1"))
        #expect(JSON.bool(true) != .int(1))
        #expect(JSON.null != .string("null"))
        #expect(JSON.string("é") != .string("e\u{301}"))
    }
}

// MARK: Object and value API

@Suite("JSONObject and accessors")
struct JSONObjectTests {
    @Test("ordered object API")
    func objectAPI() {
        var object = JSONObject([("b", 1), ("a", 2), ("b", 3)])
        #expect(object.keys == ["b", "a"])
        #expect(object.count == 2)
        #expect(object["b"] == 3)
        #expect(object.pairs.map(\.key) == ["b", "a"])
        #expect(object.pairs.map(\.value) == [3, 2])

        object["c"] = "new"
        #expect(object.keys == ["b", "a", "c"])
        object["b"] = .null
        #expect(object.keys == ["b", "a", "c"])
        #expect(object["b"] == .null)
        object["b"] = nil
        #expect(object.keys == ["a", "c"])
        #expect(object["b"] == nil)
        object["missing"] = nil
        #expect(object.count == 2)

        let literal: JSONObject = ["x": 1, "y": 2, "x": 3]
        #expect(literal.keys == ["x", "y"])
        #expect(literal["x"] == 3)
        #expect(JSONObject().count == 0)
        #expect(JSONObject().keys.isEmpty)
    }

    @Test("a large object built from pairs (past the index threshold) keeps the first position and last value of a repeated key, finds every key, and grows by set")
    func largeObjectFromPairs() {
        let count = JSONObject.indexThreshold * 3
        var pairs: [(String, JSON)] = (0 ..< count).map { ("k\($0)", .int(Int64($0))) }
        pairs.append(("k5", "late"))
        var object = JSONObject(pairs)
        #expect(object.count == count)
        #expect(object.keys == (0 ..< count).map { "k\($0)" })
        #expect(object["k5"] == "late")
        for index in 0 ..< count where index != 5 { #expect(object["k\(index)"] == .int(Int64(index))) }
        for index in count ..< count + 20 { object["k\(index)"] = .int(Int64(index)) }
        object["k7"] = "changed"
        #expect(object.count == count + 20)
        #expect(object["k7"] == "changed" && object["k\(count + 19)"] == .int(Int64(count + 19)))
        object["k0"] = nil
        #expect(object["k0"] == nil && object["k1"] == .int(1) && object.count == count + 19)
    }

    @Test("equality ignores order but not keys, values or counts")
    func objectEquality() {
        #expect(JSONObject([("a", 1), ("b", 2)]) == JSONObject([("b", 2), ("a", 1)]))
        #expect(JSONObject([("a", 1), ("b", 2)]) != JSONObject([("a", 1), ("b", 3)]))
        #expect(JSONObject([("a", 1), ("b", 2)]) != JSONObject([("a", 1), ("c", 2)]))
        #expect(JSONObject([("a", 1)]) != JSONObject([("a", 1), ("b", 2)]))
        #expect(JSONObject([("é", 1)]) != JSONObject([("e\u{301}", 1)]))
    }

    @Test("large objects stay consistent through inserts, replacements and removals")
    func largeObject() {
        var object = JSONObject()
        var reference: [(String, Int64)] = []
        for number in 0..<60 {
            object["k\(number)"] = .int(Int64(number))
            reference.append(("k\(number)", Int64(number)))
        }
        object["k10"] = 100
        reference[10].1 = 100
        for number in stride(from: 0, to: 60, by: 3) {
            object["k\(number)"] = nil
            reference.removeAll { $0.0 == "k\(number)" }
        }
        object["k0"] = 0
        reference.append(("k0", 0))
        #expect(object.keys == reference.map(\.0))
        for (key, value) in reference { #expect(object[key] == .int(value)) }
        #expect(object["k3"] == nil)

        var shrunk = object
        for key in shrunk.keys.dropFirst(2) { shrunk[key] = nil }
        #expect(shrunk.keys == Array(reference.prefix(2).map(\.0)))
        #expect(shrunk[reference[1].0] == .int(reference[1].1))

        let reversed = JSONObject(reference.reversed().map { ($0.0, JSON.int($0.1)) })
        #expect(reversed == object)
    }

    @Test("accessors return nil on type mismatch")
    func accessors() {
        #expect(JSON.string("s").stringValue == "s")
        #expect(JSON.int(1).stringValue == nil)
        #expect(JSON.int(7).intValue == 7)
        #expect(JSON.double(3.0).intValue == 3)
        #expect(JSON.double(-0.0).intValue == 0)
        #expect(JSON.double(3.5).intValue == nil)
        #expect(JSON.double(1e20).intValue == nil)
        #expect(JSON.double(-9_223_372_036_854_775_808.0).intValue == .min)
        #expect(JSON.double(9_223_372_036_854_775_808.0).intValue == nil)
        #expect(JSON.double(.nan).intValue == nil)
        #expect(JSON.string("1").intValue == nil)
        #expect(JSON.double(2.5).doubleValue == 2.5)
        #expect(JSON.int(3).doubleValue == 3.0)
        #expect(JSON.bool(true).doubleValue == nil)
        #expect(JSON.bool(false).boolValue == false)
        #expect(JSON.null.boolValue == nil)
        #expect(JSON.array([1]).arrayValue == [1])
        #expect(JSON.object([:]).arrayValue == nil)
        #expect(JSON.object(["a": 1]).objectValue == ["a": 1])
        #expect(JSON.array([]).objectValue == nil)
        #expect(JSON.null.isNull)
        #expect(!JSON.bool(false).isNull)
    }

    @Test("literals")
    func literals() {
        let value: JSON = ["s": "x", "i": 1, "d": 1.5, "b": true, "n": nil, "a": [1, 2]]
        guard case let .object(object) = value else {
            Issue.record("expected an object")
            return
        }
        #expect(object["s"] == .string("x"))
        #expect(kind(object["i"]!) == "int")
        #expect(kind(object["d"]!) == "double")
        #expect(object["b"] == .bool(true))
        #expect(object["n"] == .null)
        #expect(object["a"] == .array([.int(1), .int(2)]))
    }
}
