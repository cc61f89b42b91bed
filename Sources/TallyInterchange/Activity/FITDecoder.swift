import TallyDomain

/// A decoder of the FIT binary format (Garmin's Flexible and Interoperable Data Transfer), enough
/// for activities: `file_id`, `session`, `sport` and `record` messages (position, altitude, heart
/// rate, cadence and power), written by any device.
///
/// Layout: a 12- or 14-byte header (size, protocol, profile, data size, `.FIT`, optional CRC),
/// then records (a definition message describes a local message type's fields; data messages
/// follow it; compressed-timestamp headers carry a 5-bit time offset), then a 2-byte CRC. Chained
/// files (several headers one after another) are read in turn. Every length is checked against
/// the bytes present before it is used, so a header that lies about its size is `truncated`.
/// Every value is range-checked before arithmetic: a timestamp is FIT's `date_time` (32 bits; a
/// wider one is `impossible`), and fields of any size are read as unsigned 64-bit and only ever
/// compared or turned into `Double`, so no field value can overflow.
public enum FITDecoder {
    /// Seconds between the Unix epoch and the FIT epoch (1989-12-31T00:00:00Z).
    public static let fitEpoch: Int64 = 631_065_600

    public static func isFIT(_ bytes: [UInt8]) -> Bool {
        bytes.count >= 12 && (bytes[0] == 12 || bytes[0] == 14) && bytes[8] == 0x2E && bytes[9] == 0x46 && bytes[10] == 0x49 && bytes[11] == 0x54
    }

    /// The activity in a FIT file.
    /// - Complexity: O(n).
    public static func decode(_ bytes: [UInt8]) throws(ActivityFileProblem) -> ParsedActivity {
        var state = State()
        var offset = 0
        repeat {
            offset = try decodeFile(bytes, at: offset, into: &state)
        } while offset + 12 <= bytes.count && isFIT(Array(bytes[offset..<(offset + 12)]))
        guard state.fileType == nil || state.fileType == 4 else { throw .notAnActivity }
        if state.activity.truncated {
            // A file cut short keeps what it holds when that is an activity: at least two timed records.
            guard state.activity.points.count + state.activity.samples.count >= 2 || state.activity.deviceStart != nil else { throw .truncated }
        }
        guard state.sawSessionOrRecord else { throw .notAnActivity }
        if state.sawRelative { try anchor(&state) }
        return state.activity
    }

    /// What one local message type's data messages look like.
    public struct Definition {
        var global: Int
        var bigEndian: Bool
        var fields: [(number: Int, size: Int, baseType: UInt8)]
        var developerBytes: Int
    }

    public struct State {
        var activity = ParsedActivity()
        /// `file_id.type` as written (any width): 4 is an activity.
        var fileType: UInt64?
        var sawSessionOrRecord = false
        var lastTimestamp: Int64 = 0
        var sessionSport: String?
        /// A `date_time` below 0x10000000 was read: seconds since the device started, not a date.
        var sawRelative = false
        /// The `activity` message's timestamp and local_timestamp (local wall time), to place relative times.
        var activityTimestamp: Int64?
        var activityLocal: Int64?
    }

    /// The smallest FIT `date_time` that is a date; anything below is seconds since the device started.
    static let firstAbsolute: Int64 = 0x1000_0000

    /// Places a file whose times are relative to the device's start: the `activity` message's
    /// local_timestamp (a date, local wall time) minus its relative timestamp is where the device's
    /// clock started; the wall time is read as UTC here and corrected by the importer's zone
    /// (`ParsedActivity.localClock`). A file without that anchor has no date.
    private static func anchor(_ state: inout State) throws(ActivityFileProblem) {
        guard let relative = state.activityTimestamp, relative < firstAbsolute, let local = state.activityLocal, local >= firstAbsolute else {
            throw .impossible("its times count from when the device was switched on (FIT date_time below 0x10000000) and it names no date")
        }
        let shift = (local - relative) * 1000
        func move(_ ms: Int64) -> Int64 { ms < (firstAbsolute + fitEpoch) * 1000 ? ms + shift : ms }
        state.activity.deviceStart = state.activity.deviceStart.map(move)
        for index in state.activity.points.indices { state.activity.points[index].time = state.activity.points[index].time.map(move) }
        for index in state.activity.samples.indices { state.activity.samples[index].time = move(state.activity.samples[index].time) }
        for index in state.activity.laps.indices { state.activity.laps[index].start = move(state.activity.laps[index].start) }
        for index in state.activity.sessions.indices { state.activity.sessions[index].start = state.activity.sessions[index].start.map(move) }
        state.activity.localClock = true
    }

