#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import TallyEssentials

/// When a todo is due: a whole day, or an exact instant.
public enum Due: Sendable, Hashable {
    case date(LocalDate)
    case instant(Int64)

    /// The text stored in events: `2026-11-21` or `2026-11-21T13:30:00Z`.
    public var storageText: String {
        switch self {
        case .date(let date): date.description
        case .instant(let ms): Timestamp.format(ms)
        }
    }

    /// Reads the stored text back; nil when it is neither a date nor an ISO-8601 instant.
    public init?(storageText text: String) {
        if let date = LocalDate.parse(text) {
            self = .date(date)
        } else if let ms = Timestamp.parse(text) {
            self = .instant(ms)
        } else {
            return nil
        }
    }

    /// The instant used to sort and filter: a date counts from its local midnight.
    public func sortInstant(in zone: Zone) -> Int64 {
        switch self {
        case .date(let date): date.startInstant(in: zone)
        case .instant(let ms): ms
        }
    }
}
