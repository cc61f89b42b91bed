import TallyEngine
import TallyDomain
import TallyEssentials

/// A whole report as one self-contained HTML page: inline CSS and SVG, no script, nothing loaded
/// from anywhere. The page is also well-formed XML (void elements closed, only XML's five entities),
/// so each chart can be checked as an SVG file and the page by an XML parser as well as an HTML one.
///
/// The output depends only on its inputs: no clock, no dictionary order, numbers at fixed precision.
struct ReportPage {
    /// One activity with a kept track: its record and what could be drawn from the file.
    struct Route {
        var record: Record
        var line: RouteLine?
    }

    /// Where the log stood for this report.
    struct Position {
        var seq: Int64
        var hash: String
        /// `2026-11-21 12:00 UTC`: the moment the report describes.
        var asOf: String
    }

    var training: TrainingReport
    var todos: TodoReport
    var routes: [Route]
    /// Routes beyond this many are in the overlay but not drawn one by one.
    var routeLimit = 60
    var position: Position
    var zone: Zone
    /// The calendar's shades measure distance instead of time (`--measure distance`).
    var byDistance = false
    /// The fitness-fatigue model over the period's days (empty when nothing has a load).
    var loadDays: [LoadDay] = []

    func render() -> String {
        var html = "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\"/>\n"
        html += "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\"/>\n"
        html += "<meta name=\"color-scheme\" content=\"light dark\"/>\n"
        html += "<meta name=\"generator\" content=\"tally\"/>\n"
        html += "<title>Training and todos, \(training.period.first) to \(training.period.last)</title>\n"
        html += "<style>\n" + ReportStyle.charts + "\n" + ReportStyle.page + "\n</style>\n</head>\n<body>\n"
        html += "<header><h1>Training and todos</h1><p class=\"muted\">\(training.period.first) to \(training.period.last): "
        html += "\(training.totals.count) activities, \(ActivityDuration.format(training.totals.durationSeconds))"
        if training.totals.distanceMeters > 0 { html += ", " + Distance.format(training.totals.distanceMeters) }
        html += ".</p></header>\n<main>\n"
        html += calendar() + volume() + bests() + streaks() + yearOverYear() + load() + routesSection() + todoSection()
        html += "</main>\n<footer><p>Log position <code>@\(position.seq)</code>, head hash <code>\(Markup.escape(position.hash))</code>, as of \(Markup.escape(position.asOf)). "
        html += "The same <code>tally report --as-of @\(position.seq)</code> writes this page again, byte for byte.</p></footer>\n</body>\n</html>\n"
        return html
    }

    /// A user's string in HTML text: escaped, and isolated for bidirectional text.
    static func user(_ text: String) -> String { "<bdi>\(Markup.escape(text))</bdi>" }

    private func section(_ id: String, _ title: String, _ body: String) -> String {
        "<section id=\"\(id)\">\n<h2>\(Markup.escape(title))</h2>\n\(body)</section>\n"
    }

    private func figure(_ svg: String, caption: String) -> String {
        "<figure><div class=\"scroll\">\(svg)</div><figcaption>\(caption)</figcaption></figure>\n"
    }

    private func calendar() -> String {
        guard !training.days.isEmpty else { return section("calendar", "Calendar", "<p>No activities in this period.</p>\n") }
        let caption = "Each square is a day; darker is more \(byDistance ? "distance" : "time"). Hover a day for its figures."
        return section("calendar", "Calendar", figure(TrainingCharts.heatmap(training, byDistance: byDistance), caption: caption))
    }

    private func volume() -> String {
        guard !training.days.isEmpty else { return "" }
        let week = training.grouping == .week
        return section("volume", week ? "Weekly volume" : "Monthly volume", figure(TrainingCharts.volume(training), caption: week ? "Hours per ISO week, stacked by category." : "Hours per month, stacked by category (months, as the period is longer than two years)."))
    }

    private func bests() -> String {
        guard !training.bests.isEmpty else { return section("bests", "Best efforts", "<p>No best efforts yet.</p>\n") }
        var body = ""
        for group in training.bests {
            body += "<h3>\(Self.user(group.category))</h3>\n<div class=\"scroll\"><table><thead><tr><th>Distance</th><th class=\"n\">Time</th><th class=\"n\">Pace</th><th>Activity</th><th>Date</th></tr></thead><tbody>\n"
            for effort in group.efforts {
                let seconds = Int(effort.seconds.rounded())
                let pace = Distance.formatPace(secondsPerKm: effort.seconds / (Double(effort.meters) / 1000))
                body += "<tr><td>\(Markup.escape(BestEfforts.label(effort.meters)))</td><td class=\"n\">\(ActivityDuration.format(seconds))</td><td class=\"n\">\(Markup.escape(pace))</td>"
                body += "<td>#\(effort.recordNumber) \(Self.user(effort.recordName))</td><td>\(LocalDate.containing(effort.date, in: zone))</td></tr>\n"
            }
            body += "</tbody></table></div>\n"
        }
        return section("bests", "Best efforts", "<p class=\"muted\">All time, from tracks and whole activities (as <code>tally record bests</code>).</p>\n" + body)
    }

