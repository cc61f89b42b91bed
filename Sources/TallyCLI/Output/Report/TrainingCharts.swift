import TallyEngine
import TallyDomain
import TallyEssentials

/// The training charts of a report: calendar heatmap, weekly volume, this year against the last.
enum TrainingCharts {
    /// A calendar of the period, as on GitHub: a column per week (Monday to Sunday, top to bottom),
    /// in one block for a period of up to 53 weeks, else one block per calendar year. An active day is filled with its leading category's fill, at
    /// one of four strengths (quartiles of the period's active days by time); each cell's tooltip
    /// gives the figures.
    static func heatmap(_ report: TrainingReport, byDistance: Bool = false) -> String {
        let cell = 11.0, step = 13.0, left = 30.0, yearGap = 38.0
        let blockHeight = 7 * step + yearGap
        let period = report.period
        let blocks: [(label: String, first: LocalDate, last: LocalDate)] = period.dayCount <= 371
            ? [(period.first.year == period.last.year ? String(period.first.year) : "\(period.first.year)-\(period.last.year % 100 < 10 ? "0" : "")\(period.last.year % 100)", period.first, period.last)]
            : (period.first.year ... period.last.year).map { year in
                (String(year), max(LocalDate(year: year, month: 1, day: 1)!, period.first), min(LocalDate(year: year, month: 12, day: 31)!, period.last))
            }
        let width = left + 54 * step + 4
        let legendTop = Double(blocks.count) * blockHeight + 4
        let chart = SVGChart(id: "heatmap", width: width, height: legendTop + SVGChart.legendHeight(report.categories, width: width - left))
        // The shade's measure: seconds, or metres (to the metre) with `byDistance`.
        func measure(_ totals: StatsTotals) -> Int { byDistance ? Int(totals.distanceMeters.rounded()) : totals.durationSeconds }
        let active = report.days.map { measure($0.totals) }.filter { $0 > 0 }.sorted()
        func level(_ value: Int) -> Int {
            guard !active.isEmpty else { return 4 }
            let quartiles = [active[active.count / 4], active[active.count / 2], active[(active.count * 3) / 4]]
            return 1 + quartiles.filter { value > $0 }.count
        }
        let byDate = Dictionary(uniqueKeysWithValues: report.days.map { ($0.date, $0) })
        let busiest = report.days.max { measure($0.totals) != measure($1.totals) ? measure($0.totals) < measure($1.totals) : $0.date > $1.date }
        var desc = "\(report.days.count) active days from \(report.period.first) to \(report.period.last)"
        if let busiest {
            desc += byDistance ? "; the longest, \(busiest.date), with \(Distance.format(busiest.totals.distanceMeters))" : "; the busiest, \(busiest.date), with \(ActivityDuration.format(busiest.totals.durationSeconds))"
        }
        desc += byDistance ? ". Darker cells are days with more distance (days without one are palest)" : ". Darker cells are days with more time"
        desc += "; the fill's colour and texture name the day's leading category."
        var svg = chart.open(title: "Calendar of active days", desc: desc)
        svg += chart.patterns(report.categories.count)
        for (index, block) in blocks.enumerated() {
            let top = Double(index) * blockHeight + 30
            // A year's block starts on the Monday of 1 January's week, so its columns line up with the other years'.
            let anchor = blocks.count == 1 ? block.first : LocalDate(year: block.first.year, month: 1, day: 1)!
            let firstMonday = anchor.adding(days: 1 - anchor.weekday)
            let (firstDay, lastDay) = (block.first, block.last)
            svg += SVGChart.label(block.label, x: left, y: top - 19, className: "year")
            for (row, name) in [(0, "Mon"), (2, "Wed"), (4, "Fri"), (6, "Sun")] {
                svg += SVGChart.label(name, x: left - 4, y: top + Double(row) * step + 9, anchor: "end")
            }
            var lastMonth = 0
            var lastLabel = -Double.infinity
            var date = firstDay
            while date <= lastDay {
                let column = Int((date.dayNumber - firstMonday.dayNumber) / 7)
                let x = left + Double(column) * step, y = top + Double(date.weekday - 1) * step
                if date.month != lastMonth, date.day <= 7 || date == firstDay {
                    // A month whose first week is too close to the last label (a period starting late in a month) goes unnamed.
                    if x - lastLabel >= 2.5 * step {
                        svg += SVGChart.label(SVGChart.monthNames[date.month - 1], x: x, y: top - 6)
                        lastLabel = x
                    }
                    lastMonth = date.month
                }
                if let day = byDate[date], let leading = day.leading, let index = report.categories.firstIndex(of: leading) {
                    let parts = day.categories.map { entry in
                        entry.category + " " + ActivityDuration.format(entry.totals.durationSeconds)
                            + (entry.totals.distanceMeters > 0 ? ", " + Distance.format(entry.totals.distanceMeters) : "")
                    }
                    let strength = [0.35, 0.55, 0.78, 1.0][max(0, level(measure(day.totals)) - 1)]
                    svg += SVGChart.rect(x: x, y: y, width: cell, height: cell, fill: chart.fill(index), opacity: strength, tip: "\(date): " + parts.joined(separator: "; "))
                } else {
                    svg += SVGChart.rect(x: x, y: y, width: cell, height: cell, className: "empty")
                }
                date = date.adding(days: 1)
            }
        }
        svg += chart.legend(report.categories, x: left, y: legendTop, width: width - left)
        return svg + SVGChart.close
    }

