import Foundation
import Testing
@testable import TallyDomain

/// The chart geometry of `tally report`: scales, axes, the route projection and path building.
@Suite("Report chart geometry")
struct ReportGeometryTests {
    @Test("a linear scale maps the domain's ends to the range's, flips for an SVG y axis, and clamps")
    func linearScale() {
        let x = LinearScale(domain: 0 ... 10, range: 40 ... 140)
        #expect(x(0) == 40 && x(10) == 140 && x(5) == 90)
        #expect(x(-3) == 40 && x(99) == 140)
        let y = LinearScale(domain: 0 ... 4, range: 10 ... 170, flipped: true)
        #expect(y(0) == 170 && y(4) == 10 && y(1) == 130)
        // An empty, reversed or endless domain still maps every value to a finite point.
        for scale in [LinearScale(domain: 5 ... 5, range: 0 ... 100), LinearScale(domain: -.infinity ... 1, range: 0 ... 100)] {
            for value in [0.0, 5, .nan, .infinity, -.infinity] { #expect(scale(value).isFinite) }
        }
    }

    @Test("axes end on 1, 2 or 5 times a power of ten, above the maximum, in at most the ticks asked")
    func niceAxis() {
        #expect(LinearScale.niceAxis(maximum: 87, ticks: 4) == (100, 50))
        #expect(LinearScale.niceAxis(maximum: 7.2, ticks: 4) == (8, 2))
        #expect(LinearScale.niceAxis(maximum: 0, ticks: 4) == (1, 1))
        #expect(LinearScale.niceAxis(maximum: .nan, ticks: 4) == (1, 1))
        for maximum in stride(from: 0.3, through: 5_000, by: 7.7) {
            let axis = LinearScale.niceAxis(maximum: maximum, ticks: 4)
            #expect(axis.top >= maximum && axis.top / axis.step <= 5.0001, "\(maximum) → \(axis)")
        }
    }

    @Test("numbers are written at a tenth without a locale, never NaN, -0 as 0")
    func numbers() {
        #expect(Markup.number(12.34) == "12.3")
        #expect(Markup.number(12.35) == "12.4" || Markup.number(12.35) == "12.3")
        #expect(Markup.number(-0.04) == "0")
        #expect(Markup.number(-7) == "-7")
        #expect(Markup.number(0.05) == "0.1")
        #expect(Markup.number(.nan) == "0" && Markup.number(.infinity) == "0")
    }

    /// A square of 0.01° around a point on the equator, walked north, east, south, west.
    static func square(latitude: Double = 0, longitude: Double = 0) -> RouteLine {
        RouteLine([(0, 0), (0.01, 0), (0.01, 0.01), (0, 0.01), (0, 0)].map {
            TrackPoint(time: nil, latitude: latitude + $0.0, longitude: longitude + $0.1, elevation: 100 + $0.0 * 1000)
        })
    }

    @Test("a route fits its box with north up and east right, and keeps its shape")
    func projection() throws {
        let route = Self.square()
        let projection = try #require(RouteProjection(fitting: [route], width: 200, height: 100, padding: 10))
        let points = projection.project(route)
        // North is up (smaller y), east is right (larger x).
        #expect(points[1].y < points[0].y && abs(points[1].x - points[0].x) < 0.001)
        #expect(points[2].x > points[1].x)
        // A square stays a square: one scale for both axes, centred in the wider box.
        let width = points.map(\.x).max()! - points.map(\.x).min()!
        let height = points.map(\.y).max()! - points.map(\.y).min()!
        #expect(abs(width - height) < 0.1 && abs(height - 80) < 0.01)
        #expect(abs(points.map(\.x).min()! - 60) < 0.01)
        // Nothing drawable: no projection.
        #expect(RouteProjection(fitting: [RouteLine()], width: 200, height: 100, padding: 10) == nil)
        // One point alone lands in the box.
        let one = RouteLine([TrackPoint(time: nil, latitude: 46, longitude: 14)])
        let single = try #require(RouteProjection(fitting: [one], width: 100, height: 100, padding: 10))
        #expect(single.project(one) == [ChartPoint(x: 50, y: 50)])
    }

    @Test("Web-Mercator: the equator at 0, a latitude's y grows as ln tan(π/4 + φ/2), the poles clamped")
    func mercator() {
        #expect(abs(RouteProjection.mercator(latitude: 0, longitude: 0).y) < 1e-12)
        let y = RouteProjection.mercator(latitude: 60, longitude: 180).y
        #expect(abs(y - log(tan(Double.pi / 4 + Double.pi / 6))) < 1e-12)
        #expect(RouteProjection.mercator(latitude: 90, longitude: 0).y.isFinite)
        #expect(RouteProjection.mercator(latitude: 90, longitude: 0) == RouteProjection.mercator(latitude: RouteProjection.maxLatitude, longitude: 0))
        #expect(abs(RouteProjection.mercator(latitude: -90, longitude: 0).y + RouteProjection.mercator(latitude: 90, longitude: 0).y) < 1e-9)
        #expect(abs(RouteProjection.mercator(latitude: 90, longitude: 0).y - Double.pi) < 1e-6)
    }

    @Test("a route line drops positions off the globe and measures the distance along the rest")
    func routeLine() {
        let points = [
            TrackPoint(time: nil, latitude: 0, longitude: 0, elevation: 10),
            TrackPoint(time: nil, latitude: .nan, longitude: 0),
            TrackPoint(time: nil, latitude: 91, longitude: 0),
            TrackPoint(time: nil, latitude: 0, longitude: 181),
            TrackPoint(time: nil, latitude: 0.01, longitude: 0, elevation: .infinity),
        ]
        let line = RouteLine(points)
        #expect(line.count == 2)
        #expect(abs(line.meters[1] - 1_111.95) < 0.1)
        #expect(line.elevations == [10, nil])
        #expect(line.hasElevation)
    }

    @Test("paths: one point per place, thinned to the cap with both ends kept, an area closed on its baseline")
    func paths() {
        #expect(SVGPath.line([]) == "")
        let repeated = [ChartPoint(x: 1, y: 2), ChartPoint(x: 1.01, y: 2.02), ChartPoint(x: 3, y: 4), ChartPoint(x: 5, y: 6)]
        #expect(SVGPath.line(repeated) == "M1 2 L3 4 5 6")
        let many = (0..<10_000).map { ChartPoint(x: Double($0) / 10, y: Double($0 % 7)) }
        let thinned = SVGPath.line(many, maxPoints: 100)
        let count = thinned.split(separator: " ").count / 2
        #expect(count <= 100 && count >= 90)
        #expect(thinned.hasPrefix("M0 0 L") && thinned.hasSuffix(" 999.9 3"))
        #expect(SVGPath.area(repeated, baseline: 10) == "M1 2 L3 4 5 6 L5 10 L1 10 Z")
    }

    @Test("the overlay takes the routes that start around where most do")
    func busiestArea() {
        let ljubljana = Self.square(latitude: 46.05, longitude: 14.5)
        let nearby = Self.square(latitude: 46.9, longitude: 15.2)
        let boston = Self.square(latitude: 42.36, longitude: -71.06)
        #expect(RouteArea.busiest([boston, ljubljana, nearby, RouteLine()]) == [1, 2])
        #expect(RouteArea.busiest([boston]) == [0])
        #expect(RouteArea.busiest([RouteLine()]) == [])
        // A tie goes to the area of the earliest route.
        #expect(RouteArea.busiest([boston, ljubljana]) == [0])
    }
}
