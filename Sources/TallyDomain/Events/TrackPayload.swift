import TallyEssentials

/// The `track` member of `record.logged` (schema 2):
/// `{"sha256","format","movingSeconds","elevationGainMeters","bestEfforts":[{"meters","seconds"}]}`.
///
/// Schema 1 had no `track`; its upcaster adds `"track": null`, so a record typed by hand reads the same.
/// Tracks analysed with sensors (analysis version 2) add `"analysis": 2` and, when the file had
/// any, `"sensors": {"averageHeartRate","maxHeartRate","averageCadence","averagePower","normalizedPower"}`
/// (each key only when known); a track without them is analysis 1 without sensor figures.
/// A record that is one of several from its file (analysis 3) adds `"part": {"index","count","kind"}`
/// (`kind` `leg` or `day`); without it the file is one record.
public enum TrackPayload {
    /// Formats an imported track may have.
    public static let formats: Set<String> = ["gpx", "tcx", "fit"]

    public static func encode(_ track: TrackSummary) -> JSONObject {
        var object: JSONObject = [
            "sha256": .string(track.sha256),
            "format": .string(track.format),
            "movingSeconds": .int(Int64(track.movingSeconds)),
            "elevationGainMeters": track.elevationGainMeters.map { .double($0) } ?? .null,
            "bestEfforts": .array(track.bestEfforts.map { .object(["meters": .int(Int64($0.meters)), "seconds": .double($0.seconds)]) }),
        ]
        if track.analysisVersion != 1 { object["analysis"] = .int(Int64(track.analysisVersion)) }
        if let sensors = track.sensors { object["sensors"] = .object(encode(sensors)) }
        if let part = track.part {
            object["part"] = .object(["index": .int(Int64(part.index)), "count": .int(Int64(part.count)), "kind": .string(part.kind.rawValue)])
        }
        return object
    }

    /// The sensor figures that are known, by name.
    static func encode(_ sensors: SensorSummary) -> JSONObject {
        var object = JSONObject()
        for (key, path) in sensorKeys {
            if let value = sensors[keyPath: path] { object[key] = .int(Int64(value)) }
        }
        return object
    }

    /// The members of `sensors`, the plausible range of each.
    static var sensorKeys: [(String, WritableKeyPath<SensorSummary, Int?>)] {
        [
            ("averageHeartRate", \.averageHeartRate), ("maxHeartRate", \.maxHeartRate), ("averageCadence", \.averageCadence),
            ("averagePower", \.averagePower), ("normalizedPower", \.normalizedPower),
        ]
    }

    /// The plausible range of one sensor figure.
    static func range(_ path: WritableKeyPath<SensorSummary, Int?>) -> ClosedRange<Int> {
        switch path {
        case \SensorSummary.averageHeartRate, \SensorSummary.maxHeartRate: SensorLimits.heartRate
        case \SensorSummary.averageCadence: SensorLimits.cadence
        default: SensorLimits.power
        }
    }

    /// Highest analysis version a track may name (a newer tally may have a newer analysis).
    public static let maxAnalysisVersion = 1_000

    /// Reads a `sensors` member; nil when a member is not a whole number (or null).
    static func decodeSensors(_ object: JSONObject) -> SensorSummary? {
        var sensors = SensorSummary()
        for (key, path) in sensorKeys {
            guard let value = object[key], !value.isNull else { continue }
            guard let number = value.intValue, let whole = Int(exactly: number) else { return nil }
            sensors[keyPath: path] = whole
        }
        return sensors
    }

