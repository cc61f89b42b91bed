import TallyEssentials
import TallyDomain

/// GPX 1.0 / 1.1 and Garmin TCX, read with `XMLReader` into a `ParsedActivity`.
public enum TrackXML {
    /// A GPX file: `trk/trkseg/trkpt` with `ele` and `time`; the name of the track (or of the metadata) and its `type`;
    /// heart rate and cadence of Garmin's `TrackPointExtension` (`hr`, `cad`) and power (`power`,
    /// `PowerInWatts`) in a point's extensions, whatever their namespace prefix.
    public static func gpx(_ bytes: [UInt8]) throws(ActivityFileProblem) -> ParsedActivity {
        var activity = ParsedActivity()
        var path: [String] = []
        var text = ""
        var point: TrackPoint?
        var metadataName: String?
        var sawGPX = false
        var sensors = PendingSample()
        var segmentStart = false
        try read(bytes) { event in
            switch event {
            case .start(let name, let attributes):
                if path.isEmpty {
                    guard name == "gpx" else { throw ActivityFileProblem.unknownFormat }
                    sawGPX = true
                }
                path.append(name)
                text = ""
                if name == "trkseg" { segmentStart = true }
                if name == "trk", activity.tracks.count < ParsedTrack.maxTracks {
                    activity.tracks.append(ParsedTrack(firstPoint: activity.points.count))
                }
                if name == "trkpt" {
                    guard let lat = attributes["lat"].flatMap(Double.init), let lon = attributes["lon"].flatMap(Double.init) else {
                        throw ActivityFileProblem.corrupt("a trkpt without a numeric lat and lon")
                    }
                    point = TrackPoint(time: nil, latitude: lat, longitude: lon, startsSegment: segmentStart && !activity.points.isEmpty)
                    segmentStart = false
                }
            case .text(let value):
                text += value
            case .end(let name):
                let parent = path.count >= 2 ? path[path.count - 2] : ""
                switch (parent, name) {
                case ("trkpt", "ele"): point?.elevation = Double(trimmed(text))
                case ("trkpt", "time"): point?.time = Timestamp.parse(trimmed(text))
                // A file of several tracks is named after its first.
                case ("trk", "name"):
                    if activity.name == nil { activity.name = trimmed(text) }
                    if !activity.tracks.isEmpty, !trimmed(text).isEmpty { activity.tracks[activity.tracks.count - 1].name = trimmed(text) }
                case ("metadata", "name"), ("gpx", "name"): metadataName = trimmed(text)
                case ("trk", "type"):
                    if activity.sport == nil { activity.sport = trimmed(text) }
                    if !activity.tracks.isEmpty { activity.tracks[activity.tracks.count - 1].sport = trimmed(text) }
                default: break
                }
                if point != nil, let channel = sensorChannel(name) {
                    sensors.set(channel, text: trimmed(text))
                }
                if name == "trkpt", let done = point {
                    activity.points.append(done)
                    if let time = done.time { sensors.flush(at: time, into: &activity) }
                    sensors = PendingSample()
                    point = nil
                }
                path.removeLast()
                text = ""
            }
        }
        guard sawGPX else { throw .unknownFormat }
        if activity.name?.isEmpty ?? true { activity.name = metadataName }
        // Routes and waypoints are plans, not activities.
        if activity.points.isEmpty { throw .notAnActivity }
        return activity
    }

