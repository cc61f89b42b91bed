@testable import TallyEssentials

#if canImport(TallyDomain)
import TallyDomain
#endif
@testable import TallyInterchange

// This file is also compiled into the fuzz targets (scripts/fuzz builds it with the domain's
// sources as one module), so it uses nothing but the standard library and TallyDomain.

/// Writes FIT files message by message: definitions, data messages (normal or compressed-timestamp
/// headers), then the 14-byte header and both CRCs. Field values are written at the width the
/// definition gives, so a test can put an 8-byte timestamp or `file_id.type` where a device writes 4 or 1.
public struct FITWriter {
    /// One field of a definition: number, size in bytes, base type.
    public typealias Field = (number: UInt8, size: UInt8, baseType: UInt8)

    private var data: [UInt8] = []
    private var definitions: [UInt8: (fields: [Field], bigEndian: Bool)] = [:]

    public init() {}

    /// Defines local message type `local` (0-15) as global message `global`.
    public mutating func define(local: UInt8, global: UInt16, _ fields: [Field], bigEndian: Bool = false, developerFields: [UInt8] = []) {
        data.append(0x40 | (developerFields.isEmpty ? 0 : 0x20) | (local & 0x0F))
        data += [0, bigEndian ? 1 : 0]
        data += bigEndian ? [UInt8(global >> 8), UInt8(global & 0xFF)] : [UInt8(global & 0xFF), UInt8(global >> 8)]
        data.append(UInt8(truncatingIfNeeded: fields.count))
        for field in fields { data += [field.number, field.size, field.baseType] }
        if !developerFields.isEmpty {
            data.append(UInt8(truncatingIfNeeded: developerFields.count))
            for size in developerFields { data += [0, size, 0] }
        }
        definitions[local & 0x0F] = (fields, bigEndian)
        developerSizes[local & 0x0F] = developerFields.reduce(0) { $0 + Int($1) }
    }

    private var developerSizes: [UInt8: Int] = [:]

    /// A data message of local type `local`: one value per defined field (missing ones are zero),
    /// each cut to its field's width. `compressedOffset` writes a compressed-timestamp header instead
    /// (local types 0-3 only).
    public mutating func message(local: UInt8, _ values: [UInt64], compressedOffset: UInt8? = nil, strings: [Int: [UInt8]] = [:]) {
        let local = local & 0x0F
        if let offset = compressedOffset {
            data.append(0x80 | ((local & 0x03) << 5) | (offset & 0x1F))
        } else {
            data.append(local)
        }
        guard let definition = definitions[compressedOffset == nil ? local : local & 0x03] else { return }
        for (index, field) in definition.fields.enumerated() {
            let size = Int(field.size)
            if let text = strings[index] {
                data += (text + [UInt8](repeating: 0, count: size)).prefix(size)
                continue
            }
            let value = index < values.count ? values[index] : 0
            var bytes: [UInt8] = []
            for byte in 0..<size { bytes.append(byte < 8 ? UInt8(truncatingIfNeeded: value >> (8 * UInt64(byte))) : 0) }
            data += definition.bigEndian ? bytes.reversed() : bytes
        }
        data += [UInt8](repeating: 0x5A, count: developerSizes[local] ?? 0)
    }

    /// The whole file: header (with its CRC), the messages and the file CRC. `fileCRC: false` writes
    /// a zero CRC, which readers accept as "not computed".
    public func file(fileCRC: Bool = true) -> [UInt8] {
        var header: [UInt8] = [14, 0x20, 0x08, 0x08]
        let size = UInt32(truncatingIfNeeded: data.count)
        header += [UInt8(size & 0xFF), UInt8((size >> 8) & 0xFF), UInt8((size >> 16) & 0xFF), UInt8(size >> 24)]
        header += [0x2E, 0x46, 0x49, 0x54]
        let headerCRC = Self.crc(header)
        header += [UInt8(headerCRC & 0xFF), UInt8(headerCRC >> 8)]
        var file = header + data
        let crc = fileCRC ? Self.crc(file) : 0
        file += [UInt8(crc & 0xFF), UInt8(crc >> 8)]
        return file
    }

