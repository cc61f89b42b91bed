import Testing
@testable import TallyEngine
import TallyDomain
import TallySQLite
import TallyTestSupport
@testable import TallyEssentials

@Suite("Export and import")
struct ImporterTests {
    let directory = TemporaryDirectory()

    func importLines(_ lines: [String], into log: EventLog) throws -> ImportSummary {
        try Importer.run(into: log) { add in
            for (index, line) in lines.enumerated() {
                let bytes = Array(line.utf8)
                try bytes.withUnsafeBufferPointer { try add($0, index + 1) }
            }
        }
    }

    func export(_ log: EventLog) throws -> [String] {
        var lines: [String] = []
        try log.scan(after: 0, through: nil) { lines.append(EventLines.encode($0)) }
        return lines
    }

    /// A history of `count` commands chosen by a seeded generator, undo and redo included.
    func history(seed: UInt64, count: Int, into log: EventLog) throws -> ReadModel {
        var random = SplitMix64(seed: seed)
        let ids = SequentialIDs(prefix: "\(String(seed, radix: 16).padding(toLength: 8, withPad: "0", startingAt: 0))-0000-4000-8000-")
        let clock = TestClock()
        let dispatcher = Dispatcher(log: log, environment: AppEnvironment(now: { clock.now }, makeID: { ids.make() }, actor: "seed\(seed)", zone: Fixtures.utc))
        for step in 0..<count {
            clock.advance(seconds: Int64(random.next() % 5000))
            let todos = dispatcher.state.todos.count
            let ref = todos == 0 ? "1" : String(Int(random.next() % UInt64(todos)) + 1)
            let command: Command = switch random.next() % 8 {
            case 0, 1: .addTodo(TodoInput(title: "todo \(step) é", tags: ["t\(step % 3)"]))
            case 2: .toggleTodos([ref])
            case 3: .editTodo(ref, TodoEditInput(title: "edited \(step)", note: step % 2 == 0 ? "note" : "none"))
            case 4: .deleteTodos([ref])
            case 5: .saveTodoFilter(TodoQuery(status: step % 2 == 0 ? .active : .completed))
            default: .toggleAllTodos
            }
            do {
                if random.next() % 6 == 0 { _ = try dispatcher.undo() } else if random.next() % 9 == 0 { _ = try dispatcher.redo() } else { _ = try dispatcher.execute(command) }
            } catch is DomainError {
            } catch is HistoryError {
            }
        }
        return dispatcher.state
    }

    @Test("export → import into an empty database → export gives the same events and the same views", arguments: [1, 2, 3] as [UInt64])
    func roundTrip(seed: UInt64) throws {
        let source = try SQLiteEventLog.openForWriting(path: directory.path("source-\(seed).db"), now: 0)
        let state = try history(seed: seed, count: 60, into: source)
        let lines = try export(source)
        let target = try SQLiteEventLog.openForWriting(path: directory.path("target-\(seed).db"), now: 0)
        let summary = try importLines(lines, into: target)
        #expect(summary == ImportSummary(read: lines.count, appended: lines.count, skipped: 0))
        #expect(try export(target) == lines)
        #expect(try Replayer.fold(target, into: ReadModel()) == state)
        #expect(try Verifier.run(target).isIntact)
        let again = try importLines(lines, into: target)
        #expect(again == ImportSummary(read: lines.count, appended: 0, skipped: lines.count))
        #expect(try export(target) == lines)
    }

    /// Settings streams (saved views, history markers) are shared keys, so this target has only todos of its own.
    @Test("seq and hash are recomputed: importing after other events appends with fresh links")
    func recomputed() throws {
        let source = InMemoryStore()
        _ = try history(seed: 7, count: 10, into: source)
        let target = InMemoryStore()
        let ids = SequentialIDs(prefix: "99999999-0000-4000-8000-")
        let local = Dispatcher(log: target, environment: AppEnvironment(now: { Fixtures.epoch }, makeID: { ids.make() }, actor: "local", zone: Fixtures.utc))
        for title in ["x", "y"] { _ = try local.execute(.addTodo(TodoInput(title: title))) }
        let before = target.events.count
        let lines = try export(source).map { $0.replacingOccurrences(of: #""hash":"#, with: #""ignored":"#) }
        _ = try importLines(lines, into: target)
        #expect(target.events.count == before + lines.count)
        #expect(try Verifier.run(target).isIntact)
    }

    @Test("a clash appends nothing: different content under a known id, a taken version, a gap, a malformed line")
    func allOrNothing() throws {
        let log = InMemoryStore()
        _ = try history(seed: 4, count: 12, into: log)
        let lines = try export(log)
        let count = log.events.count
        let changed = lines[0].replacingOccurrences(of: "seed4", with: "mallory")
        #expect(throws: ImportError.conflict(line: 1, .differentContent(id: log.events[0].id))) { try importLines([changed], into: log) }
        let stolen = lines[0].replacingOccurrences(of: log.events[0].id, with: "ffffffff-0000-4000-8000-000000000000")
        #expect(throws: ImportError.conflict(line: 1, .versionTaken(stream: log.events[0].stream, version: 1))) { try importLines([stolen], into: log) }
        let fresh = InMemoryStore()
        let secondOfStream = lines.firstIndex { $0.contains(#""version":2,"#) }!
        #expect(throws: ImportError.self) { try importLines([lines[secondOfStream]], into: fresh) }
        #expect(throws: ImportError.malformed(line: 3, reason: "not valid JSON (unexpected end of input at byte 9)")) {
            try importLines([lines[0], lines[1], #"{"seq":1,"#], into: fresh)
        }
        #expect(log.events.count == count && fresh.events.isEmpty)
    }
}
