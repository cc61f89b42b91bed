import Testing
@testable import TallyDomain
import TallyTestSupport
@testable import TallyEssentials

@Suite("Goals: periods, progress, folds, undo and sync")
struct GoalTests {
    func day(_ text: String) -> LocalDate { LocalDate.parse(text)! }

    @Test("periods are ISO weeks from Monday, calendar months and years, across year ends")
    func periods() {
        #expect(GoalPeriod.week.start(of: day("2026-11-22")) == day("2026-11-16"))
        #expect(GoalPeriod.week.start(of: day("2026-11-16")) == day("2026-11-16"))
        #expect(GoalPeriod.week.label(day("2026-12-28")) == "2026-W53")
        #expect(GoalPeriod.week.label(GoalPeriod.week.start(of: day("2027-01-03"))) == "2026-W53")
        #expect(GoalPeriod.week.label(GoalPeriod.week.start(of: day("2027-01-04"))) == "2027-W01")
        #expect(GoalPeriod.week.label(GoalPeriod.week.start(of: day("2024-12-30"))) == "2025-W01")
        #expect(GoalPeriod.month.next(day("2026-12-01")) == day("2027-01-01"))
        #expect(GoalPeriod.month.previous(day("2026-01-01")) == day("2025-12-01"))
        #expect(GoalPeriod.month.start(of: day("2024-02-29")) == day("2024-02-01"))
        #expect(GoalPeriod.year.label(GoalPeriod.year.start(of: day("2026-07-04"))) == "2026")
        #expect(GoalPeriod.year.next(day("2026-01-01")) == day("2027-01-01"))
    }

    /// A model with runs and a ride on the given days (10 km, 40 min each; the ride 60 km, 2 h).
    func model(runs: [String], ride: String, deleted: String? = nil) -> ReadModel {
        var model = ReadModel()
        var seq: Int64 = 0
        func log(_ fields: RecordFields, _ n: Int) {
            seq += 1
            Reducer.evolve(&model, .recordLogged(fields), stream: "cccccccc-0000-4000-8000-" + String(String(n + 1_000_000_000_000).suffix(12)), version: 1, seq: seq, at: Fixtures.epoch)
        }
        for (index, text) in runs.enumerated() {
            log(RecordFields(name: "Run", category: "running", durationSeconds: 2400, distanceMeters: 10_000, date: day(text).startInstant(in: .utc) + 3_600_000), index + 1)
        }
        log(RecordFields(name: "Ride", category: "cycling", durationSeconds: 7200, distanceMeters: 60_000, date: day(ride).startInstant(in: .utc)), 99)
        if let deleted {
            seq += 1
            Reducer.evolve(&model, .recordLogged(RecordFields(name: "Gone", category: "running", durationSeconds: 60, distanceMeters: 50_000, date: day(deleted).startInstant(in: .utc))), stream: "cccccccc-0000-4000-8000-000000000100", version: 1, seq: seq, at: Fixtures.epoch)
            seq += 1
            Reducer.evolve(&model, .recordDeleted, stream: "cccccccc-0000-4000-8000-000000000100", version: 2, seq: seq, at: Fixtures.epoch)
        }
        return model
    }

