#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import TallyDomain
import TallyEssentials

/// The world the application runs in, injected so tests control time, ids and identity.
public struct AppEnvironment: Sendable {
    /// Now, in ms since the Unix epoch.
    public var now: @Sendable () -> Int64
    /// A fresh lowercase UUID.
    public var makeID: @Sendable () -> String
    /// Who is acting: recorded on every event.
    public var actor: String
    /// The local time zone for dates the user types and sees.
    public var zone: Zone

    public init(now: @escaping @Sendable () -> Int64, makeID: @escaping @Sendable () -> String, actor: String, zone: Zone) {
        self.now = now
        self.makeID = makeID
        self.actor = actor
        self.zone = zone
    }

    /// The real clock, random UUIDs and the given actor.
    public static func live(actor: String, zone: Zone, fixedNow: Int64? = nil) -> AppEnvironment {
        AppEnvironment(
            now: { fixedNow ?? Int64((Date().timeIntervalSince1970 * 1000).rounded(.down)) },
            makeID: { UUID().uuidString.lowercased() },
            actor: actor,
            zone: zone
        )
    }

    /// The context a decision sees.
    public var decisionContext: DecisionContext {
        DecisionContext(now: now(), zone: zone, makeID: makeID)
    }
}
