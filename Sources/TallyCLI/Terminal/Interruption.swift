#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Ctrl-C during work that is abandoned cleanly: while `watch` runs, SIGINT only sets a flag, and
/// the work checks it (`check()`) at points where stopping rolls everything back.
enum Interruption {
    /// Thrown by `check()` once Ctrl-C was pressed: the command reports it and exits 130.
    struct Interrupted: Error {}

    /// Runs `body` with SIGINT caught; the previous handling is restored afterwards.
    static func watch<T>(_ body: () throws -> T) throws -> T {
        requested.pointee = 0
        var action = sigaction()
        var previous = sigaction()
        #if canImport(Glibc)
        action.__sigaction_handler.sa_handler = { _ in Interruption.requested.pointee = 1 }
        #else
        action.__sigaction_u.__sa_handler = { _ in Interruption.requested.pointee = 1 }
        #endif
        sigemptyset(&action.sa_mask)
        sigaction(SIGINT, &action, &previous)
        defer { sigaction(SIGINT, &previous, nil) }
        // A SIGINT blocked by whoever started tally would never arrive.
        var interrupt = sigset_t()
        sigemptyset(&interrupt)
        sigaddset(&interrupt, SIGINT)
        var blocked = sigset_t()
        sigprocmask(SIG_UNBLOCK, &interrupt, &blocked)
        defer { sigprocmask(SIG_SETMASK, &blocked, nil) }
        let result = try body()
        try check()
        return result
    }

    /// Throws `Interrupted` when Ctrl-C was pressed inside `watch`.
    static func check() throws {
        if requested.pointee != 0 { throw Interrupted() }
    }

    /// Set by the signal handler; allocated once, before any handler can run.
    nonisolated(unsafe) static let requested: UnsafeMutablePointer<sig_atomic_t> = {
        let flag = UnsafeMutablePointer<sig_atomic_t>.allocate(capacity: 1)
        flag.initialize(to: 0)
        return flag
    }()
}