    /// A TCX file: the first `Activity`, its `Sport`, laps' total time and distance, and trackpoints
    /// with their `HeartRateBpm`, `Cadence` and the `TPX` extension's `Watts` and `RunCadence`.
    ///
    /// When that first `Activity` is a leg of a `MultiSportSession` (`FirstSport`, then `NextSport`s
    /// each with an optional `Transition` and an `Activity`), every leg and transition of that
    /// session is read, each as a `ParsedSession` (its sport, its first lap's start, its laps' time
    /// and distance, the time to its last trackpoint), so `FileSplit` makes one record of each.
    public static func tcx(_ bytes: [UInt8]) throws(ActivityFileProblem) -> ParsedActivity {
        var activity = ParsedActivity()
        var path: [String] = []
        var text = ""
        var point: (time: Int64?, lat: Double?, lon: Double?, ele: Double?) = (nil, nil, nil, nil)
        var activities = 0, multisportSessions = 0
        // The depth of the Activity (or Transition) being read, when its content counts.
        var reading: Int?
        // The first Activity is a leg of the first MultiSportSession: read all its legs.
        var multisport = false
        var leg: TCXLeg?
        var timer = 0.0, distance = 0.0, laps = 0
        var first: Int64?, last: Int64?
        var sensors = PendingSample()
        func addLap(_ start: Int64?) {
            if leg != nil, leg?.start == nil { leg?.start = start }
            if let start, activity.laps.count < ParsedLap.maxLaps { activity.laps.append(ParsedLap(start: start)) }
        }
        try read(bytes) { event in
            switch event {
            case .start(let name, let attributes):
                if path.isEmpty, name != "TrainingCenterDatabase" { throw ActivityFileProblem.unknownFormat }
                let inSession = multisportSessions == 1 && path.contains("MultiSportSession")
                path.append(name)
                text = ""
                switch name {
                case "MultiSportSession":
                    multisportSessions += 1
                case "Activity":
                    activities += 1
                    if activities == 1 {
                        activity.sport = attributes["Sport"]
                        multisport = inSession
                    }
                    guard reading == nil, activities == 1 || (multisport && inSession) else { break }
                    reading = path.count
                    if multisport { leg = TCXLeg(sport: attributes["Sport"]) }
                case "Transition":
                    // A change of sport between two legs: itself a lap (StartTime, TotalTimeSeconds, DistanceMeters, Track).
                    guard reading == nil, multisport, inSession, path.count >= 2, path[path.count - 2] == "NextSport" else { break }
                    reading = path.count
                    leg = TCXLeg(sport: "transition")
                    addLap(attributes["StartTime"].flatMap { Timestamp.parse(trimmed($0)) })
                case "Lap":
                    if reading != nil { addLap(attributes["StartTime"].flatMap { Timestamp.parse(trimmed($0)) }) }
                case "Trackpoint":
                    point = (nil, nil, nil, nil)
                    sensors = PendingSample()
                default: break
                }
            case .text(let value):
                text += value
            case .end(let name):
                let parent = path.count >= 2 ? path[path.count - 2] : ""
                if reading != nil {
                    switch (parent, name) {
                    case ("Activity", "Id"):
                        let id = Timestamp.parse(trimmed(text))
                        if activities == 1, activity.deviceStart == nil { activity.deviceStart = id }
                        if leg != nil, leg?.id == nil { leg?.id = id }
                    case ("Lap", "TotalTimeSeconds"), ("Transition", "TotalTimeSeconds"):
                        if let value = Double(trimmed(text)) {
                            let seconds = try lapFigure(value, "TotalTimeSeconds", max: Double(Validation.maxDurationSeconds))
                            timer += seconds
                            laps += 1
                            leg?.add(seconds: seconds)
                            if !activity.laps.isEmpty { activity.laps[activity.laps.count - 1].timerSeconds = seconds }
                        }
                    case ("Lap", "DistanceMeters"), ("Transition", "DistanceMeters"):
                        if let value = Double(trimmed(text)) {
                            let meters = try lapFigure(value, "DistanceMeters", max: Validation.maxDistanceMeters)
                            distance += meters
                            leg?.add(meters: meters)
                            if !activity.laps.isEmpty { activity.laps[activity.laps.count - 1].distanceMeters = meters }
                        }
                    case ("Trackpoint", "Time"): point.time = Timestamp.parse(trimmed(text))
                    case ("Trackpoint", "AltitudeMeters"): point.ele = Double(trimmed(text))
                    case ("Position", "LatitudeDegrees"): point.lat = Double(trimmed(text))
                    case ("Position", "LongitudeDegrees"): point.lon = Double(trimmed(text))
                    case ("Activity", "Notes"): if activity.name == nil { activity.name = trimmed(text) }
                    default: break
                    }
                    if path.contains("Trackpoint"), name != "Trackpoint", let channel = tcxChannel(parent: parent, name) {
                        sensors.set(channel, text: trimmed(text))
                    }
                    if name == "Trackpoint" {
                        if let time = point.time { sensors.flush(at: time, into: &activity) }
                        if let time = point.time {
                            first = min(first ?? time, time)
                            last = max(last ?? time, time)
                            leg?.saw(time)
                        }
                        if let lat = point.lat, let lon = point.lon {
                            activity.points.append(TrackPoint(time: point.time, latitude: lat, longitude: lon, elevation: point.ele))
                        }
                    }
                    if path.count == reading {
                        reading = nil
                        if let done = leg, activity.sessions.count < ParsedSession.maxSessions { activity.sessions.append(done.session) }
                        leg = nil
                    }
                }
                path.removeLast()
                text = ""
            }
        }
        guard activities > 0 else { throw .notAnActivity }
        if laps > 0 { activity.deviceTimerSeconds = timer }
        if distance > 0 { activity.deviceDistanceMeters = distance }
        if let first, let last, last > first {
            let start = min(activity.deviceStart ?? first, first)
            activity.deviceStart = start
            activity.deviceElapsedSeconds = Double(last - start) / 1000
        }
        return activity
    }

