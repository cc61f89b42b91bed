import Testing
import TallyDomain
import TallyTestSupport

@Suite("Anchors: reading SEQ:HASH and judging a log by it")
struct AnchorTests {
    let hash = "7f7b1c183c920464518b3fa1cfd8f62c4917737b2d5320fc7bd46b2a29b713df"

    @Test("tally anchor's own text reads back, in either case, with 16 to 64 digits")
    func roundTrip() throws {
        let head = LogHead(seq: 1204, hash: hash)
        for digits in [16, 32, 64] {
            let anchor = Anchor(head: head, digits: digits)
            #expect(anchor.text == "1204:" + hash.prefix(digits))
            #expect(try Anchor.parse(anchor.text) == anchor)
            #expect(try Anchor.parse(anchor.text.uppercased()) == anchor)
        }
        #expect(Anchor(head: head, digits: 3).hash.count == 16)
        #expect(Anchor(head: head, digits: 999).hash == hash)
    }

    @Test("malformed anchors are refused with the reason", arguments: [
        ("", Anchor.ParseError.shape), ("1204", .shape), (":7f7b1c183c920464", .shape), ("1204:", .shape),
        ("1:2:7f7b1c183c920464", .shape), ("1204:7f7b1c183c92046:", .shape),
        ("0:7f7b1c183c920464", .position), ("-1:7f7b1c183c920464", .position), ("+1:7f7b1c183c920464", .position),
        (" 1:7f7b1c183c920464", .position), ("1 :7f7b1c183c920464", .position), ("١:7f7b1c183c920464", .position),
        ("9223372036854775808:7f7b1c183c920464", .position), ("99999999999999999999:7f7b1c183c920464", .position),
        ("1:7f7b1c183c92046", .length(15)), ("1:7f7b1c183c92046g", .notHex), ("1:7f7b1c183c920464 ", .notHex),
        ("1:0x7f7b1c183c920464", .notHex), ("1:７f7b1c183c920464", .notHex), ("1:7f7b1c183c920464\n", .notHex),
        ("1:" + String(repeating: "a", count: 65), .length(65)), ("1:" + String(repeating: "a", count: 5000), .shape),
    ])
    func malformed(text: String, reason: Anchor.ParseError) {
        #expect(throws: reason) { try Anchor.parse(text) }
    }

    @Test("the largest position reads")
    func largest() throws {
        #expect(try Anchor.parse("9223372036854775807:7f7b1c183c920464").seq == Int64.max)
    }

    @Test("judging: holds, truncated below the anchor, rewritten at it, broken before it")
    func judge() {
        let anchor = Anchor(head: LogHead(seq: 3, hash: hash))
        let other = String(repeating: "1", count: 64)
        #expect(anchor.judge(head: LogHead(seq: 3, hash: hash), storedHash: hash, problems: []) == .holds)
        #expect(anchor.judge(head: LogHead(seq: 9, hash: other), storedHash: hash, problems: []) == .holds)
        #expect(anchor.judge(head: LogHead(seq: 2, hash: other), storedHash: nil, problems: []) == .truncated(head: 2))
        #expect(anchor.judge(head: .empty, storedHash: nil, problems: []) == .truncated(head: 0))
        #expect(anchor.judge(head: LogHead(seq: 5, hash: other), storedHash: other, problems: []) == .rewritten(stored: other, at: 3))
        #expect(anchor.judge(head: LogHead(seq: 5, hash: other), storedHash: nil, problems: []) == .rewritten(stored: nil, at: 3))
        let broken = LogProblem(seq: 2, kind: .hashMismatch(expected: other, stored: hash))
        #expect(anchor.judge(head: LogHead(seq: 5, hash: other), storedHash: hash, problems: [broken]) == .rewritten(stored: nil, at: 2))
        // Damage after the anchor, or a problem that is not about the chain, leaves the anchored history standing.
        let later = LogProblem(seq: 4, kind: .hashMismatch(expected: other, stored: hash))
        let decode = LogProblem(seq: 1, kind: .undecodable(type: "todo.created", reason: "x"))
        #expect(anchor.judge(head: LogHead(seq: 5, hash: other), storedHash: hash, problems: [later, decode]) == .holds)
    }
}

@Suite("Anchors: hostile text")
struct AnchorAttackTests {
    @Test("random bytes, and random edits of a valid anchor, are refused or read exactly; never a trap")
    func random() throws {
        var random = SeededRandom(seed: 26)
        let alphabet = Array("0123456789abcdefABCDEF:+- \t\n\u{0}\u{1b}é١７".unicodeScalars)
        for _ in 0..<AttackScale.count(short: 20_000, full: 2_000_000) {
            var text = ""
            let length = Int(random.next() % 100)
            for _ in 0..<length { text.unicodeScalars.append(alphabet[Int(random.next() % UInt64(alphabet.count))]) }
            if let anchor = try? Anchor.parse(text) {
                #expect(anchor.seq >= 1)
                #expect((Anchor.minimumDigits...Anchor.fullDigits).contains(anchor.hash.count))
                #expect(anchor.hash.allSatisfy { "0123456789abcdef".contains($0) })
                #expect(try Anchor.parse(anchor.text) == anchor)
                #expect(text.lowercased().hasSuffix(":" + anchor.hash))
            }
        }
    }

    @Test("one changed character of a valid anchor is refused or reads as another anchor")
    func edits() throws {
        var random = SeededRandom(seed: 2626)
        let valid = Array("1204:7f7b1c183c920464518b3fa1cfd8f62c".unicodeScalars)
        let original = try Anchor.parse(String(String.UnicodeScalarView(valid)))
        let replacements = Array("0123456789abcdefg:-+ é\u{0}".unicodeScalars)
        for _ in 0..<AttackScale.count(short: 5_000, full: 500_000) {
            var edited = valid
            let at = Int(random.next() % UInt64(valid.count))
            let scalar = replacements[Int(random.next() % UInt64(replacements.count))]
            guard scalar != edited[at] else { continue }
            edited[at] = scalar
            if let anchor = try? Anchor.parse(String(String.UnicodeScalarView(edited))) {
                #expect(anchor != original)
            }
        }
    }
}
