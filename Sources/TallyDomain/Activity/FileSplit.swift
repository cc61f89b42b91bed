/// Splits a file that holds several activities into one parsed activity per record: the legs of a
/// multisport FIT file (one per `session`), the days of a GPX file with tracks on different days.
/// A file of one activity is returned whole, without a part. Documented in docs/guide/activities.md.
public enum FileSplit {
    /// A GPX track begins a new record when it starts at least this long (ms) after the last
    /// timed point before it: 6 hours, a night or a separate outing. Time alone decides (no time
    /// zone), so an import and a later `record reanalyze` anywhere split a file the same way.
    public static let dayGap: Int64 = 6 * 3_600_000

    /// The records `parsed` becomes, in time order, each with its place in the file (nil when one).
    ///
    /// A file that would become more than `FilePart.maxCount` records is `impossible`.
    /// - Complexity: O(n log k) for n points and samples and k sessions or tracks.
    public static func parts(_ parsed: ParsedActivity) throws(ActivityFileProblem) -> [(activity: ParsedActivity, part: FilePart?)] {
        if parsed.sessions.count >= 2 { return try legs(parsed) }
        if parsed.tracks.count >= 2 { return try days(parsed) }
        return [(parsed, nil)]
    }

    // MARK: Multisport legs

    /// One leg per FIT session that has a start time, in order of start. A leg holds the points,
    /// samples and laps from its start to the next leg's start (the first leg also what comes
    /// before it), and the session's own figures. A session of sport multisport (18) beside
    /// others is the device's summary of them and left out; a session with no time and no points
    /// (nothing happened) is left out too.
    static func legs(_ parsed: ParsedActivity) throws(ActivityFileProblem) -> [(activity: ParsedActivity, part: FilePart?)] {
        var sessions = parsed.sessions.filter { $0.start != nil }
        let legs = sessions.filter { !SportCategory.isMultisportSummary($0.sport) }
        if legs.count >= 2 { sessions = legs }
        // Stable: two sessions of the same start keep their file order.
        sessions = sessions.enumerated().sorted { ($0.element.start ?? 0, $0.offset) < ($1.element.start ?? 0, $1.offset) }.map(\.element)
        guard sessions.count >= 2 else { return [(parsed, nil)] }
        // The legs of one activity last at most 7 days together (checked before they are added up past it).
        var total = 0.0
        for session in sessions {
            guard let seconds = session.elapsedSeconds else { continue }
            total += seconds.isFinite ? max(seconds, 0) : .infinity
            guard total <= Double(Validation.maxDurationSeconds) else {
                throw .impossible("its sessions last \(total.isFinite ? String(Int(total)) : "endless") s together, longer than 7 days")
            }
        }
        let starts = sessions.map { $0.start ?? 0 }
        var pieces = sessions.map { session in
            var leg = ParsedActivity(
                sport: session.sport, name: parsed.name, deviceStart: session.start, deviceElapsedSeconds: session.elapsedSeconds,
                deviceTimerSeconds: session.timerSeconds, deviceDistanceMeters: session.distanceMeters, deviceAscentMeters: session.ascentMeters
            )
            leg.localClock = parsed.localClock
            leg.truncated = parsed.truncated
            return leg
        }
        var previous = 0
        for point in parsed.points {
            let index = point.time.map { piece(of: $0, starts: starts) } ?? previous
            previous = index
            pieces[index].points.append(point)
        }
        for sample in parsed.samples { pieces[piece(of: sample.time, starts: starts)].samples.append(sample) }
        for lap in parsed.laps { pieces[piece(of: lap.start, starts: starts)].laps.append(lap) }
        // A leg starts at its session's start, or at its first point or sample when that is earlier.
        for index in pieces.indices {
            let first = [pieces[index].points.first { $0.time != nil }?.time, pieces[index].samples.first?.time].compactMap { $0 }.min()
            if let first, let start = pieces[index].deviceStart, first < start { pieces[index].deviceStart = first }
        }
        let kept = pieces.filter { ($0.deviceElapsedSeconds ?? 0) > 0 || $0.points.count(where: { $0.time != nil }) >= 2 }
        guard kept.count >= 2 else { return [(parsed, nil)] }
        return try numbered(kept, kind: .leg)
    }

    /// The index of the piece whose start is the last at or before `time` (the first piece for
    /// anything before every start).
    static func piece(of time: Int64, starts: [Int64]) -> Int {
        var low = 0, high = starts.count
        while low < high {
            let middle = (low + high) / 2
            if starts[middle] <= time { low = middle + 1 } else { high = middle }
        }
        return max(low - 1, 0)
    }

    // MARK: GPX days

    /// Consecutive tracks (in file order) form one record until a track starts at least `dayGap`
    /// after the last timed point before it: then it begins the next record. Tracks closer than
    /// that (a lunch stop, a watch that saved a new track after a break) stay one record; the way
    /// between them still adds no distance. Tracks out of time order never split.
    static func days(_ parsed: ParsedActivity) throws(ActivityFileProblem) -> [(activity: ParsedActivity, part: FilePart?)] {
        let tracks = parsed.tracks.filter { $0.firstPoint >= 0 && $0.firstPoint < parsed.points.count }
        guard tracks.count >= 2 else { return [(parsed, nil)] }
        // Group boundaries: the index in `tracks` where each group begins.
        var groups = [0]
        var lastTime: Int64?
        for (number, track) in tracks.enumerated() {
            let end = number + 1 < tracks.count ? tracks[number + 1].firstPoint : parsed.points.count
            let times = parsed.points[track.firstPoint..<end].lazy.compactMap(\.time)
            if number > 0, let previous = lastTime, let first = times.first {
                let (gap, overflow) = first.subtractingReportingOverflow(previous)
                if !overflow, gap >= dayGap { groups.append(number) }
            }
            if let last = times.max() { lastTime = max(lastTime ?? last, last) }
        }
        guard groups.count >= 2 else { return [(parsed, nil)] }
        var pieces: [ParsedActivity] = []
        var starts: [Int64] = []
        for (number, begin) in groups.enumerated() {
            let track = tracks[begin]
            let from = track.firstPoint
            let to = number + 1 < groups.count ? tracks[groups[number + 1]].firstPoint : parsed.points.count
            var piece = ParsedActivity(sport: track.sport ?? parsed.sport, name: track.name ?? parsed.name, points: Array(parsed.points[from..<to]))
            if !piece.points.isEmpty { piece.points[0].startsSegment = false }
            piece.localClock = parsed.localClock
            pieces.append(piece)
            starts.append(piece.points.lazy.compactMap(\.time).first ?? starts.last ?? .min)
        }
        for sample in parsed.samples { pieces[piece(of: sample.time, starts: starts)].samples.append(sample) }
        return try numbered(pieces, kind: .day)
    }

    /// The pieces with their parts; more than `FilePart.maxCount` is impossible.
    private static func numbered(_ pieces: [ParsedActivity], kind: FilePart.Kind) throws(ActivityFileProblem) -> [(activity: ParsedActivity, part: FilePart?)] {
        guard pieces.count <= FilePart.maxCount else {
            let what = kind == .leg ? "sessions (legs)" : "days of tracks"
            throw .impossible("it holds \(pieces.count) \(what); at most \(FilePart.maxCount) records come from one file")
        }
        return pieces.enumerated().map { ($0.element, FilePart(index: $0.offset + 1, count: pieces.count, kind: kind)) }
    }
}
