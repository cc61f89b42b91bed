/// Reads a TZif file (RFC 8536), the format of the system's zone database, into a `Zone`.
///
/// Versions 1 to 4: for version 2 and later the 64-bit block and the POSIX TZ footer are read, for version 1
/// the 32-bit block. Leap-second records are skipped (tally counts POSIX time, without leap seconds), as are
/// abbreviations and the standard/wall and UT/local indicators, which only matter to a footer-less file's
/// users of `TZ` rules. Before the first transition the first local time type applies.
public enum TZif {
    public enum Failure: Error, Equatable {
        case notTZif
        case truncated
        case badIndex
        case badFooter
    }

    public static func parse(_ bytes: [UInt8], name: String) throws(Failure) -> Zone {
        var reader = Reader(bytes: bytes)
        let first = try reader.header()
        guard first.version >= 2 else { return try reader.block(first, timeSize: 4, name: name, footer: nil) }
        try reader.skip(first.blockSize(timeSize: 4))
        let second = try reader.header()
        let blockStart = reader.offset
        try reader.skip(second.blockSize(timeSize: 8))
        let footer = try reader.footer()
        reader.offset = blockStart
        return try reader.block(second, timeSize: 8, name: name, footer: footer)
    }

    public struct Header {
        var version: Int
        var isUTCCount: Int
        var isStandardCount: Int
        var leapCount: Int
        var timeCount: Int
        var typeCount: Int
        var charCount: Int

        func blockSize(timeSize: Int) -> Int {
            timeCount * timeSize + timeCount + typeCount * 6 + charCount + leapCount * (timeSize + 4) + isStandardCount + isUTCCount
        }
    }

    public struct Reader {
        let bytes: [UInt8]
        var offset = 0

        mutating func skip(_ count: Int) throws(Failure) {
            guard count >= 0, offset + count <= bytes.count else { throw .truncated }
            offset += count
        }

        mutating func byte() throws(Failure) -> UInt8 {
            guard offset < bytes.count else { throw .truncated }
            defer { offset += 1 }
            return bytes[offset]
        }

        /// A big-endian unsigned integer of `size` bytes.
        mutating func bigEndian(_ size: Int) throws(Failure) -> UInt64 {
            guard offset + size <= bytes.count else { throw .truncated }
            var value: UInt64 = 0
            for index in offset..<offset + size { value = value << 8 | UInt64(bytes[index]) }
            offset += size
            return value
        }

        mutating func int32() throws(Failure) -> Int32 {
            Int32(bitPattern: UInt32(try bigEndian(4)))
        }

        mutating func int64() throws(Failure) -> Int64 {
            Int64(bitPattern: try bigEndian(8))
        }

        mutating func header() throws(Failure) -> Header {
            guard offset + 44 <= bytes.count else { throw bytes.count - offset < 4 ? .notTZif : .truncated }
            guard Array(bytes[offset..<offset + 4]) == Array("TZif".utf8) else { throw .notTZif }
            let versionByte = bytes[offset + 4]
            let version = versionByte == 0 ? 1 : Int(versionByte) - 0x30
            guard (1...9).contains(version) else { throw .notTZif }
            offset += 20
            var counts: [Int] = []
            for _ in 0..<6 {
                let count = try int32()
                guard count >= 0 else { throw .truncated }
                counts.append(Int(count))
            }
            return Header(
                version: version, isUTCCount: counts[0], isStandardCount: counts[1], leapCount: counts[2],
                timeCount: counts[3], typeCount: counts[4], charCount: counts[5]
            )
        }

        /// The transitions and local time types of one data block.
        mutating func block(_ header: Header, timeSize: Int, name: String, footer: PosixZoneRule?) throws(Failure) -> Zone {
            guard header.typeCount >= 1 else { throw .badIndex }
            var times: [Int64] = []
            times.reserveCapacity(header.timeCount)
            for _ in 0..<header.timeCount {
                times.append(timeSize == 4 ? Int64(try int32()) : try int64())
            }
            var typeIndexes: [Int] = []
            typeIndexes.reserveCapacity(header.timeCount)
            for _ in 0..<header.timeCount {
                typeIndexes.append(Int(try byte()))
            }
            var typeOffsets: [Int32] = []
            for _ in 0..<header.typeCount {
                typeOffsets.append(try int32())
                try skip(2) // isdst, abbreviation index
            }
            var offsets: [Int32] = []
            offsets.reserveCapacity(header.timeCount)
            for index in typeIndexes {
                guard index < typeOffsets.count else { throw .badIndex }
                offsets.append(typeOffsets[index])
            }
            for index in times.indices.dropFirst() where times[index] <= times[index - 1] {
                throw .badIndex
            }
            return Zone(name: name, transitions: times, offsets: offsets, initialOffset: typeOffsets[0], rule: footer)
        }

        /// The POSIX TZ string between two newlines after the version 2+ data; nil when empty.
        mutating func footer() throws(Failure) -> PosixZoneRule? {
            guard offset < bytes.count, bytes[offset] == 0x0A else { throw .badFooter }
            guard let end = bytes[(offset + 1)...].firstIndex(of: 0x0A) else { throw .badFooter }
            let text = String(decoding: bytes[(offset + 1)..<end], as: UTF8.self)
            offset = end + 1
            // An empty footer, or a rule this reader does not know: the last transition's offset stays.
            return PosixZoneRule(text)
        }
    }
}
