import Testing
@testable import TallyPostgres
import TallyEssentials
import TallyTestSupport

/// Hostile bytes where the fold expects PostgreSQL's binary COPY rows: every read is
/// bounds-checked and answers nil, never a trap or a read past the buffer.
@Suite("binary COPY rows from a hostile server")
struct CopyRowsAttackTests {
    /// A header and one row of the fold's seven columns, as the server sends them.
    static let message: [UInt8] = {
        var bytes: [UInt8] = [0x50, 0x47, 0x43, 0x4F, 0x50, 0x59, 0x0A, 0xFF, 0x0D, 0x0A, 0x00, 0, 0, 0, 0, 0, 0, 0, 0]
        func int(_ value: Int64, width: Int) { for shift in stride(from: (width - 1) * 8, through: 0, by: -8) { bytes.append(UInt8(truncatingIfNeeded: value >> Int64(shift))) } }
        func text(_ value: String) { int(Int64(value.utf8.count), width: 4); bytes += Array(value.utf8) }
        int(7, width: 2)
        int(8, width: 4); int(42, width: 8)
        text("stream-1")
        int(4, width: 4); int(3, width: 4)
        text("todo.created")
        int(4, width: 4); int(1, width: 4)
        text("{\"title\":\"x\"}")
        int(8, width: 4); int(-5, width: 8)
        int(-1, width: 2)
        return bytes
    }()

    /// Reads the message as the fold does; nil when any read fails.
    static func read(_ bytes: [UInt8]) -> (seq: Int64, stream: String, version: Int32, type: String, schema: Int32, data: String, at: Int64)? {
        bytes.withUnsafeBufferPointer { buffer in
            var rows = CopyRows(buffer)
            guard rows.skipHeader(), rows.int16() == 7, let seq = rows.int64Field(), let stream = rows.bytesField(), let version = rows.int32Field(),
                  let type = rows.bytesField(), let schema = rows.int32Field(), let data = rows.bytesField(), let at = rows.int64Field(),
                  rows.int16() == -1, rows.atEnd else { return nil }
            return (seq, String(decoding: stream, as: UTF8.self), version, String(decoding: type, as: UTF8.self), schema, String(decoding: data, as: UTF8.self), at)
        }
    }

    @Test("a well-formed row reads back field by field")
    func wellFormed() throws {
        let row = try #require(Self.read(Self.message))
        #expect(row.seq == 42 && row.stream == "stream-1" && row.version == 3 && row.type == "todo.created")
        #expect(row.schema == 1 && row.data == "{\"title\":\"x\"}" && row.at == -5)
    }

    @Test("every truncation of the message reads as nil")
    func truncations() {
        for length in 0 ..< Self.message.count {
            #expect(Self.read(Array(Self.message[..<length])) == nil, "cut at \(length)")
        }
    }

    @Test("random corruptions never trap; lengths past the end or negative read as nil")
    func corruptions() {
        var random = SplitMix64(seed: 28)
        for _ in 0 ..< AttackScale.count(short: 2_000, full: 200_000) {
            var bytes = Self.message
            for _ in 0 ..< 1 + Int(random.next() % 4) {
                bytes[Int(random.next() % UInt64(bytes.count))] = UInt8(truncatingIfNeeded: random.next())
            }
            _ = Self.read(bytes)
        }
        // A text field claiming more bytes than there are, or a negative length.
        for claimed: [UInt8] in [[0x7F, 0xFF, 0xFF, 0xFF], [0xFF, 0xFF, 0xFF, 0xFE], [0x80, 0, 0, 0]] {
            var bytes = Self.message
            bytes.replaceSubrange(33 ..< 37, with: claimed)
            #expect(Self.read(bytes) == nil)
        }
    }
}
