/// A one-line progress bar on standard error for long work (import, rebuild).
///
/// It draws only when standard error is a terminal and `--json` is off, so pipes, logs
/// and programs never see it. It redraws when the shown percentage changes (and, with a
/// rate, at most every quarter second otherwise), and `finish()` erases the line so the
/// command's own output starts on a clean line.
final class ProgressBar {
    let total: Int
    let label: String
    let enabled: Bool
    private let console: Console
    private let catalog: Catalog
    private let unicode: Bool
    private let width: Int
    private let showsRate: Bool
    private let countText: (Int) -> String
    private let clock = ContinuousClock()
    private let start: ContinuousClock.Instant
    private var lastDraw: ContinuousClock.Instant?
    private var shownPercent = -1

    /// A bar for `total` units; with `showsRate`, units per second and the time left follow the counts.
    /// `countText` writes the done and total counts (plain numbers unless given, byte sizes for files).
    init(total: Int, label: String, context: CLIContext, showsRate: Bool = false, countText: @escaping (Int) -> String = { String($0) }) {
        self.countText = countText
        self.total = total
        self.label = label
        self.console = context.console
        self.catalog = context.catalog
        self.unicode = context.settings.unicode
        self.width = context.settings.width ?? 80
        self.showsRate = showsRate
        self.enabled = context.console.stderrIsTerminal && !context.json && total > 0
        start = clock.now
    }

    /// Shows that `done` of `total` units are finished.
    func update(_ done: Int) {
        guard enabled else { return }
        let percent = Self.percent(done, of: total)
        let now = clock.now
        let due = showsRate && (lastDraw.map { now - $0 >= .milliseconds(250) } ?? true)
        guard percent != shownPercent || due else { return }
        shownPercent = percent
        lastDraw = now
        var suffix = ""
        if showsRate {
            let elapsed = Self.seconds(now - start)
            let rate = elapsed > 0 ? Double(done) / elapsed : 0
            let eta = rate > 0 ? String(Int((Double(total - done) / rate).rounded(.up))) : catalog.text(.rebuildEtaUnknown)
            suffix = "  " + catalog.text(.rebuildProgress, ["rate": String(Int(rate)), "eta": eta])
        }
        let line = Self.line(done: done, total: total, label: label, width: width - TextWidth.of(suffix), unicode: unicode, countText: countText)
        console.errorRaw("\r" + line + suffix + "\u{1B}[K")
    }

    /// Erases the bar.
    func finish() {
        guard enabled, shownPercent >= 0 else { return }
        console.errorRaw("\r\u{1B}[K")
        shownPercent = -1
    }

    /// `label [████░░░░]  50%  5/10`, one column narrower than `width` so the cursor never wraps; `#` and `-` when not UTF-8.
    static func line(done: Int, total: Int, label: String, width: Int, unicode: Bool, countText: (Int) -> String = { String($0) }) -> String {
        let done = min(max(done, 0), total)
        let percent = percent(done, of: total)
        let counts = "\(countText(done))/\(countText(total))"
        let percentText = String(repeating: " ", count: 3 - String(percent).count) + "\(percent)%"
        let fixed = TextWidth.of(label) + " [] ".count + percentText.count + 2 + counts.count
        let barWidth = max(min(width - fixed - 1, 40), 5)
        let filled = total == 0 ? 0 : barWidth * done / total
        let (full, empty) = unicode ? ("█", "░") : ("#", "-")
        let bar = String(repeating: full, count: filled) + String(repeating: empty, count: barWidth - filled)
        return "\(label) [\(bar)] \(percentText)  \(counts)"
    }

    /// A `Duration` in seconds.
    static func seconds(_ duration: Duration) -> Double {
        let (seconds, attoseconds) = duration.components
        return Double(seconds) + Double(attoseconds) / 1e18
    }

    private static func percent(_ done: Int, of total: Int) -> Int {
        total == 0 ? 100 : min(max(done, 0), total) * 100 / total
    }
}