    /// The FIT CRC-16, bit by bit (independent of the decoder's nibble table).
    public static func crc(_ bytes: [UInt8]) -> UInt16 {
        var crc: UInt16 = 0
        for byte in bytes {
            crc ^= UInt16(byte)
            for _ in 0..<8 { crc = crc & 1 != 0 ? (crc >> 1) ^ 0xA001 : crc >> 1 }
        }
        return crc
    }

    /// Seconds since the FIT epoch (1989-12-31T00:00:00Z) of ms since the Unix epoch.
    public static func fitTime(_ ms: Int64) -> UInt64 {
        UInt64(max(0, ms / 1000 - 631_065_600))
    }
}

/// The fuzzer's bytes as a source of choices: eight bytes a choice, zero once they run out, so a
/// structure-aware fuzz target turns any input into a well-framed file (`HostileActivityFiles`).
public struct ByteChoices: RandomNumberGenerator {
    private let bytes: [UInt8]
    private var index = 0

    public init(_ bytes: [UInt8]) {
        self.bytes = bytes
    }

    public mutating func next() -> UInt64 {
        var value: UInt64 = 0
        for _ in 0..<8 {
            value = value << 8 | UInt64(index < bytes.count ? bytes[index] : 0)
            index += 1
        }
        return value
    }
}

/// Activity files with valid framing and hostile values, for the attack suites and the fuzzers.
///
/// A FIT file has a correct header, definitions that match their data messages and correct CRCs;
/// a GPX or TCX file is well-formed XML of the right shape. The values inside are drawn from what
/// breaks arithmetic: zero, negative, NaN and infinities, 1e300, the largest value of every width
/// (FIT's "invalid" markers among them), timestamps at and past the ends of every range, fields
/// wider than the profile says, names with control characters, points out of order, beside
/// plausible values, so that some files are accepted and the accepting paths are exercised too.
/// Choices come from any `RandomNumberGenerator`: `SeededRandom` in the tests, `ByteChoices` (the
/// fuzzer's input) in `make fuzz`. Choices are taken with `%`, never with rejection sampling, so a
/// source that answers zero forever still ends.
public struct HostileActivityFiles<Source: RandomNumberGenerator> {
    public var source: Source

    public init(_ source: Source) {
        self.source = source
    }

    /// A file of any of the three formats, with the name it would have.
    public mutating func any() -> (name: String, bytes: [UInt8]) {
        switch pick(3) {
        case 0: return ("hostile.fit", fit())
        case 1: return ("hostile.tcx", Array(tcx().utf8))
        default: return ("hostile.gpx", Array(gpx().utf8))
        }
    }

    // MARK: Choices

    mutating func pick(_ count: Int) -> Int {
        Int(source.next() % UInt64(max(count, 1)))
    }

    mutating func chance(_ percent: Int) -> Bool {
        pick(100) < percent
    }

    mutating func element<T>(_ values: [T]) -> T {
        values[pick(values.count)]
    }

    /// A start time: mostly plausible (2000-2030), sometimes at the ends of what can be written.
    mutating func startMs() -> Int64 {
        chance(85) ? 946_684_800_000 + Int64(pick(946_080_000)) * 1000 : element([0, -62_135_596_800_000, 253_402_300_799_000, 1_000])
    }

    // MARK: FIT

    /// An unsigned value for a field of `size` bytes: plausible `typical`, or one from the edges.
    mutating func fitValue(size: UInt8, typical: UInt64) -> UInt64 {
        let bits = UInt64(size) * 8
        guard bits > 0 else { return 0 }
        let top: UInt64 = bits >= 64 ? .max : (1 << bits) - 1
        switch pick(10) {
        case 0: return top
        case 1: return top &- 1
        case 2: return top >> 1
        case 3: return (top >> 1) + 1
        case 4: return 0
        case 5: return source.next() & top
        case 6: return UInt64(UInt32.max) & top
        default: return typical & top
        }
    }

