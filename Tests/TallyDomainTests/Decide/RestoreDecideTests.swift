import Testing
import TallyDomain
import TallyTestSupport

@Suite("Decider: restore")
struct RestoreDecideTests {
    @Test("restore brings deleted todos back once each and notes live ones; an unknown REF refuses it all")
    func restoreTodos() throws {
        var scenario = Scenario()
        scenario.givenTodos("a", "b", "c")
        scenario.given([("t1", .todoDeleted), ("t3", .todoCompleted), ("t3", .todoDeleted)])
        #expect(try scenario.when(.restoreTodos(["1", "2", "3", "1"])) == Decision(
            events: [
                PendingEvent(stream: "t1", version: 3, event: .todoRestored),
                PendingEvent(stream: "t3", version: 4, event: .todoRestored),
            ],
            notices: [.notDeleted(number: 2)],
            affected: ["t1", "t2", "t3"]
        ))
        scenario.rejects(.restoreTodos(["1", "9"]), .unknownReference(.todo, "9"))
    }

    @Test("a restored todo folds back to what it was before the delete, completion included")
    func restoredTodoFolds() throws {
        var scenario = Scenario()
        scenario.givenTodos("a")
        scenario.given([("t1", .todoCompleted)])
        let before = scenario.state
        scenario.given([("t1", .todoDeleted)])
        let decision = try scenario.when(.restoreTodos(["1"]))
        scenario.given(decision.events.map { ($0.stream, $0.event) })
        var expected = before.todos[0]
        expected.updatedAt = scenario.state.todos[0].updatedAt
        expected.version = 4
        #expect(scenario.state.todos[0] == expected)
    }

    @Test("record restore brings deleted records back and notes live ones")
    func restoreRecords() throws {
        var scenario = Scenario()
        scenario.given([
            ("r1", .recordLogged(RecordFields(name: "Run", category: "run", durationSeconds: 600, date: Fixtures.epoch))),
            ("r2", .recordLogged(RecordFields(name: "Swim", category: "swim", durationSeconds: 900, date: Fixtures.epoch))),
            ("r1", .recordDeleted),
        ])
        #expect(try scenario.when(.restoreRecords(["1", "2"])) == Decision(
            events: [PendingEvent(stream: "r1", version: 3, event: .recordRestored)],
            notices: [.recordNotDeleted(number: 2)],
            affected: ["r1", "r2"]
        ))
        scenario.rejects(.restoreRecords(["7"]), .unknownReference(.record, "7"))
    }
}
