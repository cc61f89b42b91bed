#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import TallyDomain
import TallyEssentials

/// The result of a record query: the rows and the totals of what is shown.
public struct RecordView: Sendable, Equatable {
    public var records: [Record]
    /// How many matched before the limit.
    public var matched: Int
    /// Total time of the records shown, deleted ones left out.
    public var totalSeconds: Int
    /// Total distance of the records shown, deleted ones left out.
    public var totalMeters: Double
}

/// Serves filtered, sorted views of the records.
public enum RecordProjection {
    /// Runs a query against the read model. Date bounds are resolved against `now` in `zone`; `until` includes its whole day.
    /// - Complexity: O(n log n) in the number of records.
    public static func run(_ query: RecordQuery, on model: ReadModel, now: Int64, zone: Zone) throws(DomainError) -> RecordView {
        let since = try query.since.map { raw throws(DomainError) in try QueryBounds.when(raw, now: now, zone: zone, lookingBack: true).startInstant(in: zone) }
        let until = try query.until.map { raw throws(DomainError) in try QueryBounds.when(raw, now: now, zone: zone, lookingBack: true).endInstant(in: zone) }
        let needle = query.search.map { $0.lowercased() }
        let program = try query.expression.map { expression throws(DomainError) in try FilterProgram(expression, now: now, zone: zone) }
        // An expression that names deleted records considers them (`status:deleted`), as for todos.
        let includeDeleted = query.includeDeleted || query.expression?.namesDeleted == true
        var matches = model.records.filter { record in
            if record.deleted && !includeDeleted { return false }
            if let program, !program.matches(record) { return false }
            if !query.categories.isEmpty && !query.categories.contains(record.category) { return false }
            if !query.sources.isEmpty && !query.sources.contains(record.source) { return false }
            if let since, record.date < since { return false }
            if let until, record.date >= until { return false }
            if let needle {
                let haystacks = [record.name, record.category, record.place ?? "", record.note ?? ""]
                if !haystacks.contains(where: { $0.lowercased().contains(needle) }) { return false }
            }
            return true
        }
        let matched = matches.count
        matches.sort(by: ordering(query.sort, reverse: query.reverse))
        if let limit = query.limit, limit < matches.count {
            matches.removeSubrange(limit...)
        }
        return RecordView(
            records: matches, matched: matched,
            totalSeconds: matches.reduce(0) { $0 + ($1.deleted ? 0 : $1.durationSeconds) },
            totalMeters: matches.reduce(0) { $0 + ($1.deleted ? 0 : $1.distanceMeters ?? 0) }
        )
    }

    /// A strict order: the key in its natural direction (flipped by `reverse`), records without a distance last, then creation order.
    static func ordering(_ key: RecordSortKey, reverse: Bool) -> (Record, Record) -> Bool {
        { lhs, rhs in
            if key == .distance, (lhs.distanceMeters == nil) != (rhs.distanceMeters == nil) {
                return rhs.distanceMeters == nil
            }
            let result: ComparisonResult = switch key {
            case .date: compare(rhs.date, lhs.date)
            case .name: TextScalars.compareIgnoringCase(lhs.name, rhs.name)
            case .duration: compare(rhs.durationSeconds, lhs.durationSeconds)
            case .distance: compare(rhs.distanceMeters ?? 0, lhs.distanceMeters ?? 0)
            }
            switch result {
            case .orderedSame: return lhs.number < rhs.number
            case .orderedAscending: return !reverse
            case .orderedDescending: return reverse
            }
        }
    }

    private static func compare<T: Comparable>(_ lhs: T, _ rhs: T) -> ComparisonResult {
        lhs < rhs ? .orderedAscending : (lhs > rhs ? .orderedDescending : .orderedSame)
    }
}

/// Resolves the WHEN bounds of queries.
enum QueryBounds {
    /// `lookingBack` for bounds of what already happened (records, reports): a weekday name is the last one.
    static func when(_ raw: String, now: Int64, zone: Zone, lookingBack: Bool = false) throws(DomainError) -> When {
        let when: When
        do {
            when = try When.parse(raw, now: now, zone: zone, lookingBack: lookingBack)
        } catch {
            throw .invalid(.value(error))
        }
        if case .logPosition = when {
            throw .invalid(.value(ValueError(kind: .when, input: raw, key: .logPositionNotAllowed)))
        }
        return when
    }
}