    /// One leg (or transition) of a TCX `MultiSportSession` while it is read.
    struct TCXLeg {
        var sport: String?
        /// The first lap's `StartTime`, else the `Activity`'s `Id`.
        var start: Int64?
        var id: Int64?
        var timer = 0.0, distance = 0.0, laps = 0
        var first: Int64?, last: Int64?

        init(sport: String?) { self.sport = sport }

        mutating func add(seconds: Double) {
            timer += seconds
            laps += 1
        }

        mutating func add(meters: Double) { distance += meters }

        mutating func saw(_ time: Int64) {
            first = min(first ?? time, time)
            last = max(last ?? time, time)
        }

        /// The leg as a session: elapsed to its last trackpoint (else its laps' time), its laps' time and distance.
        var session: ParsedSession {
            let begin = start ?? id ?? first
            var elapsed: Double? = laps > 0 ? timer : nil
            if let begin, let first, let last {
                let from = min(begin, first)
                if last > from { elapsed = Double(last - from) / 1000 }
            }
            return ParsedSession(start: begin, sport: sport, elapsedSeconds: elapsed, timerSeconds: laps > 0 ? timer : nil, distanceMeters: distance > 0 ? distance : nil)
        }
    }

    /// A sensor value read inside one point, kept until the point's time is known.
    struct PendingSample {
        var heartRate: Int?
        var cadence: Int?
        var power: Int?

        /// Reads `text` as the channel's value; an implausible or unreadable one is a dropout (nil).
        mutating func set(_ channel: SensorChannel, text: String) {
            switch channel {
            case .heartRate: heartRate = SensorLimits.whole(text: text, SensorLimits.heartRate)
            case .cadence: cadence = SensorLimits.whole(text: text, SensorLimits.cadence)
            case .power: power = SensorLimits.whole(text: text, SensorLimits.power)
            }
        }

        /// Appends the sample at `time` when it holds a value (up to `SensorLimits.maxSamples`).
        func flush(at time: Int64, into activity: inout ParsedActivity) {
            let sample = SensorSample(time: time, heartRate: heartRate, cadence: cadence, power: power)
            if sample.hasValue, activity.samples.count < SensorLimits.maxSamples { activity.samples.append(sample) }
        }
    }

    enum SensorChannel { case heartRate, cadence, power }

    /// The name without its namespace prefix (`gpxtpx:hr` is `hr`).
    static func localName(_ name: String) -> Substring {
        guard let colon = name.lastIndex(of: ":") else { return Substring(name) }
        return name[name.index(after: colon)...]
    }

    /// The channel a GPX point's extension element holds, if any.
    static func sensorChannel(_ name: String) -> SensorChannel? {
        switch localName(name) {
        case "hr": .heartRate
        case "cad": .cadence
        case "power", "PowerInWatts": .power
        default: nil
        }
    }

    /// The channel a TCX trackpoint's element holds: `HeartRateBpm/Value`, `Cadence`, `TPX/Watts`, `TPX/RunCadence`.
    static func tcxChannel(parent: String, _ name: String) -> SensorChannel? {
        switch (localName(parent), localName(name)) {
        case ("HeartRateBpm", "Value"): .heartRate
        case ("Trackpoint", "Cadence"), ("TPX", "RunCadence"): .cadence
        case ("TPX", "Watts"): .power
        default: nil
        }
    }

    /// A lap's figure, known to be finite and between 0 and `max` before it is added up.
    private static func lapFigure(_ value: Double, _ name: String, max: Double) throws(ActivityFileProblem) -> Double {
        guard value.isFinite, value >= 0, value <= max else { throw .impossible("a lap's \(name) is \(value)") }
        return value
    }

    private static func read(_ bytes: [UInt8], _ handler: (XMLReader.Event) throws -> Void) throws(ActivityFileProblem) {
        do {
            try XMLReader.parse(bytes, handler)
        } catch let problem as ActivityFileProblem {
            throw problem
        } catch let failure as XMLReader.Failure {
            throw .corrupt(failure.description)
        } catch {
            throw .corrupt(ErrorWords.text(error))
        }
    }

    /// `text` without leading and trailing XML white space (space, tab, CR, LF).
    private static func trimmed(_ text: String) -> String {
        let utf8 = text.utf8
        let isSpace: (UInt8) -> Bool = { $0 == 0x20 || $0 == 0x09 || $0 == 0x0A || $0 == 0x0D }
        guard let first = utf8.firstIndex(where: { !isSpace($0) }), let last = utf8.lastIndex(where: { !isSpace($0) }) else { return "" }
        if first == utf8.startIndex, last == utf8.index(before: utf8.endIndex) { return text }
        return String(text[first...last])
    }
}
