
/// A shared log that lets many writers append without queueing for each other's commits.
///
/// A writer that finds the append lock free appends as inside `write`. One that finds it taken
/// decides on the state it read, stages its command's events and commits that without the lock
/// (the server shares the flushes of concurrent commits), then asks the log to `sequence` what is
/// staged: whoever holds the lock moves every staged command into the log in one transaction,
/// giving its events their positions and chain links. A staged command whose events no longer
/// follow their streams' last versions is refused as a whole; its writer decides it again under
/// the lock. So only commands whose decision rests on the streams they append to may be staged.
public protocol StagedAppends: AnyObject {
    /// Runs `body` in one transaction: holding the append lock when it was free (`locked` is true,
    /// and the body appends as inside `write`), else without it (the body may read and `stage`).
    func writeOrStage<T>(_ body: (_ locked: Bool) throws -> T) throws -> T

    /// Inside `writeOrStage` without the lock: keeps a command's events, whose positions and chain
    /// links are provisional, until the transaction commits. False when this role may not stage
    /// (nothing was kept: the caller appends under the lock instead).
    func stage(_ events: [EventEnvelope]) throws(EventLogError) -> Bool

    /// After the staging transaction committed: orders every staged command, and returns `events`
    /// as the log holds them (positions and chain links the log gave them), or nil when the
    /// command was refused because a stream it appends to moved on. Throws `busy` when the log
    /// stayed locked past the caller's timeout; the command has then been taken back.
    func sequence(_ events: [EventEnvelope]) throws(EventLogError) -> [EventEnvelope]?
}