    @Test("progress sums the period's live records of the goal's category; history runs back to the goal's first period, newest first")
    func progress() {
        var state = model(runs: ["2026-10-27", "2026-11-03", "2026-11-05", "2026-11-12", "2026-11-18", "2026-11-20"], ride: "2026-11-19", deleted: "2026-11-17")
        Reducer.evolve(&state, .goalSet(Goal(key: GoalKey(per: .week, metric: .distance, category: "running"), target: 15_000, from: day("2026-10-20"))), stream: GoalBook.stream, version: 1, seq: 100, at: Fixtures.epoch)
        Reducer.evolve(&state, .goalSet(Goal(key: GoalKey(per: .month, metric: .time), target: 10 * 3600, from: day("2026-11-21"))), stream: GoalBook.stream, version: 2, seq: 101, at: Fixtures.epoch)
        let result = GoalProgress.of(state, today: day("2026-11-21"), zone: .utc, limit: 3)
        #expect(result.count == 2)
        let weekly = result[0]
        #expect(weekly.current.label == "2026-W47" && weekly.current.done == 20_000 && weekly.current.met && weekly.current.left == 0)
        #expect(weekly.history.map(\.label) == ["2026-W46", "2026-W45", "2026-W44"])
        #expect(weekly.history.map(\.done) == [10_000, 20_000, 10_000])
        #expect(weekly.history.map(\.met) == [false, true, false])
        #expect(weekly.pastPeriods == 4)
        let monthly = result[1]
        // Every category counts: five runs of 40 minutes in November and the two-hour ride; the deleted record does not.
        #expect(monthly.current.label == "2026-11" && monthly.current.done == 5 * 2400 + 7200)
        #expect(monthly.current.left == 36_000 - 19_200 && !monthly.current.met)
        #expect(monthly.history.isEmpty && monthly.pastPeriods == 0)
    }

    @Test("goal.set and goal.removed fold by key; undo restores the goal before; sync keeps the later change")
    func foldUndoSync() throws {
        let key = GoalKey(per: .week, metric: .count)
        var store = FoldStore()
        let first = Goal(key: key, target: 3, from: day("2026-01-05"))
        store.send(.goalSet(first), to: GoalBook.stream) { model in
            model.goals.set(first, at: Fixtures.epoch + 60_000)
            model.settingsVersions[GoalBook.stream] = 1
        }
        let second = Goal(key: key, target: 4, from: day("2026-01-05"))
        store.send(.goalSet(second), to: GoalBook.stream) { model in
            model.goals.set(second, at: Fixtures.epoch + 120_000)
            model.settingsVersions[GoalBook.stream] = 2
        }
        let before = store.model
        store.send(.goalRemoved(key), to: GoalBook.stream) { model in
            model.goals.remove(key, at: Fixtures.epoch + 180_000)
            model.settingsVersions[GoalBook.stream] = 3
        }
        let undo = Compensation.undo([RevertStep(command: "c", events: [AppliedEvent(stream: GoalBook.stream, event: .goalRemoved(key))], before: before)], current: store.model, now: 0)
        #expect(undo.events.map(\.event).first == .goalSet(second))
        let undoSet = Compensation.undo([RevertStep(command: "c", events: [AppliedEvent(stream: GoalBook.stream, event: .goalSet(first))], before: ReadModel())], current: before, now: 0)
        #expect(undoSet.events.map(\.event).first == .goalRemoved(key))

        typealias T = Timeline
        let prefix = T.chain([(.goalSet(first), GoalBook.stream, 0, "e-0")], after: [])
        let remote = T.chain([(.goalSet(second), GoalBook.stream, 10, "r-1")], after: prefix, actor: "bob@desktop")
        let local = T.chain([(.goalRemoved(key), GoalBook.stream, 5, "l-1")], after: prefix)
        let outcome = try T.rebase(prefix: prefix, remote: remote, local: local)
        #expect(outcome.conflicts.map(\.kind) == [.overridden])
        #expect(outcome.state.goals[key] == second)
    }

