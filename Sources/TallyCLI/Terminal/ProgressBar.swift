/// A one-line progress display on standard error, redrawn in place at most ten times a second.
///
/// Only for terminals: callers create one when stderr is a terminal and skip it otherwise.
final class ProgressBar {
    private let console: Console
    private let catalog: Catalog
    private let unicode: Bool
    private let clock = ContinuousClock()
    private let start: ContinuousClock.Instant
    private var lastDraw: ContinuousClock.Instant?
    private var drawn = false

    static let barWidth = 24

    init(console: Console, catalog: Catalog, unicode: Bool) {
        self.console = console
        self.catalog = catalog
        self.unicode = unicode
        start = clock.now
    }

    /// Redraws the line for `done` of `total` units, unless it was drawn less than 100 ms ago.
    func update(done: Int64, total: Int64) {
        let now = clock.now
        if let lastDraw, now - lastDraw < .milliseconds(100), done < total { return }
        lastDraw = now
        let elapsed = Self.seconds(now - start)
        let rate = elapsed > 0 ? Double(done) / elapsed : 0
        let fraction = total > 0 ? min(1, Double(done) / Double(total)) : 1
        let filled = Int(fraction * Double(Self.barWidth))
        let bar = String(repeating: unicode ? "█" : "#", count: filled)
            + String(repeating: unicode ? "░" : ".", count: Self.barWidth - filled)
        let eta = rate > 0 ? String(Int((Double(total - done) / rate).rounded(.up))) : catalog.text(.rebuildEtaUnknown)
        let line = catalog.text(.rebuildProgress, [
            "bar": bar, "percent": String(Int(fraction * 100)), "done": String(done), "total": String(total),
            "rate": String(Int(rate)), "eta": eta,
        ])
        console.errorRaw("\r\u{1B}[K" + line)
        drawn = true
    }

    /// Clears the line so the next output starts on a clean one.
    func finish() {
        if drawn { console.errorRaw("\r\u{1B}[K") }
    }

    /// A `Duration` in seconds.
    static func seconds(_ duration: Duration) -> Double {
        let (seconds, attoseconds) = duration.components
        return Double(seconds) + Double(attoseconds) / 1e18
    }
}
