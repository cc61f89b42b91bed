import Foundation
import Testing
@testable import TallyDomain
import TallyTestSupport
@testable import TallyEssentials

/// Runs commands through the decider and the reducer on one model, with a clock the test sets,
/// and keeps what undo needs (each command's events and the model before them).
struct SeriesWorld {
    let ids = SequentialIDs()
    var zone: Zone
    var model = ReadModel()
    var now: Int64 = Fixtures.epoch
    private(set) var commands: [(events: [AppliedEvent], before: ReadModel)] = []
    private(set) var log: [(stream: String, event: DomainEvent, at: Int64)] = []

    init(zone: Zone = Fixtures.utc) {
        self.zone = zone
    }

    /// Noon of `date` in the world's zone.
    static func noon(_ text: String, zone: Zone) -> Int64 {
        LocalDate.parse(text)!.startInstant(in: zone) + 12 * 3_600_000
    }

    /// Sets the clock to noon of `date` and runs `command`.
    @discardableResult
    mutating func run(_ command: Command, on date: String) throws -> Decision {
        now = Self.noon(date, zone: zone)
        return try run(command)
    }

    @discardableResult
    mutating func run(_ command: Command) throws -> Decision {
        let ids = self.ids
        let decision = try Decider.decide(command, state: model, context: DecisionContext(now: now, zone: zone, makeID: { ids.make() }))
        apply(decision)
        return decision
    }

    /// Undoes the newest command not undone yet (one step, like `tally undo`).
    mutating func undo() {
        let step = commands.removeLast()
        let before = model
        let decision = Compensation.undo([RevertStep(command: "c", events: step.events, before: step.before)], current: model, now: now)
        apply(decision, record: false)
        undone.append((decision.events.filter { $0.stream != HistoryStream.name }.map { AppliedEvent(stream: $0.stream, event: $0.event) }, before))
        undoneBefore.append(step)
    }

    /// Re-applies the newest undone command: reverts the undo's compensations from the model they were applied to.
    mutating func redo() {
        let (compensations, before) = undone.removeLast()
        let decision = Compensation.redo([RevertStep(command: "c", events: compensations, before: before)], current: model, now: now)
        apply(decision, record: false)
        commands.append(undoneBefore.removeLast())
    }

    /// Each undo's compensations and the model they were applied to.
    private var undone: [(events: [AppliedEvent], before: ReadModel)] = []
    private var undoneBefore: [(events: [AppliedEvent], before: ReadModel)] = []

    /// Folds events that another replica appended (as an import or a sync would).
    mutating func fold(_ events: [(stream: String, event: DomainEvent, at: Int64)]) {
        for item in events {
            Reducer.evolve(&model, item.event, stream: item.stream, version: model.version(of: item.stream) + 1, seq: model.position + 1, at: item.at)
            log.append(item)
        }
    }

    private mutating func apply(_ decision: Decision, record: Bool = true) {
        let before = model
        for pending in decision.events {
            Reducer.evolve(&model, pending.event, stream: pending.stream, version: pending.version, seq: model.position + 1, at: pending.recordedAt ?? now)
            log.append((pending.stream, pending.event, pending.recordedAt ?? now))
        }
        if record, !decision.events.isEmpty {
            commands.append((decision.events.map { AppliedEvent(stream: $0.stream, event: $0.event) }, before))
        }
    }

    /// The series the world started first.
    var series: Series { model.series.sorted.first! }

    /// The open (active, live) instances' due values, in creation order.
    var openDues: [Due?] { model.todos.filter { !$0.completed && !$0.deleted }.map(\.due) }

    /// Completes the one open instance of the first series, on `date`.
    mutating func completeOpen(on date: String) throws {
        let open = model.todos.last { !$0.completed && !$0.deleted && $0.series != nil }!
        try run(.completeTodos([String(open.number)]), on: date)
    }
}

func day(_ text: String) -> LocalDate { LocalDate.parse(text)! }

/// The model a sequence of completed instances leaves: every instance but the last completed at noon of its
/// completion day, each created when the previous one was completed.
func expectedModel(
    seriesID: String, fields: SeriesFields, startedAt: Int64, dues: [Due], completions: [Int64], zone: Zone, position: Int64
) -> ReadModel {
    var model = ReadModel()
    model.position = position
    model.series.insert(Series(id: seriesID, fields: fields, createdAt: startedAt, updatedAt: startedAt))
    for (index, due) in dues.enumerated() {
        let created = index == 0 ? startedAt : completions[index - 1]
        var todo = Todo(
            id: SeriesInstance.id(series: seriesID, occurrence: SeriesSchedule.day(of: due, zone: zone)), number: index + 1,
            title: fields.title, tags: fields.tags, priority: fields.priority, due: due, note: fields.note, series: seriesID,
            createdAt: created, updatedAt: created
        )
        if index < completions.count {
            todo.completed = true
            todo.completedAt = completions[index]
            todo.updatedAt = completions[index]
            todo.version = 2
        }
        model.insertTodo(todo)
    }
    return model
}

