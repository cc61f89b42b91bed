import Foundation
import Testing
import TallyDomain
@testable import TallyEssentials

/// A blob line read in pieces of any size decodes to what the whole line decodes to, and refuses
/// what Foundation's base64 decoder refuses.
@Suite("Blob lines read in pieces")
struct BlobLineDecoderTests {
    static func line(sha: String, encoding: String = "identity", data: String) -> [UInt8] {
        Array("{\"blob\":\"\(sha)\",\"encoding\":\"\(encoding)\",\"data\":\"\(data)\"}".utf8)
    }

    static func decode(_ line: [UInt8], pieces sizes: [Int]) throws(EventLineError) -> BlobLineDecoder.Decoded {
        var decoder = BlobLineDecoder()
        var start = 0
        var index = 0
        while start < line.count {
            let end = min(line.count, start + max(1, sizes[index % sizes.count]))
            try line.withUnsafeBufferPointer { (all) throws(EventLineError) in try decoder.append(UnsafeBufferPointer(rebasing: all[start..<end])) }
            start = end
            index += 1
        }
        return try decoder.finish()
    }

    @Test("random contents in random pieces: the bytes and their SHA-256, as a whole-line decode gives them")
    func roundTrip() throws {
        var random = SplitMix64(seed: 22)
        for _ in 0..<200 {
            let bytes = (0..<Int.random(in: 0...700, using: &random)).map { _ in UInt8.random(in: 0...255, using: &random) }
            let sha = SHA256.hex(SHA256.digest(bytes))
            var text = Data(bytes).base64EncodedString()
            // JSON may escape the slash.
            if Bool.random(using: &random) { text = text.replacingOccurrences(of: "/", with: "\\/") }
            let line = Self.line(sha: sha, data: text)
            let sizes = (0..<5).map { _ in Int.random(in: 1...64, using: &random) }
            let decoded = try Self.decode(line, pieces: sizes)
            #expect(decoded.blob.bytes == bytes)
            #expect(decoded.blob.sha256 == sha)
            #expect(decoded.storedSHA256 == sha)
            let whole = try line.withUnsafeBufferPointer { (all) throws(EventLineError) in try BlobLines.decode(all) }
            #expect(whole.blob == decoded.blob)
        }
    }

    @Test("a mangled data field: what is taken is what Foundation decodes; what is refused Foundation refuses or is not padded base64")
    func refusals() throws {
        var random = SplitMix64(seed: 7)
        let alphabet = Array("ABCxyz019+/=\\\"- é".unicodeScalars)
        for _ in 0..<500 {
            var text = Array(Data((0..<Int.random(in: 1...30, using: &random)).map { _ in UInt8.random(in: 0...255, using: &random) }).base64EncodedString().unicodeScalars)
            let position = Int.random(in: 0..<text.count, using: &random)
            switch Int.random(in: 0..<3, using: &random) {
            case 0: text[position] = alphabet[Int.random(in: 0..<alphabet.count, using: &random)]
            case 1: text.remove(at: position)
            default: text.insert(alphabet[Int.random(in: 0..<alphabet.count, using: &random)], at: position)
            }
            let data = String(String.UnicodeScalarView(text))
            let expected = data.contains("\\") || data.contains("\"") ? nil : Data(base64Encoded: data)
            let line = Self.line(sha: String(repeating: "a", count: 64), data: data)
            let result = Result { () throws(EventLineError) in try Self.decode(line, pieces: [Int.random(in: 1...9, using: &random)]) }
            switch result {
            case .success(let decoded):
                #expect(expected.map(Array.init) == decoded.blob.bytes, "\(data)")
            case .failure(let error):
                // Foundation on Linux also takes a missing or misplaced '=' ("aGk==", "aG=k"); tally does not.
                let padded = data.unicodeScalars.count % 4 == 0 && !data.trimmingCharacters(in: CharacterSet(charactersIn: "=")).contains("=")
                #expect(expected == nil || !padded, "\(data): \(error.reason)")
            }
        }
    }

    @Test("the fields around data: in any order, a nested data key is no data field, and each wrong one is named")
    func fields() throws {
        let sha = SHA256.hex(SHA256.digest(Array("hi".utf8)))
        let reordered = Array("{\"data\":\"aGk=\", \"nested\":{\"data\":\"!!\"},\"encoding\":\"identity\",\"blob\":\"\(sha)\"}\r".utf8)
        #expect(try Self.decode(reordered, pieces: [3]).blob.bytes == Array("hi".utf8))
        let cases: [(String, String)] = [
            ("{\"blob\":\"\(sha)\",\"encoding\":\"identity\",\"data\":\"aGk=\",\"data\":\"aGk=\"}", "field 'data' appears twice"),
            ("{\"blob\":\"\(sha)\",\"encoding\":\"identity\",\"data\":12}", "field 'data' is not base64"),
            ("{\"blob\":\"\(sha)\",\"encoding\":\"identity\",\"data\":\"aGk=", "field 'data' is not base64"),
            ("{\"blob\":\"\(sha)\",\"encoding\":\"identity\",\"data\":\"aGk=\"", "the blob line is not a JSON object"),
            ("{\"blob\":\"ABC\",\"encoding\":\"identity\",\"data\":\"aGk=\"}", "field 'blob' is not 64 lowercase hex digits"),
            ("{\"blob\":\"\(sha)\",\"encoding\":\"zip\",\"data\":\"aGk=\"}", "field 'encoding' is not identity or gzip"),
            ("{\"blob\":\"\(sha)\",\"encoding\":\"identity\",\"data\":\"aGk=\",\"x\":\"\(String(repeating: "y", count: 70_000))\"}", "the fields beside 'data' are longer than 64 KB"),
        ]
        for (text, reason) in cases {
            #expect(throws: EventLineError(reason)) { try Self.decode(Array(text.utf8), pieces: [5]) }
        }
    }
}
