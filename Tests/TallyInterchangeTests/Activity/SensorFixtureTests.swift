import Foundation
import Testing
@testable import TallyDomain
import TallyTestSupport
@testable import TallyInterchange

/// Heart rate, cadence and power read from real files. The expected figures were computed by
/// Tests/Fixtures/expected/sensors.py with python-fitparse (FIT) and Python's XML parser (TCX),
/// by the method of docs/guide/training.md, and are also compared with what the device itself
/// wrote in the session message (within 1 bpm / 1 W).
@Suite("sensor figures from real files")
struct SensorFixtureTests {
    static func sensors(_ name: String) throws -> SensorSummary? {
        try ActivityFileTests.summary(name).track?.sensors
    }

    @Test("a Garmin Edge 810 ride with a power meter: heart rate, cadence, power and normalised power as the device computed them")
    func edge810() throws {
        let sensors = try #require(try Self.sensors("edge810-vector-ride.fit"))
        #expect(sensors == SensorSummary(averageHeartRate: 154, maxHeartRate: 176, averageCadence: 87, averagePower: 276, normalizedPower: 301))
        #expect(try ActivityFileTests.summary("edge810-vector-ride.fit").track?.analysisVersion == SensorAnalysis.version)
    }

    @Test("an indoor trainer ride without positions still has its sensors")
    func indoorTrainer() throws {
        let sensors = try #require(try Self.sensors("indoor-trainer.fit"))
        // The device wrote 148 / 176 / 82 / 201 / 228 in its session.
        #expect(sensors == SensorSummary(averageHeartRate: 148, maxHeartRate: 176, averageCadence: 81, averagePower: 201, normalizedPower: 228))
    }

    @Test("developer fields are skipped: the run with Stryd-style developer data reads its standard power")
    func developerFields() throws {
        let sensors = try #require(try Self.sensors("developer-fields-run.fit"))
        // The device wrote an average power of 218 W (session); no average heart rate.
        #expect(sensors == SensorSummary(averageHeartRate: 131, maxHeartRate: 146, averageCadence: 75, averagePower: 219, normalizedPower: 220))
    }

    @Test("a Fenix 5 run and a TCX run with HeartRateBpm")
    func smallFiles() throws {
        #expect(try Self.sensors("fenix5-run.fit") == SensorSummary(averageHeartRate: 89, maxHeartRate: 112, averageCadence: 80))
        #expect(try Self.sensors("tcxparser-run.tcx") == SensorSummary(averageHeartRate: 160, maxHeartRate: 189))
    }

    @Test("a real GPX ride with TrackPointExtension hr and cad and PowerInWatts, in two segments (Urban Biker)")
    func gpxRide() throws {
        let ride = try ActivityFileTests.summary("urbanbiker-ride.gpx")
        // gpxpy and the method of docs/guide/training.md (../expected/sensors.py): 131.84 bpm, max 182,
        // cadence 53.55, power 177.68 W, normalised 224.02 W.
        #expect(ride.track?.sensors == SensorSummary(averageHeartRate: 132, maxHeartRate: 182, averageCadence: 54, averagePower: 178, normalizedPower: 224))
        // 14:12:19 to 15:16:29.928 (gpxpy), and the distance within 1 % of gpxpy's 21,140.0 m over the two segments.
        #expect(ride.durationSeconds == 3_851)
        let distance = try #require(ride.distanceMeters)
        #expect(abs(distance - 21_140.0) / 21_140.0 < 0.01, "\(distance)")
        #expect(ride.name == "Rose X-Lite CRS Force – Do., 18. Apr. 2019, 16:12")
    }

