import Foundation
import Testing
@testable import TallyEngine
@testable import TallyDomain
import TallyTestSupport
@testable import TallyEssentials

@Suite("Todo projection")
struct ProjectionTests {
    /// Six todos with varied fields, created a minute apart (t1 oldest).
    let model: ReadModel = {
        var model = ReadModel()
        var seq: Int64 = 0
        func add(_ stream: String, _ event: DomainEvent, minute: Int64) {
            seq += 1
            Reducer.evolve(&model, event, stream: stream, version: model.version(of: stream) + 1, seq: seq, at: Fixtures.epoch + minute * 60_000)
        }
        let date = { (d: Int) in Due.date(LocalDate(year: 2026, month: 11, day: d)!) }
        add("t1", .todoCreated(TodoFields(title: "banana bread", tags: ["home", "food"], priority: .low, due: date(25))), minute: 1)
        add("t2", .todoCreated(TodoFields(title: "Apple pie", tags: ["food"], priority: .high, due: date(22), note: "Grandma's recipe")), minute: 2)
        add("t3", .todoCreated(TodoFields(title: "call Bob", tags: ["work"])), minute: 3)
        add("t4", .todoCreated(TodoFields(title: "Dentist", priority: .high, due: .instant(Timestamp.parse("2026-11-22T09:00:00Z")!))), minute: 4)
        add("t5", .todoCreated(TodoFields(title: "cancel gym", tags: ["home"], priority: .medium)), minute: 5)
        add("t6", .todoCreated(TodoFields(title: "old thing")), minute: 6)
        add("t3", .todoCompleted, minute: 7)
        add("t1", .todoEdited(TodoChanges(note: .some("use ripe ones"))), minute: 8)
        add("t6", .todoDeleted, minute: 9)
        return model
    }()

    func numbers(_ query: TodoQuery) throws -> [Int] {
        try TodoProjection.run(query, on: model, now: Fixtures.epoch, zone: Fixtures.utc).todos.map(\.number)
    }

    @Test("default view: live todos in creation order, with counts")
    func standard() throws {
        let view = try TodoProjection.run(.standard, on: model, now: Fixtures.epoch, zone: Fixtures.utc)
        #expect(view.todos.map(\.number) == [1, 2, 3, 4, 5])
        #expect(view.matched == 5 && view.active == 4 && view.completed == 1)
    }

    @Test("status, tags, priority and deleted filters")
    func filters() throws {
        #expect(try numbers(TodoQuery(status: .active)) == [1, 2, 4, 5])
        #expect(try numbers(TodoQuery(status: .completed)) == [3])
        #expect(try numbers(TodoQuery(tags: ["home"])) == [1, 5])
        #expect(try numbers(TodoQuery(tags: ["home", "food"])) == [1])
        #expect(try numbers(TodoQuery(tags: ["nothing"])) == [])
        #expect(try numbers(TodoQuery(priority: .high)) == [2, 4])
        #expect(try numbers(TodoQuery(includeDeleted: true)) == [1, 2, 3, 4, 5, 6])
    }

    @Test("due ranges: before is exclusive of the day, after means after the whole day, undated never match")
    func dueRange() throws {
        #expect(try numbers(TodoQuery(dueBefore: "2026-11-23")) == [2, 4])
        #expect(try numbers(TodoQuery(dueBefore: "2026-11-22")) == [])
        #expect(try numbers(TodoQuery(dueAfter: "2026-11-22")) == [1])
        #expect(try numbers(TodoQuery(dueBefore: "tomorrow")) == [])
        #expect(try numbers(TodoQuery(dueBefore: "+2d")) == [2, 4])
        #expect(try numbers(TodoQuery(dueBefore: "2026-11-22T10:00", dueAfter: "2026-11-21")) == [2, 4])
    }

    @Test("search ignores case and looks in title, note and tags")
    func search() throws {
        #expect(try numbers(TodoQuery(search: "APPLE")) == [2])
        #expect(try numbers(TodoQuery(search: "grandma")) == [2])
        #expect(try numbers(TodoQuery(search: "ripe")) == [1])
        #expect(try numbers(TodoQuery(search: "work")) == [3])
        #expect(try numbers(TodoQuery(search: "zzz")) == [])
    }

    @Test("each sort key in its natural direction, ties by creation order, reversed with missing values still last")
    func sorting() throws {
        #expect(try numbers(TodoQuery(sort: .created)) == [1, 2, 3, 4, 5])
        #expect(try numbers(TodoQuery(sort: .created, reverse: true)) == [5, 4, 3, 2, 1])
        #expect(try numbers(TodoQuery(sort: .updated)) == [2, 4, 5, 3, 1])
        #expect(try numbers(TodoQuery(sort: .title)) == [2, 1, 3, 5, 4])
        #expect(try numbers(TodoQuery(sort: .title, reverse: true)) == [4, 5, 3, 1, 2])
        // A limited title sort keeps only the page (a bounded heap) and agrees with the full sort.
        #expect(try numbers(TodoQuery(sort: .title, limit: 2)) == [2, 1])
        #expect(try numbers(TodoQuery(sort: .title, reverse: true, limit: 3)) == [4, 5, 3])
        #expect(try numbers(TodoQuery(sort: .due)) == [2, 4, 1, 3, 5])
        #expect(try numbers(TodoQuery(sort: .due, reverse: true)) == [1, 4, 2, 3, 5])
        #expect(try numbers(TodoQuery(sort: .priority)) == [2, 4, 5, 1, 3])
        #expect(try numbers(TodoQuery(sort: .priority, reverse: true)) == [1, 5, 2, 4, 3])
    }

    @Test("limit cuts after sorting; counts describe all matches")
    func limit() throws {
        let view = try TodoProjection.run(TodoQuery(sort: .priority, limit: 2), on: model, now: Fixtures.epoch, zone: Fixtures.utc)
        #expect(view.todos.map(\.number) == [2, 4])
        #expect(view.matched == 5 && view.active == 4 && view.completed == 1)
    }

    @Test("a date-only due counts from local midnight in the given zone")
    func zoneAware() throws {
        let tokyo = Zone.named("Asia/Tokyo")!
        // In Tokyo, 2026-11-22 starts at 2026-11-21T15:00Z, before the 09:00Z instant of todo 4.
        let view = try TodoProjection.run(TodoQuery(sort: .due), on: model, now: Fixtures.epoch, zone: tokyo)
        #expect(view.todos.map(\.number) == [2, 4, 1, 3, 5])
        let before = try TodoProjection.run(TodoQuery(dueBefore: "2026-11-22T18:01"), on: model, now: Fixtures.epoch, zone: tokyo)
        #expect(before.todos.map(\.number) == [2, 4])
    }
}
