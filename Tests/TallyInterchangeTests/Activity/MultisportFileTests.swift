import Foundation
import Testing
@testable import TallyDomain
import TallyTestSupport
@testable import TallyEssentials
@testable import TallyInterchange

/// Files holding several activities: a multisport FIT file (one record per leg) and GPX files with
/// tracks days apart (one record per day), and the sport codes of every device.
@Suite("Multisport and multi-day files")
struct MultisportFileTests {
    /// The legs of `fenix2-multisport.fit` as python-fitparse reads them
    /// (`Tests/Fixtures/expected/multisport.py`): sport, start (Unix s), elapsed s, distance m,
    /// ascent m, average and maximum heart rate.
    static let expectedLegs: [(category: String, start: Int64, seconds: Int, meters: Double, ascent: Double, hr: Int, maxHR: Int)] = [
        ("other", 1_440_832_484, 11_738, 25_072.1, 122, 135, 165),
        ("transition", 1_440_844_224, 335, 224.2, 30, 108, 131),
        ("running", 1_440_844_560, 2_295, 2_245.2, 732, 164, 172),
        ("transition", 1_440_846_856, 4, 3.6, 0, 164, 165),
        ("running", 1_440_846_861, 6_764, 12_740.4, 455, 158, 168),
        ("transition", 1_440_853_627, 270, 617.6, 6, 144, 167),
        ("cycling", 1_440_853_897, 3_211, 28_928.3, 234, 154, 171),
    ]

    @Test("a Fenix 2 multisport file becomes one record per leg, each as python-fitparse reads its session")
    func fenixMultisport() throws {
        let reading = try ActivityFile.read(try ActivityFileTests.fixture("fenix2-multisport.fit"))
        #expect(reading.records.count == 7)
        for (index, (record, expected)) in zip(reading.records, Self.expectedLegs).enumerated() {
            let fields = record.fields
            #expect(fields.category == expected.category, "leg \(index + 1)")
            #expect(fields.date == expected.start * 1000, "leg \(index + 1)")
            #expect(fields.durationSeconds == expected.seconds, "leg \(index + 1)")
            #expect(fields.distanceMeters == expected.meters, "leg \(index + 1)")
            #expect(fields.track?.elevationGainMeters == expected.ascent, "leg \(index + 1)")
            #expect(fields.track?.sensors?.averageHeartRate == expected.hr, "leg \(index + 1)")
            #expect(fields.track?.sensors?.maxHeartRate == expected.maxHR, "leg \(index + 1)")
            #expect(fields.track?.part == FilePart(index: index + 1, count: 7, kind: .leg))
            #expect(fields.name == "Multisport: " + ActivityFile.defaultName(expected.category))
            // Best efforts only from the leg's own category: none for a transition, a ride's distances for the ride.
            let efforts = fields.track?.bestEfforts.map(\.meters) ?? []
            #expect(Set(efforts).isSubset(of: Set(BestEfforts.distances(category: expected.category))), "leg \(index + 1)")
            #expect(efforts.allSatisfy { Double($0) <= expected.meters + 1 }, "leg \(index + 1): \(efforts)")
        }
        #expect(reading.records[1].fields.track?.bestEfforts == [])
        #expect(reading.records[6].fields.track?.bestEfforts.map(\.meters) == [10_000, 20_000])
        // Each leg has its own stream; the first keeps the file's.
        let streams = reading.records.map(\.stream)
        #expect(Set(streams).count == 7)
        #expect(streams[0] == ImportedRecord.stream(sha256: try #require(reading.records[0].fields.track?.sha256)))
        // `summarize` is the first record.
        #expect(try ActivityFile.summarize(try ActivityFileTests.fixture("fenix2-multisport.fit")).category == "other")
    }

    /// A generated multisport FIT file: records every 10 s along a line and one session per leg.
    static func multisport(_ legs: [(sport: UInt64, start: Int64, seconds: Int64)], points: Int = 0, from: Int64 = 1_700_000_000_000) -> [UInt8] {
        var writer = FITWriter()
        writer.define(local: 0, global: 0, [(0, 1, 0x00)])
        writer.message(local: 0, [4])
        writer.define(local: 1, global: 20, [(253, 4, 0x86), (0, 4, 0x85), (1, 4, 0x85), (3, 1, 0x02)])
        for index in 0..<points {
            let time = from + Int64(index) * 10_000
            writer.message(local: 1, [FITWriter.fitTime(time), UInt64(584_592_736 + index * 300), 190_887_424, 140])
        }
        writer.define(local: 2, global: 18, [(2, 4, 0x86), (7, 4, 0x86), (8, 4, 0x86), (5, 1, 0x00)])
        for leg in legs { writer.message(local: 2, [FITWriter.fitTime(leg.start), UInt64(leg.seconds * 1000), UInt64(leg.seconds * 1000), leg.sport]) }
        return writer.file()
    }