    /// Decodes one file of a chain starting at `start`; returns where the next one would start.
    private static func decodeFile(_ bytes: [UInt8], at start: Int, into state: inout State) throws(ActivityFileProblem) -> Int {
        guard bytes.count - start >= 12 else { throw .truncated }
        let headerSize = Int(bytes[start])
        guard headerSize == 12 || headerSize == 14 else { throw .unknownFormat }
        guard bytes[start + 8] == 0x2E, bytes[start + 9] == 0x46, bytes[start + 10] == 0x49, bytes[start + 11] == 0x54 else { throw .unknownFormat }
        guard bytes.count - start >= headerSize else { throw .truncated }
        let dataSize = Int(bytes[start + 4]) | Int(bytes[start + 5]) << 8 | Int(bytes[start + 6]) << 16 | Int(bytes[start + 7]) << 24
        let dataStart = start + headerSize
        var dataEnd = dataStart + dataSize
        // Cut short (the header promises more than the file has): read the messages that are whole, no CRC to check.
        let cut = dataEnd + 2 > bytes.count
        if cut {
            guard start == 0 else { throw .truncated }
            dataEnd = bytes.count
            state.activity.truncated = true
        } else {
            let stored = UInt16(bytes[dataEnd]) | UInt16(bytes[dataEnd + 1]) << 8
            if stored != 0, crc(bytes[start..<dataEnd]) != stored { throw .corrupt("the FIT file's checksum does not match its content") }
        }
        do {
            try messages(bytes, from: dataStart, to: dataEnd, into: &state)
        } catch {
            // The last message of a file cut short is cut too: what came before it stands.
            guard cut, error == .truncated else { throw error }
        }
        return cut ? bytes.count : dataEnd + 2
    }

    /// Reads the records between `dataStart` and `dataEnd`.
    private static func messages(_ bytes: [UInt8], from dataStart: Int, to dataEnd: Int, into state: inout State) throws(ActivityFileProblem) {
        var definitions: [Int: Definition] = [:]
        var position = dataStart
        while position < dataEnd {
            let header = bytes[position]
            position += 1
            if header & 0x80 != 0 {
                let local = Int((header >> 5) & 0x03)
                let offset = Int64(header & 0x1F)
                var timestamp = (state.lastTimestamp & ~0x1F) + offset
                if offset < (state.lastTimestamp & 0x1F) { timestamp += 0x20 }
                state.lastTimestamp = timestamp
                guard let definition = definitions[local] else { throw .corrupt("a data message of undefined local type \(local)") }
                position = try message(bytes, at: position, end: dataEnd, definition, timestamp: timestamp, &state)
            } else if header & 0x40 != 0 {
                let local = Int(header & 0x0F)
                guard position + 5 <= dataEnd else { throw .truncated }
                let bigEndian = bytes[position + 1] == 1
                let global = bigEndian ? Int(bytes[position + 2]) << 8 | Int(bytes[position + 3]) : Int(bytes[position + 2]) | Int(bytes[position + 3]) << 8
                let count = Int(bytes[position + 4])
                position += 5
                guard position + count * 3 <= dataEnd else { throw .truncated }
                var fields: [(number: Int, size: Int, baseType: UInt8)] = []
                fields.reserveCapacity(count)
                for index in 0..<count {
                    let base = position + index * 3
                    fields.append((Int(bytes[base]), Int(bytes[base + 1]), bytes[base + 2]))
                }
                position += count * 3
                var developerBytes = 0
                if header & 0x20 != 0 {
                    guard position + 1 <= dataEnd else { throw .truncated }
                    let developerCount = Int(bytes[position])
                    position += 1
                    guard position + developerCount * 3 <= dataEnd else { throw .truncated }
                    for index in 0..<developerCount { developerBytes += Int(bytes[position + index * 3 + 1]) }
                    position += developerCount * 3
                }
                definitions[local] = Definition(global: global, bigEndian: bigEndian, fields: fields, developerBytes: developerBytes)
            } else {
                let local = Int(header & 0x0F)
                guard let definition = definitions[local] else { throw .corrupt("a data message of undefined local type \(local)") }
                position = try message(bytes, at: position, end: dataEnd, definition, timestamp: nil, &state)
            }
        }
    }

