import TallyEssentials

/// The payload of `athlete.set` (schema 1): the whole entry of one day,
/// `{"from": "YYYY-MM-DD", "maxHeartRate", "restingHeartRate", "thresholdHeartRate", "ftp", "heartRateZones": [4 ints]}`,
/// each value a whole number or null (not set by this entry). An entry with every value null removes the day's entry.
public enum AthletePayload {

    public static func encode(_ entry: AthleteEntry) -> JSONObject {
        [
            "from": .string(entry.from.description),
            "maxHeartRate": entry.maxHeartRate.map { .int(Int64($0)) } ?? .null,
            "restingHeartRate": entry.restingHeartRate.map { .int(Int64($0)) } ?? .null,
            "thresholdHeartRate": entry.thresholdHeartRate.map { .int(Int64($0)) } ?? .null,
            "ftp": entry.ftp.map { .int(Int64($0)) } ?? .null,
            "heartRateZones": entry.heartRateZones.map { .array($0.map { .int(Int64($0)) }) } ?? .null,
        ]
    }

    /// Reads a payload; nil when a member is missing or of the wrong type.
    public static func decode(_ object: JSONObject) -> AthleteEntry? {
        guard let raw = object["from"]?.stringValue, let from = LocalDate.parse(raw) else { return nil }
        func number(_ key: String) -> Int?? {
            guard let value = object[key] else { return .none }
            if value.isNull { return .some(nil) }
            guard let int = value.intValue, let whole = Int(exactly: int) else { return .none }
            return .some(whole)
        }
        guard let max = number("maxHeartRate"), let resting = number("restingHeartRate"), let threshold = number("thresholdHeartRate"),
              let ftp = number("ftp"), let zonesValue = object["heartRateZones"] else { return nil }
        var zones: [Int]?
        if !zonesValue.isNull {
            guard let list = zonesValue.arrayValue, list.count <= 16 else { return nil }
            var read: [Int] = []
            for item in list {
                guard let int = item.intValue, let whole = Int(exactly: int) else { return nil }
                read.append(whole)
            }
            zones = read
        }
        return AthleteEntry(from: from, maxHeartRate: max, restingHeartRate: resting, thresholdHeartRate: threshold, ftp: ftp, heartRateZones: zones)
    }

    /// The entry with every value past the limits read as not set (how a stored entry is read, `LegacyValues`).
    static func bounded(_ entry: AthleteEntry) -> AthleteEntry {
        var read = entry
        if let value = read.maxHeartRate, !AthleteLimits.maxHeartRate.contains(value) { read.maxHeartRate = nil }
        if let value = read.restingHeartRate, !AthleteLimits.restingHeartRate.contains(value) { read.restingHeartRate = nil }
        if let value = read.thresholdHeartRate, !AthleteLimits.thresholdHeartRate.contains(value) { read.thresholdHeartRate = nil }
        if let value = read.ftp, !AthleteLimits.ftp.contains(value) { read.ftp = nil }
        if let zones = read.heartRateZones, AthleteLimits.problem(AthleteEntry(from: read.from, heartRateZones: zones)) != nil { read.heartRateZones = nil }
        return read
    }
}