@Suite("Recurring series, folded over whole read models")
struct SeriesFoldTests {
    let prague = Zone.named("Europe/Prague")!

    /// Adds a series and completes each instance on its due day (or on the given days), returning the world.
    func simulate(
        due: String, recur: String, from: String? = nil, until: String? = nil, zone: Zone = Fixtures.utc,
        addedOn: String, completeOn days: [String]
    ) throws -> SeriesWorld {
        var world = SeriesWorld(zone: zone)
        try world.run(.addTodo(TodoInput(title: "Chore", due: due, recurrence: RecurrenceInput(period: recur, from: from, until: until))), on: addedOn)
        for day in days { try world.completeOpen(on: day) }
        return world
    }

    func check(_ world: SeriesWorld, dues: [Due], completedOn days: [String], sourceLocation: SourceLocation = #_sourceLocation) {
        let series = world.series
        let expected = expectedModel(
            seriesID: series.id, fields: series.fields, startedAt: series.createdAt, dues: dues,
            completions: days.map { SeriesWorld.noon($0, zone: world.zone) }, zone: world.zone, position: world.model.position
        )
        #expect(world.model == expected, "\(Diff.describe(expected, world.model))", sourceLocation: sourceLocation)
    }

    @Test("a monthly bill on the 31st falls on the last day of shorter months and comes back to the 31st")
    func monthEnds() throws {
        let paid = ["2026-01-31", "2026-02-28", "2026-03-31", "2026-04-30", "2026-05-31", "2026-06-30",
                    "2026-07-31", "2026-08-31", "2026-09-30", "2026-10-31", "2026-11-30"]
        let world = try simulate(due: "2026-01-31", recur: "monthly", addedOn: "2026-01-01", completeOn: paid)
        check(world, dues: (paid + ["2026-12-31"]).map { .date(day($0)) }, completedOn: paid)
    }

    @Test("a yearly todo on 29 February is due on the 28th outside leap years and on the 29th again in 2028")
    func leapDay() throws {
        let done = ["2024-02-29", "2025-02-28", "2026-02-28", "2027-02-28"]
        let world = try simulate(due: "2024-02-29", recur: "yearly", addedOn: "2024-02-01", completeOn: done)
        check(world, dues: (done + ["2028-02-29"]).map { .date(day($0)) }, completedOn: done)
    }

    @Test("a daily 09:00 todo stays at 09:00 local time across both daylight-saving changes in Europe/Prague")
    func daylightSaving() throws {
        let days = ["2026-03-27", "2026-03-28", "2026-03-29", "2026-10-24", "2026-10-25"]
        var world = SeriesWorld(zone: prague)
        try world.run(.addTodo(TodoInput(title: "Chore", due: "2026-03-27T09:00", recurrence: RecurrenceInput(period: "daily"))), on: "2026-03-27")
        for day in days.prefix(3) { try world.completeOpen(on: day) }
        // 09:00 CET is 08:00 UTC; 09:00 CEST is 07:00 UTC.
        let dues: [Due] = ["2026-03-27T08:00:00Z", "2026-03-28T08:00:00Z", "2026-03-29T07:00:00Z", "2026-03-30T07:00:00Z"].map { .instant(Timestamp.parse($0)!) }
        check(world, dues: dues, completedOn: Array(days.prefix(3)))
        // Completing late, in October, skips the missed days to the day of the completion: 09:00 CEST on the 24th,
        // then 09:00 CET on the 25th, after the clocks went back.
        var autumn = world
        try autumn.completeOpen(on: "2026-10-24")
        #expect(autumn.openDues == [.instant(Timestamp.parse("2026-10-24T07:00:00Z")!)])
        try autumn.completeOpen(on: "2026-10-24")
        #expect(autumn.openDues == [.instant(Timestamp.parse("2026-10-25T08:00:00Z")!)])
    }

    @Test("--until ends the series: completing the last occurrence creates nothing")
    func until() throws {
        let done = ["2026-02-02", "2026-02-09", "2026-02-16"]
        let world = try simulate(due: "2026-02-02", recur: "weekly", until: "2026-02-20", addedOn: "2026-02-01", completeOn: done)
        check(world, dues: done.map { .date(day($0)) }, completedOn: done)
        #expect(world.openDues.isEmpty)
    }

