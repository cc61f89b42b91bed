
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Distances on the Earth and the clean-up of a raw track.
///
/// Distance is the haversine great-circle distance on a sphere of the mean Earth radius
/// (6 371 008.8 m); against the WGS-84 ellipsoid it is off by at most 0.5 %, usually far less.
///
/// The filter (documented in docs/guide/activities.md): points without a time (or one outside the years
/// 0001-9999), without a finite position on the globe, and points whose time does not
/// advance past the previous kept point, are dropped. A point that could only be reached from the
/// previous kept point faster than the sport's top speed (`maxSpeed`) is a GPS jump: when the
/// point after it is plausible from the previous kept point again, the jump is dropped; when the
/// track stays there (a real relocation, a tunnel), the point is kept but the gap adds no distance.
public enum TrackGeometry {
    public static let earthRadius = 6_371_008.8

    /// Great-circle distance in metres between two positions in degrees.
    public static func distance(_ a: TrackPoint, _ b: TrackPoint) -> Double {
        let rad = Double.pi / 180
        let phi1 = a.latitude * rad, phi2 = b.latitude * rad
        let dPhi = phi2 - phi1, dLambda = (b.longitude - a.longitude) * rad
        let h = sin(dPhi / 2) * sin(dPhi / 2) + cos(phi1) * cos(phi2) * sin(dLambda / 2) * sin(dLambda / 2)
        return 2 * earthRadius * asin(min(1, sqrt(h)))
    }

    /// Top plausible speed in m/s for a category: on foot 12, on a bike 35, anything else 60.
    public static func maxSpeed(category: String) -> Double {
        switch category {
        case "running", "walking", "hiking", "swimming": 12
        case "cycling": 35
        default: 60
        }
    }

    /// Below this speed (m/s) a stretch between two points counts as standing still.
    public static let movingThreshold = 0.5
    /// Elevation changes smaller than this (m) are treated as noise.
    public static let elevationNoise = 3.0

    /// The kept points of a track with their running distance.
    public struct Profile: Sendable, Equatable {
        /// Seconds since the first kept point.
        public var seconds: [Double] = []
        /// Metres along the track from the first kept point.
        public var meters: [Double] = []
        public var start: Int64 = 0
        public var movingSeconds = 0.0
        public var elevationGain = 0.0
        public var hasElevation = false
        /// How many points the filter dropped.
        public var dropped = 0
        /// The height of each kept point, when it has a finite one.
        public var elevations: [Double?] = []

        public var distance: Double { meters.last ?? 0 }
        public var elapsed: Double { seconds.last ?? 0 }
    }

    /// Filters `points` (see the type's documentation) and measures what is left.
    /// - Complexity: O(n).
    public static func profile(_ points: [TrackPoint], category: String) -> Profile {
        let limit = maxSpeed(category: category)
        var profile = Profile()
        var last: TrackPoint?
        var lastTime: Int64 = 0
        var total = 0.0
        var elevationBase: Double?
        var index = 0
        profile.seconds.reserveCapacity(points.count)
        profile.meters.reserveCapacity(points.count)
        while index < points.count {
            let point = points[index]
            index += 1
            guard let time = point.time, Timestamp.supportedRange.contains(time), point.latitude.isFinite, point.longitude.isFinite,
                  abs(point.latitude) <= 90, abs(point.longitude) <= 180 else {
                profile.dropped += 1
                continue
            }
            guard let previous = last else {
                last = point
                lastTime = time
                profile.start = time
                profile.seconds.append(0)
                profile.meters.append(0)
                profile.elevations.append(point.elevation.flatMap { $0.isFinite ? $0 : nil })
                elevationBase = point.elevation
                continue
            }
            guard time > lastTime else {
                profile.dropped += 1
                continue
            }
            let dt = Double(time - lastTime) / 1000
            // Between two GPX segments or tracks the way was not recorded: no distance, no moving time.
            var step = point.startsSegment ? 0 : distance(previous, point)
            if step / dt > limit {
                if index < points.count, let nextTime = points[index].time, nextTime > lastTime,
                   distance(previous, points[index]) / (Double(nextTime - lastTime) / 1000) <= limit {
                    profile.dropped += 1
                    continue
                }
                step = 0
            }
            total += step
            if step / dt >= movingThreshold { profile.movingSeconds += dt }
            if let elevation = point.elevation, elevation.isFinite {
                profile.hasElevation = true
                if let base = elevationBase {
                    if elevation > base + elevationNoise {
                        profile.elevationGain += elevation - base
                        elevationBase = elevation
                    } else if elevation < base {
                        elevationBase = elevation
                    }
                } else {
                    elevationBase = elevation
                }
            }
            profile.seconds.append(Double(time - profile.start) / 1000)
            profile.meters.append(total)
            profile.elevations.append(point.elevation.flatMap { $0.isFinite ? $0 : nil })
            last = point
            lastTime = time
        }
        return profile
    }
}
