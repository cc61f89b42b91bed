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
    /// time, distance (the device's total when it has one), elevation gain and best efforts. For a
    /// file that holds several activities (`FileSplit`) this is its first record; `read` gives all.
    ///
    /// `name` and `category` override the file's own (a Strava CSV names them).
    public static func summarize(_ bytes: [UInt8], name: String? = nil, category: String? = nil, zone: Zone? = nil) throws(ActivityFileProblem) -> RecordFields {
        try summarizeReporting(bytes, name: name, category: category, zone: zone).fields
    }

    /// `summarize`, also saying whether the file was cut short (what it held was read).
    public static func summarizeReporting(_ bytes: [UInt8], name: String? = nil, category: String? = nil, zone: Zone? = nil) throws(ActivityFileProblem) -> (fields: RecordFields, truncated: Bool) {
        let reading = try read(bytes, name: name, category: category, zone: zone)
        return (reading.records[0].fields, reading.truncated)
    }

    /// Every record the file becomes (one, or one per leg or day: `FileSplit`), in time order.
    public static func read(_ bytes: [UInt8], name: String? = nil, category: String? = nil, zone: Zone? = nil) throws(ActivityFileProblem) -> FileReading {
        var (format, parsed) = try parse(bytes)
        if parsed.localClock, let zone { parsed.shift(by: -zone.offsetMs(at: parsed.deviceStart ?? parsed.points.first?.time ?? 0)) }
        let sha = SHA256.hex(SHA256.digest(bytes))
        var records: [FileRecord] = []
        for (piece, part) in try FileSplit.parts(parsed) {
            // A CSV's category names the whole file, not its legs: each leg takes its own sport's.
            records.append(try record(piece, format: format, sha256: sha, name: name, category: part?.kind == .leg ? nil : category, part: part))
        }
        return FileReading(records: records, truncated: parsed.truncated)
    }

    /// The file's format and what it says, before anything is computed from it.
    public static func parse(_ bytes: [UInt8]) throws(ActivityFileProblem) -> (format: String, activity: ParsedActivity) {
        guard bytes.count <= ActivityLimits.maxFileBytes else { throw .tooLarge }
        guard !bytes.isEmpty else { throw .corrupt("the file is empty") }
        guard let format = format(of: bytes) else { throw .unknownFormat }
        switch format {
        case "fit": return (format, try FITDecoder.decode(bytes))
        case "gpx": return (format, try TrackXML.gpx(bytes))
        default: return (format, try TrackXML.tcx(bytes))
        }
    }

    /// The record for a parsed file: measured where the device gave no figure.
    ///
    /// Every figure, the device's or measured, is checked before it is rounded or converted: a
    /// time that is negative, not finite or longer than 7 days, a distance or climb past the limits,
    /// a start outside the years 0001-9999 refuses the file (`impossible`), and the record is then
    /// checked against the limits every door shares (`EventRules.recordProblem`), so a file can
    /// never store what `import` of an export would refuse.
    public static func fields(_ parsed: ParsedActivity, format: String, sha256: String, name: String?, category: String?) throws(ActivityFileProblem) -> RecordFields {
        try record(parsed, format: format, sha256: sha256, name: name, category: category, part: nil).fields
    }

    /// One record of a file (`part` says which when the file holds several), with the efforts
    /// left out for beating the world record.
    ///
    /// `category` overrides the sport's (a record's own category when it is read again); a leg's
    /// name is the file's (or the CSV's) with the leg's sport: `Race: Swimming`. A day keeps its
    /// track's name, or the CSV's with the day: `Alps (day 2 of 3)`.
    public static func record(_ parsed: ParsedActivity, format: String, sha256: String, name: String?, category: String?, part: FilePart?) throws(ActivityFileProblem) -> FileRecord {
        let category = category ?? SportCategory.category(parsed.sport)
        let profile = TrackGeometry.profile(parsed.points, category: category)
        let hasTrack = profile.meters.count >= 2
        guard let start = parsed.deviceStart ?? (hasTrack ? profile.start : nil) else { throw .noTimestamps }
        let elapsed = parsed.deviceElapsedSeconds ?? (hasTrack ? profile.elapsed : 0)
        let seconds = try wholeSeconds(elapsed, "elapsed time")
        guard seconds > 0 else { throw .noTimestamps }
        // Moving time is never longer than elapsed (a TCX's laps may add up to a second more than its points span).
        let moving = min(try wholeSeconds(parsed.deviceTimerSeconds ?? (hasTrack ? profile.movingSeconds : elapsed), "moving time"), seconds)
        let distance = try measure(parsed.deviceDistanceMeters ?? (hasTrack ? profile.distance : nil), "distance", max: Validation.maxDistanceMeters)
        let gain = try measure(parsed.deviceAscentMeters ?? (profile.hasElevation ? profile.elevationGain : nil), "total ascent", max: Validation.maxElevationGainMeters)
        // Nothing faster than the world record is a best effort (a GPS error, a ride recorded as a run): left out, and said.
        let found = hasTrack ? BestEfforts.find(in: profile, targets: BestEfforts.distances(category: category)) : []
        let efforts = found.filter { !BestEfforts.beatsWorldRecord($0, category: category) }
        let dropped = found.filter { BestEfforts.beatsWorldRecord($0, category: category) }
        let title = partName(parsed.name, given: name, category: category, part: part)
        let track = TrackSummary(
            sha256: sha256, format: format, movingSeconds: moving, elevationGainMeters: gain, bestEfforts: efforts,
            sensors: SensorAnalysis.summary(parsed.samples), analysisVersion: SensorAnalysis.version, part: part
        )
        let fields = RecordFields(name: title, category: category, durationSeconds: seconds, distanceMeters: distance, date: start, source: .import, track: track)
        if let reason = EventRules.recordProblem(fields) { throw .impossible(reason) }
        return FileRecord(fields: fields, dropped: dropped)
    }

    /// The record's name: the CSV's or the file's, with the leg's sport or the day when the file is split.
    static func partName(_ own: String?, given: String?, category: String, part: FilePart?) -> String {
        let valid = { (text: String?) in text.flatMap { try? Validation.name($0) } }
        guard let part else { return valid(given ?? own) ?? defaultName(category) }
        switch part.kind {
        case .leg:
            let base = valid(given ?? own) ?? "Multisport"
            return valid("\(base): \(defaultName(category))") ?? defaultName(category)
        case .day:
            if let given = valid(given) { return valid("\(given) (day \(part.index) of \(part.count))") ?? given }
            return valid(own) ?? "\(defaultName(category)) (day \(part.index) of \(part.count))"
        }
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

/// What `ActivityFile.read` found in one file.
public struct FileReading: Sendable {
    /// One record, or one per leg or day, in time order.
    public var records: [FileRecord]
    /// The file was cut short; this is what it held.
    public var truncated: Bool
}

/// One record a file becomes.
public struct FileRecord: Sendable {
    public var fields: RecordFields
    /// Stretches faster than the world record for their distance, left out of the best efforts.
    public var dropped: [TrackEffort]

    /// The record's stream: the file's hash for the file's first (or only) record, the hash and
    /// the part's index for the others, so importing the file again finds each one present.
    public var stream: String {
        ImportedRecord.stream(sha256: fields.track?.sha256 ?? "", part: fields.track?.part?.index ?? 1)
    }
}
