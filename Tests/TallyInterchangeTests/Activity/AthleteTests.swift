import Foundation
import Testing
@testable import TallyDomain
import TallyTestSupport
@testable import TallyEssentials
@testable import TallyInterchange

/// Athlete settings as dated entries, their zones, and the zones, laps and splits of a real ride.
@Suite("athlete settings and zones")
struct AthleteTests {
    static func day(_ text: String) -> LocalDate { LocalDate.parse(text)! }
    static let context = DecisionContext(now: Timestamp.parse("2026-11-21T12:00:00Z")!, zone: .utc, makeID: { "00000000-0000-4000-8000-000000000001" })

    @Test("each value is in force from its day until a later entry sets it again; the same day set twice merges")
    func inForce() throws {
        var history = AthleteHistory()
        history.set(AthleteEntry(from: Self.day("2025-01-01"), maxHeartRate: 190, thresholdHeartRate: 170, ftp: 250))
        history.set(AthleteEntry(from: Self.day("2025-06-01"), ftp: 270))
        #expect(history.settings(on: Self.day("2024-12-31")) == AthleteSettings())
        #expect(history.settings(on: Self.day("2025-05-31")) == AthleteSettings(maxHeartRate: 190, thresholdHeartRate: 170, ftp: 250))
        #expect(history.settings(on: Self.day("2025-06-01")) == AthleteSettings(maxHeartRate: 190, thresholdHeartRate: 170, ftp: 270))
        // An entry added later for an earlier day changes only what it sets, only from its day.
        history.set(AthleteEntry(from: Self.day("2025-03-01"), thresholdHeartRate: 175))
        #expect(history.settings(on: Self.day("2025-07-01")) == AthleteSettings(maxHeartRate: 190, thresholdHeartRate: 175, ftp: 270))
        #expect(history.entries.map(\.from) == [Self.day("2025-01-01"), Self.day("2025-03-01"), Self.day("2025-06-01")])
        history.set(AthleteEntry(from: Self.day("2025-03-01")))
        #expect(history.entries.count == 2, "an empty entry removes the day")
    }

    @Test("the decider: values range-checked, settings that contradict each other refused, nothing new is a notice")
    func decider() throws {
        var state = ReadModel()
        let decision = try Decider.decide(.setAthlete(AthleteInput(from: "2025-01-01", maxHeartRate: "190", restingHeartRate: "48", thresholdHeartRate: "172", ftp: "250")), state: state, context: Self.context)
        #expect(decision.events.map(\.event) == [.athleteSet(AthleteEntry(from: Self.day("2025-01-01"), maxHeartRate: 190, restingHeartRate: 48, thresholdHeartRate: 172, ftp: 250))])
        #expect(decision.events.first?.stream == "athlete")
        for event in decision.events { Reducer.evolve(&state, event.event, stream: event.stream, version: event.version, seq: 1, at: 0) }
        let again = try Decider.decide(.setAthlete(AthleteInput(from: "2025-01-01", ftp: "250")), state: state, context: Self.context)
        #expect(again.events.isEmpty && again.notices == [.athleteUnchanged])
        let merged = try Decider.decide(.setAthlete(AthleteInput(from: "2025-01-01", ftp: "260")), state: state, context: Self.context)
        #expect(merged.events.map(\.event) == [.athleteSet(AthleteEntry(from: Self.day("2025-01-01"), maxHeartRate: 190, restingHeartRate: 48, thresholdHeartRate: 172, ftp: 260))])
        // A threshold above the maximum in force from an earlier entry is refused, as is a resting rate above the threshold.
        #expect(throws: DomainError.self) { try Decider.decide(.setAthlete(AthleteInput(from: "2026-01-01", thresholdHeartRate: "195")), state: state, context: Self.context) }
        #expect(throws: DomainError.self) { try Decider.decide(.setAthlete(AthleteInput(restingHeartRate: "120", thresholdHeartRate: "110")), state: state, context: Self.context) }
        #expect(throws: DomainError.self) { try Decider.decide(.setAthlete(AthleteInput()), state: state, context: Self.context) }
        #expect(throws: DomainError.self) { try Decider.decide(.setAthlete(AthleteInput(from: "2030-01-01", ftp: "250")), state: state, context: Self.context) }
    }

