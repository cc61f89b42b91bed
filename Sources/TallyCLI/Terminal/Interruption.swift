#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Ctrl-C during work that is abandoned cleanly: while `watch` runs, SIGINT only sets a flag, and
/// the work checks it (`check()`) at points where stopping rolls back what is not saved yet.
///
/// Ctrl-C always ends the command with exit 130, and the message says what was kept: what `check()`
/// throws names what stays when the work stops there (nothing, for a check inside a transaction); a
/// Ctrl-C that came too late to stop anything (during the commit, or after it) lets the command finish
/// and print its report, and then says that what the report shows was kept.
enum Interruption {
    /// Thrown once Ctrl-C was pressed: the command reports `message` and exits 130.
    struct Interrupted: Error {
        /// What was kept, in the user's words.
        var message: MessageID
    }

    /// Runs `body` with SIGINT caught; the previous handling is restored afterwards. `stopped` says what
    /// was kept when a `check()` stops the work.
    static func watch<T>(stopped: MessageID, _ body: () throws -> T) throws -> T {
        requested.pointee = 0
        let outer = stoppedMessage
        stoppedMessage = stopped
        defer { stoppedMessage = outer }
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
        // The work is done and reported: a Ctrl-C now could not stop any of it.
        if isRequested { throw Interrupted(message: .errorInterruptedAfterSaving) }
        return result
    }

    /// Throws `Interrupted` when Ctrl-C was pressed inside `watch`; `kept` says what stays when the
    /// work stops here (by default what `watch` was given).
    static func check(kept: MessageID? = nil) throws {
        if isRequested { throw Interrupted(message: kept ?? stoppedMessage) }
    }

    /// Whether Ctrl-C was pressed inside `watch` (work that may be skipped, such as a snapshot, is).
    static var isRequested: Bool { requested.pointee != 0 }

    /// What `check()` reports by default; set by `watch` (commands run on one thread).
    nonisolated(unsafe) private static var stoppedMessage: MessageID = .errorInterruptedImport

    /// Set by the signal handler; allocated once, before any handler can run.
    nonisolated(unsafe) static let requested: UnsafeMutablePointer<sig_atomic_t> = {
        let flag = UnsafeMutablePointer<sig_atomic_t>.allocate(capacity: 1)
        flag.initialize(to: 0)
        return flag
    }()
}
