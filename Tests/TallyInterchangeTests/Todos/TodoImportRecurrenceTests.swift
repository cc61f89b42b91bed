import Foundation
import Testing
import TallyDomain
import TallyTestSupport
@testable import TallyEssentials
@testable import TallyInterchange

/// Recurrence and local times as Taskwarrior and todo.txt write them, read into tally's rules.
@Suite("Taskwarrior and todo.txt recurrence and local times")
struct TodoImportRecurrenceTests {
    static let utc = Fixtures.utc

    @Test("Taskwarrior periods and todo.txt rec: values map onto rules")
    func foreignPeriods() {
        #expect(TaskwarriorRecurrence.period("weekly") == .weeks(1))
        #expect(TaskwarriorRecurrence.period("quarterly") == .months(3))
        #expect(TaskwarriorRecurrence.period("3days") == .days(3))
        #expect(TaskwarriorRecurrence.period("2q") == .months(6))
        #expect(TaskwarriorRecurrence.period("P1M") == .months(1))
        #expect(TaskwarriorRecurrence.period("biweekly") == .weeks(2))
        #expect(TaskwarriorRecurrence.period("0d") == nil && TaskwarriorRecurrence.period("often") == nil)
        #expect(TodoTxtRecurrence.rule("1w") == RecurrenceRule(period: .weeks(1), anchor: .completion))
        #expect(TodoTxtRecurrence.rule("+1w") == RecurrenceRule(period: .weeks(1), anchor: .due))
        #expect(TodoTxtRecurrence.rule("+2m") == RecurrenceRule(period: .months(2), anchor: .due))
        #expect(TodoTxtRecurrence.rule("1b") == RecurrenceRule(period: .weekdays, anchor: .completion))
        #expect(TodoTxtRecurrence.rule("0d") == nil && TodoTxtRecurrence.rule("w") == RecurrenceRule(period: .weeks(1), anchor: .completion))
        #expect(TodoTxtRecurrence.rule("+") == nil && TodoTxtRecurrence.rule("x") == nil)
    }

    @Test("Taskwarrior: a template becomes a series, duplicate instances of one occurrence come in once, later pending ones are left out")
    func taskwarriorSeries() throws {
        let parent = "8d4be1ed-41c4-426e-8a1b-71efc242d9d8"
        let text = """
            {"uuid":"\(parent)","status":"recurring","recur":"monthly","due":"20260131T000000Z","until":"20261231T000000Z","description":"Pay rent","mask":"+--","rtype":"periodic","entry":"20260101T000000Z"}
            {"uuid":"11111111-0000-4000-8000-000000000001","status":"completed","parent":"\(parent)","imask":0,"due":"20260131T000000Z","description":"Pay rent","end":"20260131T100000Z"}
            {"uuid":"11111111-0000-4000-8000-000000000002","status":"completed","parent":"\(parent)","imask":0,"due":"20260131T000000Z","description":"Pay rent","end":"20260131T110000Z"}
            {"uuid":"11111111-0000-4000-8000-000000000003","status":"pending","parent":"\(parent)","imask":1,"due":"20260228T000000Z","description":"Pay rent"}
            {"uuid":"11111111-0000-4000-8000-000000000004","status":"pending","parent":"\(parent)","imask":2,"due":"20260331T000000Z","description":"Pay rent","wait":"20260320T000000Z"}
            {"uuid":"22222222-0000-4000-8000-000000000000","status":"deleted","recur":"2x","due":"20260131T000000Z","description":"Odd"}
            """
        let batch = try TaskwarriorImport.parse(Array(text.utf8), zone: Self.utc)
        let series = TaskwarriorRecurrence.seriesStream(parent)
        #expect(batch.series == [ImportedSeries(
            stream: series, source: .task("8d4be1ed"),
            fields: SeriesFields(rule: RecurrenceRule(period: .months(1)), start: .date(LocalDate.parse("2026-01-31")!), until: LocalDate.parse("2026-12-31"), title: "Pay rent")
        )])
        #expect(Array(batch.todos.map(\.stream).prefix(2)) == [
            SeriesInstance.id(series: series, occurrence: LocalDate.parse("2026-01-31")!),
            SeriesInstance.id(series: series, occurrence: LocalDate.parse("2026-02-28")!),
        ])
        #expect(batch.todos.prefix(2).allSatisfy { $0.fields.series == series && $0.fields.note == nil })
        #expect(batch.warnings.contains(ImportIssue(source: .task("8d4be1ed"), problem: .laterOccurrencesSkipped(count: 1))))
        // A template whose rule tally cannot express comes in as an ordinary task, its recurrence kept in the note.
        #expect(batch.warnings.contains(ImportIssue(source: .task("22222222"), problem: .invalidPeriod(field: "recur", value: "2x"))))
        #expect(batch.todos.count == 3 && batch.todos[2].fields.series == nil && batch.todos[2].fields.note?.contains("recur: 2x") == true)

        // Decided into an empty log: the series first, then one instance per occurrence.
        let decision = try Decider.decide(.importTodos(batch.todos, series: batch.series), state: ReadModel(), context: Fixtures.context(ids: SequentialIDs()))
        #expect(Array(decision.events.map(\.stream).prefix(4)) == [series, batch.todos[0].stream, batch.todos[0].stream, batch.todos[1].stream])
        var model = ReadModel()
        for (index, pending) in decision.events.enumerated() {
            Reducer.evolve(&model, pending.event, stream: pending.stream, version: pending.version, seq: Int64(index + 1), at: pending.recordedAt ?? Fixtures.epoch)
        }
        #expect(model.series[series]?.fields.title == "Pay rent" && model.todos.count == 3)
        // Imported again: nothing new.
        let again = try Decider.decide(.importTodos(batch.todos, series: batch.series), state: model, context: Fixtures.context(ids: SequentialIDs()))
        #expect(again.events.isEmpty)
    }

    @Test func taskwarriorLocalTimesMatchCalendar() throws {
        let prague = try #require(Zone.named("Europe/Prague"))
        let foundation = try #require(TimeZone(identifier: "Europe/Prague"))
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = foundation
        for (month, day) in [(3, 29), (10, 25), (7, 1)] {
            for hour in 0..<5 {
                for minute in [0, 30, 59] {
                    let components = DateComponents(year: 2026, month: month, day: day, hour: hour, minute: minute, second: 7)
                    let expected = Int64(try #require(calendar.date(from: components)).timeIntervalSince1970 * 1000)
                    let ours = TaskwarriorImport.instant(year: 2026, month: month, day: day, hour: hour, minute: minute, second: 7, zone: prague)
                    #expect(ours == expected, "2026-\(month)-\(day) \(hour):\(minute)")
                }
            }
        }
    }
}
