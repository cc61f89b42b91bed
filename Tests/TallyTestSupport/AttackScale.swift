import Foundation

/// How many generated cases a hostile-input suite (`*AttackTests`) runs: a short form inside
/// `make test`, the full form under `make attack` (`ATTACK_SCALE=full`).
public enum AttackScale {
    /// True under `make attack`.
    public static var isFull: Bool {
        ProcessInfo.processInfo.environment["ATTACK_SCALE"] == "full"
    }

    /// `short` cases in `make test`, `full` under `make attack`.
    public static func count(short: Int, full: Int) -> Int {
        isFull ? full : short
    }
}

