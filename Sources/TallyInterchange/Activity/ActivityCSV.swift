#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import TallyEssentials
import TallyDomain

/// One row of a Strava `activities.csv` or a Garmin Connect `Activities.csv`.
public struct CSVActivity: Sendable, Equatable {
    /// 1-based line of the row.
    public var line: Int
    /// A stable key of the row for the record's id when it has no track file.
    public var key: String
    public var name: String?
    public var sport: String?
    public var date: Int64
    public var elapsedSeconds: Int?
    public var distanceMeters: Double?
    /// The track file the row points at, relative to the export folder (Strava's `Filename`).
    public var filename: String?
}

/// Reads the activity lists of Strava's bulk export and of Garmin Connect.
///
/// Strava: `Activity ID`, `Activity Date` (`Jan 5, 2024, 7:30:00 AM`, UTC), `Activity Name`,
/// `Activity Type`, the first `Elapsed Time` (seconds), `Distance` (the first column is in km; a
/// second `Distance` column, in newer exports, is in metres and wins) and `Filename`.
/// Garmin Connect: `Activity Type`, `Date` (`2024-01-05 07:30:00`, local time), `Title`,
/// `Distance` (km) and `Time` (`hh:mm:ss`).
public enum ActivityCSV {
    public enum Kind: Sendable { case strava, garmin }

    /// The rows, and the lines that could not be read with the reason (in English).
    public static func parse(_ bytes: [UInt8], zone: Zone) throws(ActivityFileProblem) -> (kind: Kind, rows: [CSVActivity], skipped: [(line: Int, reason: String)]) {
        let table = try records(bytes)
        guard let header = table.first?.fields else { throw .corrupt("the CSV file is empty") }
        let kind: Kind
        if header.contains("Activity ID") { kind = .strava } else if header.contains("Activity Type"), header.contains("Date") { kind = .garmin } else {
            throw .unknownFormat
        }
        func column(_ name: String, occurrence: Int = 0) -> Int? {
            let matches = header.indices.filter { header[$0] == name }
            return occurrence < matches.count ? matches[occurrence] : nil
        }
        var rows: [CSVActivity] = []
        var skipped: [(line: Int, reason: String)] = []
        for record in table.dropFirst() where !(record.fields.count == 1 && record.fields[0].isEmpty) {
            func value(_ index: Int?) -> String? {
                guard let index, index < record.fields.count else { return nil }
                let text = record.fields[index].trimming(.whitespaces)
                return text.isEmpty ? nil : text
            }
            switch kind {
            case .strava:
                guard let id = value(column("Activity ID")) else { skipped.append((record.line, "no Activity ID")); continue }
                guard let raw = value(column("Activity Date")), let date = stravaDate(raw) else {
                    skipped.append((record.line, "the Activity Date cannot be read")); continue
                }
                var distance = value(column("Distance", occurrence: 1)).flatMap(number)
                if distance == nil { distance = value(column("Distance")).flatMap(number).map { $0 * 1000 } }
                rows.append(CSVActivity(
                    line: record.line, key: "strava:\(id)", name: value(column("Activity Name")), sport: value(column("Activity Type")),
                    date: date, elapsedSeconds: value(column("Elapsed Time")).flatMap(number).map(wholeSeconds),
                    distanceMeters: distance, filename: value(column("Filename"))
                ))
            case .garmin:
                guard let raw = value(column("Date")), let date = garminDate(raw, zone: zone) else {
                    skipped.append((record.line, "the Date cannot be read")); continue
                }
                let title = value(column("Title"))
                rows.append(CSVActivity(
                    line: record.line, key: "garmin:\(raw)|\(title ?? "")|\(value(column("Activity Type")) ?? "")", name: title,
                    sport: value(column("Activity Type")), date: date, elapsedSeconds: value(column("Time")).flatMap(clock),
                    distanceMeters: value(column("Distance")).flatMap(number).map { $0 * 1000 }, filename: nil
                ))
            }
        }
        return (kind, rows, skipped)
    }

