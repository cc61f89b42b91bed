/// Horizontal bars for the terminal: Unicode eighth blocks on a UTF-8 terminal, `#` otherwise.
struct BarChart {
    let unicode: Bool

    private static let eighths = ["", "▏", "▎", "▍", "▌", "▋", "▊", "▉"]

    /// A bar `value / maximum` of `width` columns long; a non-zero value always shows at least a sliver.
    func bar(_ value: Double, maximum: Double, width: Int) -> String {
        guard maximum > 0, value > 0, width > 0 else { return "" }
        let fraction = min(value / maximum, 1)
        if unicode {
            let units = max(1, Int((fraction * Double(width * 8)).rounded()))
            return String(repeating: "█", count: units / 8) + Self.eighths[units % 8]
        }
        let columns = max(1, Int((fraction * Double(width)).rounded()))
        return String(repeating: "#", count: columns)
    }
}