    mutating func fitSize(_ usual: UInt8) -> UInt8 {
        chance(80) ? usual : element([1, 2, 4, 8, 3, 0, 16])
    }

    /// A FIT activity: `file_id`, maybe `sport`, records (some with compressed timestamps) and sessions.
    public mutating func fit() -> [UInt8] {
        var writer = FITWriter()
        let bigEndian = chance(20)
        let typeSize = fitSize(1)
        writer.define(local: 0, global: 0, [(0, typeSize, 0x00)], bigEndian: bigEndian)
        writer.message(local: 0, [chance(85) ? 4 : fitValue(size: typeSize, typical: 4)])
        let start = FITWriter.fitTime(startMs())
        if chance(40) {
            let nameSize = UInt8(pick(24) + 1)
            writer.define(local: 3, global: 12, [(0, 1, 0x00), (3, nameSize, 0x07)], bigEndian: bigEndian)
            let name: [UInt8] = (0..<Int(nameSize)).map { _ in chance(70) ? UInt8(0x61 + pick(26)) : UInt8(truncatingIfNeeded: source.next()) }
            writer.message(local: 3, [UInt64(pick(60))], strings: [1: name])
        }
        let timeSize = fitSize(4)
        let coordinateSize = fitSize(4)
        writer.define(local: 1, global: 20, [(253, timeSize, 0x86), (0, coordinateSize, 0x85), (1, coordinateSize, 0x85), (2, fitSize(2), 0x84), (78, fitSize(4), 0x86)],
                      bigEndian: bigEndian, developerFields: chance(10) ? [UInt8(pick(4) + 1)] : [])
        var time = start
        var latitude = UInt64(UInt32(bitPattern: Int32(49 * 11_930_464)))
        let longitude = UInt64(UInt32(bitPattern: Int32(16 * 11_930_464)))
        for _ in 0..<pick(40) {
            time = chance(90) ? time &+ UInt64(pick(5) + 1) : fitValue(size: timeSize, typical: time)
            latitude = chance(90) ? latitude &+ UInt64(pick(400)) : fitValue(size: coordinateSize, typical: latitude)
            let altitude = fitValue(size: 2, typical: UInt64(2500 + pick(200)))
            if chance(20) {
                writer.message(local: 1, [time, latitude, longitude, altitude, altitude * 5], compressedOffset: UInt8(pick(32)))
            } else {
                writer.message(local: 1, [time, latitude, longitude, altitude, altitude * 5])
            }
        }
        for _ in 0..<(chance(80) ? pick(3) + 1 : 0) {
            let sizes = [fitSize(4), fitSize(4), fitSize(4), fitSize(4), fitSize(2), fitSize(1)]
            writer.define(local: 2, global: 18, [(2, sizes[0], 0x86), (7, sizes[1], 0x86), (8, sizes[2], 0x86), (9, sizes[3], 0x86), (22, sizes[4], 0x84), (5, sizes[5], 0x00)],
                          bigEndian: bigEndian)
            let elapsed = UInt64(pick(20_000) + 1) * 1000
            writer.message(local: 2, [
                fitValue(size: sizes[0], typical: start), fitValue(size: sizes[1], typical: elapsed), fitValue(size: sizes[2], typical: elapsed),
                fitValue(size: sizes[3], typical: UInt64(pick(5_000_000))), fitValue(size: sizes[4], typical: UInt64(pick(3_000))), UInt64(pick(60)),
            ])
        }
        return writer.file(fileCRC: !chance(10))
    }

    // MARK: XML

