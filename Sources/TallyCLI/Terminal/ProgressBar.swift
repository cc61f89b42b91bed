import TallyEssentials

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
            // The first moments say nothing about the rate (a few events in microseconds), so it is
            // only shown once it has been measured over `rateWarmUp`.
            let elapsed = Self.seconds(now - start)
            let rate = elapsed >= Self.rateWarmUp ? Double(done) / elapsed : 0
            let unknown = catalog.text(.rebuildEtaUnknown)
            let eta = rate > 0 ? String(Int((Double(total - done) / rate).rounded(.up))) : unknown
            suffix = catalog.text(.rebuildProgress, ["rate": rate > 0 ? String(Int(rate)) : unknown, "eta": eta])
        }
        // Asked at every redraw, so a terminal made narrower meanwhile still gets one line.
        let width = TerminalWidth.ofTerminal(2) ?? width
        let line = Self.line(done: done, total: total, label: label, width: width, unicode: unicode, suffix: suffix, countText: countText)
        console.errorRaw("\r" + line + "\u{1B}[K")
    }

    /// Erases the bar.
    func finish() {
        guard enabled, shownPercent >= 0 else { return }
        console.errorRaw("\r\u{1B}[K")
        shownPercent = -1
    }

    /// Seconds of work before a rate is shown.
    static let rateWarmUp = 0.5

    /// `label [████░░░░]  50%  5/10  suffix`, at least one column narrower than `width` so the cursor
    /// never wraps (a wrapped bar cannot be redrawn in place); `#` and `-` when not UTF-8.
    ///
    /// When it does not fit with a bar of 5, the suffix goes first, then the counts, then the label;
    /// the bar is at most 40 wide.
    static func line(done: Int, total: Int, label: String, width: Int, unicode: Bool, suffix: String = "", countText: (Int) -> String = { String($0) }) -> String {
        let done = min(max(done, 0), total)
        let percent = percent(done, of: total)
        let counts = "\(countText(done))/\(countText(total))"
        let percentText = String(repeating: " ", count: 3 - String(percent).count) + "\(percent)%"
        let available = width - 1
        var showLabel = !label.isEmpty
        var showCounts = true
        var showSuffix = !suffix.isEmpty
        func fixed() -> Int {
            (showLabel ? TextWidth.of(label) + 1 : 0) + "[] ".count + percentText.count
                + (showCounts ? 2 + counts.count : 0) + (showSuffix ? 2 + TextWidth.of(suffix) : 0)
        }
        let minimumBar = 5
        if fixed() + minimumBar > available { showSuffix = false }
        if fixed() + minimumBar > available { showCounts = false }
        if fixed() + minimumBar > available { showLabel = false }
        let barWidth = max(min(available - fixed(), 40), 1)
        let filled = total == 0 ? 0 : barWidth * done / total
        let (full, empty) = unicode ? ("█", "░") : ("#", "-")
        let bar = String(repeating: full, count: filled) + String(repeating: empty, count: barWidth - filled)
        var line = (showLabel ? label + " " : "") + "[\(bar)] \(percentText)"
        if showCounts { line += "  " + counts }
        if showSuffix { line += "  " + suffix }
        return TextWidth.truncate(line, to: max(available, 1), ellipsis: "")
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