    @Test("legs are ordered by start whatever the file's order; points go to the leg whose time they fall in")
    func outOfOrder() throws {
        let start: Int64 = 1_700_000_000_000
        let file = Self.multisport([(2, start + 600_000, 600), (5, start, 600), (1, start + 1_200_000, 600)], points: 180, from: start)
        let records = try ActivityFile.read(file).records
        #expect(records.map(\.fields.category) == ["swimming", "cycling", "running"])
        #expect(records.map(\.fields.date) == [start, start + 600_000, start + 1_200_000])
        #expect(records.map(\.fields.durationSeconds) == [600, 600, 600])
        // 60 points of each leg: each leg's heart rate is its own.
        #expect(records.allSatisfy { $0.fields.track?.sensors?.averageHeartRate == 140 })
        // A session of sport multisport (18) beside legs is the device's summary: left out.
        let summarized = Self.multisport([(18, start, 1_800), (5, start, 600), (2, start + 600_000, 1_200)], points: 10, from: start)
        #expect(try ActivityFile.read(summarized).records.map(\.fields.category) == ["swimming", "cycling"])
        // One session is one record without a part.
        let single = try ActivityFile.read(Self.multisport([(1, start, 600)], points: 60, from: start))
        #expect(single.records.count == 1 && single.records[0].fields.track?.part == nil)
    }

    /// The legs of `goldencheetah-multisession.tcx` (a Forerunner 305's MultiSportSession of four
    /// activities on four days, as Garmin Connect exported it) as Python's XML parser reads them
    /// (`Tests/Fixtures/expected/multisport_tcx.py`): category, start (Unix s), time s, distance m
    /// (nil: none), average and maximum heart rate.
    static let expectedTCXLegs: [(category: String, start: Int64, seconds: Int, meters: Double?, hr: Int, maxHR: Int)] = [
        ("running", 1_322_568_720, 3_601, 7_651.0, 161, 180),
        ("cycling", 1_322_744_377, 2_768, nil, 129, 157),
        ("running", 1_323_012_388, 3_623, 9_405.0, 143, 177),
        ("cycling", 1_323_260_059, 2_598, nil, 128, 161),
    ]

    @Test("a TCX MultiSportSession becomes one record per leg, each as Python's XML parser reads it")
    func tcxMultisport() throws {
        let reading = try ActivityFile.read(try ActivityFileTests.fixture("goldencheetah-multisession.tcx"))
        #expect(reading.records.count == 4)
        for (index, (record, expected)) in zip(reading.records, Self.expectedTCXLegs).enumerated() {
            let fields = record.fields
            #expect(fields.category == expected.category, "leg \(index + 1)")
            #expect(fields.date == expected.start * 1000, "leg \(index + 1)")
            #expect(fields.durationSeconds == expected.seconds, "leg \(index + 1)")
            #expect(fields.distanceMeters.map { ($0 * 10).rounded() / 10 } == expected.meters, "leg \(index + 1)")
            #expect(fields.track?.sensors?.averageHeartRate == expected.hr, "leg \(index + 1)")
            #expect(fields.track?.sensors?.maxHeartRate == expected.maxHR, "leg \(index + 1)")
            #expect(fields.track?.part == FilePart(index: index + 1, count: 4, kind: .leg))
            #expect(fields.track?.format == "tcx")
        }
        // The runs' distances come from their laps; no position, so no best effort beyond the whole.
        #expect(Set(reading.records.map(\.stream)).count == 4)
        #expect(reading.records[0].stream == ImportedRecord.stream(sha256: try #require(reading.records[0].fields.track?.sha256)))
    }