    @Test("the goal events fold into a dated history per key: each change with its time, a repeat kept once, a removal of nothing not at all")
    func historyFold() {
        let key = GoalKey(per: .week, metric: .count, category: "running")
        let other = GoalKey(per: .month, metric: .distance)
        let three = Goal(key: key, target: 3, from: day("2026-01-05"))
        let five = Goal(key: key, target: 5, from: day("2026-01-05"))
        let four = Goal(key: key, target: 4, from: day("2026-03-18"))
        let monthly = Goal(key: other, target: 100_000, from: day("2026-02-01"))
        var store = FoldStore()
        let minute: Int64 = 60_000
        store.send(.goalSet(three), to: GoalBook.stream) { model in
            model.goals = GoalBook(changes: [key: [GoalChange(at: Fixtures.epoch + minute, goal: three)]])
            model.settingsVersions[GoalBook.stream] = 1
        }
        store.send(.goalSet(five), to: GoalBook.stream) { model in
            model.goals = GoalBook(changes: [key: [GoalChange(at: Fixtures.epoch + minute, goal: three), GoalChange(at: Fixtures.epoch + 2 * minute, goal: five)]])
            model.settingsVersions[GoalBook.stream] = 2
        }
        // The same goal again (a synced or imported repeat) changes nothing but the stream's version.
        store.send(.goalSet(five), to: GoalBook.stream) { model in
            model.settingsVersions[GoalBook.stream] = 3
        }
        store.send(.goalSet(monthly), to: GoalBook.stream) { model in
            model.goals = GoalBook(changes: [
                key: [GoalChange(at: Fixtures.epoch + minute, goal: three), GoalChange(at: Fixtures.epoch + 2 * minute, goal: five)],
                other: [GoalChange(at: Fixtures.epoch + 4 * minute, goal: monthly)],
            ])
            model.settingsVersions[GoalBook.stream] = 4
        }
        store.send(.goalRemoved(key), to: GoalBook.stream) { model in
            model.goals = GoalBook(changes: [
                key: [GoalChange(at: Fixtures.epoch + minute, goal: three), GoalChange(at: Fixtures.epoch + 2 * minute, goal: five), GoalChange(at: Fixtures.epoch + 5 * minute, goal: nil)],
                other: [GoalChange(at: Fixtures.epoch + 4 * minute, goal: monthly)],
            ])
            model.settingsVersions[GoalBook.stream] = 5
        }
        #expect(store.model.goals[key] == nil && store.model.goals.sorted == [monthly])
        // Removing a goal that is not set records nothing.
        store.send(.goalRemoved(key), to: GoalBook.stream) { model in
            model.settingsVersions[GoalBook.stream] = 6
        }
        store.send(.goalSet(four), to: GoalBook.stream) { model in
            model.goals = GoalBook(changes: [
                key: [
                    GoalChange(at: Fixtures.epoch + minute, goal: three), GoalChange(at: Fixtures.epoch + 2 * minute, goal: five),
                    GoalChange(at: Fixtures.epoch + 5 * minute, goal: nil), GoalChange(at: Fixtures.epoch + 7 * minute, goal: four),
                ],
                other: [GoalChange(at: Fixtures.epoch + 4 * minute, goal: monthly)],
            ])
            model.settingsVersions[GoalBook.stream] = 7
        }
        #expect(store.model.goals[key] == four)
    }

    /// Noon UTC of `text`.
    func noon(_ text: String) -> Int64 { day(text).startInstant(in: .utc) + 12 * 3_600_000 }

    /// A weekly count goal of running from 2026-01-05 (W02): 3 set on Wed 2026-02-04 (W06), 5 on Wed
    /// 2026-02-18 (W08), removed on Wed 2026-03-04 (W10), 4 set again on Wed 2026-03-18 (W12), with
    /// four runs in every week.
    func changedHistory() -> (ReadModel, GoalKey) {
        var runs: [String] = []
        var monday = day("2025-12-29")
        while monday < day("2026-03-30") {
            for offset in [0, 1, 2, 3] { runs.append(monday.adding(days: offset).description) }
            monday = monday.adding(days: 7)
        }
        var state = model(runs: runs, ride: "2026-01-07")
        let key = GoalKey(per: .week, metric: .count, category: "running")
        let events: [(DomainEvent, String)] = [
            (.goalSet(Goal(key: key, target: 3, from: day("2026-01-05"))), "2026-02-04"),
            (.goalSet(Goal(key: key, target: 5, from: day("2026-01-05"))), "2026-02-18"),
            (.goalRemoved(key), "2026-03-04"),
            (.goalSet(Goal(key: key, target: 4, from: day("2026-01-05"))), "2026-03-18"),
        ]
        for (offset, (event, when)) in events.enumerated() {
            Reducer.evolve(&state, event, stream: GoalBook.stream, version: offset + 1, seq: 1_000 + Int64(offset), at: noon(when))
        }
        return (state, key)
    }

