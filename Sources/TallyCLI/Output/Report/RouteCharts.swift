import TallyEngine
import TallyDomain

/// Routes drawn from kept track files: one route, its elevation profile, and every route overlaid.
enum RouteCharts {
    /// One activity's route, north up (Web-Mercator), with its start and finish marked.
    static func route(_ line: RouteLine, id: String, name: String, size: Double = 260) -> String {
        let chart = SVGChart(id: id, width: size, height: size)
        let distance = line.meters.last ?? 0
        var svg = chart.open(title: "Route of \(name)", desc: "The route of \(name): \(Distance.format(distance)) over \(line.count) points, north up; a circle marks the start, a square the finish.")
        svg += SVGChart.rect(x: 0, y: 0, width: size, height: size, className: "frame")
        guard let projection = RouteProjection(fitting: [line], width: size, height: size, padding: 12) else {
            return svg + SVGChart.label("no positions", x: size / 2, y: size / 2, anchor: "middle") + SVGChart.close
        }
        let points = projection.project(line)
        svg += "<path class=\"route\" d=\"\(SVGPath.line(points))\"/>"
        if let first = points.first, let last = points.last {
            svg += "<circle class=\"start\" cx=\"\(Markup.number(first.x))\" cy=\"\(Markup.number(first.y))\" r=\"4\"><title>start</title></circle>"
            svg += SVGChart.rect(x: last.x - 3.5, y: last.y - 3.5, width: 7, height: 7, className: "finish", tip: "finish")
        }
        return svg + SVGChart.close
    }

    /// Height against distance, with the lowest and highest point and the length written on the axes.
    /// Nil when the track has no heights.
    static func elevation(_ line: RouteLine, id: String, name: String, width: Double = 260, height: Double = 100) -> String? {
        let samples = (0..<line.count).compactMap { index in line.elevations[index].map { (line.meters[index], $0) } }
        guard samples.count >= 2, let low = samples.map(\.1).min(), let high = samples.map(\.1).max() else { return nil }
        let left = 48.0, bottom = 22.0, top = 8.0
        let chart = SVGChart(id: id, width: width, height: height)
        let length = samples.last!.0
        let x = LinearScale(domain: 0 ... max(length, 1), range: left ... width - 8)
        let y = LinearScale(domain: low ... max(high, low + 10), range: top ... height - bottom, flipped: true)
        let points = samples.map { ChartPoint(x: x($0.0), y: y($0.1)) }
        let desc = "Elevation of \(name) along \(Distance.format(length)): from \(Int(low.rounded())) m to \(Int(high.rounded())) m."
        var svg = chart.open(title: "Elevation profile of \(name)", desc: desc)
        svg += "<path class=\"grid\" d=\"M\(Markup.number(left)) \(Markup.number(height - bottom))H\(Markup.number(width - 8))\"/>"
        svg += "<path class=\"elev\" d=\"\(SVGPath.area(points, baseline: height - bottom))\"/>"
        svg += "<path class=\"elevline\" d=\"\(SVGPath.line(points))\"/>"
        svg += SVGChart.label("\(Int(high.rounded())) m", x: left - 4, y: y(high) + 4, anchor: "end")
        if y(low) - y(high) >= 12 { svg += SVGChart.label("\(Int(low.rounded())) m", x: left - 4, y: y(low), anchor: "end") }
        svg += SVGChart.label("0", x: left, y: height - 6)
        svg += SVGChart.label(Distance.format(length), x: width - 8, y: height - 6, anchor: "end")
        return svg + SVGChart.close
    }

    /// The routes around where most start (`RouteArea.busiest`) on one projection, drawn faintly:
    /// where routes overlap the lines add up to a darker trace, a heatmap of where one goes most.
    static func overlay(_ lines: [(name: String, line: RouteLine)], size: Double = 480) -> String {
        let chart = SVGChart(id: "overlay", width: size, height: size)
        let total = lines.reduce(0.0) { $0 + ($1.line.meters.last ?? 0) }
        var svg = chart.open(title: "Routes overlaid", desc: "\(lines.count) routes, \(Distance.format(total)) in all, drawn on one map (Web-Mercator, north up, no background map); darker traces are used more often.")
        svg += SVGChart.rect(x: 0, y: 0, width: size, height: size, className: "frame")
        guard let projection = RouteProjection(fitting: lines.map(\.line), width: size, height: size, padding: 14) else {
            return svg + SVGChart.close
        }
        for entry in lines {
            svg += "<path class=\"heat\" d=\"\(SVGPath.line(projection.project(entry.line), maxPoints: 300))\"><title>\(Markup.escape(entry.name))</title></path>"
        }
        return svg + SVGChart.close
    }
}