    @Test("zones: Friel's from the threshold, Edwards' from the maximum, custom bounds, Coggan's power levels")
    func zones() throws {
        let friel = try #require(TrainingZones.heartRate(AthleteSettings(maxHeartRate: 190, thresholdHeartRate: 172)))
        #expect(friel == ZoneModel(name: "friel-lthr", bounds: [146, 155, 163, 172]))
        #expect([145, 146, 171, 172, 200].map(friel.zone(of:)) == [1, 2, 4, 5, 5])
        #expect(TrainingZones.heartRate(AthleteSettings(maxHeartRate: 200)) == ZoneModel(name: "edwards-max", bounds: [120, 140, 160, 180]))
        #expect(TrainingZones.heartRate(AthleteSettings(maxHeartRate: 200, heartRateZones: [50, 60, 70, 80])) == ZoneModel(name: "custom-max", bounds: [100, 120, 140, 160]))
        #expect(TrainingZones.heartRate(AthleteSettings(ftp: 250)) == nil)
        #expect(TrainingZones.power(AthleteSettings(ftp: 250)) == ZoneModel(name: "coggan-ftp", bounds: [140, 190, 228, 265, 303, 378]))
    }

    @Test("the Edge 810 ride: time in zones, laps and splits as python-fitparse computes them (Tests/Fixtures/activities/sensors.py)")
    func edge810Detail() throws {
        let (_, activity) = try ActivityFile.parse(try ActivityFileTests.fixture("edge810-vector-ride.fit"))
        let settings = AthleteSettings(maxHeartRate: 190, thresholdHeartRate: 172, ftp: 250)
        let detail = ActivityDetail.compute(activity, category: "cycling", settings: settings, splitMeters: 1_000)
        #expect(detail.heartRateZones?.seconds == [1_191, 866, 672, 1_681, 260])
        #expect(detail.powerZones?.seconds == [470, 311, 373, 545, 817, 1_608, 575])
        #expect(detail.laps.map(\.averageHeartRate) == [139, 149, 162, 117, 163, 141, 165, 144])
        let lapSeconds = [1_207.3, 303.8, 266.2, 129.6, 1_202.4, 131.9, 1_202.5, 256.2]
        #expect(zip(detail.laps.map(\.seconds), lapSeconds).allSatisfy { abs($0 - $1) <= 0.051 } && detail.laps.count == lapSeconds.count)
        #expect(detail.laps.compactMap(\.distanceMeters).map { $0.rounded() } == [9_220, 3_215, 2_334, 722, 10_736, 1_053, 11_738, 2_320])
        // Height at each lap's last point minus at its first (python-fitparse: 26.6, -54.2, -1.6, -21.6, 94.6, 1.4, -46.2, -1.8).
        let lapClimbs = [26.6, -54.2, -1.6, -21.6, 94.6, 1.4, -46.2, -1.8]
        #expect(zip(detail.laps.compactMap(\.elevationChange), lapClimbs).allSatisfy { abs($0 - $1) < 0.05 } && detail.laps.allSatisfy { $0.elevationChange != nil })
        // Without positions (an indoor ride) a lap has no height.
        let (_, indoor) = try ActivityFile.parse(try ActivityFileTests.fixture("indoor-trainer.fit"))
        #expect(ActivityDetail.compute(indoor, category: "cycling", settings: settings, splitMeters: 1_000).laps.allSatisfy { $0.elevationChange == nil })
        // 41.3 km of track: 41 whole kilometres and a last split of the rest; the splits add up to the track.
        #expect(detail.splits.count == 42)
        #expect(detail.splits.dropLast().allSatisfy { abs($0.meters - 1_000) < 0.001 })
        let total = detail.splits.reduce(0) { $0 + $1.seconds }
        let profile = TrackGeometry.profile(activity.points, category: "cycling")
        #expect(abs(total - profile.elapsed) < 0.001)
        let miles = ActivityDetail.compute(activity, category: "cycling", settings: settings, splitMeters: 1_609.344)
        #expect(miles.splits.count == Int((profile.distance / 1_609.344).rounded(.up)))
        // Other settings on another day give other zones from the same file.
        let later = ActivityDetail.compute(activity, category: "cycling", settings: AthleteSettings(ftp: 300), splitMeters: 1_000)
        #expect(later.powerZones?.model.bounds == [168, 228, 273, 318, 363, 453])
        #expect(later.heartRateZones == nil)
    }
}
