import Foundation
import Testing
@testable import TallyDomain
import TallyTestSupport
@testable import TallyEssentials
@testable import TallyInterchange

/// Hostile multisport and multi-track files: session counts, sessions and laps out of order or
/// overlapping, thousands of sessions or tracks. Each is read into records inside the limits or
/// refused with a reason; never a trap.
@Suite("Multisport file attacks")
struct MultisportAttackTests {
    @Test("more legs than a file may have is refused by name; thousands of sessions or tracks are read in bounded time")
    func manySessions() throws {
        let start: Int64 = 1_700_000_000_000
        let legs = (0..<(FilePart.maxCount + 1)).map { (sport: UInt64($0 % 3 + 1), start: start + Int64($0) * 60_000, seconds: Int64(60)) }
        #expect(throws: ActivityFileProblem.impossible("it holds 101 sessions (legs); at most 100 records come from one file")) {
            try ActivityFile.read(MultisportFileTests.multisport(legs, points: 10, from: start))
        }
        let exactly = Array(legs.prefix(FilePart.maxCount))
        #expect(try ActivityFile.read(MultisportFileTests.multisport(exactly, points: 10, from: start)).records.count == FilePart.maxCount)
        let count = AttackScale.count(short: 3_000, full: 60_000)
        let many = (0..<count).map { (sport: UInt64(1), start: start + Int64($0) * 1_000, seconds: Int64(1)) }
        #expect(throws: ActivityFileProblem.self) { try ActivityFile.read(MultisportFileTests.multisport(many, points: 5, from: start)) }
        // Thousands of GPX tracks a day apart: more days than a file may have.
        let tracks = (0..<AttackScale.count(short: 500, full: 5_000)).map { (name: "t\($0)", start: start + Int64($0) * 86_400_000) }
        #expect(throws: ActivityFileProblem.self) { try ActivityFile.read(MultisportFileTests.gpx(tracks, points: 2)) }
        // Thousands of tracks minutes apart are one record.
        let close = (0..<AttackScale.count(short: 2_000, full: 20_000)).map { (name: "t\($0)", start: start + Int64($0) * 60_000) }
        let one = try ActivityFile.read(MultisportFileTests.gpx(close, points: 2)).records
        #expect(one.count == 1 && one[0].fields.track?.part == nil)
    }

    @Test("sessions that overlap, share a start, last nothing or add up past 7 days")
    func overlapping() throws {
        let start: Int64 = 1_700_000_000_000
        // Overlapping: the second starts before the first ends; the first leg's points stop where the second begins.
        let overlap = try ActivityFile.read(MultisportFileTests.multisport([(1, start, 1_200), (2, start + 600_000, 1_200)], points: 180, from: start)).records
        #expect(overlap.count == 2)
        #expect(overlap.map(\.fields.durationSeconds) == [1_200, 1_200])
        // The same start twice: both legs, in file order.
        let same = try ActivityFile.read(MultisportFileTests.multisport([(5, start, 600), (2, start, 600)], points: 60, from: start)).records
        #expect(same.map(\.fields.category) == ["swimming", "cycling"])
        // A session of no time and no points is nothing: the file is one record.
        let empty = try ActivityFile.read(MultisportFileTests.multisport([(1, start, 600), (2, start + 10_000_000, 0)], points: 60, from: start)).records
        #expect(empty.count == 1 && empty[0].fields.track?.part == nil)
        // Legs of 4 days each add up past 7 days: impossible, whatever their starts.
        let long = MultisportFileTests.multisport([(1, start, 4 * 86_400), (2, start + 4 * 86_400_000, 4 * 86_400)], points: 10, from: start)
        #expect(throws: ActivityFileProblem.self) { try ActivityFile.read(long) }
    }

    @Test("random sessions, laps and points in any order: records inside the limits or a refusal, never a trap")
    func random() throws {
        var random = SeededRandom(seed: 24)
        let start: Int64 = 1_700_000_000_000
        for _ in 0..<AttackScale.count(short: 200, full: 5_000) {
            let legs = (0..<Int.random(in: 0...8, using: &random)).map { _ in
                (sport: UInt64.random(in: 0...60, using: &random), start: start + Int64.random(in: -3_600_000...7_200_000, using: &random),
                 seconds: Int64.random(in: 0...7_200, using: &random))
            }
            let file = MultisportFileTests.multisport(legs, points: Int.random(in: 0...50, using: &random), from: start + Int64.random(in: -600_000...600_000, using: &random))
            switch Result(catching: { () throws(ActivityFileProblem) in try ActivityFile.read(file) }) {
            case .failure: continue
            case .success(let reading):
                #expect((1...FilePart.maxCount).contains(reading.records.count))
                for (index, record) in reading.records.enumerated() {
                    #expect(EventRules.recordProblem(record.fields) == nil)
                    if reading.records.count > 1 { #expect(record.fields.track?.part == FilePart(index: index + 1, count: reading.records.count, kind: .leg)) }
                    if let track = record.fields.track { #expect(TrackPayload.problem(track) == nil) }
                }
            }
        }
    }

    @Test("track payloads with a part round-trip; a part out of range is refused by the rules and the snapshot reader")
    func payloads() throws {
        let sha = String(repeating: "a", count: 64)
        let track = TrackSummary(sha256: sha, format: "fit", movingSeconds: 60, analysisVersion: 3, part: FilePart(index: 2, count: 5, kind: .leg))
        #expect(TrackPayload.decode(TrackPayload.encode(track)) == track)
        #expect(TrackPayload.problem(track) == nil)
        for part in [FilePart(index: 0, count: 5, kind: .day), FilePart(index: 6, count: 5, kind: .leg), FilePart(index: 1, count: 1, kind: .leg), FilePart(index: 1, count: 101, kind: .leg)] {
            var bad = track
            bad.part = part
            #expect(TrackPayload.problem(bad) != nil, "\(part)")
            #expect(bad.snapshotProblem != nil, "\(part)")
        }
        var object = TrackPayload.encode(track)
        object["part"] = .object(["index": .int(1), "count": .int(2), "kind": .string("lap")])
        #expect(TrackPayload.decode(object) == nil)
    }
}
