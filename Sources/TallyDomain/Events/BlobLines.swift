#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import TallyEssentials

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

    /// The blob line, without its newline.
    public static func encode(_ blob: Blob) -> String {
        var line = ""
        encode(blob) { line += $0 }
        return line
    }

    /// The blob line in pieces of at most 64 KiB (without its newline), so a 256 MB file is never
    /// held as one base64 string.
    public static func encode<E: Error>(_ blob: Blob, piece: (String) throws(E) -> Void) throws(E) {
        // The name is hex and the encoding a fixed word: neither needs escaping.
        try piece("{\"blob\":\"\(blob.sha256)\",\"encoding\":\"\(blob.encoding.rawValue)\",\"data\":\"")
        let slice = 48 << 10
        var start = 0
        while start < blob.bytes.count {
            let end = min(blob.bytes.count, start + slice)
            try piece(Data(blob.bytes[start..<end]).base64EncodedString())
            start = end
        }
        try piece("\"}")
    }

    /// Reads a blob line held whole; the caller checks that the content matches the name.
    public static func decode(_ bytes: UnsafeBufferPointer<UInt8>) throws(EventLineError) -> BlobLineDecoder.Decoded {
        var decoder = BlobLineDecoder(expectedBytes: bytes.count / 4 * 3)
        try decoder.append(bytes)
        return try decoder.finish()
    }

    /// The SHA-256 of the original file a `record.logged` event names, if it has one.
    public static func trackHash(of event: EventEnvelope) -> String? {
        guard event.type == "record.logged", event.data.contains("\"sha256\""),
              case .object(let data)? = try? JSON.parse(event.data),
              let track = data["track"]?.objectValue else { return nil }
        return track["sha256"]?.stringValue
    }
}
