import TallyEssentials

/// The `track` member of `record.logged` (schema 2):
/// `{"sha256","format","movingSeconds","elevationGainMeters","bestEfforts":[{"meters","seconds"}]}`.
///
/// Schema 1 had no `track`; its upcaster adds `"track": null`, so a record typed by hand reads the same.
public enum TrackPayload {
    /// Formats an imported track may have.
    public static let formats: Set<String> = ["gpx", "tcx", "fit"]

    public static func encode(_ track: TrackSummary) -> JSONObject {
        [
            "sha256": .string(track.sha256),
            "format": .string(track.format),
            "movingSeconds": .int(Int64(track.movingSeconds)),
            "elevationGainMeters": track.elevationGainMeters.map { .double($0) } ?? .null,
            "bestEfforts": .array(track.bestEfforts.map { .object(["meters": .int(Int64($0.meters)), "seconds": .double($0.seconds)]) }),
        ]
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
        return TrackSummary(sha256: sha, format: format, movingSeconds: movingSeconds, elevationGainMeters: gain, bestEfforts: efforts)
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
        return nil
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
