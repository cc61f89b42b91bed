import TallyDomain

/// A check `verify` runs after the chain, given the log and the full replay of it; returns the problems it finds.
///
/// The snapshot check (snapshot + tail equals the full replay) plugs in here.
public typealias VerificationCheck = @Sendable (_ log: any EventStore, _ replay: ReadModel) throws -> [LogProblem]

/// What `verify` found.
public struct VerificationReport: Sendable {
    public var events: Int
    /// The last event: its position and stored hash (record it to detect a truncated log later).
    public var head: LogHead
    /// In log order; plugged-in checks' problems come last.
    public var problems: [LogProblem]
    /// Events read normalised because they hold a value past today's limits (not problems).
    public var notes: [LogProblem] = []
    /// Values erased by `redact`, each accounted for by a `history.redacted` event.
    public var redactedValues = 0

    public var isIntact: Bool { problems.isEmpty }
}

/// Checks a whole log: hash chain, sequence, versions, decodability, then the plugged-in checks.
public enum Verifier {
    /// Reads every event once, in log order.
    /// - Complexity: O(n) time; memory O(streams + state).
    public static func run(_ log: any EventStore, checks: [VerificationCheck] = []) throws -> VerificationReport {
        var verifier = LogVerifier()
        try log.scan(after: 0, through: nil) { verifier.check($0) }
        verifier.finish()
        for check in checks {
            verifier.record(try check(log, verifier.replay))
        }
        return VerificationReport(
            events: verifier.count, head: verifier.head, problems: verifier.problems, notes: verifier.notes, redactedValues: verifier.redactedValues
        )
    }
}