    /// Reads a track member; nil when a field is missing or of the wrong type.
    public static func decode(_ object: JSONObject) -> TrackSummary? {
        guard let sha = object["sha256"]?.stringValue, let format = object["format"]?.stringValue,
              let moving = object["movingSeconds"]?.intValue, let movingSeconds = Int(exactly: moving),
              let gainValue = object["elevationGainMeters"], let list = object["bestEfforts"]?.arrayValue
        else { return nil }
        var gain: Double?
        if !gainValue.isNull {
            guard let value = gainValue.doubleValue else { return nil }
            gain = value
        }
        var efforts: [TrackEffort] = []
        for item in list {
            guard let effort = item.objectValue, let meters = effort["meters"]?.intValue, let seconds = effort["seconds"],
                  let whole = Int(exactly: meters) else { return nil }
            // A time that was not finite was written as null by earlier versions: read as no effort (`LegacyValues`).
            if seconds.isNull { continue }
            guard let value = seconds.doubleValue else { return nil }
            efforts.append(TrackEffort(meters: whole, seconds: value))
        }
        var analysis = 1
        if let value = object["analysis"] {
            guard let number = value.intValue, let whole = Int(exactly: number) else { return nil }
            analysis = whole
        }
        var sensors: SensorSummary?
        if let value = object["sensors"], !value.isNull {
            guard let members = value.objectValue, let read = decodeSensors(members) else { return nil }
            sensors = read.isEmpty ? nil : read
        }
        var part: FilePart?
        if let value = object["part"], !value.isNull {
            guard let members = value.objectValue, let index = members["index"]?.intValue, let count = members["count"]?.intValue,
                  let whole = Int(exactly: index), let total = Int(exactly: count),
                  let kind = members["kind"]?.stringValue.flatMap(FilePart.Kind.init(rawValue:)) else { return nil }
            part = FilePart(index: whole, count: total, kind: kind)
        }
        return TrackSummary(
            sha256: sha, format: format, movingSeconds: movingSeconds, elevationGainMeters: gain, bestEfforts: efforts,
            sensors: sensors, analysisVersion: analysis, part: part
        )
    }

    /// Why a track's analysis version or sensor figures break the limits; nil when they do not.
    static func sensorProblem(_ track: TrackSummary) -> String? {
        guard (1...maxAnalysisVersion).contains(track.analysisVersion) else {
            return "field 'track.analysis' is not between 1 and \(maxAnalysisVersion)"
        }
        if let part = track.part, !part.isValid {
            return "field 'track.part' is not an index from 1 to a count of 2 to \(FilePart.maxCount)"
        }
        guard let sensors = track.sensors else { return nil }
        for (key, path) in sensorKeys {
            let range = range(path)
            if let value = sensors[keyPath: path], !range.contains(value) {
                return "field 'track.sensors.\(key)' is not between \(range.lowerBound) and \(range.upperBound)"
            }
        }
        return nil
    }

    /// The limits an imported track summary obeys; the English reason when it does not.
    public static func problem(_ track: TrackSummary) -> String? {
        guard track.sha256.utf8.count == 64, track.sha256.utf8.allSatisfy({ (0x30...0x39).contains($0) || (0x61...0x66).contains($0) }) else {
            return "field 'track.sha256' is not 64 lowercase hex digits"
        }
        guard formats.contains(track.format) else { return "field 'track.format' is not gpx, tcx or fit" }
        guard track.movingSeconds >= 0, track.movingSeconds <= Validation.maxDurationSeconds else {
            return "field 'track.movingSeconds' is not between 0 and 7 days"
        }
        if let gain = track.elevationGainMeters, !(gain.isFinite && gain >= 0 && gain <= Validation.maxElevationGainMeters) {
            return "field 'track.elevationGainMeters' is not between 0 and \(Int(Validation.maxElevationGainMeters) / 1000) km"
        }
        guard track.bestEfforts.count <= Validation.maxBestEfforts else { return "more than \(Validation.maxBestEfforts) best efforts" }
        for effort in track.bestEfforts where !(effort.meters > 0 && effort.meters <= Validation.maxEffortMeters && effort.seconds.isFinite
            && effort.seconds > 0 && effort.seconds <= Double(Validation.maxDurationSeconds)) {
            return "a best effort is not a positive distance and a time of at most 7 days"
        }
        return sensorProblem(track)
    }
}

extension EventCatalog {
    /// Upcaster 1 → 2 of `record.logged`: adds `"track": null` (schema 1 records have no track file).
    @Sendable static func addingNoTrack(_ payload: JSONObject) throws(EventDecodingError) -> JSONObject {
        var upcast = payload
        if upcast["track"] == nil { upcast["track"] = .null }
        return upcast
    }
}
