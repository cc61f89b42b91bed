/// One activity file turned into what tally stores: the record's fields and its track summary.
public enum ActivityFile {
    /// `fit`, `gpx` or `tcx` by content (the name is not trusted); nil for anything else.
    public static func format(of bytes: [UInt8]) -> String? {
        if FITDecoder.isFIT(bytes) { return "fit" }
        var index = bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? 3 : 0
        // Skip the prolog and comments to the root element's name, within the first 4 KB.
        let end = min(bytes.count, 4_096)
        while index < end {
            guard let open = bytes[index..<end].firstIndex(of: 0x3C), open + 1 < end else { return nil }
            let next = bytes[open + 1]
            if next == 0x3F || next == 0x21 {
                index = open + 2
                continue
            }
            var stop = open + 1
            while stop < end, ![0x20, 0x0A, 0x0D, 0x09, 0x3E, 0x2F].contains(bytes[stop]) { stop += 1 }
            let name = String(decoding: bytes[(open + 1)..<stop], as: UTF8.self)
            let local = name.split(separator: ":").last.map(String.init) ?? name
            switch local {
            case "gpx": return "gpx"
            case "TrainingCenterDatabase": return "tcx"
            default: return nil
            }
        }
        return nil
    }

    /// Parses `bytes` (already decompressed) and computes the record: start, elapsed and moving
    /// time, distance (the device's total when it has one), elevation gain and best efforts.
    ///
    /// `name` and `category` override the file's own (a Strava CSV names them).
    public static func summarize(_ bytes: [UInt8], name: String? = nil, category: String? = nil) throws(ActivityFileProblem) -> RecordFields {
        guard bytes.count <= ActivityLimits.maxFileBytes else { throw .tooLarge }
        guard !bytes.isEmpty else { throw .corrupt("the file is empty") }
        guard let format = format(of: bytes) else { throw .unknownFormat }
        let parsed: ParsedActivity
        switch format {
        case "fit": parsed = try FITDecoder.decode(bytes)
        case "gpx": parsed = try TrackXML.gpx(bytes)
        default: parsed = try TrackXML.tcx(bytes)
        }
        let sha = SHA256.hex(SHA256.digest(bytes))
        return try fields(parsed, format: format, sha256: sha, name: name, category: category)
    }

    /// The record for a parsed file: measured where the device gave no figure.
    public static func fields(_ parsed: ParsedActivity, format: String, sha256: String, name: String?, category: String?) throws(ActivityFileProblem) -> RecordFields {
        let category = category ?? SportCategory.category(parsed.sport)
        let profile = TrackGeometry.profile(parsed.points, category: category)
        let hasTrack = profile.meters.count >= 2
        guard let start = parsed.deviceStart ?? (hasTrack ? profile.start : nil) else { throw .noTimestamps }
        let elapsed = parsed.deviceElapsedSeconds ?? (hasTrack ? profile.elapsed : 0)
        let seconds = Int(elapsed.rounded())
        guard seconds > 0 else { throw .noTimestamps }
        guard seconds <= Validation.maxDurationSeconds else { throw .corrupt("the activity lasts longer than 7 days") }
        let distance = parsed.deviceDistanceMeters ?? (hasTrack ? profile.distance : nil)
        let moving = parsed.deviceTimerSeconds ?? (hasTrack ? profile.movingSeconds : elapsed)
        let gain = parsed.deviceAscentMeters ?? (profile.hasElevation ? (profile.elevationGain * 10).rounded() / 10 : nil)
        let efforts = hasTrack ? BestEfforts.find(in: profile, targets: BestEfforts.distances(category: category)) : []
        let title = (name ?? parsed.name).flatMap { try? Validation.name($0) } ?? defaultName(category)
        let track = TrackSummary(
            sha256: sha256, format: format, movingSeconds: min(Int(moving.rounded()), Validation.maxDurationSeconds),
            elevationGainMeters: gain, bestEfforts: efforts
        )
        return RecordFields(
            name: title, category: category, durationSeconds: seconds,
            distanceMeters: distance.map { min(max(0, ($0 * 10).rounded() / 10), Validation.maxDistanceMeters) },
            date: start, source: .import, track: track
        )
    }

    /// `Running`, `Cycling`: the name of an activity whose file names none.
    static func defaultName(_ category: String) -> String {
        category.prefix(1).uppercased() + category.dropFirst()
    }
}