    @Test("GPX TrackPointExtension hr and cad and a power extension, whatever the prefix; TCX Cadence, RunCadence and Watts")
    func generatedExtensions() throws {
        let start: Int64 = 1_700_000_000_000
        var points = ""
        var tcxPoints = ""
        for second in 0...120 {
            let time = Timestamp.format(start + Int64(second) * 1000)
            let lat = 49.0 + Double(second) * 3 / SyntheticTrack.metersPerDegree
            let hr = second < 60 ? 140 : 160
            points += """
                <trkpt lat="\(lat)" lon="16.0"><time>\(time)</time><extensions><gpxtpx:TrackPointExtension>\
                <gpxtpx:hr>\(hr)</gpxtpx:hr><gpxtpx:cad>90</gpxtpx:cad></gpxtpx:TrackPointExtension><power>200</power></extensions></trkpt>

                """
            tcxPoints += """
                <Trackpoint><Time>\(time)</Time><Position><LatitudeDegrees>\(lat)</LatitudeDegrees><LongitudeDegrees>16.0</LongitudeDegrees></Position>\
                <HeartRateBpm><Value>\(hr)</Value></HeartRateBpm><Cadence>80</Cadence><Extensions><ns3:TPX><ns3:Watts>\(second < 60 ? 100 : 300)</ns3:Watts></ns3:TPX></Extensions></Trackpoint>

                """
        }
        let gpx = """
            <?xml version="1.0"?><gpx version="1.1" xmlns:gpxtpx="http://www.garmin.com/xmlschemas/TrackPointExtension/v1">
            <trk><name>Ride</name><type>cycling</type><trkseg>
            \(points)</trkseg></trk></gpx>
            """
        let gpxSensors = try #require(try ActivityFile.summarize(Array(gpx.utf8)).track?.sensors)
        // 60 s at 140 and 60 s at 160 (the last point holds for nothing): 150 on average.
        #expect(gpxSensors == SensorSummary(averageHeartRate: 150, maxHeartRate: 160, averageCadence: 90, averagePower: 200, normalizedPower: 200))
        let tcx = """
            <TrainingCenterDatabase xmlns:ns3="http://www.garmin.com/xmlschemas/ActivityExtension/v2"><Activities><Activity Sport="Biking">
            <Id>\(Timestamp.format(start))</Id><Lap><Track>\(tcxPoints)</Track></Lap></Activity></Activities></TrainingCenterDatabase>
            """
        let tcxSensors = try #require(try ActivityFile.summarize(Array(tcx.utf8)).track?.sensors)
        // Normalised power of 60 s at 100 W then 60 s at 300 W, by hand: the 91 rolling 30-s averages are
        // 31 x 100 (windows ending at 29...59), 29 ramping (100 + 200k/30, k = 1...29) and 31 x 300.
        func fourthPower(_ x: Double) -> Double { x * x * x * x }
        var fourth: Double = 31 * fourthPower(100) + 31 * fourthPower(300)
        for k in 1...29 { fourth += fourthPower(100 + 200 * Double(k) / 30) }
        let expectedNP = Int((fourth / 91).squareRoot().squareRoot().rounded())
        #expect(tcxSensors == SensorSummary(averageHeartRate: 150, maxHeartRate: 160, averageCadence: 80, averagePower: 200, normalizedPower: expectedNP))
        let run = tcx.replacingOccurrences(of: "<Cadence>80</Cadence>", with: "").replacingOccurrences(of: "</ns3:Watts>", with: "</ns3:Watts><ns3:RunCadence>88</ns3:RunCadence>")
        #expect(try ActivityFile.summarize(Array(run.utf8)).track?.sensors?.averageCadence == 88)
    }

    @Test("the analysis: gaps over 60 s are pauses, the last sample holds for nothing, less than 30 s of power has no normalised power")
    func analysis() {
        let t: Int64 = 1_700_000_000_000
        // 10 s at 100 bpm, a 5-minute pause, 10 s at 200 bpm.
        var samples = (0..<10).map { SensorSample(time: t + Int64($0) * 1000, heartRate: 100) }
        samples.append(SensorSample(time: t + 10_000, heartRate: 100))
        samples += (0...10).map { SensorSample(time: t + 310_000 + Int64($0) * 1000, heartRate: 200) }
        #expect(SensorAnalysis.summary(samples)?.averageHeartRate == 150)
        #expect(SensorAnalysis.weights(samples)[10] == 0, "the sample before the pause holds for nothing")
        // Out of order and duplicated instants read as sorted, the first of an instant kept.
        #expect(SensorAnalysis.summary(samples.reversed() + samples)?.averageHeartRate == 150)
        let short = (0..<20).map { SensorSample(time: t + Int64($0) * 1000, power: 250) }
        #expect(SensorAnalysis.summary(short) == SensorSummary(averagePower: 250))
        let steady = (0..<100).map { SensorSample(time: t + Int64($0) * 1000, power: 250) }
        #expect(SensorAnalysis.summary(steady)?.normalizedPower == 250)
        #expect(SensorAnalysis.summary([]) == nil)
        #expect(SensorAnalysis.summary([SensorSample(time: t)]) == nil)
    }

    @Test("track payloads: sensors and analysis round-trip; a payload written before them reads as analysis 1 without sensors")
    func payloads() throws {
        let sha = String(repeating: "a", count: 64)
        let track = TrackSummary(sha256: sha, format: "fit", movingSeconds: 60, sensors: SensorSummary(averageHeartRate: 150, normalizedPower: 230), analysisVersion: 2)
        let encoded = TrackPayload.encode(track)
        #expect(TrackPayload.decode(encoded) == track)
        #expect(encoded["sensors"]?.objectValue?.keys.sorted() == ["averageHeartRate", "normalizedPower"])
        var old = encoded
        old["analysis"] = nil
        old["sensors"] = nil
        #expect(TrackPayload.decode(old) == TrackSummary(sha256: sha, format: "fit", movingSeconds: 60))
        // record.edited schema 1 (before `track`) upcasts unchanged; schema 2 carries a new analysis.
        let edit = try EventCatalog.decode(type: "record.edited", schema: 1, data: ["name": .string("Ride")])
        #expect(edit == .recordEdited(RecordChanges(name: "Ride")))
        let analysed = try EventCatalog.decode(type: "record.edited", schema: 2, data: ["track": .object(encoded)])
        #expect(analysed == .recordEdited(RecordChanges(track: track)))
    }
}