    /// A TCX MultiSportSession written from the TCX v2 schema (`MultiSportSession_t`: `Id`,
    /// `FirstSport/Activity`, `NextSport` with an optional `Transition` (an `ActivityLap_t`) and an
    /// `Activity`): `legs` of (sport or nil, start, minutes), a point every 10 s along a line, the
    /// transitions as (start, seconds) before the leg of the same index.
    static func tcx(_ legs: [(sport: String?, start: Int64, minutes: Int)], transitions: [Int: (start: Int64, seconds: Int)] = [:], speed: Double = 3) -> [UInt8] {
        func lap(_ start: Int64, seconds: Int, meters: Double, points: Int, hr: Int, tag: String = "Lap") -> String {
            var text = "<\(tag) StartTime=\"\(Timestamp.format(start))\"><TotalTimeSeconds>\(seconds)</TotalTimeSeconds><DistanceMeters>\(meters)</DistanceMeters><Intensity>Active</Intensity><TriggerMethod>Manual</TriggerMethod><Track>"
            for index in 0..<points {
                let time = start + Int64(index) * 10_000
                let latitude = 46.0 + Double(index) * 10 * speed / 111_195
                text += "<Trackpoint><Time>\(Timestamp.format(time))</Time><Position><LatitudeDegrees>\(latitude)</LatitudeDegrees><LongitudeDegrees>14.5</LongitudeDegrees></Position><HeartRateBpm><Value>\(hr)</Value></HeartRateBpm></Trackpoint>"
            }
            return text + "</Track></\(tag)>"
        }
        var text = "<?xml version=\"1.0\" encoding=\"UTF-8\"?><TrainingCenterDatabase xmlns=\"http://www.garmin.com/xmlschemas/TrainingCenterDatabase/v2\"><Activities><MultiSportSession><Id>\(Timestamp.format(legs.first?.start ?? 0))</Id>"
        for (index, leg) in legs.enumerated() {
            text += index == 0 ? "<FirstSport>" : "<NextSport>"
            if let transition = transitions[index] {
                text += lap(transition.start, seconds: transition.seconds, meters: Double(transition.seconds), points: transition.seconds / 10 + 1, hr: 100, tag: "Transition")
            }
            let sport = leg.sport.map { " Sport=\"\($0)\"" } ?? ""
            text += "<Activity\(sport)><Id>\(Timestamp.format(leg.start))</Id>"
            text += lap(leg.start, seconds: leg.minutes * 60, meters: Double(leg.minutes * 60) * speed, points: leg.minutes * 6 + 1, hr: 120 + index * 10)
            text += "</Activity>" + (index == 0 ? "</FirstSport>" : "</NextSport>")
        }
        return Array((text + "</MultiSportSession></Activities></TrainingCenterDatabase>").utf8)
    }

    @Test("a TCX brick with transitions: every leg and transition a record of its own sport and heart rate, transitions without best efforts")
    func tcxTransitions() throws {
        let start: Int64 = 1_700_000_000_000
        let minute: Int64 = 60_000
        let file = Self.tcx(
            [("Running", start, 20), ("Biking", start + 22 * minute, 40), ("Running", start + 64 * minute, 20)],
            transitions: [1: (start + 20 * minute + 10_000, 110), 2: (start + 62 * minute + 10_000, 110)]
        )
        let records = try ActivityFile.read(file).records
        #expect(records.map(\.fields.category) == ["running", "transition", "cycling", "transition", "running"])
        #expect(records.map(\.fields.date) == [start, start + 20 * minute + 10_000, start + 22 * minute, start + 62 * minute + 10_000, start + 64 * minute])
        #expect(records.map(\.fields.durationSeconds) == [1200, 110, 2400, 110, 1200])
        #expect(records.map(\.fields.distanceMeters) == [3600, 110, 7200, 110, 3600])
        #expect(records.map { $0.fields.track?.sensors?.averageHeartRate } == [120, 100, 130, 100, 140])
        #expect(records.map { $0.fields.track?.part?.kind } == Array(repeating: .leg, count: 5))
        #expect(records[1].fields.track?.bestEfforts == [] && records[3].fields.track?.bestEfforts == [])
        // The runs hold running distances, the ride none of them (3 m/s is no cycling best).
        #expect(records[0].fields.track?.bestEfforts.map(\.meters) == [400, 1_000, 1_609])
        let rideEfforts = Set((records[2].fields.track?.bestEfforts ?? []).map(\.meters))
        #expect(rideEfforts.isSubset(of: Set(BestEfforts.distances(category: "cycling"))))
        #expect(records.map(\.fields.name) == records.map { "Multisport: " + ActivityFile.defaultName($0.fields.category) })
        // A TCX file whose first Activity is no leg stays its first activity, as before.
        let plain = try ActivityFile.read(try ActivityFileTests.fixture("tcxparser-run.tcx"))
        #expect(plain.records.count == 1 && plain.records[0].fields.track?.part == nil)
    }

    /// A GPX file of tracks, each a line of `points` points 10 s apart starting at its time.
    static func gpx(_ tracks: [(name: String, start: Int64)], points: Int = 30, type: String? = nil) -> [UInt8] {
        var text = "<?xml version=\"1.0\"?><gpx version=\"1.1\" creator=\"test\" xmlns=\"http://www.topografix.com/GPX/1/1\">"
        for (number, track) in tracks.enumerated() {
            text += "<trk><name>\(track.name)</name>" + (type.map { "<type>\($0)</type>" } ?? "") + "<trkseg>"
            for index in 0..<points {
                let lat = 46.0 + Double(number) * 0.1 + Double(index) * 0.0003
                text += "<trkpt lat=\"\(lat)\" lon=\"14.5\"><time>\(Timestamp.format(track.start + Int64(index) * 10_000))</time></trkpt>"
            }
            text += "</trkseg></trk>"
        }
        return Array((text + "</gpx>").utf8)
    }

