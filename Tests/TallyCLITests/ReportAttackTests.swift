import Foundation
import Testing
import TallyDomain
import TallyTestSupport

/// Hostile titles, notes, record names and activity-file names on their way into a report page and
/// an SVG file: no tag, attribute, comment, CDATA end or bidirectional override from data reaches
/// the markup; the page stays well-formed and valid.
@Suite("report --html under hostile titles, notes and names")
struct ReportAttackTests {
    static let payloads = [
        "<script>alert(1)</script>", "]]><script>alert(2)</script>", "\"><svg onload=alert(3)>", "' onmouseover='alert(4)",
        "</title></svg><img src=x onerror=alert(5)>", "<!--", "&lt;b&gt; &amp; &#60;", "evil\u{202E}gpj.exe", "\u{2067}isolate",
        "<style>*{display:none}</style>", "<a href=\"javascript:alert(6)\">x</a>",
    ]

    /// The elements and attributes tally writes; anything else in a tag came from data.
    static let elements: Set<String> = [
        "!doctype", "html", "head", "meta", "title", "style", "body", "header", "h1", "h2", "h3", "p", "main", "section", "figure",
        "div", "figcaption", "table", "thead", "tbody", "tr", "th", "td", "bdi", "code", "footer", "svg", "desc", "defs", "pattern",
        "rect", "path", "circle", "text", "g", "?xml",
    ]
    static let attributes: Set<String> = [
        "lang", "charset", "name", "content", "id", "class", "xmlns", "role", "aria-labelledby", "viewbox", "width", "height",
        "patternunits", "x", "y", "cx", "cy", "r", "d", "fill", "fill-opacity", "text-anchor", "transform", "version", "encoding",
    ]

    /// Elements and attributes outside those sets, `javascript:` in a tag, and bidirectional controls anywhere.
    static func live(_ markup: String) -> [String] {
        var found: [String] = []
        if markup.unicodeScalars.contains(where: { (0x202A ... 0x202E).contains($0.value) || (0x2066 ... 0x2069).contains($0.value) }) { found.append("bidi control") }
        var rest = markup[...]
        while let open = rest.firstIndex(of: "<") {
            guard let close = rest[open...].firstIndex(of: ">") else { found.append("unclosed <"); break }
            let tag = rest[rest.index(after: open)..<close]
            rest = rest[rest.index(after: close)...]
            if tag.hasPrefix("/") { continue }
            let parts = tag.split(whereSeparator: { $0 == " " || $0 == "\n" })
            guard let name = parts.first?.lowercased() else { continue }
            if !elements.contains(name) { found.append("element \(name)") }
            if tag.lowercased().contains("javascript:") { found.append("javascript: in <\(name)>") }
            // Attribute names: the word before each `="`, outside the quoted values.
            var inValue = false
            var word = ""
            for character in tag.dropFirst(name.count) {
                if character == "\"" { inValue.toggle(); continue }
                if inValue { continue }
                if character == "=" {
                    if !attributes.contains(word.lowercased()) { found.append("attribute \(word) in <\(name)>") }
                    word = ""
                } else if character == " " || character == "/" {
                    word = ""
                } else {
                    word.append(character)
                }
            }
        }
        return found + (ReportCommandTests.count("<style>", in: markup) == 1 ? [] : ["<style> not once"])
    }

