import TallyEngine
import TallyDomain

/// The todo charts of a report: open against done over time, and done per week.
enum TodoCharts {
    /// Two lines over the period's days: open todos (solid) and done ones (dashed), each named at its end.
    static func burndown(_ report: TodoReport) -> String {
        let width = 640.0, height = 200.0, left = 40.0, right = 60.0, top = 10.0, bottom = 22.0
        let chart = SVGChart(id: "burndown", width: width, height: height)
        let maximum = Double(report.days.map { max($0.open, $0.done) }.max() ?? 0)
        let axis = LinearScale.niceAxis(maximum: maximum, ticks: 4)
        let x = LinearScale(domain: 0 ... Double(max(report.days.count - 1, 1)), range: left ... width - right)
        let y = LinearScale(domain: 0 ... axis.top, range: top ... height - bottom, flipped: true)
        var desc = "Open and done todos at the end of each day"
        if let first = report.days.first, let last = report.days.last {
            desc += " from \(first.date) (\(first.open) open, \(first.done) done) to \(last.date) (\(last.open) open, \(last.done) done)"
        }
        var svg = chart.open(title: "Open against done todos", desc: desc + ". The solid line is open todos, the dashed line done ones.")
        var tick = 0.0
        while tick <= axis.top + axis.step / 2 {
            svg += "<path class=\"grid\" d=\"M\(Markup.number(left)) \(Markup.number(y(tick)))H\(Markup.number(width - right))\"/>"
            svg += SVGChart.label(Markup.number(tick), x: left - 4, y: y(tick) + 3, anchor: "end")
            tick += axis.step
        }
        let open = report.days.enumerated().map { ChartPoint(x: x(Double($0.offset)), y: y(Double($0.element.open))) }
        let done = report.days.enumerated().map { ChartPoint(x: x(Double($0.offset)), y: y(Double($0.element.done))) }
        svg += "<path class=\"open\" d=\"\(SVGPath.line(open))\"/>"
        svg += "<path class=\"done\" d=\"\(SVGPath.line(done))\"/>"
        if let lastOpen = open.last, let lastDone = done.last, let day = report.days.last {
            let apart = abs(lastOpen.y - lastDone.y) < 12 ? 6.0 : 0
            svg += SVGChart.label("open \(day.open)", x: lastOpen.x + 4, y: lastOpen.y + 3 - apart)
            svg += SVGChart.label("done \(day.done)", x: lastDone.x + 4, y: lastDone.y + 3 + apart)
        }
        if let first = report.days.first, let last = report.days.last {
            svg += SVGChart.label(first.date.description, x: left, y: height - 6)
            svg += SVGChart.label(last.date.description, x: width - right, y: height - 6, anchor: "end")
        }
        return svg + SVGChart.close
    }

    /// Todos completed in each week (month for a long period), as bars with the count above each non-empty one.
    static func donePerBucket(_ report: TodoReport, weeks: [String]) -> String {
        let left = 30.0, top = 14.0, plotHeight = 100.0, bottom = 22.0
        let barStep = max(4.0, min(24.0, 600.0 / Double(max(weeks.count, 1))))
        let width = max(320, left + Double(weeks.count) * barStep + 8)
        let chart = SVGChart(id: "done", width: width, height: top + plotHeight + bottom)
        let maximum = Double(report.donePerBucket.max() ?? 0)
        let y = LinearScale(domain: 0 ... max(maximum, 1), range: top ... top + plotHeight, flipped: true)
        let total = report.donePerBucket.reduce(0, +)
        let unit = weeks.first?.contains("-W") ?? true ? "week" : "month"
        var svg = chart.open(title: "Todos done per \(unit)", desc: "\(total) todos completed in \(weeks.count) \(unit)s, \(weeks.first ?? "") to \(weeks.last ?? "").")
        for (index, count) in report.donePerBucket.enumerated() where index < weeks.count {
            let x = left + Double(index) * barStep + 1
            if count > 0 {
                svg += SVGChart.rect(x: x, y: y(Double(count)), width: barStep - 2, height: top + plotHeight - y(Double(count)), className: "bar", tip: "\(weeks[index]): \(count) done")
                if barStep >= 10 { svg += SVGChart.label(String(count), x: x + (barStep - 2) / 2, y: y(Double(count)) - 2, anchor: "middle", className: "val") }
            }
            if index % max(1, weeks.count / 8) == 0 {
                svg += SVGChart.label(SVGChart.bucketLabel(weeks[index]), x: x, y: top + plotHeight + 14)
            }
        }
        svg += "<path class=\"grid\" d=\"M\(Markup.number(left)) \(Markup.number(top + plotHeight))H\(Markup.number(width - 4))\"/>"
        return svg + SVGChart.close
    }
}
