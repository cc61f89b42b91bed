import Foundation
import Testing
@testable import TallyDomain
import TallyTestSupport
@testable import TallyEssentials
@testable import TallyInterchange
@testable import TallyPlatform

/// GPX, TCX and FIT files written by devices and tools (Tests/Fixtures/activities, see its README),
/// generated files of known geometry, and hostile ones.
@Suite("Activity files")
struct ActivityFileTests {
    static func fixture(_ name: String) throws -> [UInt8] {
        Array(try Data(contentsOf: PackageFiles.url("Tests/Fixtures/activities/\(name)")))
    }

    static func summary(_ name: String) throws -> RecordFields {
        try ActivityFile.summarize(try fixture(name))
    }

    @Test("Garmin Fenix 5 FIT files: the device's distance, time, start and sport")
    func fenix5() throws {
        let run = try Self.summary("fenix5-run.fit")
        #expect(run.category == "running")
        #expect(run.distanceMeters == 157.6)
        #expect(run.durationSeconds == 57)
        #expect(run.date == Timestamp.parse("2017-06-11T14:34:09Z"))
        #expect(run.track?.format == "fit")
        #expect(run.track?.elevationGainMeters == 2)
        let bike = try Self.summary("fenix5-bike.fit")
        #expect(bike.category == "cycling")
        #expect(bike.distanceMeters == 459.5)
        #expect(bike.date == Timestamp.parse("2017-06-12T16:09:22Z"))
        let walk = try Self.summary("fenix5-walk.fit")
        #expect(walk.category == "walking")
        #expect(walk.distanceMeters == 67.9)
    }

    @Test("a 9 km Fenix 2 run: device totals, and the track measured within 1% of the device")
    func fenix2() throws {
        let bytes = try Self.fixture("fenix2-run.fit")
        let run = try ActivityFile.summarize(bytes)
        #expect(run.distanceMeters == 9_008.2)
        #expect(run.durationSeconds == 2_832)
        #expect(run.track?.elevationGainMeters == 64)
        let parsed = try FITDecoder.decode(bytes)
        #expect(parsed.points.count == 2_809)
        let measured = TrackGeometry.profile(parsed.points, category: "running").distance
        #expect(abs(measured - 9_008.22) / 9_008.22 < 0.01, "measured \(measured)")
        let fiveK = try #require(run.track?.bestEfforts.first { $0.meters == 5_000 })
        #expect(fiveK.seconds > 1_200 && fiveK.seconds < 1_600)
    }

    @Test("compressed-timestamp FIT headers decode; a file without positions keeps the device's figures")
    func compressedTimestamps() throws {
        let run = try Self.summary("compressed-speed-distance.fit")
        #expect(run.distanceMeters == 10_248.7)
        #expect(run.durationSeconds == 3_883)
        #expect(run.track?.movingSeconds == 3_773)
        #expect(run.track?.bestEfforts == [])
        // Its times count from when the watch was switched on (17,217,864 s, below 0x10000000): the activity
        // message's local_timestamp, 2012-02-13 12:21:03 local at relative 17,221,751, places the start at
        // 11:16:16 local wall time (python-fitparse), read as UTC without a zone and corrected by one.
        #expect(run.date == Timestamp.parse("2012-02-13T11:16:16Z"))
        let prague = try #require(ZoneDatabase.zone(named: "Europe/Prague"))
        #expect(try ActivityFile.summarize(try Self.fixture("compressed-speed-distance.fit"), zone: prague).date == Timestamp.parse("2012-02-13T10:16:16Z"))
        // A file whose times are all relative and that has no activity message names no date: refused, never a 1990 activity.
        let relative = KnownHostileFiles.fit(record: (4, 1_000), session: [((2, 4, 0x86), 1_000), ((7, 4, 0x86), 3_600_000)])
        guard case .impossible(let reason)? = ActivityDecoderAttackTests.refusal(relative) else {
            Issue.record("a relative-time FIT file was accepted")
            return
        }
        #expect(reason.contains("0x10000000"))
    }

