import Foundation
import Testing
@testable import TallyDomain
import TallyTestSupport
@testable import TallyInterchange

/// Distance, moving time, elevation gain and best efforts on tracks of known geometry.
@Suite("Activity geometry")
struct ActivityGeometryTests {
    static func fields(_ points: [TrackPoint], category: String = "running") throws -> RecordFields {
        let parsed = ParsedActivity(sport: category, points: points)
        return try ActivityFile.fields(parsed, format: "gpx", sha256: String(repeating: "a", count: 64), name: nil, category: category)
    }

    static func effort(_ fields: RecordFields, _ meters: Int) -> Double? {
        fields.track?.bestEfforts.first { $0.meters == meters }?.seconds
    }

    @Test("a straight 12 km line at 4 m/s: distance, times and every best effort as computed by hand")
    func straightLine() throws {
        let fields = try Self.fields(SyntheticTrack.line(speed: 4, seconds: 3_000))
        let distance = try #require(fields.distanceMeters)
        #expect(abs(distance - 12_000) < 1)
        #expect(fields.durationSeconds == 3_000)
        #expect(fields.track?.movingSeconds == 3_000)
        #expect(fields.date == 1_700_000_000_000)
        #expect(fields.category == "running")
        #expect(fields.source == .import)
        #expect(Self.effort(fields, 400) == 100)
        #expect(Self.effort(fields, 1_000) == 250)
        #expect(abs((Self.effort(fields, 1_609) ?? 0) - 402.25) <= 0.051)
        #expect(Self.effort(fields, 5_000) == 1_250)
        #expect(Self.effort(fields, 10_000) == 2_500)
        #expect(Self.effort(fields, 21_097) == nil, "a half marathon is longer than the track")
    }

    @Test("a pause counts in elapsed time and in efforts across it, not in moving time")
    func pause() throws {
        // 6 km at 4 m/s with two minutes standing at 3 km: every 5 km stretch spans the pause.
        let fields = try Self.fields(SyntheticTrack.line(speed: 4, seconds: 1_500, pauses: [(at: 750, length: 120)]))
        #expect(fields.durationSeconds == 1_620)
        #expect(fields.track?.movingSeconds == 1_499, "the one-second step that holds the pause counts as standing")
        #expect(Self.effort(fields, 5_000) == 1_370)
        #expect(Self.effort(fields, 1_000) == 250, "a kilometre fits before the pause")
    }

    @Test("a GPS jump of 5 km is dropped: distance and efforts are those of the clean track")
    func gpsJump() throws {
        var points = SyntheticTrack.line(speed: 4, seconds: 1_500)
        let clean = try Self.fields(points)
        points[700].latitude += 5_000 / SyntheticTrack.metersPerDegree
        let jumped = try Self.fields(points)
        #expect(abs((jumped.distanceMeters ?? 0) - (clean.distanceMeters ?? 0)) < 0.5)
        #expect(Self.effort(jumped, 400) == 100)
        #expect(Self.effort(jumped, 5_000) == 1_250)
        let profile = TrackGeometry.profile(points, category: "running")
        #expect(profile.dropped == 1)
    }

    @Test("a real relocation (the track stays away) adds no distance for the gap, and no point is lost")
    func relocation() throws {
        var points = SyntheticTrack.line(speed: 4, seconds: 1_000)
        for index in 500..<points.count { points[index].longitude += 0.5 }
        let profile = TrackGeometry.profile(points, category: "running")
        #expect(profile.dropped == 0)
        #expect(abs(profile.distance - 3_996) < 1, "999 steps of 4 m, the jump between 499 and 500 not counted")
    }

    @Test("out and back along the equator: the loop's length is twice the leg")
    func outAndBack() throws {
        let fields = try Self.fields(SyntheticTrack.outAndBack(speed: 5, length: 2_600))
        #expect(abs((fields.distanceMeters ?? 0) - 5_200) < 1)
        #expect(Self.effort(fields, 5_000) == 1_000)
    }

    @Test("efforts interpolate inside a step: a faster first kilometre is found exactly")
    func interpolation() throws {
        // 1 km at 5 m/s then 2 km at 2.5 m/s.
        var points = SyntheticTrack.line(speed: 5, seconds: 200)
        let rest = SyntheticTrack.line(start: points.last!.time! + 1_000, latitude: points.last!.latitude + 2.5 / SyntheticTrack.metersPerDegree, speed: 2.5, seconds: 799)
        points += rest
        let fields = try Self.fields(points)
        #expect(Self.effort(fields, 1_000) == 200)
        #expect(Self.effort(fields, 400) == 80)
    }

    @Test("the haversine agrees with the WGS-84 length of a degree of latitude at 45° within 0.5%")
    func haversineAccuracy() {
        // 111 132.95 m: the ellipsoid's meridian arc from 44.5° to 45.5°.
        let a = TrackPoint(time: nil, latitude: 44.5, longitude: 10), b = TrackPoint(time: nil, latitude: 45.5, longitude: 10)
        #expect(abs(TrackGeometry.distance(a, b) - 111_132.95) / 111_132.95 < 0.005)
    }

    @Test("elevation gain ignores noise under 3 m and counts real climbs")
    func elevation() throws {
        var points = SyntheticTrack.line(speed: 4, seconds: 100, climb: 0.5)
        // 50 m of climb counted in confirmed rises of 3.5 m: the last 1 m never passes the noise threshold.
        #expect(try Self.fields(points).track?.elevationGainMeters == 49)
        for index in points.indices { points[index].elevation = 200 + (index % 2 == 0 ? 0 : 2) }
        #expect(try Self.fields(points).track?.elevationGainMeters == 0)
    }

    @Test("points out of time order or without time are dropped; fewer than two timed points is no activity")
    func timestamps() throws {
        var points = SyntheticTrack.line(speed: 4, seconds: 100)
        points[50].time = points[10].time
        points[60].time = nil
        let profile = TrackGeometry.profile(points, category: "running")
        #expect(profile.dropped == 2)
        #expect(throws: ActivityFileProblem.noTimestamps) { try Self.fields([points[0]]) }
        let untimed = points.map { TrackPoint(time: nil, latitude: $0.latitude, longitude: $0.longitude) }
        #expect(throws: ActivityFileProblem.noTimestamps) { try Self.fields(untimed) }
    }

    @Test("cycling gets cycling distances, running the foot ones")
    func cyclingDistances() throws {
        let ride = try Self.fields(SyntheticTrack.line(speed: 10, seconds: 2_100), category: "cycling")
        #expect(ride.track?.bestEfforts.map(\.meters) == [10_000, 20_000])
        #expect(Self.effort(ride, 20_000) == 2_000)
    }
}