    /// A number as a file might write it: plausible, or one that breaks arithmetic.
    mutating func number(_ typical: Double) -> String {
        chance(70) ? String(typical) : element(["NaN", "nan", "inf", "-inf", "Infinity", "1e300", "-1e300", "-1", "-0", "0", "1e-300", "604801",
                                               "1e15", "0x1p62", "9223372036854775807", "-9223372036854775808", " 12 ", "", "1,5", "5e3"])
    }

    /// An ISO-8601 time as a file might write it: plausible, or at the ends of the years 0001-9999.
    mutating func time(_ ms: Int64) -> String {
        chance(85) ? Timestamp.format(ms) : element(["0001-01-01T00:00:00+14:00", "9999-12-31T23:59:59-12:00", "0001-01-01T00:00:00Z",
                                                     "9999-12-31T23:59:59.999Z", "1970-01-01T00:00:00Z", "2024-02-30T00:00:00Z", "not a time"])
    }

    /// A name: plain, long, or with characters that must never reach a terminal or a title raw.
    mutating func name() -> String {
        element(["Morning run", "", "   ", String(repeating: "long ", count: 60), "esc \u{1B}[31m red", "nul \u{0} byte", "cr\rlf\n",
                 "&lt;tag&gt; &amp; &#x1F3C3;", "Běh přes Brno"])
    }

    /// A track of `count` points from `start`: mostly one a second northwards, some hostile.
    mutating func points(_ count: Int, start: Int64) -> [(time: String, lat: String, lon: String, ele: String)] {
        var result: [(time: String, lat: String, lon: String, ele: String)] = []
        var ms = start
        var latitude = 49.0
        for _ in 0..<count {
            ms += chance(90) ? Int64(pick(5_000) + 1) : element([-3_600_000, 0, 86_400_000 * 30, -start])
            latitude += Double(pick(40)) / 100_000
            result.append((time(ms), number(latitude), number(16.0), number(200 + Double(pick(300)) / 10)))
        }
        return result
    }

    /// A TCX file: one or two activities, laps with their totals, trackpoints.
    public mutating func tcx() -> String {
        let start = startMs()
        var text = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<TrainingCenterDatabase xmlns=\"http://www.garmin.com/xmlschemas/TrainingCenterDatabase/v2\"><Activities>"
        // A third are multisport sessions: legs (some without a sport) and transitions at random times.
        let multisport = chance(30)
        if multisport { text += "<MultiSportSession><Id>\(time(start))</Id>" }
        for index in 0..<(multisport ? pick(6) + 1 : chance(90) ? 1 : 2) {
            if multisport { text += index == 0 ? "<FirstSport>" : "<NextSport>" }
            if multisport, index > 0, chance(50) {
                text += "<Transition StartTime=\"\(time(start))\">"
                if chance(85) { text += "<TotalTimeSeconds>\(number(Double(pick(300) + 1)))</TotalTimeSeconds>" }
                if chance(50) { text += "<DistanceMeters>\(number(Double(pick(500))))</DistanceMeters>" }
                text += "<Track>"
                for point in points(pick(5), start: start) {
                    text += "<Trackpoint><Time>\(point.time)</Time><Position><LatitudeDegrees>\(point.lat)</LatitudeDegrees><LongitudeDegrees>\(point.lon)</LongitudeDegrees></Position></Trackpoint>"
                }
                text += "</Track></Transition>"
            }
            let sport = multisport && chance(15) ? "" : " Sport=\"\(element(["Running", "Biking", "Other", "", "Swim&amp;Bike"]))\""
            text += "<Activity\(sport)><Id>\(time(start))</Id>"
            for _ in 0..<(pick(3) + 1) {
                text += "<Lap StartTime=\"\(time(start))\">"
                if chance(85) { text += "<TotalTimeSeconds>\(number(Double(pick(7_200) + 1)))</TotalTimeSeconds>" }
                if chance(85) { text += "<DistanceMeters>\(number(Double(pick(20_000))))</DistanceMeters>" }
                text += "<Track>"
                for point in points(pick(30), start: start) {
                    text += "<Trackpoint><Time>\(point.time)</Time><Position><LatitudeDegrees>\(point.lat)</LatitudeDegrees>"
                    text += "<LongitudeDegrees>\(point.lon)</LongitudeDegrees></Position><AltitudeMeters>\(point.ele)</AltitudeMeters></Trackpoint>"
                }
                text += "</Track></Lap>"
            }
            if chance(30) { text += "<Notes>\(escaped(name()))</Notes>" }
            text += "</Activity>"
            if multisport { text += index == 0 ? "</FirstSport>" : "</NextSport>" }
        }
        if multisport { text += "</MultiSportSession>" }
        return text + "</Activities></TrainingCenterDatabase>\n"
    }

