import TallyDomain

// MARK: log --follow

extension PostgresEventLog: AppendWatcher {
    /// The server pushes a notification for every appending statement (migration 0007).
    public var appendWatcher: (any AppendWatcher)? { self }

    /// `LISTEN tally_events`: migration 7's trigger notifies that channel once per appending
    /// statement, at commit. The server pushes; nothing polls it.
    public func watchAppends() throws(EventLogError) {
        do {
            try open().execute("LISTEN tally_events")
        } catch {
            throw fail(error)
        }
    }

    public func waitForAppend(timeoutMs: Int32) throws(EventLogError) -> Bool {
        do {
            return try open().waitForNotification(timeoutMs: timeoutMs)
        } catch {
            throw fail(error)
        }
    }
}
