#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import TallyDomain
import TallyEssentials

/// The fastest time over one standard distance, and the record it comes from.
public struct BestEffort: Sendable, Equatable {
    public var meters: Int
    public var seconds: Double
    public var recordID: String
    public var recordNumber: Int
    public var recordName: String
    public var date: Int64
    /// True when it is a segment of a track; false for a whole activity of that length.
    public var fromTrack: Bool
}

/// The best efforts of one category, shortest distance first.
public struct CategoryBests: Sendable, Equatable {
    public var category: String
    public var efforts: [BestEffort]
}

/// `record bests`: per category, the fastest time over each standard distance.
///
/// Candidates are the efforts computed from each record's track at import, and whole records
/// without a track whose distance is within 1 % of a standard one (their whole time counts).
/// Categories never mix: a walk is never a running best. Ties go to the earlier activity.
public enum BestsProjection {
    /// - Complexity: O(records × distances).
    public static func run(categories: [String], year: Int?, on model: ReadModel, zone: Zone) -> [CategoryBests] {
        var best: [String: [Int: BestEffort]] = [:]
        for record in model.records where !record.deleted {
            if !categories.isEmpty, !categories.contains(record.category) { continue }
            if let year, LocalDate.containing(record.date, in: zone).year != year { continue }
            let distances = BestEfforts.distances(category: record.category)
            var candidates: [(Int, Double, Bool)] = []
            if let track = record.track {
                for effort in track.bestEfforts where distances.contains(effort.meters) {
                    candidates.append((effort.meters, effort.seconds, true))
                }
            } else if let length = record.distanceMeters, length > 0 {
                for meters in distances where abs(length - Double(meters)) <= Double(meters) * BestEfforts.wholeActivityTolerance {
                    candidates.append((meters, Double(record.durationSeconds), false))
                }
            }
            for (meters, seconds, fromTrack) in candidates {
                let effort = BestEffort(
                    meters: meters, seconds: seconds, recordID: record.id, recordNumber: record.number,
                    recordName: record.name, date: record.date, fromTrack: fromTrack
                )
                if let current = best[record.category]?[meters],
                   current.seconds < seconds || (current.seconds == seconds && current.date <= record.date) { continue }
                best[record.category, default: [:]][meters] = effort
            }
        }
        return best.keys.sorted().map { category in
            CategoryBests(category: category, efforts: best[category]!.values.sorted { $0.meters < $1.meters })
        }
    }
}
