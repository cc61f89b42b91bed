#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Original activity files in the `export` / `import` JSON Lines: one line per blob,
/// `{"blob":"<sha256>","encoding":"identity"|"gzip","data":"<base64 of the stored bytes>"}`,
/// written just before the first event that names it. A blob line has no `seq`, so older
/// readers that only know event lines fail on it rather than silently dropping the file.
public enum BlobLines {
    /// The longest line an import reads: a blob line holding the largest file tally keeps
    /// (`ActivityLimits.maxFileBytes`, as base64) with room for its other fields. A longer line is
    /// refused as soon as it is seen, before it is held whole.
    public static let maxLineBytes = (ActivityLimits.maxFileBytes + 2) / 3 * 4 + 4_096

    /// True when the line is a blob line (it starts with `{"blob":`).
    /// - Complexity: O(leading blanks); allocates nothing (an import asks it of every line).
    public static func isBlobLine(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        let prefix: StaticString = "{\"blob\":"
        var index = 0
        while index < bytes.count, bytes[index] == 0x20 || bytes[index] == 0x09 { index += 1 }
        let count = prefix.utf8CodeUnitCount
        guard bytes.count - index >= count else { return false }
        let start = prefix.utf8Start
        for offset in 0..<count where bytes[index + offset] != start[offset] { return false }
        return true
    }

    public static func encode(_ blob: Blob) -> String {
        JSON.object([
            "blob": .string(blob.sha256), "encoding": .string(blob.encoding.rawValue),
            "data": .string(Data(blob.bytes).base64EncodedString()),
        ]).serialized(.compact)
    }

    /// Reads a blob line; the caller checks that the content matches the name.
    public static func decode(_ bytes: UnsafeBufferPointer<UInt8>) throws(EventLineError) -> Blob {
        guard case .object(let object)? = try? JSON.parse(utf8: bytes) else { throw EventLineError("the blob line is not a JSON object") }
        guard let sha = object["blob"]?.stringValue, sha.utf8.count == 64,
              sha.utf8.allSatisfy({ (0x30...0x39).contains($0) || (0x61...0x66).contains($0) }) else {
            throw EventLineError("field 'blob' is not 64 lowercase hex digits")
        }
        guard let raw = object["encoding"]?.stringValue, let encoding = BlobEncoding(rawValue: raw) else {
            throw EventLineError("field 'encoding' is not identity or gzip")
        }
        guard let text = object["data"]?.stringValue, let data = Data(base64Encoded: text) else {
            throw EventLineError("field 'data' is not base64")
        }
        return Blob(sha256: sha, encoding: encoding, bytes: Array(data))
    }

    /// The SHA-256 of the original file a `record.logged` event names, if it has one.
    public static func trackHash(of event: EventEnvelope) -> String? {
        guard event.type == "record.logged", event.data.contains("\"sha256\""),
              case .object(let data)? = try? JSON.parse(event.data),
              let track = data["track"]?.objectValue else { return nil }
        return track["sha256"]?.stringValue
    }
}
