import Foundation

/// The benchmark table, in Markdown.
struct Report {
    struct Row {
        var figure: String
        var target: String
        var measured: String
        var pass: Bool
    }

    var profile: Profile
    var rows: [Row]

    /// The table with a header line naming the profile.
    func markdown() -> String {
        var lines = [
            "Profile: \(profile.name); \(ProcessInfo.processInfo.activeProcessorCount) cores; medians of \(profile.runs) process runs and \(profile.heavyRuns) bulk runs.",
            "",
            "| figure | target | measured | |",
            "|---|---|---|---|",
        ]
        for row in rows {
            let verdict = profile.judged ? (row.pass ? "met" : "**missed**") : "(sizes reduced)"
            lines.append("| \(row.figure) | \(row.target) | \(row.measured) | \(verdict) |")
        }
        return lines.joined(separator: "\n")
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