    @Test("each past period is judged by the target in force at its end: a change mid-week counts for that week, a removal leaves a gap, weeks before the first set take the first target, none before the goal's first day")
    func periodsJudgedByTheirTarget() {
        let (state, key) = changedHistory()
        let result = GoalProgress.of(state, today: day("2026-03-25"), zone: .utc, limit: 20)
        #expect(result.count == 1)
        let weekly = result[0]
        #expect(weekly.current.label == "2026-W13" && weekly.current.target == 4 && weekly.current.done == 4 && weekly.current.met)
        #expect(weekly.history.map(\.label) == ["2026-W12", "2026-W11", "2026-W10", "2026-W09", "2026-W08", "2026-W07", "2026-W06", "2026-W05", "2026-W04", "2026-W03", "2026-W02"])
        #expect(weekly.history.map(\.target) == [4, nil, nil, 5, 5, 3, 3, 3, 3, 3, 3])
        #expect(weekly.history.map(\.met) == [true, false, false, false, false, true, true, true, true, true, true])
        #expect(weekly.history.map(\.left) == [0, 0, 0, 1, 1, 0, 0, 0, 0, 0, 0])
        #expect(weekly.pastPeriods == 11)
        // The week before the goal's first day: nothing was in force.
        #expect(state.goals.target(of: key, start: day("2025-12-29"), end: day("2026-01-05"), zone: .utc) == nil)
        // A period's end is local: a change on Sunday 20:00 UTC falls in that week in UTC, and on
        // Monday of the next week in UTC+14, so the week keeps its old target there.
        var book = GoalBook()
        book.set(Goal(key: key, target: 3, from: day("2026-01-05")), at: noon("2026-01-07"))
        book.set(Goal(key: key, target: 6, from: day("2026-01-05")), at: day("2026-02-15").startInstant(in: .utc) + 20 * 3_600_000)
        let kiribati = Zone(name: "+14", initialOffset: 14 * 3600)
        #expect(book.target(of: key, start: day("2026-02-09"), end: day("2026-02-16"), zone: .utc) == 6)
        #expect(book.target(of: key, start: day("2026-02-09"), end: day("2026-02-16"), zone: kiribati) == 3)
        #expect(book.target(of: key, start: day("2026-02-16"), end: day("2026-02-23"), zone: kiribati) == 6)
    }

    @Test("a goal set with --from reaching back judges the weeks before it was set by its first target; a later set reaching further back claims only the weeks none did")
    func backfill() {
        let key = GoalKey(per: .month, metric: .count)
        var book = GoalBook()
        book.set(Goal(key: key, target: 10, from: day("2026-03-10")), at: noon("2026-05-20"))
        book.set(Goal(key: key, target: 12, from: day("2026-01-01")), at: noon("2026-06-02"))
        func target(_ month: String) -> Double? {
            let start = day(month)
            return book.target(of: key, start: start, end: GoalPeriod.month.next(start), zone: .utc)
        }
        #expect(target("2025-12-01") == nil)
        #expect(target("2026-01-01") == 12 && target("2026-02-01") == 12)
        #expect(target("2026-03-01") == 10 && target("2026-04-01") == 10)
        #expect(target("2026-05-01") == 10)
        #expect(target("2026-06-01") == 12)
        // A target corrected in the week it was set is the one the weeks before are measured by.
        let weekly = GoalKey(per: .week, metric: .distance)
        var corrected = GoalBook()
        corrected.set(Goal(key: weekly, target: 25_000, from: day("2026-10-20")), at: noon("2026-11-18"))
        corrected.set(Goal(key: weekly, target: 15_000, from: day("2026-10-20")), at: noon("2026-11-19"))
        #expect(corrected.target(of: weekly, start: day("2026-10-26"), end: day("2026-11-02"), zone: .utc) == 15_000)
        #expect(corrected.target(of: weekly, start: day("2026-10-12"), end: day("2026-10-19"), zone: .utc) == nil)
        // A set undone (removed) within its week claims nothing; the goal set again later does.
        var undone = GoalBook()
        undone.set(Goal(key: weekly, target: 90_000, from: day("2026-10-20")), at: noon("2026-11-17"))
        undone.remove(weekly, at: noon("2026-11-17") + 60_000)
        undone.set(Goal(key: weekly, target: 20_000, from: day("2026-10-20")), at: noon("2026-11-24"))
        #expect(undone.target(of: weekly, start: day("2026-10-26"), end: day("2026-11-02"), zone: .utc) == 20_000)
        #expect(undone.target(of: weekly, start: day("2026-11-16"), end: day("2026-11-23"), zone: .utc) == nil)
    }

