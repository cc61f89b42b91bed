import Testing
import TallySQLite
import TallyDomain
import TallyTestSupport

@Suite("SQLite event log: reads for the audit commands")
struct AuditReadTests {
    let directory = TemporaryDirectory()

    @Test("scanBackward reads newest first and stops when asked; event(id:) and lastVersion(ofStream:) find rows")
    func backwardAndLookups() throws {
        let log = try SQLiteEventLog.openForWriting(path: directory.path("audit.db"), now: 0)
        var factory = EventFactory()
        let events = [
            factory.make(.todoCreated(TodoFields(title: "a")), stream: "s1"),
            factory.make(.todoCreated(TodoFields(title: "b")), stream: "s2"),
            factory.make(.todoCompleted, stream: "s1"),
        ]
        try log.write { try log.append(events) }
        var seen: [Int64] = []
        try log.scanBackward(before: nil) { event in
            seen.append(event.seq)
            return true
        }
        #expect(seen == [3, 2, 1])
        seen = []
        try log.scanBackward(before: 3) { event in
            seen.append(event.seq)
            return false
        }
        #expect(seen == [2])
        #expect(try log.event(id: events[1].id) == events[1])
        #expect(try log.event(id: "missing") == nil)
        #expect(try log.lastVersion(ofStream: "s1") == 2 && log.lastVersion(ofStream: "none") == 0)
    }
}