    /// Reads one data message and keeps what an activity needs.
    private static func message(
        _ bytes: [UInt8], at start: Int, end: Int, _ definition: Definition, timestamp compressed: Int64?, _ state: inout State
    ) throws(ActivityFileProblem) -> Int {
        var position = start
        var values: [Int: (UInt64, UInt8, Int)] = [:]
        for field in definition.fields {
            guard position + field.size <= end else { throw .truncated }
            if field.size <= 8, field.size > 0, [1, 2, 4, 8].contains(field.size) {
                var value: UInt64 = 0
                for index in 0..<field.size {
                    let byte = UInt64(bytes[position + (definition.bigEndian ? index : field.size - 1 - index)])
                    value = value << 8 | byte
                }
                values[field.number] = (value, field.baseType & 0x1F, field.size)
            }
            position += field.size
        }
        guard position + definition.developerBytes <= end else { throw .truncated }
        position += definition.developerBytes
        func unsigned(_ number: Int) -> UInt64? {
            guard let (value, _, size) = values[number] else { return nil }
            let invalid: UInt64 = size == 8 ? .max : (UInt64(1) << UInt64(size * 8)) - 1
            return value == invalid ? nil : value
        }
        func signed(_ number: Int) -> Int64? {
            guard let (value, _, size) = values[number] else { return nil }
            let bits = UInt64(size * 8)
            let invalid = UInt64(1) << (bits - 1) - 1
            guard value != invalid else { return nil }
            return bits == 64 ? Int64(bitPattern: value) : Int64(bitPattern: value << (64 - bits)) >> Int64(64 - bits)
        }
        var timestamp = compressed
        if let raw = unsigned(253) {
            let seconds = try dateTime(raw, field: "timestamp")
            timestamp = seconds
            state.lastTimestamp = seconds
            if seconds < firstAbsolute { state.sawRelative = true }
        }
        func instant(_ seconds: Int64) -> Int64 { (seconds + fitEpoch) * 1000 }
        switch definition.global {
        case 0:
            if let type = unsigned(0) { state.fileType = type }
        case 34:
            state.activityTimestamp = timestamp
            if let local = unsigned(5) { state.activityLocal = try dateTime(local, field: "activity local_timestamp") }
        case 12:
            if let sport = unsigned(0), state.activity.sport == nil { state.activity.sport = "fit:\(sport)" }
            if let name = string(bytes, field: 3, definition, start: start), !name.isEmpty { state.activity.name = name }
        case 18:
            state.sawSessionOrRecord = true
            // The sport with its sub-sport when the file names one (`fit:4:14`, indoor rowing).
            let sport = unsigned(5).map { sport in unsigned(6).map { "fit:\(sport):\($0)" } ?? "fit:\(sport)" }
            if let sport { state.activity.sport = sport }
            var session = ParsedSession(start: nil, sport: sport)
            if let start = unsigned(2) {
                let seconds = try dateTime(start, field: "session start_time")
                if seconds < firstAbsolute { state.sawRelative = true }
                state.activity.deviceStart = min(state.activity.deviceStart ?? .max, instant(seconds))
                session.start = instant(seconds)
            }
            session.elapsedSeconds = unsigned(7).map { Double($0) / 1000 }
            session.timerSeconds = unsigned(8).map { Double($0) / 1000 }
            session.distanceMeters = unsigned(9).map { Double($0) / 100 }
            session.ascentMeters = unsigned(22).map { Double($0) }
            if state.activity.sessions.count < ParsedSession.maxSessions { state.activity.sessions.append(session) }
            if let elapsed = unsigned(7) { state.activity.deviceElapsedSeconds = (state.activity.deviceElapsedSeconds ?? 0) + Double(elapsed) / 1000 }
            if let timer = unsigned(8) { state.activity.deviceTimerSeconds = (state.activity.deviceTimerSeconds ?? 0) + Double(timer) / 1000 }
            if let distance = unsigned(9) { state.activity.deviceDistanceMeters = (state.activity.deviceDistanceMeters ?? 0) + Double(distance) / 100 }
            if let ascent = unsigned(22) { state.activity.deviceAscentMeters = (state.activity.deviceAscentMeters ?? 0) + Double(ascent) }
        case 19:
            if let raw = unsigned(2), state.activity.laps.count < ParsedLap.maxLaps {
                let lapStart = instant(try dateTime(raw, field: "lap start_time"))
                let week = Double(Validation.maxDurationSeconds)
                state.activity.laps.append(ParsedLap(
                    start: lapStart,
                    elapsedSeconds: ParsedLap.figure(unsigned(7).map { Double($0) / 1000 }, max: week),
                    timerSeconds: ParsedLap.figure(unsigned(8).map { Double($0) / 1000 }, max: week),
                    distanceMeters: ParsedLap.figure(unsigned(9).map { Double($0) / 100 }, max: Validation.maxDistanceMeters)
                ))
            }
        case 20:
            state.sawSessionOrRecord = true
            let semicircle = 180.0 / 2_147_483_648.0
            guard let time = timestamp else { break }
            let sample = SensorSample(
                time: instant(time),
                heartRate: unsigned(3).flatMap { SensorLimits.whole($0, SensorLimits.heartRate) },
                cadence: unsigned(4).flatMap { SensorLimits.whole($0, SensorLimits.cadence) },
                power: unsigned(7).flatMap { SensorLimits.whole($0, SensorLimits.power) }
            )
            if sample.hasValue, state.activity.samples.count < SensorLimits.maxSamples { state.activity.samples.append(sample) }
            if let lat = signed(0), let lon = signed(1) {
                var elevation: Double?
                if let enhanced = unsigned(78) { elevation = Double(enhanced) / 5 - 500 } else if let altitude = unsigned(2) { elevation = Double(altitude) / 5 - 500 }
                state.activity.points.append(TrackPoint(time: instant(time), latitude: Double(lat) * semicircle, longitude: Double(lon) * semicircle, elevation: elevation))
            } else if state.activity.deviceStart == nil {
                state.activity.deviceStart = instant(time)
            }
        default:
            break
        }
        return position
    }