    /// RFC 4180 records: quoted fields may hold commas, quotes (doubled) and line breaks.
    public static func records(_ bytes: [UInt8]) throws(ActivityFileProblem) -> [(line: Int, fields: [String])] {
        var text = String(decoding: bytes, as: UTF8.self)
        guard text.utf8.elementsEqual(bytes) else { throw .corrupt("the CSV file is not UTF-8 text") }
        if text.hasPrefix("\u{FEFF}") { text.removeFirst() }
        var result: [(line: Int, fields: [String])] = []
        var fields: [String] = []
        var field = ""
        var quoted = false
        var line = 1, start = 1
        var iterator = text.unicodeScalars.makeIterator()
        var pending: Unicode.Scalar? = nil
        while let scalar = pending ?? iterator.next() {
            pending = nil
            if quoted {
                if scalar == "\"" {
                    if let next = iterator.next() {
                        if next == "\"" { field.unicodeScalars.append("\"") } else { quoted = false; pending = next }
                    } else { quoted = false }
                } else {
                    if scalar == "\n" { line += 1 }
                    field.unicodeScalars.append(scalar)
                }
                continue
            }
            switch scalar {
            case "\"" where field.isEmpty: quoted = true
            case ",": fields.append(field); field = ""
            case "\r": break
            case "\n":
                fields.append(field)
                result.append((start, fields))
                fields = []
                field = ""
                line += 1
                start = line
            default: field.unicodeScalars.append(scalar)
            }
        }
        guard !quoted else { throw .corrupt("the CSV file ends inside a quoted field") }
        if !field.isEmpty || !fields.isEmpty {
            fields.append(field)
            result.append((start, fields))
        }
        return result
    }

    private static func number(_ text: String) -> Double? {
        Double(text.replacingAll(",", with: "")).flatMap { $0.isFinite && $0 >= 0 ? $0 : nil }
    }

    private static func clock(_ text: String) -> Int? {
        let parts = text.split(separator: ":").map { Double($0) }
        guard !parts.isEmpty, parts.count <= 3, parts.allSatisfy({ $0 != nil }) else { return nil }
        let seconds = parts.reduce(0.0) { $0 * 60 + $1! }
        return seconds.isFinite && seconds > 0 ? wholeSeconds(seconds) : nil
    }

    /// Whole seconds of a finite, non-negative time; anything past 7 days is one second past, which
    /// the import refuses as impossible (a time of 1e300 s must not trap the conversion to `Int`).
    private static func wholeSeconds(_ seconds: Double) -> Int {
        seconds < Double(Validation.maxDurationSeconds) + 0.5 ? Int(seconds.rounded()) : Validation.maxDurationSeconds + 1
    }

    private static let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]

    /// `Jan 5, 2024, 7:30:00 AM` in UTC.
    public static func stravaDate(_ text: String) -> Int64? {
        let parts = text.replacingAll(",", with: " ").split(separator: " ").map(String.init)
        guard parts.count == 5, let month = months.firstIndex(of: String(parts[0].prefix(3))), let day = Int(parts[1]), let year = Int(parts[2]),
              let date = LocalDate(year: year, month: month + 1, day: day) else { return nil }
        let clock = parts[3].split(separator: ":").compactMap { Int($0) }
        guard clock.count == 3, (1...12).contains(clock[0]), (0..<60).contains(clock[1]), (0..<60).contains(clock[2]) else { return nil }
        var hour = clock[0] % 12
        switch parts[4].uppercased() {
        case "AM": break
        case "PM": hour += 12
        default: return nil
        }
        return date.startInstant(in: Zone.utc) + Int64((hour * 3600 + clock[1] * 60 + clock[2]) * 1000)
    }

    /// `2024-01-05 07:30:00` (seconds optional) in `zone`.
    public static func garminDate(_ text: String, zone: Zone) -> Int64? {
        let parts = text.split(separator: " ")
        guard parts.count == 2, let date = LocalDate.parse(String(parts[0])) else { return nil }
        let clock = parts[1].split(separator: ":").compactMap { Int($0) }
        guard clock.count >= 2, clock.count <= 3, (0..<24).contains(clock[0]), (0..<60).contains(clock[1]) else { return nil }
        let seconds = clock.count == 3 ? clock[2] : 0
        let midnight = date.startInstant(in: zone)
        // Wall-clock time: add the offset difference across a DST change inside the day.
        let naive = midnight + Int64((clock[0] * 3600 + clock[1] * 60 + seconds) * 1000)
        let shift = zone.offsetMs(at: midnight) - zone.offsetMs(at: naive)
        return naive + shift
    }
}
