import TallyDomain
import TallyEssentials

/// Lengths of time on todos in words a person reads: `40s`, `25m`, `2h 05m`.
enum TimeText {
    static func length(_ ms: Int64) -> String {
        let seconds = max(ms, 0) / 1000
        if seconds < 60 { return "\(seconds)s" }
        let minutes = seconds / 60
        if minutes < 60 { return "\(minutes)m" }
        let hours = minutes / 60
        let rest = minutes % 60
        return "\(hours)h \(rest < 10 ? "0" : "")\(rest)m"
    }

    /// The rows `show` prints for a todo's time: the total, then every interval.
    static func intervalLines(_ todo: Todo, now: Int64, zone: Zone, catalog: Catalog) -> [String] {
        guard !todo.intervals.isEmpty else { return [] }
        var lines = [catalog.plural(.timeTotalLine, count: todo.intervals.count, ["total": length(todo.timeSpent(now: now))])]
        for interval in todo.intervals {
            let start = Timestamp.formatLocal(interval.start, in: zone, withTime: true)
            if let end = interval.end {
                lines.append(catalog.text(.timeIntervalLine, ["start": start, "end": Timestamp.formatLocal(end, in: zone, withTime: true), "length": length(end - interval.start)]))
            } else {
                lines.append(catalog.text(.timeRunningLine, ["start": start, "length": length(interval.duration(now: now))]))
            }
        }
        return lines
    }
}
