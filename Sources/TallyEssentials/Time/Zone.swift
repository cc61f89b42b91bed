/// A time zone's rules: its offset from UTC at any instant.
///
/// tally reads zones itself rather than through Foundation's `Zone`, which on Linux needs the ICU data
/// (most of a full-Foundation binary's size). A zone comes from a TZif file of the system's zone database
/// (`/usr/share/zoneinfo`, see `ZoneDatabase`), from a POSIX TZ string (`CET-1CEST,M3.5.0,M10.5.0/3`), or is
/// UTC. A TZif file lists the transitions it knows; after the last one, the POSIX rule of its footer applies.
public struct Zone: Sendable, CustomStringConvertible {
    /// The name it was loaded by: `Europe/Prague`, a POSIX TZ string, or `UTC`.
    public let name: String
    /// UTC seconds of each transition, ascending.
    public let transitions: [Int64]
    /// The offset in seconds in force from the transition with the same index on.
    public let offsets: [Int32]
    /// The offset before the first transition (or always, without transitions and rule).
    public let initialOffset: Int32
    /// The rule after the last transition (or always, without transitions).
    public let rule: PosixZoneRule?

    public init(name: String, transitions: [Int64] = [], offsets: [Int32] = [], initialOffset: Int32, rule: PosixZoneRule? = nil) {
        precondition(transitions.count == offsets.count)
        self.name = name
        self.transitions = transitions
        self.offsets = offsets
        self.initialOffset = initialOffset
        self.rule = rule
    }

    /// Coordinated Universal Time.
    public static let utc = Zone(name: "UTC", initialOffset: 0)

    public var description: String { name }

    /// The offset from UTC in seconds at the instant `utcSeconds` (seconds since 1970-01-01T00:00:00Z).
    public func offsetSeconds(at utcSeconds: Int64) -> Int32 {
        guard let last = transitions.last else { return rule?.offset(at: utcSeconds) ?? initialOffset }
        if utcSeconds >= last, let rule { return rule.offset(at: utcSeconds) }
        // Binary search for the last transition at or before the instant.
        var low = 0
        var high = transitions.count
        while low < high {
            let middle = (low + high) / 2
            if transitions[middle] <= utcSeconds { low = middle + 1 } else { high = middle }
        }
        return low == 0 ? initialOffset : offsets[low - 1]
    }

    /// The offset from UTC in milliseconds at the instant `ms` (milliseconds since the epoch).
    public func offsetMs(at ms: Int64) -> Int64 {
        Int64(offsetSeconds(at: ValueMath.floorDiv(ms, 1000))) * 1000
    }
}
