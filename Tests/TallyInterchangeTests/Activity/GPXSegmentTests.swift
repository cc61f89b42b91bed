import Foundation
import Testing
@testable import TallyDomain
import TallyTestSupport
@testable import TallyInterchange

/// GPX files of several tracks or segments: the way between them was not recorded.
@Suite("GPX tracks and segments")
struct GPXSegmentTests {
    static func points(_ points: [TrackPoint]) -> String {
        points.map { "<trkpt lat=\"\($0.latitude)\" lon=\"\($0.longitude)\"><time>\(Timestamp.format($0.time!))</time></trkpt>" }.joined()
    }

    @Test("the distance between two segments or two tracks never counts; the file is named after its first track")
    func gaps() throws {
        let start: Int64 = 1_700_000_000_000
        let first = SyntheticTrack.line(start: start, latitude: 49.0, speed: 3, seconds: 600)
        // An hour later, 50 km further north: a jump no runner makes, but the file says it is another segment.
        let second = SyntheticTrack.line(start: start + 4_200_000, latitude: 49.45, speed: 3, seconds: 600)
        let segments = "<gpx version=\"1.1\"><trk><name>Morning</name><type>running</type><trkseg>\(Self.points(first))</trkseg><trkseg>\(Self.points(second))</trkseg></trk></gpx>"
        let run = try ActivityFile.summarize(Array(segments.utf8))
        #expect(abs((run.distanceMeters ?? 0) - 3_600) < 1, "\(String(describing: run.distanceMeters))")
        #expect(run.name == "Morning")
        #expect(try #require(run.track).movingSeconds == 1_200)
        let tracks = "<gpx version=\"1.1\"><trk><name>First</name><type>running</type><trkseg>\(Self.points(first))</trkseg></trk><trk><name>Last</name><type>cycling</type><trkseg>\(Self.points(second))</trkseg></trk></gpx>"
        let two = try ActivityFile.summarize(Array(tracks.utf8))
        #expect(two.name == "First")
        #expect(two.category == "running")
        #expect(abs((two.distanceMeters ?? 0) - 3_600) < 1)
        // No best effort is faster than the runner was: 1 km in about 333 s at 3 m/s.
        let kilometre = try #require(two.track?.bestEfforts.first { $0.meters == 1_000 })
        #expect(abs(kilometre.seconds - 333.3) < 1)
    }
}

/// Best efforts faster than the world record are never kept.
@Suite("best efforts and world records")
struct WorldRecordTests {
    @Test("a run at 12 m/s (a car, or a ride recorded as a run) keeps no best effort faster than the world record")
    func filtered() throws {
        // 12 m/s passes the GPS filter on foot but beats every world record from 400 m (43.03 s) to the marathon.
        let fast = SyntheticTrack.line(speed: 11.9, seconds: 4_000)
        let run = try ActivityFile.summarize(Array(SyntheticTrack.gpx(fast).utf8))
        #expect(run.track?.bestEfforts == [])
        // At 6 m/s (a 2:46 km) the efforts are slower than the records and kept; the marathon is too long for the track.
        let quick = try ActivityFile.summarize(Array(SyntheticTrack.gpx(SyntheticTrack.line(speed: 6, seconds: 4_000)).utf8))
        #expect(quick.track?.bestEfforts.map(\.meters) == [400, 1_000, 1_609, 5_000, 10_000, 21_097])
        // The same speed is fine on a bike.
        #expect(!BestEfforts.beatsWorldRecord(TrackEffort(meters: 10_000, seconds: 840), category: "cycling"))
        #expect(BestEfforts.beatsWorldRecord(TrackEffort(meters: 400, seconds: 43.0), category: "walking"))
        #expect(!BestEfforts.beatsWorldRecord(TrackEffort(meters: 400, seconds: 43.03), category: "running"))
    }

    @Test("the records on foot bound every sport a person moves in by their own strength, not the ones skis, blades, an engine, the wind or a horse carry")
    func worldRecordCategories() {
        let fast = TrackEffort(meters: 400, seconds: 25)
        for category in ["running", "walking", "hiking", "swimming", "paddling", "rowing", "other", "climbing"] {
            #expect(BestEfforts.beatsWorldRecord(fast, category: category), "\(category)")
        }
        for category in ["cycling", "skiing", "snowboarding", "skating", "motorcycling", "driving", "sailing", "kitesurfing", "horsebackriding"] {
            #expect(!BestEfforts.beatsWorldRecord(fast, category: category), "\(category)")
        }
        // Every category exempt is one a FIT sport maps to, so the list names no category tally never gives.
        let fitCategories = Set(SportCategory.fitSports.keys.map { SportCategory.category("fit:\($0)") })
        #expect(BestEfforts.fasterThanOnFoot.isSubset(of: fitCategories), "\(BestEfforts.fasterThanOnFoot.subtracting(fitCategories))")
    }
}
