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