    /// Time per week (per month for a long period) as stacked bars, one segment per category (in the
    /// report's category order).
    static func volume(_ report: TrainingReport) -> String {
        let left = 44.0, bottom = 22.0, top = 10.0, plotHeight = 160.0
        let count = max(report.buckets.count, 1)
        let barStep = max(4.0, min(24.0, 600.0 / Double(count)))
        let width = max(320, left + Double(count) * barStep + 8)
        let chart = SVGChart(id: "volumechart", width: width, height: top + plotHeight + bottom + SVGChart.legendHeight(report.categories, width: width - left))
        let sums = (0..<report.buckets.count).map { week in report.categories.reduce(0) { $0 + (report.volume[$1]?[week].durationSeconds ?? 0) } }
        let maximum = Double(sums.max() ?? 0) / 3600
        let axis = LinearScale.niceAxis(maximum: maximum, ticks: 4)
        let scale = LinearScale(domain: 0 ... axis.top, range: top ... top + plotHeight, flipped: true)
        let busiest = sums.indices.max { sums[$0] != sums[$1] ? sums[$0] < sums[$1] : $0 > $1 }
        let unit = report.grouping == .week ? "week" : "month"
        var desc = "Time per \(report.grouping == .week ? "ISO week" : "month"), \(report.buckets.first ?? "") to \(report.buckets.last ?? ""), stacked by category (\(report.categories.joined(separator: ", ")))."
        if let busiest, sums[busiest] > 0 { desc += " The busiest \(unit), \(report.buckets[busiest]), had \(ActivityDuration.format(sums[busiest]))." }
        var svg = chart.open(title: (report.grouping == .week ? "Weekly" : "Monthly") + " volume by category", desc: desc)
        svg += chart.patterns(report.categories.count)
        var tick = 0.0
        while tick <= axis.top + axis.step / 2 {
            let y = scale(tick)
            svg += "<path class=\"grid\" d=\"M\(Markup.number(left)) \(Markup.number(y))H\(Markup.number(chart.width - 4))\"/>"
            svg += SVGChart.label("\(Markup.number(tick)) h", x: left - 4, y: y + 3, anchor: "end")
            tick += axis.step
        }
        for week in 0..<report.buckets.count {
            let x = left + Double(week) * barStep + 1
            var base = 0.0
            for (index, category) in report.categories.enumerated() {
                let totals = report.volume[category]?[week] ?? StatsTotals()
                guard totals.durationSeconds > 0 else { continue }
                let hours = Double(totals.durationSeconds) / 3600
                let y1 = scale(base + hours), y0 = scale(base)
                var tip = "\(report.buckets[week]) \(category): \(ActivityDuration.format(totals.durationSeconds))"
                if totals.distanceMeters > 0 { tip += ", " + Distance.format(totals.distanceMeters) }
                svg += SVGChart.rect(x: x, y: y1, width: barStep - 2, height: max(0.5, y0 - y1), fill: chart.fill(index), tip: tip)
                base += hours
            }
            if week % max(1, count / 8) == 0 {
                svg += SVGChart.label(SVGChart.bucketLabel(report.buckets[week]), x: x, y: top + plotHeight + 14)
            }
        }
        svg += chart.legend(report.categories, x: left, y: top + plotHeight + bottom, width: width - left)
        return svg + SVGChart.close
    }

