import TallyDomain

/// An event in the log that cannot be folded: the log is damaged or from an unknown future.
public struct ReplayError: Error, Sendable, Equatable, CustomStringConvertible {
    public var seq: Int64
    public var type: String
    public var reason: String

    public var description: String { "event \(seq) (\(type)): \(reason)" }

    public init(seq: Int64, type: String, reason: String) {
        self.seq = seq
        self.type = type
        self.reason = reason
    }
}