    /// A FIT `date_time` (seconds since the FIT epoch, 32 bits): a wider value is no time at all.
    private static func dateTime(_ raw: UInt64, field: String) throws(ActivityFileProblem) -> Int64 {
        guard raw <= UInt64(UInt32.max) else { throw .impossible("a \(field) of \(raw) s is past FIT's 32-bit date_time") }
        return Int64(raw)
    }

    /// A string field (base type 7) of the message at `start`, up to its first NUL.
    private static func string(_ bytes: [UInt8], field number: Int, _ definition: Definition, start: Int) -> String? {
        var position = start
        for field in definition.fields {
            if field.number == number, field.baseType & 0x1F == 7 {
                let raw = bytes[position..<(position + field.size)].prefix { $0 != 0 }
                let text = String(decoding: raw, as: UTF8.self)
                return text.utf8.elementsEqual(raw) ? text : nil
            }
            position += field.size
        }
        return nil
    }

    /// The FIT CRC-16 (the nibble-table algorithm of the FIT protocol).
    public static func crc<C: Collection>(_ bytes: C) -> UInt16 where C.Element == UInt8 {
        let table: [UInt16] = [0x0000, 0xCC01, 0xD801, 0x1400, 0xF001, 0x3C00, 0x2800, 0xE401, 0xA001, 0x6C00, 0x7800, 0xB401, 0x5000, 0x9C01, 0x8801, 0x4400]
        var crc: UInt16 = 0
        for byte in bytes {
            var tmp = table[Int(crc & 0xF)]
            crc = (crc >> 4) & 0x0FFF
            crc = crc ^ tmp ^ table[Int(byte & 0xF)]
            tmp = table[Int(crc & 0xF)]
            crc = (crc >> 4) & 0x0FFF
            crc = crc ^ tmp ^ table[Int((byte >> 4) & 0xF)]
        }
        return crc
    }

}
