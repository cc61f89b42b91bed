
/// A log that can wake a follower when another process appends (`log --follow`), rather than
/// being asked over and over. A log that cannot is polled by the follower at its head, which is
/// one index lookup, never a scan.
public protocol AppendWatcher: AnyObject {
    /// Starts watching: any append committed after this returns makes `waitForAppend` return.
    func watchAppends() throws(EventLogError)

    /// Waits up to `timeoutMs` milliseconds for an append committed since the last call; true when
    /// there may be one (a follower then reads after its last seen position). A signal ends the wait early.
    func waitForAppend(timeoutMs: Int32) throws(EventLogError) -> Bool
}
