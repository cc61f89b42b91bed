import Foundation
import Testing
@testable import TallyDomain
import TallyTestSupport
@testable import TallyInterchange

/// Hostile activity files against the decoders: valid framing, values that break arithmetic. None
/// may trap; each is refused with a reason, or accepted as a record inside the limits every door
/// shares, whose exported event imports unchanged.
@Suite("activity decoders under attack")
struct ActivityDecoderAttackTests {
    static func refusal(_ bytes: [UInt8]) -> ActivityFileProblem? {
        do {
            _ = try ActivityFile.summarize(bytes)
            return nil
        } catch {
            return error
        }
    }

    static func isImpossible(_ problem: ActivityFileProblem?) -> Bool {
        if case .impossible? = problem { true } else { false }
    }

    @Test("the FIT files that trapped: timestamps past Int64 and past 32 bits, endless sessions, a compressed time after a near-max one, a wide file_id.type")
    func fitRegressions() throws {
        #expect(Self.refusal(KnownHostileFiles.fit(session: KnownHostileFiles.plainSession)) == nil, "the plain file is an activity")
        for (name, _, bytes) in KnownHostileFiles.impossible {
            #expect(Self.isImpossible(Self.refusal(bytes)), "\(name): \(String(describing: Self.refusal(bytes)))")
        }
        let cases: [(String, [UInt8])] = [
            ("8-byte timestamp past Int64", KnownHostileFiles.fit(record: (8, UInt64(Int64.max) + 7), session: KnownHostileFiles.plainSession)),
            ("8-byte timestamp past 32 bits", KnownHostileFiles.fit(record: (8, 1 << 40), session: KnownHostileFiles.plainSession)),
            ("8-byte session start past Int64", KnownHostileFiles.fit(session: [((2, 8, 0x86), .max - 1), ((7, 4, 0x86), 3_600_000)])),
            ("session elapsed time of 2^64-2 ms", KnownHostileFiles.fit(session: [((2, 4, 0x86), KnownHostileFiles.start), ((7, 8, 0x86), .max - 1)])),
            ("session timer time of 2^64-2 ms", KnownHostileFiles.fit(session: [((2, 4, 0x86), KnownHostileFiles.start), ((7, 4, 0x86), 3_600_000), ((8, 8, 0x86), .max - 1)])),
            ("two sessions of 4 days each", KnownHostileFiles.fit(session: [((2, 4, 0x86), KnownHostileFiles.start), ((7, 4, 0x86), 4 * 86_400_000)], sessions: 2)),
            ("total ascent of 5,000 km", KnownHostileFiles.fit(session: KnownHostileFiles.plainSession + [((22, 4, 0x86), 5_000_000)])),
            ("total distance of 5,000 km", KnownHostileFiles.fit(session: [((2, 4, 0x86), KnownHostileFiles.start), ((7, 4, 0x86), 3_600_000), ((9, 4, 0x86), 500_000_000)])),
        ]
        for (name, bytes) in cases {
            #expect(Self.isImpossible(Self.refusal(bytes)), "\(name): \(String(describing: Self.refusal(bytes)))")
        }
        // A compressed timestamp after the largest 32-bit one rolls past it without overflow.
        let rolled = KnownHostileFiles.fit(record: (4, UInt64(UInt32.max) - 2), compressed: [0, 1, 31], session: KnownHostileFiles.plainSession)
        #expect(ActivityFileInvariant.violation(rolled) == nil)
        // An 8-byte file_id.type: 4 in the low bits is not 4; all ones is the invalid marker (no type).
        #expect(Self.refusal(KnownHostileFiles.fit(fileType: (8, 1 << 63 | 4), session: KnownHostileFiles.plainSession)) == .notAnActivity)
        #expect(Self.refusal(KnownHostileFiles.fit(fileType: (8, .max), session: KnownHostileFiles.plainSession)) == nil)
    }