    /// A GPX file: a track of one or more segments, with a name and a type.
    public mutating func gpx() -> String {
        let start = startMs()
        var text = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<gpx version=\"1.1\" creator=\"hostile\" xmlns=\"http://www.topografix.com/GPX/1/1\">"
        if chance(30) { text += "<metadata><name>\(escaped(name()))</name></metadata>" }
        text += "<trk><name>\(escaped(name()))</name><type>\(element(["running", "cycling", "9", ""]))</type>"
        for _ in 0..<(pick(2) + 1) {
            text += "<trkseg>"
            for point in points(pick(40), start: start) {
                text += "<trkpt lat=\"\(point.lat)\" lon=\"\(point.lon)\"><ele>\(point.ele)</ele><time>\(point.time)</time></trkpt>"
            }
            text += "</trkseg>"
        }
        return text + "</trk></gpx>\n"
    }

    /// Text as XML character data: markup characters escaped, the NUL (which XML cannot hold) left
    /// as a character reference the reader refuses or keeps as it likes.
    func escaped(_ text: String) -> String {
        var result = ""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "<": result += "&lt;"
            case ">": result += "&gt;"
            case "&": result += "&amp;"
            case "\u{0}": result += "&#0;"
            default: result.unicodeScalars.append(scalar)
            }
        }
        return result
    }
}

/// What must hold for any bytes given to `record import`, checked by the attack suites, the fuzz
/// corpus replay and the fuzz targets alike.
public enum ActivityFileInvariant {
    /// nil when `bytes` are refused with a reason, or accepted as a record that obeys the limits
    /// every door shares, whose event survives the export form unchanged and which a snapshot can
    /// hold; otherwise what broke. A trap is the other way to fail, and fails the run by itself.
    public static func violation(_ bytes: [UInt8]) -> String? {
        let records: [FileRecord]
        do {
            records = try ActivityFile.read(bytes).records
        } catch {
            return nil
        }
        // Every record the file becomes (each leg or day), not only the first.
        guard (1...FilePart.maxCount).contains(records.count) else { return "accepted as \(records.count) records" }
        for record in records {
            if let problem = violation(record.fields) { return problem }
        }
        return nil
    }

    /// What breaks when `fields` is stored, exported and folded; nil when nothing does.
    static func violation(_ fields: RecordFields) -> String? {
        let event = DomainEvent.recordLogged(fields)
        do {
            try EventRules.checkPayload(event)
        } catch {
            return "accepted, but breaks the limits: \(error.reason)"
        }
        let text = JSON.object(EventCatalog.payload(of: event)).serialized()
        guard case .object(let object)? = try? JSON.parse(text),
              let back = try? EventCatalog.decode(type: EventCatalog.typeName(of: event), schema: EventCatalog.currentSchemas["record.logged"] ?? 2, data: object)
        else { return "accepted, but its exported payload does not import: \(text)" }
        guard back == event else { return "accepted, but its payload changes on export and import: \(text)" }
        var model = ReadModel()
        Reducer.evolve(&model, event, stream: "00000000-0000-4000-8000-000000000001", version: 1, seq: 1, at: 0)
        _ = SnapshotCodec.encode(model, latestRecordedAt: 0, logHash: String(repeating: "0", count: 64))
        return nil
    }
}

