import Testing
@testable import TallyEssentials

@Suite("XXH64")
struct XXHash64Tests {
    func hex(_ text: String) -> String {
        Array(text.utf8).withUnsafeBytes { XXHash64.hex($0) }
    }

    @Test("matches the reference implementation's vectors, short and long inputs")
    func vectors() {
        #expect(hex("") == "ef46db3751d8e999")
        #expect(hex("a") == "d24ec4f1a98c6e5b")
        #expect(hex("abc") == "44bc2cf5ad770999")
        #expect(hex("Nobody inspects the spammish repetition") == "fbcea83c8a378bf1")
    }
}