    private func streaks() -> String {
        var body = "<div class=\"scroll\"><table><thead><tr><th>Category</th><th class=\"n\">Longest (days)</th><th>Ended</th><th class=\"n\">Current (days)</th><th class=\"n\">Longest (weeks)</th><th class=\"n\">Current (weeks)</th><th class=\"n\">Active days</th></tr></thead><tbody>\n"
        for streak in training.streaks {
            body += "<tr><td>\(streak.category.map(Self.user) ?? "all")</td><td class=\"n\">\(streak.longestDays)</td><td>\(streak.longestDaysEnd?.description ?? "")</td>"
            body += "<td class=\"n\">\(streak.currentDays)</td><td class=\"n\">\(streak.longestWeeks)</td><td class=\"n\">\(streak.currentWeeks)</td><td class=\"n\">\(streak.activeDays)</td></tr>\n"
        }
        return section("streaks", "Streaks", body + "</tbody></table></div>\n")
    }

    private func yearOverYear() -> String {
        guard let ytd = training.yearToDate, !ytd.byCategory.isEmpty else { return section("year", "This year against the last", "<p>No activities this year or last.</p>\n") }
        var body = figure(TrainingCharts.yearOverYear(ytd), caption: "From 1 January to today, against the same days of last year.")
        body += "<div class=\"scroll\"><table><thead><tr><th>Category</th><th class=\"n\">\(ytd.year)</th><th class=\"n\">\(ytd.year - 1)</th><th class=\"n\">\(ytd.year) distance</th><th class=\"n\">\(ytd.year - 1) distance</th></tr></thead><tbody>\n"
        for row in ytd.byCategory {
            body += "<tr><td>\(Self.user(row.category))</td><td class=\"n\">\(ActivityDuration.format(row.current.durationSeconds))</td><td class=\"n\">\(ActivityDuration.format(row.previous.durationSeconds))</td>"
            body += "<td class=\"n\">\(Distance.format(row.current.distanceMeters))</td><td class=\"n\">\(Distance.format(row.previous.distanceMeters))</td></tr>\n"
        }
        return section("year", "This year against the last", body + "</tbody></table></div>\n")
    }

    private func load() -> String {
        guard loadDays.contains(where: { $0.load > 0 || $0.fitness >= 0.5 }) else {
            return section("load", "Training load", "<p>No activity up to this period's end has a training load. A load needs heart rate and the athlete's heart rates (<code>tally athlete set</code>), power and an FTP, or an effort given with <code>record add --effort</code> or <code>record edit --effort</code>; the report draws nothing it would have to invent.</p>\n")
        }
        let caption = "Fitness (42-day) and fatigue (7-day) load each day, and form (yesterday's fitness less fatigue). "
            + "A day's load is the sum of its activities' TRIMP, TSS or session RPE; activities with none of these add nothing."
        return section("load", "Training load", figure(TrainingCharts.load(loadDays), caption: caption))
    }

