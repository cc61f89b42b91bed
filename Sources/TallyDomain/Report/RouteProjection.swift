
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A point on a chart, in SVG user units (x to the right, y down).
public struct ChartPoint: Sendable, Equatable {
    public var x: Double
    public var y: Double

    public init(x: Double, y: Double) {
        self.x = x
        self.y = y
    }
}

/// The points of a kept track that can be drawn: finite positions on the globe, with the distance
/// along them and the height where the file has one.
public struct RouteLine: Sendable, Equatable {
    public var latitudes: [Double] = []
    public var longitudes: [Double] = []
    /// Metres from the first point (great-circle steps, `TrackGeometry.distance`).
    public var meters: [Double] = []
    /// Heights in metres; nil where the point has none.
    public var elevations: [Double?] = []

    public init() {}

    /// The drawable points of `points`: positions that are finite and on the globe, in file order.
    /// - Complexity: O(n).
    public init(_ points: [TrackPoint]) {
        var previous: TrackPoint?
        var total = 0.0
        for point in points where point.latitude.isFinite && point.longitude.isFinite && abs(point.latitude) <= 90 && abs(point.longitude) <= 180 {
            if let previous { total += TrackGeometry.distance(previous, point) }
            latitudes.append(point.latitude)
            longitudes.append(point.longitude)
            meters.append(total)
            elevations.append(point.elevation.flatMap { $0.isFinite && abs($0) < 20_000 ? $0 : nil })
            previous = point
        }
    }

    public var count: Int { latitudes.count }
    public var hasElevation: Bool { elevations.contains { $0 != nil } }
}

/// Web-Mercator projection of positions, scaled and centred to fit a box (no map tiles: the
/// shape of the route on a plane where north is up and angles are kept locally).
///
/// Latitudes are clamped to ±85.051129°, the limit of Web-Mercator maps; both axes use one scale,
/// so a route keeps its shape whatever the box.
public struct RouteProjection: Sendable, Equatable {
    public static let maxLatitude = 85.051129
    /// Projected bounds (x is longitude in radians, y the Mercator ordinate).
    var minX: Double, maxX: Double, minY: Double, maxY: Double
    /// User units per projected unit, and the offsets that centre the route.
    var scale: Double, offsetX: Double, offsetY: Double

    /// The projection fitting every route of `routes` into `width` × `height` less `padding` on each
    /// side; nil when they hold no point.
    public init?(fitting routes: [RouteLine], width: Double, height: Double, padding: Double) {
        var minX = Double.infinity, maxX = -Double.infinity, minY = Double.infinity, maxY = -Double.infinity
        for route in routes {
            for index in 0..<route.count {
                let (x, y) = Self.mercator(latitude: route.latitudes[index], longitude: route.longitudes[index])
                minX = min(minX, x); maxX = max(maxX, x); minY = min(minY, y); maxY = max(maxY, y)
            }
        }
        guard minX.isFinite, width > 2 * padding, height > 2 * padding else { return nil }
        let spanX = maxX - minX, spanY = maxY - minY
        let innerWidth = width - 2 * padding, innerHeight = height - 2 * padding
        // A single point (or a route along one line) gets a scale from the other axis, or none.
        let scaleX = spanX > 0 ? innerWidth / spanX : Double.infinity
        let scaleY = spanY > 0 ? innerHeight / spanY : Double.infinity
        let scale = min(scaleX, scaleY).isFinite ? min(scaleX, scaleY) : 0
        self.minX = minX; self.maxX = maxX; self.minY = minY; self.maxY = maxY
        self.scale = scale
        offsetX = padding + (innerWidth - spanX * scale) / 2
        offsetY = padding + (innerHeight - spanY * scale) / 2
    }

    /// Web-Mercator x (longitude in radians) and y (`ln tan(π/4 + φ/2)`) of a position in degrees.
    public static func mercator(latitude: Double, longitude: Double) -> (x: Double, y: Double) {
        let phi = min(maxLatitude, max(-maxLatitude, latitude)) * Double.pi / 180
        return (longitude * Double.pi / 180, log(tan(Double.pi / 4 + phi / 2)))
    }

    /// Where a position falls in the box: north up, east right.
    public func project(latitude: Double, longitude: Double) -> ChartPoint {
        let (x, y) = Self.mercator(latitude: latitude, longitude: longitude)
        return ChartPoint(x: offsetX + (x - minX) * scale, y: offsetY + (maxY - y) * scale)
    }

    /// Every point of `route` in the box.
    public func project(_ route: RouteLine) -> [ChartPoint] {
        (0..<route.count).map { project(latitude: route.latitudes[$0], longitude: route.longitudes[$0]) }
    }
}

/// Picks the routes worth overlaying on one map: those that start near where most routes start.
public enum RouteArea {
    /// The indices of `routes` that start in a 1° × 1° cell of start points or one of its eight
    /// neighbours (about 100 km around), for the cell whose neighbourhood holds the most starts,
    /// in order. Ties go to the cell of the earliest route.
    /// Routes without points are never chosen.
    /// - Complexity: O(n).
    public static func busiest(_ routes: [RouteLine]) -> [Int] {
        func cell(_ route: RouteLine) -> (Int, Int)? {
            guard route.count > 0 else { return nil }
            return (Int(route.latitudes[0].rounded(.down)), Int(route.longitudes[0].rounded(.down)))
        }
        var counts: [Int: Int] = [:]
        var firstSeen: [Int: Int] = [:]
        func key(_ cell: (Int, Int)) -> Int { (cell.0 + 200) * 1000 + (cell.1 + 400) }
        for (index, route) in routes.enumerated() {
            guard let c = cell(route) else { continue }
            counts[key(c), default: 0] += 1
            if firstSeen[key(c)] == nil { firstSeen[key(c)] = index }
        }
        var around: [Int: Int] = [:]
        for cell in counts.keys {
            var sum = 0
            for dLat in -1 ... 1 {
                for dLon in -1 ... 1 { sum += counts[cell + dLat * 1000 + dLon] ?? 0 }
            }
            around[cell] = sum
        }
        guard let best = around.keys.max(by: { around[$0]! != around[$1]! ? around[$0]! < around[$1]! : firstSeen[$0]! > firstSeen[$1]! }) else { return [] }
        let (lat, lon) = (best / 1000 - 200, best % 1000 - 400)
        return routes.indices.filter { index in
            guard let c = cell(routes[index]) else { return false }
            return abs(c.0 - lat) <= 1 && abs(c.1 - lon) <= 1
        }
    }
}