/// How a fuzz input becomes an activity file: the `tcx` and `gpx` targets always generate one from
/// the input's bytes; the `fit` target reads an input whose first byte is odd as choices for a
/// generated file, and any other input as the bytes of a FIT file (so raw and structured mutations mix).
public enum FuzzActivityInput {
    public static func file(format: String, _ bytes: [UInt8]) -> [UInt8] {
        var files = HostileActivityFiles(ByteChoices(Array(bytes.dropFirst())))
        switch format {
        case "tcx": return Array(files.tcx().utf8)
        case "gpx": return Array(files.gpx().utf8)
        default: return bytes.first.map { $0 & 1 == 1 } == true ? files.fit() : bytes
        }
    }
}

/// Files that trapped tally or were wrongly accepted before every value was checked, built with
/// `FITWriter` and by hand; each is refused as impossible now.
public enum KnownHostileFiles {
    public static let start = FITWriter.fitTime(1_700_000_000_000)

    /// A FIT activity with one record and one session; `session` gives the session's fields and values.
    public static func fit(fileType: (size: UInt8, value: UInt64) = (1, 4), record: (size: UInt8, time: UInt64)? = nil, compressed: [UInt8] = [],
                    session: [(FITWriter.Field, UInt64)], sessions: Int = 1) -> [UInt8] {
        var writer = FITWriter()
        writer.define(local: 0, global: 0, [(0, fileType.size, 0x00)])
        writer.message(local: 0, [fileType.value])
        if let record {
            writer.define(local: 1, global: 20, [(253, record.size, 0x86), (0, 4, 0x85), (1, 4, 0x85)])
            writer.message(local: 1, [record.time, 584_592_736, 190_887_424])
            for offset in compressed { writer.message(local: 1, [0, 584_592_736, 190_887_424], compressedOffset: offset) }
        }
        writer.define(local: 2, global: 18, session.map(\.0))
        for _ in 0..<sessions { writer.message(local: 2, session.map(\.1)) }
        return writer.file()
    }

    public static let plainSession: [(FITWriter.Field, UInt64)] = [((2, 4, 0x86), start), ((7, 4, 0x86), 3_600_000), ((9, 4, 0x86), 1_000_000)]

    public static func tcx(time: String = "3600", distance: String = "10000") -> [UInt8] {
        Array("""
            <TrainingCenterDatabase><Activities><Activity Sport="Running"><Id>2024-01-05T07:30:00Z</Id>
            <Lap StartTime="2024-01-05T07:30:00Z"><TotalTimeSeconds>\(time)</TotalTimeSeconds><DistanceMeters>\(distance)</DistanceMeters><Track>
            <Trackpoint><Time>2024-01-05T07:30:00Z</Time></Trackpoint><Trackpoint><Time>2024-01-05T08:30:00Z</Time></Trackpoint>
            </Track></Lap></Activity></Activities></TrainingCenterDatabase>
            """.utf8)
    }

    /// The cases of the issue: name, file name, bytes.
    public static var impossible: [(name: String, file: String, bytes: [UInt8])] {
        [
            ("FIT timestamp of 8 bytes past Int64", "timestamp-past-int64.fit", fit(record: (8, UInt64(Int64.max) + 7), session: plainSession)),
            ("FIT session elapsed time of 2^64-2 ms", "elapsed-overflow.fit", fit(session: [((2, 4, 0x86), start), ((7, 8, 0x86), .max - 1)])),
            ("FIT total ascent of 5,000 km", "ascent-5000km.fit", fit(session: plainSession + [((22, 4, 0x86), 5_000_000)])),
            ("TCX lap time NaN", "lap-nan.tcx", tcx(time: "NaN")),
            ("TCX lap time inf", "lap-inf.tcx", tcx(time: "inf")),
            ("TCX lap time 1e300", "lap-1e300.tcx", tcx(time: "1e300")),
            ("TCX lap time negative", "lap-negative.tcx", tcx(time: "-100")),
        ]
    }
}
