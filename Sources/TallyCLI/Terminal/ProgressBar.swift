/// A one-line progress bar on standard error for long work (import, rebuild).
///
/// It draws only when standard error is a terminal and `--json` is off, so pipes, logs
/// and programs never see it. It redraws only when the shown percentage changes, and
/// `finish()` erases the line so the command's own output starts on a clean line.
final class ProgressBar {
    let total: Int
    let label: String
    let enabled: Bool
    private let console: Console
    private let unicode: Bool
    private let width: Int
    private var shownPercent = -1

    init(total: Int, label: String, context: CLIContext) {
        self.total = total
        self.label = label
        self.console = context.console
        self.unicode = context.settings.unicode
        self.width = context.settings.width ?? 80
        self.enabled = context.console.stderrIsTerminal && !context.json && total > 0
    }

    /// Shows that `done` of `total` units are finished.
    func update(_ done: Int) {
        guard enabled else { return }
        let percent = Self.percent(done, of: total)
        guard percent != shownPercent else { return }
        shownPercent = percent
        console.errorRaw("\r" + Self.line(done: done, total: total, label: label, width: width, unicode: unicode) + "\u{1B}[K")
    }

    /// Erases the bar.
    func finish() {
        guard enabled, shownPercent >= 0 else { return }
        console.errorRaw("\r\u{1B}[K")
        shownPercent = -1
    }

    /// `label [████░░░░]  50%  5/10`, one column narrower than `width` so the cursor never wraps; `#` and `-` when not UTF-8.
    static func line(done: Int, total: Int, label: String, width: Int, unicode: Bool) -> String {
        let done = min(max(done, 0), total)
        let percent = percent(done, of: total)
        let counts = "\(done)/\(total)"
        let percentText = String(repeating: " ", count: 3 - String(percent).count) + "\(percent)%"
        let fixed = TextWidth.of(label) + " [] ".count + percentText.count + 2 + counts.count
        let barWidth = max(min(width - fixed - 1, 40), 5)
        let filled = total == 0 ? 0 : barWidth * done / total
        let (full, empty) = unicode ? ("█", "░") : ("#", "-")
        let bar = String(repeating: full, count: filled) + String(repeating: empty, count: barWidth - filled)
        return "\(label) [\(bar)] \(percentText)  \(counts)"
    }

    private static func percent(_ done: Int, of total: Int) -> Int {
        total == 0 ? 100 : min(max(done, 0), total) * 100 / total
    }
}
