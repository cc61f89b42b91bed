import TallyDomain

/// Pieces every SVG chart of a report shares: the opening tag with its title and description,
/// the category fills (a colour and a pattern each, so categories differ without colour too),
/// and short text helpers. Everything from data goes through `Markup.escape`.
struct SVGChart {
    /// A prefix that keeps this chart's ids apart from the other charts' on the same page.
    let id: String
    let width: Double
    let height: Double

    /// `<svg ...><title/><desc/>`: `role="img"` with the title and description as its name, so a screen
    /// reader says what the chart shows.
    func open(title: String, desc: String) -> String {
        var text = "<svg xmlns=\"http://www.w3.org/2000/svg\" id=\"\(id)\" class=\"chart\" role=\"img\" aria-labelledby=\"\(id)-t \(id)-d\" "
        text += "viewBox=\"0 0 \(Markup.number(width)) \(Markup.number(height))\" width=\"\(Markup.number(width))\" height=\"\(Markup.number(height))\">"
        text += "<title id=\"\(id)-t\">\(Markup.escape(title))</title><desc id=\"\(id)-d\">\(Markup.escape(desc))</desc>"
        return text
    }

    static let close = "</svg>"

    /// How many categories get a fill of their own; later ones reuse them (the labels still say which).
    static let fillCount = 8

    /// The fill of the category at `index` in a chart with this id prefix.
    func fill(_ index: Int) -> String { "url(#\(id)-p\(index % Self.fillCount))" }

    /// One `<pattern>` per category fill: colour `c0`... and a texture (plain, stripes, dots, lines,
    /// cross-hatch, ...), so a printout in grey or a reader who cannot tell colours apart still can.
    func patterns(_ count: Int) -> String {
        var text = "<defs>"
        for index in 0..<min(count, Self.fillCount) {
            text += "<pattern id=\"\(id)-p\(index)\" patternUnits=\"userSpaceOnUse\" width=\"6\" height=\"6\">"
            text += "<rect class=\"c\(index)\" width=\"6\" height=\"6\"/>"
            switch index {
            case 1: text += "<path class=\"tx\" d=\"M-1 1L1 -1M0 6L6 0M5 7L7 5\"/>"
            case 2: text += "<circle class=\"td\" cx=\"3\" cy=\"3\" r=\"1.2\"/>"
            case 3: text += "<path class=\"tx\" d=\"M0 3H6\"/>"
            case 4: text += "<path class=\"tx\" d=\"M0 0L6 6M6 0L0 6\"/>"
            case 5: text += "<path class=\"tx\" d=\"M3 0V6\"/>"
            case 6: text += "<path class=\"tx\" d=\"M-1 5L1 7M0 0L6 6M5 -1L7 1\"/>"
            case 7: text += "<circle class=\"td\" cx=\"1.5\" cy=\"1.5\" r=\"1\"/><circle class=\"td\" cx=\"4.5\" cy=\"4.5\" r=\"1\"/>"
            default: break
            }
            text += "</pattern>"
        }
        return text + "</defs>"
    }

    /// A `<text>` at a point; `anchor` is `start`, `middle` or `end`.
    static func label(_ text: String, x: Double, y: Double, anchor: String = "start", className: String = "lbl") -> String {
        "<text class=\"\(className)\" x=\"\(Markup.number(x))\" y=\"\(Markup.number(y))\" text-anchor=\"\(anchor)\">\(Markup.escape(text))</text>"
    }

    /// A rectangle with an optional fill and a tooltip (`<title>`, read out by screen readers too).
    static func rect(x: Double, y: Double, width: Double, height: Double, fill: String? = nil, className: String? = nil, opacity: Double? = nil, tip: String? = nil) -> String {
        var text = "<rect x=\"\(Markup.number(x))\" y=\"\(Markup.number(y))\" width=\"\(Markup.number(width))\" height=\"\(Markup.number(height))\""
        if let className { text += " class=\"\(className)\"" }
        if let fill { text += " fill=\"\(fill)\"" }
        if let opacity { text += " fill-opacity=\"\(Markup.number(opacity))\"" }
        guard let tip else { return text + "/>" }
        return text + "><title>\(Markup.escape(tip))</title></rect>"
    }

    /// A row of swatches naming each category's fill, wrapped to `width`; its height is `legendHeight(...)`.
    func legend(_ categories: [String], x: Double, y: Double, width: Double) -> String {
        var text = ""
        for (index, item) in Self.legendLayout(categories, width: width).enumerated() {
            let left = x + item.x, top = y + item.y
            text += Self.rect(x: left, y: top, width: 10, height: 10, fill: fill(index))
            text += Self.label(categories[index], x: left + 14, y: top + 9)
        }
        return text
    }

    /// Where each legend entry goes: entries about 6.5 units a character wide, rows 16 apart.
    static func legendLayout(_ categories: [String], width: Double) -> [(x: Double, y: Double)] {
        var x = 0.0, y = 0.0
        var result: [(x: Double, y: Double)] = []
        for name in categories {
            let entry = 24 + 6.5 * Double(name.count)
            if x > 0, x + entry > width {
                x = 0
                y += 16
            }
            result.append((x, y))
            x += entry
        }
        return result
    }

    static func legendHeight(_ categories: [String], width: Double) -> Double {
        (legendLayout(categories, width: width).last?.y ?? -16) + 20
    }

    /// An axis label for a bucket: `W07` for a week, the whole `2026-03` for a month.
    static func bucketLabel(_ label: String) -> String {
        label.contains("-W") ? String(label.suffix(3)) : label
    }

    static let monthNames = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]

    /// `3 h 20 min`, `45 min`: hours on an axis or in a summary.
    static func hours(_ seconds: Int) -> String {
        let minutes = (seconds + 30) / 60
        return minutes >= 60 ? "\(minutes / 60) h \(minutes % 60) min" : "\(minutes) min"
    }
}