    @Test("missed occurrences are skipped: a weekly chore done weeks late is next due on the first occurrence not in the past")
    func missedOccurrences() throws {
        let world = try simulate(due: "2026-01-05", recur: "weekly", addedOn: "2026-01-01", completeOn: ["2026-03-04"])
        check(world, dues: [.date(day("2026-01-05")), .date(day("2026-03-09"))], completedOn: ["2026-03-04"])
        // An occurrence that falls on the day of a late completion is due that day.
        let onTheDay = try simulate(due: "2026-01-05", recur: "weekly", addedOn: "2026-01-01", completeOn: ["2026-03-09"])
        #expect(onTheDay.openDues == [.date(day("2026-03-09"))])
    }

    @Test("--recur-from completion counts from the day of completion, early or late")
    func fromCompletion() throws {
        let done = ["2026-01-01", "2026-01-10", "2026-01-11"]
        let world = try simulate(due: "2026-01-01", recur: "3d", from: "completion", addedOn: "2026-01-01", completeOn: done)
        // Jan 1 done on time → Jan 4; Jan 4 done late on the 10th → Jan 13; Jan 13 done early on the 11th → Jan 14.
        check(world, dues: ["2026-01-01", "2026-01-04", "2026-01-13", "2026-01-14"].map { .date(day($0)) }, completedOn: done)
    }

    @Test("weekdays skip the weekend, and Nw, Nd and Ny step by their period")
    func periods() throws {
        let friday = try simulate(due: "2026-01-02", recur: "weekdays", addedOn: "2026-01-01", completeOn: ["2026-01-02"])
        #expect(friday.openDues == [.date(day("2026-01-05"))])
        let fortnight = try simulate(due: "2026-01-02", recur: "2w", addedOn: "2026-01-01", completeOn: ["2026-01-02"])
        #expect(fortnight.openDues == [.date(day("2026-01-16"))])
        let tenDays = try simulate(due: "2026-01-02", recur: "10d", addedOn: "2026-01-01", completeOn: ["2026-01-02"])
        #expect(tenDays.openDues == [.date(day("2026-01-12"))])
        let twoYears = try simulate(due: "2026-01-02", recur: "2y", addedOn: "2026-01-01", completeOn: ["2026-01-02"])
        #expect(twoYears.openDues == [.date(day("2028-01-02"))])
    }

    @Test("undo of a completion reopens the instance and removes the one it created, in one step; redo brings both back")
    func undoRedo() throws {
        var world = try simulate(due: "2026-01-31", recur: "monthly", addedOn: "2026-01-01", completeOn: [])
        let beforeCompletion = world.model
        try world.completeOpen(on: "2026-01-31")
        let afterCompletion = world.model
        world.undo()
        var expected = beforeCompletion
        let first = beforeCompletion.todos[0]
        let noon = SeriesWorld.noon("2026-01-31", zone: world.zone)
        expected.position = world.model.position
        expected.updateTodo(id: first.id) { $0.version = 3; $0.updatedAt = noon }
        var next = afterCompletion.todos[1]
        next.deleted = true
        next.version = 2
        expected.insertTodo(next)
        expected.settingsVersions[HistoryStream.name] = 1
        #expect(world.model == expected, "\(Diff.describe(expected, world.model))")
        #expect(world.openDues == [.date(day("2026-01-31"))])

        world.redo()
        #expect(world.openDues == [.date(day("2026-02-28"))])
        #expect(world.model.todos.map(\.completed) == [true, false] && world.model.todos.map(\.deleted) == [false, false])

        // Undo again, then complete anew: the deleted instance of that occurrence is restored, not duplicated.
        world.undo()
        try world.completeOpen(on: "2026-01-31")
        #expect(world.model.todos.count == 2)
        #expect(world.openDues == [.date(day("2026-02-28"))])
    }

    @Test("the same occurrence completed on two replicas is one instance once their events meet")
    func sameOccurrenceTwice() throws {
        var laptop = try simulate(due: "2026-01-31", recur: "monthly", addedOn: "2026-01-01", completeOn: [])
        var phone = laptop
        let shared = laptop.log.count
        try laptop.completeOpen(on: "2026-01-31")
        try phone.completeOpen(on: "2026-02-01")
        // Both derived the same id for the February occurrence.
        #expect(laptop.model.todos[1].id == phone.model.todos[1].id)
        let merged = laptop.model
        laptop.fold(Array(phone.log.dropFirst(shared)))
        #expect(laptop.model.todos.count == 2)
        #expect(laptop.openDues == [.date(day("2026-02-28"))])
        // The second copy of the creation changes nothing; the second completion only moves the first instance's times.
        var expected = merged
        expected.position = laptop.model.position
        expected.updateTodo(id: merged.todos[0].id) { todo in
            todo.completedAt = SeriesWorld.noon("2026-02-01", zone: Fixtures.utc)
            todo.updatedAt = todo.completedAt!
            todo.version = 3
        }
        #expect(laptop.model == expected, "\(Diff.describe(expected, laptop.model))")
    }

