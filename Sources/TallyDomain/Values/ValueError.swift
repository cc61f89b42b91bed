
/// Why a value written by the user could not be understood. The CLI turns these into messages
/// through its catalog, from `key` and `arguments`; `reason` is the same phrase in English.
public struct ValueError: Error, Sendable, Equatable {
    /// Which kind of value was being read.
    public enum Kind: String, Sendable {
        case when, duration, distance, date, period
    }

    /// What was being read.
    public let kind: Kind
    /// The text exactly as the user gave it (untrimmed).
    public let input: String
    /// Why, as a key the catalog translates.
    public let key: ValueReasonKey
    /// The values the key's template names (`unit`, `year`, ...).
    public let arguments: [String: String]

    /// A short English phrase such as "hour must be 00-23".
    public var reason: String { ValueReasonText.fill(key.english, arguments) }

    /// Creates an error for `input` of the given kind.
    public init(kind: Kind, input: String, key: ValueReasonKey, arguments: [String: String] = [:]) {
        self.kind = kind
        self.input = input
        self.key = key
        self.arguments = arguments
    }

    init(kind: Kind, input: String, reason: ParseReason) {
        self.init(kind: kind, input: input, key: reason.key, arguments: reason.arguments)
    }
}
