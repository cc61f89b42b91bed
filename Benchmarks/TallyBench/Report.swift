import Foundation

/// The benchmark table, in Markdown.
struct Report {
    struct Row {
        var figure: String
        var target: String
        var measured: String
        var pass: Bool
        /// Whether the figure was left out of this run (`measured` says why); it is then neither met nor missed.
        var skipped = false
    }

    var profile: Profile
    var rows: [Row]
    /// The 1-minute load average when the run started (`/proc/loadavg`), to say in the heading how busy the machine was.
    var loadAtStart: Double?

    /// The table with a header line naming the profile and the machine's load.
    func markdown() -> String {
        var heading = "Profile: \(profile.name); \(ProcessInfo.processInfo.activeProcessorCount) cores; medians of \(profile.runs) process runs and \(profile.heavyRuns) bulk runs"
        if let loadAtStart, let loadAtEnd = Self.loadAverage() {
            heading += String(format: "; load average %.1f at the start and %.1f at the end of the run", loadAtStart, loadAtEnd)
            if max(loadAtStart, loadAtEnd) >= 1.5 { heading += " (a shared, loaded machine: read wall times against the other side of their row)" }
        }
        var lines = [heading + ".", "", "| figure | target | measured | |", "|---|---|---|---|"]
        for row in rows {
            let verdict: String
            if row.skipped {
                verdict = "not measured"
            } else if row.target == "—" {
                verdict = ""
            } else {
                verdict = profile.judged ? (row.pass ? "met" : "**missed**") : "(sizes reduced)"
            }
            lines.append("| \(row.figure) | \(row.target) | \(row.measured) | \(verdict) |")
        }
        return lines.joined(separator: "\n")
    }

    /// The 1-minute load average of the machine, or nil where `/proc/loadavg` does not exist.
    static func loadAverage() -> Double? {
        guard let text = try? String(contentsOfFile: "/proc/loadavg", encoding: .utf8) else { return nil }
        return text.split(separator: " ").first.flatMap { Double($0) }
    }

    /// The markers around the latest table in docs/performance.md.
    static let begin = "<!-- latest make bench: begin -->"
    static let end = "<!-- latest make bench: end -->"

    /// Replaces what stands between the markers in `path` with this run's date and table, so the
    /// document always shows one current table (older figures live in CHANGELOG.md). A file without
    /// both markers is left as it is, and that is an error.
    func replaceLatest(in path: String) throws {
        let text = try String(contentsOfFile: path, encoding: .utf8)
        guard let start = text.range(of: Self.begin), let stop = text.range(of: Self.end), start.upperBound <= stop.lowerBound else {
            throw BenchError("\(path) has no '\(Self.begin)' ... '\(Self.end)' section to replace")
        }
        let day = ISO8601DateFormatter.string(from: Date(), timeZone: TimeZone(identifier: "UTC")!, formatOptions: [.withFullDate])
        let command = profile.name == "full" ? "make bench" : "tally-bench --\(profile.name)"
        let section = "\nMeasured \(day), `\(command)`:\n\n" + markdown() + "\n\n"
        try (text[..<start.upperBound] + section + text[stop.lowerBound...]).write(toFile: path, atomically: true, encoding: .utf8)
    }

    /// Seconds as milliseconds with one decimal.
    static func ms(_ seconds: Double) -> String {
        String(format: "%.1f ms", seconds * 1000)
    }

    /// Bytes as decimal megabytes.
    static func megabytes(_ bytes: Int64) -> String {
        String(format: "%.1f MB", Double(bytes) / 1_000_000)
    }

    /// `10k`, `1M`, `2,000` style counts.
    static func count(_ value: Int) -> String {
        if value >= 1_000_000, value % 1_000_000 == 0 { return "\(value / 1_000_000)M" }
        if value >= 1000, value % 1000 == 0 { return "\(value / 1000)k" }
        return String(value)
    }
}

/// A benchmark run that cannot go on, with what to do about it.
struct BenchError: Error, CustomStringConvertible {
    var description: String

    init(_ description: String) {
        self.description = description
    }
}
