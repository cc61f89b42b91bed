import Foundation
import Testing
@testable import TallyDomain
import TallyTestSupport
@testable import TallyEssentials
@testable import TallyInterchange

/// Hostile sensor values in files and in events: none may trap; a file keeps only values inside
/// `SensorLimits` (a dropout is no value, never a refusal), and an event whose sensor figures or
/// analysis version are past the limits is refused at every door.
@Suite("sensor values under attack")
struct SensorAttackTests {
    static let start = KnownHostileFiles.start

    /// A FIT activity whose records carry heart rate, cadence and power at the given widths and values.
    static func fit(widths: (UInt8, UInt8, UInt8), values: [(UInt64, UInt64, UInt64)], step: UInt64 = 1) -> [UInt8] {
        var writer = FITWriter()
        writer.define(local: 0, global: 0, [(0, 1, 0x00)])
        writer.message(local: 0, [4])
        writer.define(local: 1, global: 20, [(253, 4, 0x86), (3, widths.0, 0x02), (4, widths.1, 0x02), (7, widths.2, 0x84)], developerFields: [3])
        for (index, value) in values.enumerated() {
            writer.message(local: 1, [start &+ UInt64(index) &* step, value.0, value.1, value.2])
        }
        writer.define(local: 2, global: 18, KnownHostileFiles.plainSession.map(\.0))
        writer.message(local: 2, KnownHostileFiles.plainSession.map(\.1))
        return writer.file()
    }

    static func inside(_ sensors: SensorSummary?) -> Bool {
        guard let sensors else { return true }
        let hr = [sensors.averageHeartRate, sensors.maxHeartRate].compactMap { $0 }.allSatisfy(SensorLimits.heartRate.contains)
        let cadence = sensors.averageCadence.map(SensorLimits.cadence.contains) ?? true
        let power = [sensors.averagePower, sensors.normalizedPower].compactMap { $0 }.allSatisfy(SensorLimits.power.contains)
        return hr && cadence && power
    }

    @Test("FIT heart rate, cadence and power at every width's extremes: dropouts are left out, the rest kept")
    func fitExtremes() throws {
        let extremes: [UInt64] = [0, 1, 24, 25, 250, 251, 254, 255, 2_500, 2_501, 0xFFFE, 0xFFFF, 1 << 31, 0xFFFF_FFFF, 1 << 63, .max - 1, .max]
        for width: UInt8 in [1, 2, 4, 8] {
            let values = extremes.map { ($0, $0, $0) }
            let fields = try ActivityFile.summarize(Self.fit(widths: (width, width, width), values: values))
            #expect(Self.inside(fields.track?.sensors), "width \(width): \(String(describing: fields.track?.sensors))")
            #expect(EventRules.recordProblem(fields) == nil)
        }
        // All-dropout values: no sensor figures at all, the record still imported.
        let dropouts = try ActivityFile.summarize(Self.fit(widths: (1, 1, 2), values: Array(repeating: (255, 255, 0xFFFF), count: 50)))
        #expect(dropouts.track?.sensors == nil)
        // A strap that reads 0 is a dropout, 250 is kept; a cadence of 0 is a value (coasting); power 2,501 W is not a human's.
        let edges = try ActivityFile.summarize(Self.fit(widths: (1, 1, 2), values: [(0, 0, 2_501), (250, 250, 2_500), (250, 250, 2_500)]))
        #expect(edges.track?.sensors == SensorSummary(averageHeartRate: 250, maxHeartRate: 250, averageCadence: 125, averagePower: 2_500))
    }

    @Test("random FIT sensor values, widths and time steps never trap and stay inside the limits")
    func fitRandom() throws {
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<AttackScale.count(short: 200, full: 20_000) {
            let widths = ([1, 2, 4, 8] as [UInt8]).randomElement(using: &generator) ?? 1
            let count = Int.random(in: 0...80, using: &generator)
            let values = (0..<count).map { _ in (UInt64.random(in: 0...300, using: &generator), UInt64.random(in: 0...UInt64.max, using: &generator), UInt64.random(in: 0...3_000, using: &generator)) }
            let step = [0, 1, 59, 60, 61, 3_600, 1 << 20].randomElement(using: &generator) ?? 1
            let bytes = Self.fit(widths: (widths, widths, widths), values: values, step: UInt64(step))
            switch Result(catching: { () throws(ActivityFileProblem) in try ActivityFile.summarize(bytes) }) {
            case .success(let fields):
                #expect(Self.inside(fields.track?.sensors))
                #expect(EventRules.recordProblem(fields) == nil)
            case .failure:
                break
            }
        }
    }