    @Test("FIT files that are not activities or hold nothing are refused; a file cut short imports what it holds")
    func badFIT() throws {
        #expect(throws: ActivityFileProblem.notAnActivity) { try Self.summary("weight-scale.fit") }
        // Cut mid-record: python-fitparse reads 14 records from 21:22:26 to 21:22:39 and 5.73 m before the end of the file.
        let cut = try ActivityFile.summarizeReporting(try Self.fixture("truncated.fit"))
        #expect(cut.truncated)
        #expect(cut.fields.date == Timestamp.parse("2012-04-09T21:22:26Z"))
        #expect(abs(cut.fields.durationSeconds - 13) <= 1)
        #expect(abs((cut.fields.distanceMeters ?? 0) - 5.73) < 0.1)
        #expect(try ActivityFile.summarizeReporting(try Self.fixture("fenix5-run.fit")).truncated == false)
        var lying = try Self.fixture("fenix5-run.fit")
        lying[4] = 0xFF; lying[5] = 0xFF; lying[6] = 0xFF; lying[7] = 0x7F
        // A header promising more than the file holds is a file cut short: what it holds is read.
        #expect(try ActivityFile.summarizeReporting(lying).truncated)
        var damaged = try Self.fixture("fenix5-run.fit")
        damaged[200] ^= 0x55
        #expect(throws: ActivityFileProblem.self) { try ActivityFile.summarize(damaged) }
        let header = Array(try Self.fixture("fenix5-run.fit").prefix(14))
        #expect(throws: ActivityFileProblem.truncated) { try ActivityFile.summarize(header) }
    }

    @Test("every prefix of a FIT file is refused cleanly, never a crash")
    func fitPrefixes() throws {
        let bytes = try Self.fixture("fenix5-walk.fit")
        for length in stride(from: 0, to: bytes.count - 1, by: 7) {
            _ = try? ActivityFile.summarize(Array(bytes.prefix(length)))
        }
    }

    @Test("TCX from python-tcxparser's tests: the laps' distance and time, the start and the sport")
    func tcx() throws {
        let run = try Self.summary("tcxparser-run.tcx")
        #expect(run.category == "running")
        // The laps' sum; python-tcxparser reports the last trackpoint's odometer, 4 686.31 m.
        #expect(run.distanceMeters == 4_689.2)
        #expect(abs((run.distanceMeters ?? 0) - 4_686.31) / 4_686.31 < 0.001)
        #expect(run.date == Timestamp.parse("2012-12-26T21:29:53Z"))
        #expect(run.durationSeconds == 1_992)
        // The laps add up to 1,993 s, a second more than the points span: moving time is never longer than elapsed.
        #expect(run.track?.movingSeconds == 1_992)
        #expect(run.track?.format == "tcx")
    }

    @Test("GPX 1.0 from gpxpy's tests: a track with times is an activity; waypoints only are not; no times is refused")
    func gpxFixtures() throws {
        let lake = try Self.summary("cerknicko-jezero.gpx")
        // Eight tracks, ACTIVE LOG to ACTIVE LOG #8: named after the first, not the last.
        #expect(lake.name == "ACTIVE LOG")
        #expect(lake.date == Timestamp.parse("2010-08-05T14:23:59Z"))
        #expect(lake.track?.format == "gpx")
        #expect(throws: ActivityFileProblem.noTimestamps) { try Self.summary("gpx1.0-all-fields.gpx") }
    }

