import Foundation
import TallyDomain
@testable import TallyEssentials

/// Deterministic ids: `00000000-0000-4000-8000-000000000001`, `...002`, ...
public final class SequentialIDs: @unchecked Sendable {
    private var next = 0
    private let lock = NSLock()
    private let prefix: String

    /// Ids `prefix` + 12 digits, counting from `after + 1`.
    public init(prefix: String = "00000000-0000-4000-8000-", after: Int = 0) {
        self.prefix = prefix
        self.next = after
    }

    public func make() -> String {
        lock.lock()
        defer { lock.unlock() }
        next += 1
        let digits = String(next)
        return prefix + String(repeating: "0", count: max(0, 12 - digits.count)) + digits
    }

    /// The id the n-th call returns (1-based).
    public func id(_ n: Int) -> String {
        let digits = String(n)
        return prefix + String(repeating: "0", count: max(0, 12 - digits.count)) + digits
    }
}

/// A settable clock for tests.
public final class TestClock: @unchecked Sendable {
    private var value: Int64
    private let lock = NSLock()

    public init(_ start: Int64 = Fixtures.epoch) {
        value = start
    }

    public var now: Int64 {
        lock.lock()
        defer { lock.unlock() }
        return value
    }

    public func advance(seconds: Int64) {
        lock.lock()
        value += seconds * 1000
        lock.unlock()
    }
}

public enum Fixtures {
    /// 2026-11-21T12:00:00Z
    public static let epoch: Int64 = 1_795_262_400_000
    public static let utc = Zone.utc

    public static func context(ids: SequentialIDs, now: Int64 = epoch, zone: Zone = utc) -> DecisionContext {
        DecisionContext(now: now, zone: zone, makeID: { ids.make() })
    }
}