    /// This year to date against the same span of last year: per category a pair of bars (this year
    /// filled, last year outlined), with the figures written beside them.
    static func yearOverYear(_ ytd: YearToDate) -> String {
        let rows = ytd.byCategory
        let left = 90.0, rowHeight = 34.0, plotWidth = 380.0
        let chart = SVGChart(id: "ytd", width: left + plotWidth + 120, height: Double(max(rows.count, 1)) * rowHeight + 10)
        let maximum = Double(rows.map { max($0.current.durationSeconds, $0.previous.durationSeconds) }.max() ?? 0)
        let scale = LinearScale(domain: 0 ... max(maximum, 1), range: 0 ... plotWidth)
        let desc = "Time from 1 January to today in \(ytd.year) was \(ActivityDuration.format(ytd.current.durationSeconds)), against \(ActivityDuration.format(ytd.previous.durationSeconds)) by the same day of \(ytd.year - 1). Per category, the upper bar is \(ytd.year), the lower, outlined bar \(ytd.year - 1)."
        var svg = chart.open(title: "\(ytd.year) against \(ytd.year - 1), to date", desc: desc)
        svg += chart.patterns(rows.count)
        for (index, row) in rows.enumerated() {
            let y = 6 + Double(index) * rowHeight
            svg += SVGChart.label(row.category, x: left - 6, y: y + 17, anchor: "end")
            let now = scale(Double(row.current.durationSeconds)), before = scale(Double(row.previous.durationSeconds))
            svg += SVGChart.rect(x: left, y: y, width: max(0.5, now), height: 12, fill: chart.fill(index), tip: "\(row.category) \(ytd.year): \(ActivityDuration.format(row.current.durationSeconds))")
            svg += SVGChart.rect(x: left, y: y + 14, width: max(0.5, before), height: 12, className: "prev", tip: "\(row.category) \(ytd.year - 1): \(ActivityDuration.format(row.previous.durationSeconds))")
            svg += SVGChart.label("\(ytd.year): " + ActivityDuration.format(row.current.durationSeconds), x: left + now + 4, y: y + 10, className: "val")
            svg += SVGChart.label("\(ytd.year - 1): " + ActivityDuration.format(row.previous.durationSeconds), x: left + before + 4, y: y + 24, className: "val")
        }
        return svg + SVGChart.close
    }

    /// Fitness (solid) and fatigue (dashed) each day of the period, and form (dotted) around a zero line,
    /// on one axis from the lowest form to the highest fitness or fatigue; each line named at its end.
    static func load(_ days: [LoadDay]) -> String {
        let width = 640.0, height = 220.0, left = 40.0, right = 70.0, top = 10.0, bottom = 22.0
        let chart = SVGChart(id: "load-chart", width: width, height: height)
        let highest = days.map { max($0.fitness, $0.fatigue, $0.form) }.max() ?? 0
        let lowest = min(0, days.map(\.form).min() ?? 0)
        let upper = LinearScale.niceAxis(maximum: highest, ticks: 4)
        let lower = lowest < 0 ? (LinearScale.niceAxis(maximum: -lowest, ticks: 2).top) : 0
        let x = LinearScale(domain: 0 ... Double(max(days.count - 1, 1)), range: left ... width - right)
        let y = LinearScale(domain: -lower ... upper.top, range: top ... height - bottom, flipped: true)
        var desc = "Training load each day"
        if let first = days.first, let last = days.last {
            desc += " from \(first.date) to \(last.date); at the end fitness \(Markup.number(last.fitness.rounded())), "
            desc += "fatigue \(Markup.number(last.fatigue.rounded())), form \(Markup.number(last.form.rounded()))"
        }
        var svg = chart.open(title: "Fitness, fatigue and form", desc: desc + ". The solid line is fitness, the dashed line fatigue, the dotted line form.")
        var tick = -lower
        while tick <= upper.top + upper.step / 2 {
            svg += "<path class=\"grid\" d=\"M\(Markup.number(left)) \(Markup.number(y(tick)))H\(Markup.number(width - right))\"/>"
            svg += SVGChart.label(Markup.number(tick), x: left - 4, y: y(tick) + 3, anchor: "end")
            tick += upper.step
        }
        let fitness = days.enumerated().map { ChartPoint(x: x(Double($0.offset)), y: y($0.element.fitness)) }
        let fatigue = days.enumerated().map { ChartPoint(x: x(Double($0.offset)), y: y($0.element.fatigue)) }
        let form = days.enumerated().map { ChartPoint(x: x(Double($0.offset)), y: y($0.element.form)) }
        svg += "<path class=\"open\" d=\"\(SVGPath.line(fitness))\"/>"
        svg += "<path class=\"done\" d=\"\(SVGPath.line(fatigue))\"/>"
        svg += "<path class=\"form\" d=\"\(SVGPath.line(form))\"/>"
        if let day = days.last, let a = fitness.last, let b = fatigue.last, let c = form.last {
            svg += SVGChart.label("fitness \(Markup.number(day.fitness.rounded()))", x: a.x + 4, y: a.y + 3)
            svg += SVGChart.label("fatigue \(Markup.number(day.fatigue.rounded()))", x: b.x + 4, y: b.y + (abs(a.y - b.y) < 12 ? 13 : 3))
            svg += SVGChart.label("form \(Markup.number(day.form.rounded()))", x: c.x + 4, y: c.y + (abs(c.y - b.y) < 12 ? 15 : 3))
        }
        if let first = days.first, let last = days.last {
            svg += SVGChart.label(first.date.description, x: left, y: height - 6)
            svg += SVGChart.label(last.date.description, x: width - right, y: height - 6, anchor: "end")
        }
        return svg + SVGChart.close
    }
}