    @Test("GPX tracks six hours or more apart are records of their own; closer tracks stay one record with no distance between them")
    func gpxDays() throws {
        let morning: Int64 = 1_700_000_000_000
        let hour: Int64 = 3_600_000
        let days = try ActivityFile.read(Self.gpx([("Day 1", morning), ("Day 2", morning + 24 * hour), ("Day 3", morning + 48 * hour)], type: "hiking")).records
        #expect(days.map(\.fields.name) == ["Day 1", "Day 2", "Day 3"])
        #expect(days.map(\.fields.date) == [morning, morning + 24 * hour, morning + 48 * hour])
        #expect(days.map(\.fields.durationSeconds) == [290, 290, 290])
        #expect(days.map(\.fields.category) == ["hiking", "hiking", "hiking"])
        #expect(days.map { $0.fields.track?.part } == (1...3).map { FilePart(index: $0, count: 3, kind: .day) })
        let oneDay = try #require(days.first?.fields.distanceMeters)
        // Two tracks an hour apart (a lunch stop): one record, named after the first, no distance between them.
        let lunch = try ActivityFile.read(Self.gpx([("Morning", morning), ("Afternoon", morning + hour)])).records
        #expect(lunch.count == 1 && lunch[0].fields.track?.part == nil && lunch[0].fields.name == "Morning")
        #expect(abs((lunch[0].fields.distanceMeters ?? 0) - 2 * oneDay) < 1)
        // Exactly six hours after the last point splits; a minute less does not.
        let end = morning + 29 * 10_000
        #expect(try ActivityFile.read(Self.gpx([("A", morning), ("B", end + 6 * hour)])).records.count == 2)
        #expect(try ActivityFile.read(Self.gpx([("A", morning), ("B", end + 6 * hour - 60_000)])).records.count == 1)
        // Tracks out of time order never split.
        #expect(try ActivityFile.read(Self.gpx([("Late", morning + 48 * hour), ("Early", morning)])).records.count == 1)
        // A name given (a Strava CSV) names the days.
        let named = try ActivityFile.read(Self.gpx([("a", morning), ("b", morning + 24 * hour)]), name: "Alps").records
        #expect(named.map(\.fields.name) == ["Alps (day 1 of 2)", "Alps (day 2 of 2)"])
    }

    @Test("FIT sport and sub-sport numbers, GPX types with Strava's numbers, TCX sports map to categories", arguments: [
        ("fit:1", "running"), ("fit:2", "cycling"), ("fit:3", "transition"), ("fit:5", "swimming"), ("fit:11", "walking"),
        ("fit:17", "hiking"), ("fit:16", "hiking"), ("fit:12", "skiing"), ("fit:13", "skiing"), ("fit:15", "rowing"),
        ("fit:19", "paddling"), ("fit:37", "paddling"), ("fit:41", "paddling"), ("fit:30", "skating"), ("fit:43", "windsurfing"),
        ("fit:21", "cycling"), ("fit:22", "motorcycling"), ("fit:4", "gym"), ("fit:10", "gym"), ("fit:18", "other"), ("fit:0", "other"),
        ("fit:4:14", "rowing"), ("fit:4:15", "gym"), ("fit:10:43", "yoga"), ("fit:0:45", "running"), ("fit:1:1", "running"),
        ("fit:2:6", "cycling"), ("fit:5:17", "swimming"), ("fit:2:14", "cycling"), ("fit:200", "other"), ("fit:x", "other"), ("fit:1:2:3", "other"),
        ("9", "running"), ("1", "cycling"), ("10", "walking"), ("4", "hiking"), ("16", "swimming"), ("17", "cycling"), ("23", "rowing"),
        ("29", "gym"), ("53", "running"), ("999", "other"), ("Biking", "cycling"), ("Running", "running"), ("Other", "other"),
        ("Multisport", "other"), ("TrailRun", "running"), ("EMountainBikeRide", "cycling"), ("Canoeing", "paddling"),
        ("IceSkate", "skating"), ("Snowshoe", "hiking"), ("Yoga", "yoga"), ("Transition", "transition"),
    ])
    func sportCodes(_ code: String, _ category: String) {
        #expect(SportCategory.category(code) == category)
    }

    @Test("every FIT sport number the profile names maps to a valid category, never across (motorcycling is no ride)")
    func everyFITSport() throws {
        for number in SportCategory.fitSports.keys {
            let category = SportCategory.category("fit:\(number)")
            #expect((try? Validation.category(category)) == category, "fit:\(number)")
        }
        #expect(SportCategory.category("fit:22") != "cycling")
    }
}
