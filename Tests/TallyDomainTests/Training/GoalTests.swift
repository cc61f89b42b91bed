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
            model.goals.set(first)
            model.settingsVersions[GoalBook.stream] = 1
        }
        let second = Goal(key: key, target: 4, from: day("2026-01-05"))
        store.send(.goalSet(second), to: GoalBook.stream) { model in
            model.goals.set(second)
            model.settingsVersions[GoalBook.stream] = 2
        }
        let before = store.model
        store.send(.goalRemoved(key), to: GoalBook.stream) { model in
            model.goals.remove(key)
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
