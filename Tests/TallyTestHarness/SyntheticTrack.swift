import Foundation
import TallyDomain

/// Tracks of known geometry, and the GPX, TCX and FIT files that hold them, for tests and the
/// benchmark. Distances are computed here independently of `TrackGeometry`: along a meridian one
/// degree of latitude is exactly 2πR/360 on the sphere of radius R.
public enum SyntheticTrack {
    /// Metres per degree of latitude on the sphere tally measures on.
    public static let metersPerDegree = 2 * Double.pi * 6_371_008.8 / 360

    /// A straight run due north from (lat0, lon0): one point per second at `speed` m/s for `seconds`,
    /// standing still for each `(second, length)` pause, with heights rising `climb` m per point.
    public static func line(
        start: Int64 = 1_700_000_000_000, latitude lat0: Double = 49.0, longitude lon0: Double = 16.0,
        speed: Double, seconds: Int, pauses: [(at: Int, length: Int)] = [], climb: Double? = nil
    ) -> [TrackPoint] {
        var points: [TrackPoint] = []
        var meters = 0.0
        var clock = 0
        for second in 0...seconds {
            if let pause = pauses.first(where: { $0.at == second }) {
                clock += pause.length
            }
            if second > 0 { meters += speed }
            points.append(TrackPoint(
                time: start + Int64(second + clock) * 1000, latitude: lat0 + meters / metersPerDegree, longitude: lon0,
                elevation: climb.map { 200 + Double(second) * $0 }
            ))
        }
        return points
    }

    /// Out along the equator and back: `length` metres each way at `speed` m/s.
    public static func outAndBack(start: Int64 = 1_700_000_000_000, speed: Double, length: Double) -> [TrackPoint] {
        let steps = Int(length / speed)
        var points: [TrackPoint] = []
        for index in 0...(2 * steps) {
            let along = Double(index <= steps ? index : 2 * steps - index) * speed
            points.append(TrackPoint(time: start + Int64(index) * 1000, latitude: 0, longitude: along / metersPerDegree))
        }
        return points
    }

    public static func gpx(_ points: [TrackPoint], name: String = "Synthetic run", type: String = "running", version: String = "1.1") -> String {
        var text = """
            <?xml version="1.0" encoding="UTF-8"?>
            <gpx version="\(version)" creator="tally tests" xmlns="http://www.topografix.com/GPX/\(version == "1.1" ? "1/1" : "1/0")">
              <trk><name>\(name)</name><type>\(type)</type><trkseg>

            """
        for point in points {
            text += "      <trkpt lat=\"\(point.latitude)\" lon=\"\(point.longitude)\">"
            if let elevation = point.elevation { text += "<ele>\(elevation)</ele>" }
            if let time = point.time { text += "<time>\(Timestamp.format(time))</time>" }
            text += "</trkpt>\n"
        }
        return text + "  </trkseg></trk>\n</gpx>\n"
    }

    public static func tcx(_ points: [TrackPoint], sport: String = "Running") -> String {
        let start = Timestamp.format(points.first?.time ?? 0)
        var text = """
            <?xml version="1.0" encoding="UTF-8"?>
            <TrainingCenterDatabase xmlns="http://www.garmin.com/xmlschemas/TrainingCenterDatabase/v2">
              <Activities><Activity Sport="\(sport)"><Id>\(start)</Id><Lap StartTime="\(start)"><Track>

            """
        for point in points {
            text += "<Trackpoint><Time>\(Timestamp.format(point.time ?? 0))</Time><Position><LatitudeDegrees>\(point.latitude)</LatitudeDegrees>"
            text += "<LongitudeDegrees>\(point.longitude)</LongitudeDegrees></Position>"
            if let elevation = point.elevation { text += "<AltitudeMeters>\(elevation)</AltitudeMeters>" }
            text += "</Trackpoint>\n"
        }
        return text + "</Track></Lap></Activity></Activities>\n</TrainingCenterDatabase>\n"
    }

    /// A minimal FIT activity: `file_id`, one `record` per point (timestamp, position, altitude) and,
    /// when given, a `session` with the device's totals. Written little-endian with both CRCs.
    public static func fit(_ points: [TrackPoint], sport: UInt8 = 1, sessionDistance: Double? = nil) -> [UInt8] {
        var data: [UInt8] = []
        func u16(_ value: UInt16) { data += [UInt8(value & 0xFF), UInt8(value >> 8)] }
        func u32(_ value: UInt32) { data += [UInt8(value & 0xFF), UInt8((value >> 8) & 0xFF), UInt8((value >> 16) & 0xFF), UInt8(value >> 24)] }
        func fitTime(_ ms: Int64) -> UInt32 { UInt32(ms / 1000 - 631_065_600) }
        // file_id: local 0, global 0, field 0 (type, enum).
        data += [0x40, 0, 0]; u16(0); data += [1, 0, 1, 0x00]
        data += [0x00, 4]
        // record: local 1, global 20: timestamp, lat, lon, altitude.
        data += [0x41, 0, 0]; u16(20); data += [4, 253, 4, 0x86, 0, 4, 0x85, 1, 4, 0x85, 2, 2, 0x84]
        let semicircles = 2_147_483_648.0 / 180
        for point in points {
            data.append(0x01)
            u32(fitTime(point.time ?? 0))
            u32(UInt32(bitPattern: Int32((point.latitude * semicircles).rounded())))
            u32(UInt32(bitPattern: Int32((point.longitude * semicircles).rounded())))
            u16(point.elevation.map { UInt16(($0 + 500) * 5) } ?? 0xFFFF)
        }
        if let sessionDistance, let first = points.first?.time, let last = points.last?.time {
            // session: local 2, global 18: start_time, total_elapsed_time, total_timer_time, total_distance, sport.
            data += [0x42, 0, 0]; u16(18); data += [5, 2, 4, 0x86, 7, 4, 0x86, 8, 4, 0x86, 9, 4, 0x86, 5, 1, 0x00]
            data.append(0x02)
            u32(fitTime(first))
            u32(UInt32(last - first))
            u32(UInt32(last - first))
            u32(UInt32(sessionDistance * 100))
            data.append(sport)
        } else {
            // sport: local 3, global 12, field 0 (sport).
            data += [0x43, 0, 0]; u16(12); data += [1, 0, 1, 0x00]
            data += [0x03, sport]
        }
        var header: [UInt8] = [14, 0x20]
        header += [0x08, 0x08] // profile 2056
        let size = UInt32(data.count)
        header += [UInt8(size & 0xFF), UInt8((size >> 8) & 0xFF), UInt8((size >> 16) & 0xFF), UInt8(size >> 24)]
        header += Array(".FIT".utf8)
        let headerCRC = crc(header)
        header += [UInt8(headerCRC & 0xFF), UInt8(headerCRC >> 8)]
        var file = header + data
        let fileCRC = crc(file)
        file += [UInt8(fileCRC & 0xFF), UInt8(fileCRC >> 8)]
        return file
    }

    /// The FIT CRC-16, written out here again so the writer does not lean on the decoder.
    static func crc(_ bytes: [UInt8]) -> UInt16 {
        var crc: UInt16 = 0
        for byte in bytes {
            crc ^= UInt16(byte)
            for _ in 0..<8 { crc = crc & 1 != 0 ? (crc >> 1) ^ 0xA001 : crc >> 1 }
        }
        return crc
    }
}
