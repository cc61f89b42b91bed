import TallyDomain

extension SQLiteEventLog {
    /// Lets the database grow by at most `extraPages` pages, on this connection only, as a nearly
    /// full disk would: a write that needs more fails with `EventLogError.full`. Nil lifts the cap.
    ///
    /// For tests (through `@testable import`): tally itself never caps a file.
    func capGrowth(extraPages: Int64? = 0) throws(EventLogError) {
        do {
            var limit: Int64 = 1_073_741_823
            if let extraPages { limit = (try connection.scalarInt("PRAGMA page_count") ?? 0) + extraPages }
            _ = try connection.scalarInt("PRAGMA max_page_count = \(limit)")
        } catch {
            throw StorageErrors.map(error)
        }
    }
}
