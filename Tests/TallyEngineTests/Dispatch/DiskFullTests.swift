import Testing
@testable import TallyEngine
import TallyDomain
@testable import TallySQLite
import TallyTestSupport

@Suite("A full disk, for imports and commands")
struct AppDiskFullTests {
    let directory = TemporaryDirectory()

    /// `count` exported `todo.created` lines, each on its own stream.
    func exportLines(_ count: Int) -> [String] {
        var factory = EventFactory()
        return (0..<count).map { index in
            EventLines.encode(factory.make(.todoCreated(TodoFields(title: "imported \(index)", note: "a note that takes some room")), stream: "5e000000-0000-4000-8000-" + String(repeating: "0", count: 12 - String(index).count) + String(index)))
        }
    }

    func importLines(_ lines: [String], into log: EventLog) throws -> ImportSummary {
        try Importer.run(into: log) { add in
            for (index, line) in lines.enumerated() {
                try Array(line.utf8).withUnsafeBufferPointer { try add($0, index + 1) }
            }
        }
    }

    func chainIsIntact(_ log: EventLog) throws -> Bool {
        var verifier = LogVerifier()
        try log.scan(after: 0, through: nil) { verifier.check($0) }
        return verifier.isIntact
    }

    @Test("an import that fills the disk appends nothing and says so with a typed error; with room it imports in full")
    func importIsAllOrNothing() throws {
        let log = try SQLiteEventLog.openForWriting(path: directory.path("import.db"), now: 0)
        let lines = exportLines(3000)
        #expect(try importLines(Array(lines.prefix(10)), into: log).appended == 10)
        let head = try log.head()
        try log.capGrowth(extraPages: 20)

        #expect(throws: EventLogError.full) { try importLines(lines, into: log) }
        #expect(try log.head() == head)
        #expect(try chainIsIntact(log))

        try log.capGrowth(extraPages: nil)
        #expect(try importLines(lines, into: log) == ImportSummary(read: 3000, appended: 2990, skipped: 10))
        #expect(try log.eventCount() == 3000 && chainIsIntact(log))
    }

    @Test("a command whose snapshot finds the disk full still succeeds; the problem is reported as not stored, and a later command stores it")
    func snapshotNotStored() throws {
        let path = directory.path("snapshot.db")
        let log = try SQLiteEventLog.openForWriting(path: path, now: 0)
        _ = try importLines(exportLines(2000), into: log)
        let ids = SequentialIDs()
        let environment = AppEnvironment(now: { Fixtures.epoch }, makeID: { ids.make() }, actor: "a@b", zone: Fixtures.utc)
        let dispatcher = Dispatcher(log: log, environment: environment, loaded: try StateLoader.load(log: log, snapshots: log), snapshots: log)
        var problems: [SnapshotProblem] = []
        dispatcher.onSnapshotProblem = { problems.append($0) }
        // Room for one small event, not for a snapshot of 2000 todos.
        try log.capGrowth(extraPages: 8)

        let outcome = try dispatcher.execute(.addTodo(TodoInput(title: "one more")))
        #expect(outcome.appended.count == 1)
        #expect(try log.head().seq == 2001)
        #expect(problems == [SnapshotProblem(seq: 2001, kind: .notStored(.full))])
        #expect(try log.snapshots().isEmpty)

        try log.capGrowth(extraPages: nil)
        _ = try dispatcher.execute(.addTodo(TodoInput(title: "and another")))
        #expect(problems.count == 1)
        #expect(try log.snapshots().map(\.seq) == [2002])
        #expect(try SnapshotCheck.run(log: log, snapshots: log).isEmpty)
    }
}
