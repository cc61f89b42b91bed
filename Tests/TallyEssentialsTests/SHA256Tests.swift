import Testing
@testable import TallyDomain
@testable import TallyEssentials

@Suite("SHA-256")
struct SHA256Tests {
    /// Bytes "abcdefghijklmnopqrstuvwxyzabc…" of the given length.
    static func alphabet(_ length: Int) -> [UInt8] {
        (0..<length).map { UInt8(ascii: "a") + UInt8($0 % 26) }
    }

    @Test("FIPS 180-4 example: \"abc\"")
    func abc() {
        #expect(SHA256.hexDigest("abc") == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
    }

    @Test("empty message")
    func empty() {
        #expect(SHA256.hexDigest("") == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
        #expect(SHA256.hex(SHA256.digest([])) == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
    }

    @Test("FIPS 180-4 example: 448-bit message")
    func twoBlock448() {
        #expect(
            SHA256.hexDigest("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq")
                == "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1")
    }

    @Test("NIST example: 896-bit message")
    func message896() {
        let message = "abcdefghbcdefghicdefghijdefghijkefghijklfghijklmghijklmnhijklmnoijklmnopjklmnopqklmnopqrlmnopqrsmnopqrstnopqrstu"
        #expect(SHA256.hexDigest(message) == "cf5b16a778af8380036ce59e7b0492370b249b11e8f07a51afac45037afee9d1")
    }

    @Test("NIST example: one million \"a\"")
    func millionA() {
        let expected = "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0"
        #expect(SHA256.hex(SHA256.digest([UInt8](repeating: UInt8(ascii: "a"), count: 1_000_000))) == expected)

        var hasher = SHA256()
        let chunk = [UInt8](repeating: UInt8(ascii: "a"), count: 1000)
        for _ in 0..<1000 { hasher.update(chunk) }
        #expect(SHA256.hex(hasher.finalize()) == expected)
    }

    /// Expected values computed with Python's hashlib (cross-checked with sha256sum) on `alphabet(length)`.
    @Test(
        "padding boundary lengths",
        arguments: [
            (55, "595615dbe4f0f407ae397d08b4c2cb870cb9b0e11937416f950c5160acf9c005"),
            (56, "784f623b787495078e93ff28a25b581df0584055a7e71d8cd90c454716b92f51"),
            (63, "5ca3e1ef5207490eac01a795e5cc94d59582a5118bf9534665c8668d87aa647c"),
            (64, "2fcd5a0d60e4c941381fcc4e00a4bf8be422c3ddfafb93c809e8d1e2bfffae8e"),
            (65, "1b3cd1877ab2f2f19f7be001722554f336cb799df0329de0bb4c118dc6abc06d"),
            (119, "faef67da856d6fd9c8d12f9ed0a4fefd3cf0ce085ab43e2907418d457e3c354b"),
            (120, "c9512b08619c19fbb503c7da6b46ef20301e5f7a7a5f43989182398536f5c5c8"),
        ])
    func boundaries(length: Int, expected: String) {
        let message = Self.alphabet(length)
        #expect(SHA256.hex(SHA256.digest(message)) == expected)
        #expect(SHA256.hexDigest(String(decoding: message, as: UTF8.self)) == expected)
    }

    @Test("incremental updates split at every offset match a single update")
    func splitAtEveryOffset() {
        let message = (0..<200).map { UInt8(($0 * 37 + 11) % 256) }
        let expected = "5e48d64839a8bff5e2471507af6a49f9990817df437857f4a2007df41266e1b5"
        #expect(SHA256.hex(SHA256.digest(message)) == expected)
        for split in 0...message.count {
            var hasher = SHA256()
            hasher.update(Array(message[..<split]))
            hasher.update(Array(message[split...]))
            #expect(SHA256.hex(hasher.finalize()) == expected, "split at \(split)")
        }
    }

    @Test("three-way splits and byte-at-a-time updates")
    func manySmallUpdates() {
        let message = (0..<200).map { UInt8(($0 * 37 + 11) % 256) }
        let expected = SHA256.digest(message)
        for first in stride(from: 0, through: 200, by: 7) {
            for second in stride(from: first, through: 200, by: 13) {
                var hasher = SHA256()
                message.withUnsafeBytes { raw in
                    hasher.update(UnsafeRawBufferPointer(rebasing: raw[..<first]))
                    hasher.update(UnsafeRawBufferPointer(rebasing: raw[first..<second]))
                    hasher.update(UnsafeRawBufferPointer(rebasing: raw[second...]))
                }
                #expect(hasher.finalize() == expected)
            }
        }
        var hasher = SHA256()
        for byte in message { hasher.update([byte]) }
        #expect(hasher.finalize() == expected)
    }

    @Test("String update hashes the UTF-8 bytes")
    func unicodeString() {
        let text = "héllo wörld 🎉"
        #expect(SHA256.hexDigest(text) == "88887bb90756341fffb0054b79689cf2cbf38d266b236ec83e657a03d284fd28")
        #expect(SHA256.digest(Array(text.utf8)) == {
            var hasher = SHA256()
            hasher.update(text)
            return hasher.finalize()
        }())
    }

    @Test("digest is 32 bytes; hex is 64 lowercase digits; finalize is idempotent")
    func shapes() {
        var hasher = SHA256()
        hasher.update("abc")
        let digest = hasher.finalize()
        #expect(digest.count == 32)
        #expect(hasher.finalize() == digest)
        let hex = SHA256.hex(digest)
        #expect(hex.utf8.count == 64)
        #expect(hex.utf8.allSatisfy { (0x30...0x39).contains($0) || (0x61...0x66).contains($0) })
        #expect(SHA256.hex([0x00, 0x0f, 0xa0, 0xff]) == "000fa0ff")
        #expect(SHA256.hex([]) == "")
    }

    @Test("empty updates change nothing")
    func emptyUpdates() {
        var hasher = SHA256()
        hasher.update([])
        hasher.update("")
        hasher.update(UnsafeRawBufferPointer(start: nil, count: 0))
        hasher.update("abc")
        hasher.update([])
        #expect(SHA256.hex(hasher.finalize()) == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
    }

    @Test("update after finalize is a precondition failure")
    func updateAfterFinalize() async {
        await #expect(processExitsWith: .failure) {
            var hasher = SHA256()
            _ = hasher.finalize()
            hasher.update("x")
        }
    }
}
