import TallyEssentials
import TallyDomain

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
    ///
    /// Every figure, the device's or measured, is checked before it is rounded or converted: a
    /// time that is negative, not finite or longer than 7 days, a distance or climb past the limits,
    /// a start outside the years 0001-9999 refuses the file (`impossible`), and the record is then
    /// checked against the limits every door shares (`EventRules.recordProblem`), so a file can
    /// never store what `import` of an export would refuse.
    public static func fields(_ parsed: ParsedActivity, format: String, sha256: String, name: String?, category: String?) throws(ActivityFileProblem) -> RecordFields {
        let category = category ?? SportCategory.category(parsed.sport)
        let profile = TrackGeometry.profile(parsed.points, category: category)
        let hasTrack = profile.meters.count >= 2
        guard let start = parsed.deviceStart ?? (hasTrack ? profile.start : nil) else { throw .noTimestamps }
        let elapsed = parsed.deviceElapsedSeconds ?? (hasTrack ? profile.elapsed : 0)
        let seconds = try wholeSeconds(elapsed, "elapsed time")
        guard seconds > 0 else { throw .noTimestamps }
        let moving = try wholeSeconds(parsed.deviceTimerSeconds ?? (hasTrack ? profile.movingSeconds : elapsed), "moving time")
        let distance = try measure(parsed.deviceDistanceMeters ?? (hasTrack ? profile.distance : nil), "distance", max: Validation.maxDistanceMeters)
        let gain = try measure(parsed.deviceAscentMeters ?? (profile.hasElevation ? profile.elevationGain : nil), "total ascent", max: Validation.maxElevationGainMeters)
        let efforts = hasTrack ? BestEfforts.find(in: profile, targets: BestEfforts.distances(category: category)) : []
        let title = (name ?? parsed.name).flatMap { try? Validation.name($0) } ?? defaultName(category)
        let track = TrackSummary(sha256: sha256, format: format, movingSeconds: moving, elevationGainMeters: gain, bestEfforts: efforts)
        let fields = RecordFields(name: title, category: category, durationSeconds: seconds, distanceMeters: distance, date: start, source: .import, track: track)
        if let reason = EventRules.recordProblem(fields) { throw .impossible(reason) }
        return fields
    }

    /// Seconds rounded to whole ones, once known to be a time an activity can last (0 to 7 days).
    private static func wholeSeconds(_ value: Double, _ what: String) throws(ActivityFileProblem) -> Int {
        guard value.isFinite, value >= 0 else { throw .impossible("the \(what) is \(value) s") }
        guard value < Double(Validation.maxDurationSeconds) + 0.5 else {
            throw .impossible("the \(what) of \(Int(value)) s is longer than 7 days")
        }
        return Int(value.rounded())
    }

    /// Metres rounded to a tenth, once known to be finite and between 0 and `max`.
    private static func measure(_ value: Double?, _ what: String, max: Double) throws(ActivityFileProblem) -> Double? {
        guard let value else { return nil }
        guard value.isFinite, value >= 0, value <= max else {
            throw .impossible("the \(what) of \(value) m is not between 0 and \(Int(max) / 1000) km")
        }
        return (value * 10).rounded() / 10
    }

    /// `Running`, `Cycling`: the name of an activity whose file names none.
    public static func defaultName(_ category: String) -> String {
        category.prefix(1).uppercased() + category.dropFirst()
    }
}