    @Test("goal set decides: one target in its limits; the same again is a notice; a new target keeps the first day")
    func decide() throws {
        let ids = SequentialIDs()
        let context = DecisionContext(now: Fixtures.epoch, zone: .utc, makeID: { ids.make() })
        var state = ReadModel()
        let set = try Decider.decide(.setGoal(GoalInput(per: .week, distance: "40km", category: "Running", from: "2026-01-05")), state: state, context: context)
        guard case .goalSet(let goal)? = set.events.first?.event else { Issue.record("no goal.set"); return }
        #expect(goal == Goal(key: GoalKey(per: .week, metric: .distance, category: "running"), target: 40_000, from: day("2026-01-05")))
        Reducer.evolve(&state, .goalSet(goal), stream: GoalBook.stream, version: 1, seq: 1, at: Fixtures.epoch)
        #expect(try Decider.decide(.setGoal(GoalInput(per: .week, distance: "40 km", category: "running")), state: state, context: context).notices == [.goalUnchanged])
        let changed = try Decider.decide(.setGoal(GoalInput(per: .week, distance: "50km", category: "running")), state: state, context: context)
        #expect(changed.events.first?.event == .goalSet(Goal(key: goal.key, target: 50_000, from: day("2026-01-05"))))
        for bad in [GoalInput(per: .week, distance: "50m"), GoalInput(per: .week, distance: "200000km"), GoalInput(per: .year, time: "30s"),
                    GoalInput(per: .year, time: "9000h"), GoalInput(per: .month, count: "0"), GoalInput(per: .month, count: "1.5"),
                    GoalInput(per: .month, count: "10001"), GoalInput(per: .week, distance: String(repeating: "9", count: 500) + "km"),
                    GoalInput(per: .week, count: "3", category: "Not a category")] {
            #expect(throws: DomainError.self, "\(bad)") { try Decider.decide(.setGoal(bad), state: state, context: context) }
        }
        #expect(throws: DomainError.noGoal(GoalKey(per: .year, metric: .count))) { try Decider.decide(.removeGoal(GoalKey(per: .year, metric: .count)), state: state, context: context) }
    }

    @Test("every door refuses goal events past the limits or on another stream")
    func rules() {
        let key = GoalKey(per: .week, metric: .distance)
        let bad: [(DomainEvent, String)] = [
            (.goalSet(Goal(key: key, target: 1, from: day("2026-01-01"))), GoalBook.stream),
            (.goalSet(Goal(key: key, target: .nan, from: day("2026-01-01"))), GoalBook.stream),
            (.goalSet(Goal(key: GoalKey(per: .week, metric: .count), target: 2.5, from: day("2026-01-01"))), GoalBook.stream),
            (.goalSet(Goal(key: GoalKey(per: .week, metric: .count, category: "Bad!"), target: 2, from: day("2026-01-01"))), GoalBook.stream),
            (.goalSet(Goal(key: key, target: 5_000, from: day("2026-01-01"))), "athlete"),
            (.goalRemoved(key), "aaaaaaaa-0000-4000-8000-000000000001"),
        ]
        for (event, stream) in bad {
            #expect(throws: EventLineError.self, "\(event)") {
                try EventRules.check(event, id: "eeeeeeee-0000-4000-8000-000000000001", stream: stream, command: "eeeeeeee-0000-4000-8000-000000000002", actor: "a")
            }
        }
    }
}