    @Test("TCX laps with a time or distance of NaN, inf, 1e300 or below zero are refused as impossible", arguments: ["NaN", "nan", "inf", "-inf", "1e300", "-1", "-100", "604801"])
    func tcxLaps(_ value: String) throws {
        #expect(Self.refusal(KnownHostileFiles.tcx()) == nil)
        #expect(Self.isImpossible(Self.refusal(KnownHostileFiles.tcx(time: value))), "time \(value)")
        if value != "604801" { #expect(Self.isImpossible(Self.refusal(KnownHostileFiles.tcx(distance: value))), "distance \(value)") }
    }

    /// A TCX file of the given `Activities` content.
    static func tcxFile(_ activities: String) -> [UInt8] {
        Array("<TrainingCenterDatabase xmlns=\"http://www.garmin.com/xmlschemas/TrainingCenterDatabase/v2\"><Activities>\(activities)</Activities></TrainingCenterDatabase>".utf8)
    }

    /// One TCX activity of `minutes` minutes from `start` (ISO text), a point a minute, a lap of its time.
    static func tcxActivity(_ sport: String?, _ start: String, minutes: Int = 10, inner: String = "") -> String {
        let begin = Timestamp.parse(start)!
        var text = "<Activity\(sport.map { " Sport=\"\($0)\"" } ?? "")><Id>\(start)</Id><Lap StartTime=\"\(start)\"><TotalTimeSeconds>\(minutes * 60)</TotalTimeSeconds><Track>"
        for index in 0...minutes {
            text += "<Trackpoint><Time>\(Timestamp.format(begin + Int64(index) * 60_000))</Time><Position><LatitudeDegrees>\(46 + Double(index) / 1_000)</LatitudeDegrees><LongitudeDegrees>14.5</LongitudeDegrees></Position><HeartRateBpm><Value>130</Value></HeartRateBpm></Trackpoint>"
        }
        return text + "</Track></Lap>\(inner)</Activity>"
    }

    @Test("hostile TCX multisport sessions: nesting, missing sports, stray transitions, legs out of order, a second session, huge counts; refused with a reason or read inside the limits, never a trap")
    func tcxMultisport() throws {
        func categories(_ bytes: [UInt8]) throws -> [String] { try ActivityFile.read(bytes).records.map(\.fields.category) }
        let a = Self.tcxActivity("Running", "2024-01-05T07:00:00Z"), b = Self.tcxActivity("Biking", "2024-01-05T07:10:00Z")
        let c = Self.tcxActivity(nil, "2024-01-05T07:20:00Z")
        // Legs out of order are put in order of start; a leg without a sport is `other`.
        let outOfOrder = Self.tcxFile("<MultiSportSession><FirstSport>\(c)</FirstSport><NextSport>\(b)</NextSport><NextSport>\(a)</NextSport></MultiSportSession>")
        #expect(try categories(outOfOrder) == ["running", "cycling", "other"])
        // An Activity nested inside a leg is part of that leg, not a leg of its own.
        let nested = Self.tcxFile("<MultiSportSession><FirstSport>\(Self.tcxActivity("Running", "2024-01-05T07:00:00Z", inner: b))</FirstSport><NextSport>\(c)</NextSport></MultiSportSession>")
        #expect(try categories(nested) == ["running", "other"])
        // A MultiSportSession inside a plain first activity, or after it, adds no legs: the first activity alone.
        #expect(try categories(Self.tcxFile(Self.tcxActivity("Running", "2024-01-05T07:00:00Z", inner: "<MultiSportSession><FirstSport>\(b)</FirstSport><NextSport>\(c)</NextSport></MultiSportSession>"))) == ["running"])
        #expect(try categories(Self.tcxFile(a + "<MultiSportSession><FirstSport>\(b)</FirstSport><NextSport>\(c)</NextSport></MultiSportSession>")) == ["running"])
        // Only the first session counts; a second one's legs are not read.
        let second = Self.tcxFile("<MultiSportSession><FirstSport>\(a)</FirstSport><NextSport>\(b)</NextSport></MultiSportSession><MultiSportSession><FirstSport>\(c)</FirstSport></MultiSportSession>")
        #expect(try categories(second) == ["running", "cycling"])
        // A Transition outside a NextSport is not a leg; one inside is.
        let stray = "<Transition StartTime=\"2024-01-05T07:09:00Z\"><TotalTimeSeconds>30</TotalTimeSeconds></Transition>"
        #expect(try categories(Self.tcxFile("<MultiSportSession>\(stray)<FirstSport>\(stray)\(a)</FirstSport><NextSport>\(b)</NextSport></MultiSportSession>")) == ["running", "cycling"])
        #expect(try categories(Self.tcxFile("<MultiSportSession><FirstSport>\(a)</FirstSport><NextSport>\(stray)\(b)</NextSport></MultiSportSession>")) == ["running", "transition", "cycling"])
        // A transition's figures are checked like a lap's.
        let nan = "<Transition StartTime=\"2024-01-05T07:09:00Z\"><TotalTimeSeconds>NaN</TotalTimeSeconds></Transition>"
        #expect(Self.isImpossible(Self.refusal(Self.tcxFile("<MultiSportSession><FirstSport>\(a)</FirstSport><NextSport>\(nan)\(b)</NextSport></MultiSportSession>"))))
        // Legs of no time and no points are nothing; one leg left is one record without a part.
        let empty = "<Activity Sport=\"Biking\"><Id>2024-01-05T08:00:00Z</Id></Activity>"
        let single = try ActivityFile.read(Self.tcxFile("<MultiSportSession><FirstSport>\(a)</FirstSport><NextSport>\(empty)</NextSport></MultiSportSession>"))
        #expect(single.records.count == 1 && single.records[0].fields.track?.part == nil)
        // Too many legs: more than 100 records from one file are refused, quickly, at any count.
        for count in [101, AttackScale.count(short: 3_000, full: 30_000)] {
            var legs = ""
            for index in 0..<count {
                let start = Timestamp.format(Timestamp.parse("2024-01-05T07:00:00Z")! + Int64(index) * 60_000)
                legs += "<NextSport><Activity Sport=\"Running\"><Lap StartTime=\"\(start)\"><TotalTimeSeconds>30</TotalTimeSeconds></Lap></Activity></NextSport>"
            }
            let bytes = Self.tcxFile("<MultiSportSession><FirstSport>\(a)</FirstSport>\(legs)</MultiSportSession>")
            #expect(Self.isImpossible(Self.refusal(bytes)), "\(count) legs")
            #expect(ActivityFileInvariant.violation(bytes) == nil)
        }
        // Legs whose times add up past 7 days are impossible.
        let long = Self.tcxFile("<MultiSportSession><FirstSport>\(a)</FirstSport>" + (0..<3).map { day in
            "<NextSport><Activity Sport=\"Running\"><Lap StartTime=\"2024-02-0\(day + 1)T07:00:00Z\"><TotalTimeSeconds>300000</TotalTimeSeconds></Lap></Activity></NextSport>"
        }.joined() + "</MultiSportSession>")
        #expect(Self.isImpossible(Self.refusal(long)))
        // Sessions nested past the XML depth limit are corrupt, not a trap.
        let deep = Self.tcxFile(String(repeating: "<MultiSportSession><NextSport>", count: 40) + a + String(repeating: "</NextSport></MultiSportSession>", count: 40))
        if case .corrupt? = Self.refusal(deep) {} else { Issue.record("a session nested 80 deep is not refused as corrupt: \(String(describing: Self.refusal(deep)))") }
        for bytes in [outOfOrder, nested, second, single.records.isEmpty ? [] : Self.tcxFile(a), long, deep] {
            #expect(ActivityFileInvariant.violation(bytes) == nil)
        }
    }

    @Test("dates at the ends of the years 0001-9999: what cannot be exported is refused")
    func dates() throws {
        let late = Array(String(decoding: KnownHostileFiles.tcx(), as: UTF8.self).replacingOccurrences(of: "<Id>2024-01-05T07:30:00Z", with: "<Id>0001-01-01T00:00:00+14:00").utf8)
        #expect(Self.isImpossible(Self.refusal(late)))
        #expect(ActivityFileInvariant.violation(late) == nil)
    }

    @Test("generated hostile FIT, TCX and GPX files: refused with a reason or accepted inside the limits, never a trap")
    func generated() throws {
        let count = AttackScale.count(short: 300, full: 20_000)
        var files = HostileActivityFiles(SeededRandom(seed: 22))
        var accepted = [0, 0, 0], refused = [0, 0, 0]
        for index in 0..<(count * 3) {
            let bytes: [UInt8]
            switch index % 3 {
            case 0: bytes = files.fit()
            case 1: bytes = Array(files.tcx().utf8)
            default: bytes = Array(files.gpx().utf8)
            }
            #expect(ActivityFileInvariant.violation(bytes) == nil, "file \(index): \(String(decoding: bytes.prefix(400), as: UTF8.self))")
            if Self.refusal(bytes) == nil { accepted[index % 3] += 1 } else { refused[index % 3] += 1 }
        }
        // The generator reaches both sides of every format: files accepted and files refused.
        #expect(accepted.allSatisfy { $0 > 0 } && refused.allSatisfy { $0 > 0 }, "accepted \(accepted), refused \(refused)")
    }

    @Test("a record stored before the limits were checked (negative or endless figures) folds inside them, and a snapshot holds it")
    func storedOutOfRange() throws {
        let bad = RecordFields(
            name: "Broken", category: "running", durationSeconds: -100, distanceMeters: .nan, date: .max, source: .import,
            track: TrackSummary(sha256: String(repeating: "a", count: 64), format: "tcx", movingSeconds: -100, elevationGainMeters: -.infinity,
                                bestEfforts: [TrackEffort(meters: -1, seconds: .nan), TrackEffort(meters: 1_000, seconds: 300)])
        )
        var model = ReadModel()
        let stream = "00000000-0000-4000-8000-000000000001"
        Reducer.evolve(&model, .recordLogged(bad), stream: stream, version: 1, seq: 1, at: 0)
        Reducer.evolve(&model, .recordEdited(RecordChanges(durationSeconds: Int.min, distanceMeters: .some(-.infinity), date: Int64.min)), stream: stream, version: 2, seq: 2, at: 0)
        let record = try #require(model.record(id: stream))
        #expect(record.durationSeconds == 1)
        #expect(record.distanceMeters == nil, "an impossible distance reads as none (LegacyValues)")
        #expect(record.date == Timestamp.supportedRange.lowerBound)
        #expect(record.track?.movingSeconds == 0)
        #expect(record.track?.elevationGainMeters == nil, "an impossible climb reads as none (LegacyValues)")
        #expect(record.track?.bestEfforts == [TrackEffort(meters: 1_000, seconds: 300)])
        let bytes = SnapshotCodec.encode(model, latestRecordedAt: 0, logHash: String(repeating: "0", count: 64))
        #expect(try SnapshotCodec.decode(bytes).model.record(id: stream) == record)
    }
}
