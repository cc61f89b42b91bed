import TallyEssentials

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// How an activity's load was computed.
public enum LoadMethod: String, Sendable, Equatable {
    /// Banister's TRIMP from the average heart rate.
    case trimp
    /// Coggan's Training Stress Score from (normalised) power and FTP.
    case tss
    /// Foster's session RPE: effort (1-10) times minutes.
    case effort
}

/// One activity's training load.
public struct ActivityLoad: Sendable, Equatable {
    public var recordID: String
    public var number: Int
    public var day: LocalDate
    public var load: Double
    public var method: LoadMethod
}

/// One day of the fitness-fatigue model.
public struct LoadDay: Sendable, Equatable {
    public var date: LocalDate
    /// The sum of the day's activity loads.
    public var load: Double
    /// Chronic training load (fitness), 42-day exponentially weighted.
    public var fitness: Double
    /// Acute training load (fatigue), 7-day exponentially weighted.
    public var fatigue: Double
    /// Training stress balance: yesterday's fitness minus yesterday's fatigue.
    public var form: Double
}

/// Training load and the fitness-fatigue model (formulas and constants in docs/guide/training.md).
public enum TrainingLoad {
    /// Time constants of chronic and acute load, days.
    public static let chronicDays = 42.0
    public static let acuteDays = 7.0
    /// Banister's TRIMP constants (the published values for men; for women 0.86 and 1.67).
    public static let trimpFactor = 0.64
    public static let trimpExponent = 1.92
    /// Longest series computed (about 27 years of days).
    public static let maxDays = 10_000

    /// The load of `record` with the athlete's `settings` on its day; nil when nothing measures it.
    public static func load(of record: Record, settings: AthleteSettings) -> (load: Double, method: LoadMethod)? {
        let seconds = Double(record.track.map { $0.movingSeconds > 0 ? $0.movingSeconds : record.durationSeconds } ?? record.durationSeconds)
        let minutes = seconds / 60
        if let heartRate = record.track?.sensors?.averageHeartRate, let resting = settings.restingHeartRate, let max = settings.maxHeartRate, max > resting {
            let reserve = min(1, Swift.max(0, Double(heartRate - resting) / Double(max - resting)))
            return (minutes * reserve * trimpFactor * exp(trimpExponent * reserve), .trimp)
        }
        if let power = record.track?.sensors?.normalizedPower ?? record.track?.sensors?.averagePower, let ftp = settings.ftp, ftp > 0 {
            let intensity = Double(power) / Double(ftp)
            return (seconds * Double(power) * intensity / (Double(ftp) * 3_600) * 100, .tss)
        }
        if let effort = record.effort {
            return (Double(effort) * Double(record.durationSeconds) / 60, .effort)
        }
        return nil
    }

    /// True when `record`'s file measured heart rate or power: without a load, it lacks the
    /// athlete's settings for its day, not data.
    public static func measured(_ record: Record) -> Bool {
        guard let sensors = record.track?.sensors else { return false }
        return sensors.averageHeartRate != nil || sensors.averagePower != nil || sensors.normalizedPower != nil
    }

    /// Every live record's load (in record number order) and the records without one.
    public static func loads(_ model: ReadModel, zone: Zone) -> (loads: [ActivityLoad], unscored: [Record]) {
        var loads: [ActivityLoad] = []
        var unscored: [Record] = []
        for record in model.records where !record.deleted {
            let day = LocalDate.containing(record.date, in: zone)
            if let (load, method) = load(of: record, settings: model.athlete.settings(on: day)) {
                loads.append(ActivityLoad(recordID: record.id, number: record.number, day: day, load: load, method: method))
            } else {
                unscored.append(record)
            }
        }
        return (loads, unscored)
    }

    /// The daily model from the first day with a load up to `through`, returned from `from` on.
    ///
    /// fitness(d) = fitness(d-1) + (load(d) - fitness(d-1)) / 42; fatigue likewise over 7 days;
    /// form(d) = fitness(d-1) - fatigue(d-1); both start at 0 the day before the first load.
    public static func series(_ loads: [ActivityLoad], from: LocalDate, through: LocalDate) -> [LoadDay] {
        guard from <= through else { return [] }
        var daily: [LocalDate: Double] = [:]
        for load in loads where load.day <= through { daily[load.day, default: 0] += load.load }
        let first = min(daily.keys.min() ?? from, from)
        // Days before `from` only matter for the values they carry: start at most `maxDays` before the end.
        let start = max(first, through.adding(days: -(maxDays - 1)))
        var fitness = 0.0, fatigue = 0.0
        var days: [LoadDay] = []
        var day = start
        while day <= through {
            let load = daily[day] ?? 0
            let form = fitness - fatigue
            fitness += (load - fitness) / chronicDays
            fatigue += (load - fatigue) / acuteDays
            if day >= from { days.append(LoadDay(date: day, load: load, fitness: fitness, fatigue: fatigue, form: form)) }
            day = day.adding(days: 1)
        }
        return days
    }
}