    @Test("edit --series changes the rule and template for later instances; a plain edit changes only this instance")
    func editSeries() throws {
        var world = try simulate(due: "2026-01-05", recur: "weekly", addedOn: "2026-01-01", completeOn: [])
        try world.run(.editTodo("1", TodoEditInput(title: "Only this one")), on: "2026-01-02")
        #expect(world.model.todos[0].title == "Only this one" && world.series.fields.title == "Chore")
        try world.run(.editTodo("1", TodoEditInput(title: "Vacuum", series: true, recurrence: RecurrenceInput(period: "2w"))), on: "2026-01-02")
        #expect(world.model.todos[0].title == "Only this one")
        #expect(world.series.fields.title == "Vacuum" && world.series.fields.rule.period == .weeks(2))
        try world.completeOpen(on: "2026-01-05")
        #expect(world.model.todos[1].title == "Vacuum" && world.openDues == [.date(day("2026-01-19"))])
        world.undo()
        world.undo()
        #expect(world.series.fields.title == "Chore" && world.series.fields.rule.period == .weeks(1))
    }

    @Test("delete --series ends the series and deletes the instance; a plain delete skips to the next occurrence")
    func deleteSeries() throws {
        var world = try simulate(due: "2026-01-05", recur: "weekly", addedOn: "2026-01-01", completeOn: [])
        try world.run(.deleteTodos(["1"]), on: "2026-01-02")
        #expect(world.openDues == [.date(day("2026-01-12"))])
        try world.run(.endSeries(["2"]), on: "2026-01-03")
        #expect(world.series.ended && world.openDues.isEmpty)
        world.undo()
        #expect(!world.series.ended && world.openDues == [.date(day("2026-01-12"))])
        #expect(throws: DomainError.invalid(.notRecurring(number: 3))) {
            var plain = world
            try plain.run(.addTodo(TodoInput(title: "Plain")), on: "2026-01-03")
            try plain.run(.endSeries(["3"]))
        }
    }

    @Test("a one-off todo becomes the first instance of a series with edit --recur")
    func editStartsSeries() throws {
        var world = SeriesWorld()
        try world.run(.addTodo(TodoInput(title: "Backup", due: "2026-01-10")), on: "2026-01-01")
        try world.run(.editTodo("1", TodoEditInput(recurrence: RecurrenceInput(period: "monthly"))), on: "2026-01-01")
        #expect(world.model.todos[0].series == world.series.id)
        try world.completeOpen(on: "2026-01-10")
        #expect(world.openDues == [.date(day("2026-02-10"))])
    }

    @Test("recurrence input is checked", arguments: [
        (RecurrenceInput(period: "weekly"), nil as String?, DomainError.invalid(.recurrenceWithoutDue)),
        (RecurrenceInput(until: "2026-03-01"), "2026-01-05", .invalid(.recurrenceOptionWithoutRecur("--until"))),
        (RecurrenceInput(from: "completion"), "2026-01-05", .invalid(.recurrenceOptionWithoutRecur("--recur-from"))),
        (RecurrenceInput(period: "weekly", until: "2026-01-01"), "2026-01-05", .invalid(.untilBeforeDue(until: "2026-01-01", due: "2026-01-05"))),
        (RecurrenceInput(period: "weekly", from: "done"), "2026-01-05", .invalid(.invalidRecurFrom("done"))),
        (RecurrenceInput(period: "0d"), "2026-01-05", .invalid(.value(ValueError(kind: .period, input: "0d", key: .periodRange, arguments: ["max": "999"])))),
    ])
    func rejects(recurrence: RecurrenceInput, due: String?, expected: DomainError) {
        var world = SeriesWorld()
        #expect(throws: expected) { try world.run(.addTodo(TodoInput(title: "X", due: due, recurrence: recurrence)), on: "2026-01-01") }
        #expect(world.model == ReadModel())
    }

    @Test("wait is stored, edited, cleared and undone like any field")
    func wait() throws {
        var world = SeriesWorld()
        try world.run(.addTodo(TodoInput(title: "Later", wait: "fri")), on: "2026-01-01")
        #expect(world.model.todos[0].wait == .date(day("2026-01-02")))
        #expect(world.model.todos[0].isWaiting(now: world.now, zone: world.zone))
        try world.run(.editTodo("1", TodoEditInput(wait: "none")))
        #expect(world.model.todos[0].wait == nil)
        world.undo()
        #expect(world.model.todos[0].wait == .date(day("2026-01-02")))
        world.now = SeriesWorld.noon("2026-01-02", zone: world.zone)
        #expect(!world.model.todos[0].isWaiting(now: world.now, zone: world.zone))
    }
}
