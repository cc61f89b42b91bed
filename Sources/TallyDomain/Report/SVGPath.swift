
/// The `d` attribute of an SVG path through chart points.
public enum SVGPath {
    /// `M x y L x y ...` through `points`, at a tenth of a unit: consecutive points that round to
    /// the same place are written once, and when more than `maxPoints` are left, every k-th is kept
    /// (always the first and the last), so a day of 1 Hz GPS stays a few kilobytes. Empty for no points.
    /// - Complexity: O(n).
    public static func line(_ points: [ChartPoint], maxPoints: Int = 800) -> String {
        var kept: [(String, String)] = []
        kept.reserveCapacity(min(points.count, maxPoints * 2))
        for point in points {
            let pair = (Markup.number(point.x), Markup.number(point.y))
            if let last = kept.last, last == pair { continue }
            kept.append(pair)
        }
        if kept.count > max(2, maxPoints) {
            let stride = (kept.count + maxPoints - 2) / (maxPoints - 1)
            var thinned: [(String, String)] = []
            var index = 0
            while index < kept.count - 1 {
                thinned.append(kept[index])
                index += stride
            }
            thinned.append(kept[kept.count - 1])
            kept = thinned
        }
        var text = ""
        for (index, pair) in kept.enumerated() {
            text += (index == 0 ? "M" : (index == 1 ? " L" : " ")) + pair.0 + " " + pair.1
        }
        return text
    }

    /// A closed area under `points` down to the baseline `y` (for an elevation profile).
    public static func area(_ points: [ChartPoint], baseline: Double, maxPoints: Int = 800) -> String {
        guard let first = points.first, let last = points.last else { return "" }
        let line = line(points, maxPoints: maxPoints)
        return line + " L" + Markup.number(last.x) + " " + Markup.number(baseline) + " L" + Markup.number(first.x) + " " + Markup.number(baseline) + " Z"
    }
}