    @Test("hostile todo titles and notes, record names and a hostile track file name stay inert in the page and the SVG")
    func hostilePage() throws {
        // The check itself finds what it is for.
        #expect(Self.live("<style></style><p><img src=x onerror=y></p>") == ["element img", "attribute src in <img>", "attribute onerror in <img>"])
        #expect(Self.live("<style></style><p title=\"a\" onclick=\"x\">") == ["attribute title in <p>", "attribute onclick in <p>"])
        let tally = TallyRunner(now: "2022-07-20T12:00:00Z")
        // A real track file under a hostile file name: the record takes the file's own name, then a hostile one.
        let hostileName = tally.directory.path("<script>alert(7)<\\script>.gpx")
        try FileManager.default.copyItem(atPath: ReportCommandTests.fixtures.appendingPathComponent("korita-zbevnica.gpx").path, toPath: hostileName)
        #expect(tally.run("record", "import", hostileName).status == 0)
        for (index, payload) in Self.payloads.enumerated() {
            let add = tally.run(["add", "T\(index) " + payload, "--tag", "x\(index)", "--note", payload + "\n" + payload, "--due", "2022-07-01"], environment: ["TALLY_NOW": "2022-07-0\(1 + index % 9)T08:00:00Z"])
            #expect(add.status == 0, "\(add.stderr)")
            let record = tally.run(["record", "add", "R\(index) " + payload, "--category", "running", "--duration", "30m", "--date", "2022-07-1\(index % 10)", "--note", payload, "--place", payload])
            #expect(record.status == 0, "\(record.stderr)")
        }
        #expect(tally.run("record", "edit", "1", "--name", Self.payloads[2]).status == 0)
        let events = tally.eventCount
        let file = tally.directory.path("hostile.html")
        let result = tally.run("report", "--html", file, "--from", "2021-01-01", "--to", "2022-07-20")
        #expect(result.status == 0, "\(result.stderr)")
        let html = try String(contentsOfFile: file, encoding: .utf8)
        #expect(Self.live(html).isEmpty, "\(Self.live(html))")
        // The titles are there, escaped and isolated: the reader sees what was typed.
        #expect(html.contains("<bdi>T0 &lt;script&gt;alert(1)&lt;/script&gt;</bdi>"))
        #expect(html.contains("#1 <bdi>&quot;&gt;&lt;svg onload=alert(3)&gt;</bdi>"))
        #expect(html.contains("]]&gt;&lt;script&gt;"))
        #expect(html.contains("evilgpj.exe"))
        let svg = tally.directory.path("hostile.svg")
        #expect(tally.run("record", "show", "1", "--svg", svg).status == 0)
        let route = try String(contentsOfFile: svg, encoding: .utf8)
        #expect(Self.live(route).isEmpty, "\(Self.live(route))")
        #expect(route.contains("<title id=\"doc-t\">#1 &quot;&gt;&lt;svg onload=alert(3)&gt;</title>"))
        try ReportCommandTests.validate(html: html, file: file, svgs: ReportTools.svgElements(html), in: tally)
        if ReportTools.available(ReportTools.xmllint, "xmllint (libxml2-utils)") {
            #expect(ReportTools.execute(ReportTools.xmllint ?? "xmllint", ["--noout", "--nonet", svg]).status == 0)
        }
        #expect(tally.eventCount == events)
    }

    @Test("random hostile titles: every page parses as XML and holds no live markup")
    func randomTitles() throws {
        let tally = TallyRunner(now: "2022-07-20T12:00:00Z")
        let alphabet = Array("<>&\"'/=]![-a ") + ["\u{202E}", "\u{2066}", "\u{200F}", "é", "🏃", "\u{FEFF}"]
        var generator = SystemRandomNumberGenerator()
        for round in 0..<AttackScale.count(short: 3, full: 40) {
            for _ in 0..<5 {
                let title = "X" + String((0..<Int.random(in: 1...30, using: &generator)).map { _ in alphabet.randomElement(using: &generator)! })
                tally.run(["add", title, "--due", "2022-07-01"])
                tally.run(["record", "add", title, "--category", "running", "--duration", "20m", "--date", "2022-07-10"])
            }
            let file = tally.directory.path("random-\(round).html")
            #expect(tally.run("report", "--html", file).status == 0)
            let html = try String(contentsOfFile: file, encoding: .utf8)
            #expect(Self.live(html).isEmpty, "\(Self.live(html))")
            if ReportTools.available(ReportTools.xmllint, "xmllint (libxml2-utils)") {
                let check = ReportTools.execute(ReportTools.xmllint ?? "xmllint", ["--noout", "--nonet", file])
                #expect(check.status == 0, "\(check.stderr.prefix(1_000))")
            }
        }
    }
}