    @Test("generated GPX 1.1 and 1.0, TCX and FIT of one 10 km run measure the same")
    func generatedFormats() throws {
        let points = SyntheticTrack.line(speed: 3.5, seconds: 3_000, climb: 0.1)
        let files: [(String, [UInt8])] = [
            ("gpx", Array(SyntheticTrack.gpx(points).utf8)),
            ("gpx", Array(SyntheticTrack.gpx(points, version: "1.0").utf8)),
            ("tcx", Array(SyntheticTrack.tcx(points).utf8)),
            ("fit", SyntheticTrack.fit(points)),
        ]
        for (format, bytes) in files {
            let fields = try ActivityFile.summarize(bytes)
            #expect(ActivityFile.format(of: bytes) == format)
            #expect(fields.category == "running", "\(format)")
            #expect(abs((fields.distanceMeters ?? 0) - 10_500) < 2, "\(format): \(fields.distanceMeters ?? 0)")
            #expect(fields.durationSeconds == 3_000, "\(format)")
            #expect(fields.date == 1_700_000_000_000, "\(format)")
            let tenK = fields.track?.bestEfforts.first { $0.meters == 10_000 }?.seconds ?? 0
            #expect(abs(tenK - 10_000 / 3.5) < 1, "\(format): \(tenK)")
            #expect(fields.track?.sha256 == SHA256.hex(SHA256.digest(bytes)))
        }
        let device = try ActivityFile.summarize(SyntheticTrack.fit(points, sport: 2, sessionDistance: 10_400))
        #expect(device.distanceMeters == 10_400, "the session's total wins over the measured track")
        #expect(device.category == "cycling")
    }

    @Test("hostile and broken XML: deep nesting, entity declarations, mismatched tags, truncation, empty")
    func hostileXML() throws {
        let deep = "<gpx>" + String(repeating: "<a>", count: 100_000) + String(repeating: "</a>", count: 100_000) + "</gpx>"
        let cases: [(String, String)] = [
            ("deep", deep),
            ("entities", "<?xml version=\"1.0\"?><!DOCTYPE gpx [<!ENTITY a \"aaaa\"><!ENTITY b \"&a;&a;\">]><gpx>&b;</gpx>"),
            ("mismatch", "<gpx><trk></gpx></trk>"),
            ("truncated", String(SyntheticTrack.gpx(SyntheticTrack.line(speed: 3, seconds: 10)).dropLast(30))),
            ("unknown reference", "<gpx><trk><name>&nbsp;</name></trk></gpx>"),
            ("bad attribute", "<gpx><trk><trkseg><trkpt lat=\"x\" lon=\"1\"/></trkseg></trk></gpx>"),
        ]
        for (label, text) in cases {
            #expect(throws: ActivityFileProblem.self, "\(label)") { try ActivityFile.summarize(Array(text.utf8)) }
        }
        #expect(throws: ActivityFileProblem.corrupt("the file is empty")) { try ActivityFile.summarize([]) }
        #expect(throws: ActivityFileProblem.unknownFormat) { try ActivityFile.summarize(Array("hello".utf8)) }
        #expect(throws: ActivityFileProblem.unknownFormat) { try ActivityFile.summarize(Array("<html></html>".utf8)) }
    }

    @Test("the XML reader: references, CDATA, comments, namespaces and attributes in either quotes")
    func xmlReader() throws {
        let text = "\u{FEFF}<?xml version=\"1.0\"?><!-- c --><g:root xmlns:g=\"x\" a='1 &amp; 2'><![CDATA[<raw>]]>&#x41;&#66;&lt;<e/></g:root>"
        var events: [String] = []
        try XMLReader.parse(Array(text.utf8)) { event in
            switch event {
            case .start(let name, let attributes): events.append("start \(name) \(attributes.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" })")
            case .end(let name): events.append("end \(name)")
            case .text(let value): events.append("text \(value)")
            }
        }
        #expect(events == ["start root [\"a=1 & 2\", \"g=x\"]", "text <raw>AB<", "start e []", "end e", "end root"])
    }

    @Test("sports map to categories, never across: a walk is walking, a Strava Ride is cycling")
    func sports() {
        #expect(SportCategory.category("Run") == "running")
        #expect(SportCategory.category("Ride") == "cycling")
        #expect(SportCategory.category("Biking") == "cycling")
        #expect(SportCategory.category("fit:5") == "swimming")
        #expect(SportCategory.category("fit:11") == "walking")
        #expect(SportCategory.category("Hike") == "hiking")
        #expect(SportCategory.category("Yoga") == "yoga")
        #expect(SportCategory.category("!!") == "other")
        #expect(SportCategory.category(nil) == "other")
    }
}