    @Test("GPX and TCX sensor texts that break number parsing are dropouts", arguments: [
        "NaN", "nan", "inf", "-inf", "1e308", "-1e308", "-1", "1e-320", "0x96", "", " ", "abc", "150abc", "999999999999999999999999999",
        String(repeating: "9", count: 10_000), "1.5e2", "\u{0660}", "-0",
    ])
    func xmlTexts(_ value: String) throws {
        let start: Int64 = 1_700_000_000_000
        var points = ""
        var trackpoints = ""
        for second in 0..<40 {
            let time = Timestamp.format(start + Int64(second) * 1000)
            let lat = 49.0 + Double(second) * 3 / SyntheticTrack.metersPerDegree
            points += "<trkpt lat=\"\(lat)\" lon=\"16\"><time>\(time)</time><extensions><hr>\(value)</hr><cad>\(value)</cad><power>\(value)</power></extensions></trkpt>"
            trackpoints += "<Trackpoint><Time>\(time)</Time><HeartRateBpm><Value>\(value)</Value></HeartRateBpm><Cadence>\(value)</Cadence><Extensions><TPX><Watts>\(value)</Watts></TPX></Extensions></Trackpoint>"
        }
        let gpx = "<gpx version=\"1.1\"><trk><trkseg>\(points)</trkseg></trk></gpx>"
        let tcx = "<TrainingCenterDatabase><Activities><Activity Sport=\"Running\"><Id>\(Timestamp.format(start))</Id><Lap><Track>\(trackpoints)</Track></Lap></Activity></Activities></TrainingCenterDatabase>"
        for file in [gpx, tcx] {
            let fields = try ActivityFile.summarize(Array(file.utf8))
            #expect(Self.inside(fields.track?.sensors), "\(value.prefix(20)): \(String(describing: fields.track?.sensors))")
            #expect(EventRules.recordProblem(fields) == nil)
        }
    }

    @Test("random samples, times at the ends of Int64 included, never trap the analysis")
    func randomSamples() {
        var generator = SystemRandomNumberGenerator()
        let times: [Int64] = [.min, .min + 1, -1, 0, 1, 59_999, 60_000, 60_001, .max - 1, .max]
        for _ in 0..<AttackScale.count(short: 300, full: 30_000) {
            var clock = times.randomElement(using: &generator) ?? 0
            let samples = (0..<Int.random(in: 0...200, using: &generator)).map { _ in
                clock = clock &+ (Bool.random(using: &generator) ? Int64.random(in: -2_000...61_000, using: &generator) : (times.randomElement(using: &generator) ?? 0))
                return SensorSample(
                    time: clock, heartRate: Bool.random(using: &generator) ? Int.random(in: SensorLimits.heartRate, using: &generator) : nil,
                    cadence: Bool.random(using: &generator) ? Int.random(in: SensorLimits.cadence, using: &generator) : nil,
                    power: Bool.random(using: &generator) ? Int.random(in: SensorLimits.power, using: &generator) : nil
                )
            }
            #expect(Self.inside(SensorAnalysis.summary(samples)))
        }
    }

    @Test("events with sensor figures or an analysis version past the limits are refused by the rules and read inside by every reader")
    func payloads() throws {
        let sha = String(repeating: "b", count: 64)
        let base = TrackPayload.encode(TrackSummary(sha256: sha, format: "gpx", movingSeconds: 10, analysisVersion: 2))
        let hostile: [(String, JSON)] = [
            ("averageHeartRate", .int(300)), ("maxHeartRate", .int(-1)), ("averageCadence", .int(1 << 40)), ("averagePower", .int(2_501)),
            ("normalizedPower", .int(.max)), ("averageHeartRate", .int(.min)),
        ]
        for (key, value) in hostile {
            var track = base
            track["sensors"] = .object([key: value])
            let event = try EventCatalog.decodeAsStored(type: "record.edited", schema: 2, data: ["track": .object(track)])
            #expect(throws: EventLineError.self, "\(key) \(value)") { try EventRules.checkPayload(event) }
            // Read as every reader reads it: the figure is left out.
            guard case .recordEdited(let read) = LegacyValues.read(event) else { Issue.record("not an edit"); continue }
            #expect(read.track?.sensors == nil)
        }
        for version: Int64 in [0, -1, 1_001, .max] {
            var track = base
            track["analysis"] = .int(version)
            let event = try EventCatalog.decodeAsStored(type: "record.edited", schema: 2, data: ["track": .object(track)])
            #expect(throws: EventLineError.self) { try EventRules.checkPayload(event) }
        }
        // Not numbers at all: the payload is not a track summary.
        for value: JSON in [.string("150"), .double(150.5), .bool(true), .array([]), .object([:])] {
            var track = base
            track["sensors"] = .object(["averageHeartRate": value])
            #expect(throws: EventDecodingError.self) { try EventCatalog.decode(type: "record.edited", schema: 2, data: ["track": .object(track)]) }
        }
        var notObject = base
        notObject["sensors"] = .string("fast")
        #expect(throws: EventDecodingError.self) { try EventCatalog.decode(type: "record.logged", schema: 2, data: [
            "name": .string("Run"), "category": .string("running"), "durationSeconds": .int(60), "distanceMeters": .null, "place": .null,
            "date": .string("2026-01-01T00:00:00Z"), "note": .null, "source": .string("import"), "track": .object(notObject),
        ]) }
    }
}
