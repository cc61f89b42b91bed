/// Why a value written by the user could not be understood. The CLI turns these into messages through its catalog; `reason` is a short English phrase used as a parameter.
public struct ValueError: Error, Sendable, Equatable {
    /// Which kind of value was being read.
    public enum Kind: String, Sendable {
        case when, duration, distance, date, period
    }

    /// What was being read.
    public let kind: Kind
    /// The text exactly as the user gave it (untrimmed).
    public let input: String
    /// A short English phrase such as "hour must be 00-23".
    public let reason: String

    /// Creates an error for `input` of the given kind.
    public init(kind: Kind, input: String, reason: String) {
        self.kind = kind
        self.input = input
        self.reason = reason
    }
}