    private func routesSection() -> String {
        let drawn = routes.filter { ($0.line?.count ?? 0) >= 2 }
        guard !drawn.isEmpty else { return section("routes", "Routes", "<p>No activity of this period keeps a track with positions.</p>\n") }
        let area = RouteArea.busiest(drawn.map { $0.line! }).map { drawn[$0] }
        let overlaid = area.count == drawn.count ? "All \(drawn.count) routes of the period" : "The \(area.count) of \(drawn.count) routes that start around where most do"
        var body = figure(RouteCharts.overlay(area.map { ($0.record.name, $0.line!) }), caption: overlaid + " on one map; darker traces are used more often.")
        let shown = drawn.suffix(routeLimit).reversed()
        let undrawn = routes.count - drawn.count
        if undrawn > 0 {
            body += "<p class=\"muted\">\(undrawn) \(undrawn == 1 ? "activity keeps a track file" : "activities keep track files") without positions, or that could not be read back; \(undrawn == 1 ? "it is" : "they are") not drawn.</p>\n"
        }
        if drawn.count > routeLimit { body += "<p class=\"muted\">The \(routeLimit) most recent of \(drawn.count) routes:</p>\n" }
        body += "<div class=\"routes\">\n"
        for route in shown {
            let record = route.record, line = route.line!
            body += "<figure>" + RouteCharts.route(line, id: "route-\(record.number)", name: record.name)
            if let profile = RouteCharts.elevation(line, id: "elev-\(record.number)", name: record.name) { body += profile }
            body += "<figcaption>#\(record.number) \(Self.user(record.name)), \(Markup.escape(Timestamp.formatLocal(record.date, in: zone, withTime: true))), \(Self.user(record.category))"
            if let distance = record.distanceMeters { body += ", " + Distance.format(distance) }
            body += ", " + ActivityDuration.format(record.durationSeconds) + "</figcaption></figure>\n"
        }
        return section("routes", "Routes", body + "</div>\n")
    }

    private func todoSection() -> String {
        var body = figure(TodoCharts.burndown(todos), caption: "Open and done todos at the end of each day, from the event history.")
        body += figure(TodoCharts.donePerBucket(todos, weeks: training.buckets), caption: training.grouping == .week ? "Todos completed per ISO week." : "Todos completed per month.")
        body += "<h3>Overdue now</h3>\n"
        if todos.overdue.isEmpty {
            body += "<p>Nothing is overdue.</p>\n"
        } else {
            body += "<div class=\"scroll\"><table><thead><tr><th class=\"n\">#</th><th>Title</th><th>Due</th><th>Tags</th></tr></thead><tbody>\n"
            for todo in todos.overdue {
                body += "<tr><td class=\"n\">\(todo.number)</td><td class=\"t\">\(Self.user(todo.title))</td><td>\(Markup.escape(todo.due?.storageText ?? ""))</td><td>\(todo.tags.map(Self.user).joined(separator: ", "))</td></tr>\n"
            }
            body += "</tbody></table></div>\n"
        }
        if !todos.projects.isEmpty {
            body += "<h3>Per project</h3>\n"
            body += "<div class=\"scroll\"><table><thead><tr><th>Project</th><th class=\"n\">Open</th><th class=\"n\">Done</th><th class=\"n\">Overdue</th></tr></thead><tbody>\n"
            for project in todos.projects {
                body += "<tr><td>\(project.tag.map(Self.user) ?? "(no project)")</td><td class=\"n\">\(project.open)</td><td class=\"n\">\(project.done)</td><td class=\"n\">\(project.overdue)</td></tr>\n"
            }
            body += "</tbody></table></div>\n"
        }
        body += "<h3>Per tag</h3>\n"
        if todos.tags.isEmpty {
            body += "<p>No todos.</p>\n"
        } else {
            body += "<div class=\"scroll\"><table><thead><tr><th>Tag</th><th class=\"n\">Open</th><th class=\"n\">Done</th><th class=\"n\">Overdue</th></tr></thead><tbody>\n"
            for tag in todos.tags {
                body += "<tr><td>\(tag.tag.map(Self.user) ?? "(no tag)")</td><td class=\"n\">\(tag.open)</td><td class=\"n\">\(tag.done)</td><td class=\"n\">\(tag.overdue)</td></tr>\n"
            }
            body += "</tbody></table></div>\n"
        }
        return section("todos", "Todos", body)
    }

    /// One activity's route and elevation profile as a standalone SVG file (`record show N --svg`).
    static func standaloneSVG(record: Record, line: RouteLine) -> String {
        let size = 320.0
        let profile = RouteCharts.elevation(line, id: "elevation", name: record.name, width: size, height: 120)
        let height = size + (profile == nil ? 0 : 128)
        var svg = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
        svg += "<svg xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 \(Markup.number(size)) \(Markup.number(height))\" width=\"\(Markup.number(size))\" height=\"\(Markup.number(height))\" role=\"img\" aria-labelledby=\"doc-t\">"
        svg += "<title id=\"doc-t\">#\(record.number) \(Markup.escape(record.name))</title>"
        svg += "<style>\n" + ReportStyle.charts + "\n</style>"
        svg += SVGChart.rect(x: 0, y: 0, width: size, height: height, className: "sheet")
        svg += RouteCharts.route(line, id: "route", name: record.name, size: size)
        if let profile { svg += "<g transform=\"translate(0 \(Markup.number(size + 8)))\">" + profile + "</g>" }
        return svg + "</svg>\n"
    }
}
