import Foundation
import Testing
@testable import TallyDomain
@testable import TallyEssentials

/// Each activity's load by the method its data allows; values by hand from the published formulas.
@Suite("training load")
struct TrainingLoadTests {
    static func record(heartRate: Int? = nil, power: Int? = nil, effort: Int? = nil, seconds: Int = 3_600) -> Record {
        let track = (heartRate != nil || power != nil)
            ? TrackSummary(sha256: String(repeating: "a", count: 64), format: "fit", movingSeconds: seconds,
                           sensors: SensorSummary(averageHeartRate: heartRate, normalizedPower: power), analysisVersion: 2)
            : nil
        return Record(id: "r", number: 1, name: "R", category: "cycling", durationSeconds: seconds, date: 0, createdAt: 0, updatedAt: 0, track: track, effort: effort)
    }

    @Test("TRIMP from heart rate first, TSS from power and FTP next, session RPE last; none without data")
    func methods() throws {
        let settings = AthleteSettings(maxHeartRate: 190, restingHeartRate: 50, ftp: 250)
        // TRIMP of 60 min at a heart-rate reserve of 0.5: 60 x 0.5 x 0.64 x e^0.96 = 50.1446.
        let trimp = try #require(TrainingLoad.load(of: Self.record(heartRate: 120, power: 250), settings: settings))
        #expect(trimp.method == .trimp && abs(trimp.load - 50.1446) < 0.001)
        // One hour at FTP is 100 TSS; 90 min at 228 W on FTP 200 is 194.94.
        let tss = try #require(TrainingLoad.load(of: Self.record(power: 250), settings: settings))
        #expect(tss.method == .tss && abs(tss.load - 100) < 1e-9)
        let other = try #require(TrainingLoad.load(of: Self.record(power: 228, seconds: 5_400), settings: AthleteSettings(ftp: 200)))
        #expect(abs(other.load - 194.94) < 0.001)
        // Heart rate without resting and maximum falls through to power, power without FTP to effort.
        #expect(TrainingLoad.load(of: Self.record(heartRate: 150, power: 250), settings: AthleteSettings(ftp: 250))?.method == .tss)
        #expect(TrainingLoad.load(of: Self.record(power: 250, effort: 6), settings: AthleteSettings())?.load == 360)
        #expect(TrainingLoad.load(of: Self.record(), settings: settings) == nil)
        // A heart rate above the maximum counts as the maximum (reserve 1), below resting as 0.
        let capped = try #require(TrainingLoad.load(of: Self.record(heartRate: 250), settings: settings))
        #expect(abs(capped.load - 60 * 0.64 * exp(1.92)) < 1e-9)
        #expect(TrainingLoad.load(of: Self.record(heartRate: 30), settings: settings)?.load == 0)
    }

    @Test("the series is bounded: a range of ten thousand years computes at most maxDays days")
    func bounded() {
        let loads = [ActivityLoad(recordID: "r", number: 1, day: LocalDate(year: 1, month: 1, day: 1)!, load: 100, method: .effort)]
        let days = TrainingLoad.series(loads, from: LocalDate(year: 1, month: 1, day: 1)!, through: LocalDate(year: 9999, month: 12, day: 31)!)
        #expect(days.count == TrainingLoad.maxDays)
        #expect(TrainingLoad.series(loads, from: LocalDate(year: 2, month: 1, day: 1)!, through: LocalDate(year: 1, month: 1, day: 1)!).isEmpty)
    }
}
