import Foundation
import Testing
import TallyDomain
import TallyTestSupport

/// The report in a real browser: headless Chromium (Debian's `chromium` package) renders the page of
/// the fixture store, at a desktop's and a phone's width and in dark mode, and a route SVG, to PNG, and prints it to PDF.
/// The pictures are checked for being drawn (not their pixels): a PNG of the asked size, many
/// colours, a good share of the page not background. Skipped with a reason when Chromium is not
/// installed, except under `CI=true`.
@Suite("report in headless Chromium")
struct ReportBrowserTests {
    static func render(_ file: String, in tally: TallyRunner, width: Int, height: Int, dark: Bool = false) throws -> PNGImage {
        let png = tally.directory.path("shot-\(width)-\(dark).png")
        let run = ReportTools.screenshot(file, to: png, width: width, height: height, dark: dark)
        #expect(run.status == 0, "chromium: \(run.stderr.suffix(2_000))")
        let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: png)))
        return try PNGImage(bytes)
    }

    @Test("the report of the fixture store renders at 1000 and 390 pixels wide, light and dark, and a route SVG renders")
    func renders() throws {
        guard ReportTools.available(ReportTools.chromium, "Chromium (apt-get install chromium)") else { return }
        let tally = try ReportCommandTests.store()
        let file = tally.directory.path("report.html")
        #expect(tally.run("report", "--html", file, "--from", "2010-01-01", "--to", "2022-12-31").status == 0)

        let desktop = try Self.render(file, in: tally, width: 1000, height: 2400)
        #expect(desktop.width == 1000 && desktop.height == 2400)
        let light = desktop.summary
        #expect(light.colours >= 50, "\(light)")
        #expect(light.drawn >= 0.03, "\(light)")
        // Light mode: a light page.
        #expect(desktop.colour(x: 0, y: 0) == 0xFFFFFF)

        let phone = try Self.render(file, in: tally, width: 390, height: 1600)
        #expect(phone.width == 390 && phone.summary.drawn >= 0.03)

        let night = try Self.render(file, in: tally, width: 1000, height: 1200, dark: true)
        let background = night.colour(x: 0, y: 0)
        let brightness = (background >> 16 & 0xFF) + (background >> 8 & 0xFF) + (background & 0xFF)
        #expect(brightness < 150, "dark mode background \(String(background, radix: 16))")
        #expect(night.summary.drawn >= 0.03)

        // Printed: a PDF of several pages.
        let pdf = tally.directory.path("report.pdf")
        let printed = ReportTools.execute(ReportTools.chromium ?? "chromium", [
            "--headless", "--no-sandbox", "--disable-gpu", "--no-first-run", "--user-data-dir=" + pdf + ".profile",
            "--print-to-pdf=" + pdf, "--no-pdf-header-footer", URL(fileURLWithPath: file).absoluteString,
        ])
        #expect(printed.status == 0, "\(printed.stderr.suffix(1_000))")
        let document = try Data(contentsOf: URL(fileURLWithPath: pdf))
        #expect(document.starts(with: Array("%PDF-".utf8)))
        // The page tree's `/Count`: the fixture store's report does not fit on one page.
        let text = String(decoding: document, as: UTF8.self)
        let count = text.range(of: "/Count ").flatMap { range in Int(text[range.upperBound...].prefix { $0.isNumber }) } ?? 0
        #expect(count >= 2, "pages: \(count)")
        #expect(document.count > 10_000)

        let numbers = ReportCommandTests.trackedRecords(tally)
        let svg = tally.directory.path("route.svg")
        let number = try #require(numbers.first { tally.run("record", "show", String($0), "--svg", svg).status == 0 })
        let route = try Self.render(svg, in: tally, width: 320, height: 460)
        #expect(route.summary.colours >= 10, "record \(number): \(route.summary)")
        #expect(route.summary.drawn >= 0.01)
    }
}
