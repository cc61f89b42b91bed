import Testing
@testable import TallyDomain
import TallyTestSupport
@testable import TallyEssentials

/// Builds the three parts of a rebase: a shared prefix, what the shared log gained, and local events.
struct Timeline {
    static let todo = "aaaaaaaa-0000-4000-8000-000000000001"
    static let other = "bbbbbbbb-0000-4000-8000-000000000002"
    static let record = "cccccccc-0000-4000-8000-000000000003"

    var prefix: [EventEnvelope] = []

    /// Chains events after `before`, each given (event, stream, seconds after the epoch, id).
    static func chain(_ specs: [(DomainEvent, String, Int64, String)], after before: [EventEnvelope], actor: String = "ada@laptop") -> [EventEnvelope] {
        var versions: [String: Int] = [:]
        var head = LogHead.empty
        for event in before {
            versions[event.stream] = event.version
            head = LogHead(seq: event.seq, hash: event.hash)
        }
        var result: [EventEnvelope] = []
        for (event, stream, seconds, id) in specs {
            let version = (versions[stream] ?? 0) + 1
            versions[stream] = version
            let type = EventCatalog.typeName(of: event)
            var envelope = EventEnvelope(
                seq: head.seq + 1, id: id, stream: stream, version: version, type: type,
                schema: EventCatalog.currentSchemas[type] ?? 1,
                data: JSON.object(EventCatalog.payload(of: event)).serialized(.canonical),
                recordedAt: Fixtures.epoch + seconds * 1000, actor: actor, command: "cmd-" + id, hash: ""
            )
            envelope.hash = EventHash.link(previous: head.hash, envelope)
            head = LogHead(seq: envelope.seq, hash: envelope.hash)
            result.append(envelope)
        }
        return result
    }

    static func fold(_ events: [EventEnvelope]) -> ReadModel {
        var model = ReadModel()
        for event in events { try! Reducer.evolve(&model, event) }
        return model
    }

    /// Rebases `local` onto `remote`, both chained after `prefix`.
    static func rebase(prefix: [EventEnvelope], remote: [EventEnvelope], local: [EventEnvelope]) throws -> RebaseOutcome {
        let synced = prefix.last.map { LogHead(seq: $0.seq, hash: $0.hash) } ?? .empty
        var rebase = Rebase(base: fold(prefix), synced: synced, local: local, salt: { String(repeating: "5a", count: Commitment.saltBytes) })
        for event in remote { try rebase.absorb(event) }
        return try rebase.finish()
    }
}

@Suite("Rebase: conflict rules of sync")
struct RebaseTests {
    typealias T = Timeline
    let created = T.chain([(.todoCreated(TodoFields(title: "Milk", tags: ["shop"])), T.todo, 0, "e-0")], after: [])

    /// The whole result must equal folding prefix + remote + the expected local events, and the log must verify.
    func expectOutcome(
        _ outcome: RebaseOutcome, prefix: [EventEnvelope], remote: [EventEnvelope], kept: [DomainEvent],
        sourceLocation: SourceLocation = #_sourceLocation
    ) {
        let log = prefix + remote + outcome.events
        #expect(outcome.events.map { (try? EventCatalog.decode($0)) ?? .todoCompleted } == kept, sourceLocation: sourceLocation)
        let expected = T.fold(log)
        #expect(outcome.state == expected, "\(Diff.describe(expected, outcome.state))", sourceLocation: sourceLocation)
        var verifier = LogVerifier()
        for event in log { verifier.check(event) }
        #expect(verifier.problems.isEmpty, "\(verifier.problems)", sourceLocation: sourceLocation)
    }

    @Test("different fields edited on two devices both stand; ids, actor, command and time are kept")
    func differentFields() throws {
        let remote = T.chain([(.todoEdited(TodoChanges(priority: .some(.high))), T.todo, 10, "r-1")], after: created, actor: "bob@desktop")
        let local = T.chain([(.todoEdited(TodoChanges(title: "Oat milk")), T.todo, 5, "l-1")], after: created)
        let outcome = try T.rebase(prefix: created, remote: remote, local: local)
        expectOutcome(outcome, prefix: created, remote: remote, kept: [.todoEdited(TodoChanges(title: "Oat milk"))])
        #expect(outcome.conflicts.isEmpty)
        let rebased = try #require(outcome.events.first)
        #expect(rebased.id == "l-1" && rebased.actor == "ada@laptop" && rebased.command == "cmd-l-1" && rebased.recordedAt == local[0].recordedAt)
        #expect(rebased.seq == 3 && rebased.version == 3 && rebased.data == local[0].data)
        #expect(outcome.state.todo(id: T.todo)?.title == "Oat milk" && outcome.state.todo(id: T.todo)?.priority == .high)
    }

    @Test("the same field: the change recorded later wins, whichever device syncs first")
    func sameFieldLaterWins() throws {
        let early = T.chain([(.todoEdited(TodoChanges(title: "Early")), T.todo, 5, "x-1")], after: created, actor: "ada@laptop")
        let late = T.chain([(.todoEdited(TodoChanges(title: "Late")), T.todo, 9, "x-2")], after: created, actor: "bob@desktop")
        // The late one is shared first: the early local change is dropped and named.
        let first = try T.rebase(prefix: created, remote: late, local: early)
        expectOutcome(first, prefix: created, remote: late, kept: [])
        #expect(first.conflicts.map(\.kind) == [.overridden])
        #expect(first.conflicts.first?.field == "title" && first.conflicts.first?.value == .string("Early"))
        #expect(first.conflicts.first?.other?.event == "x-2" && first.conflicts.first?.other?.actor == "bob@desktop")
        // The early one is shared first: the late local change replaces it, and that is named too.
        let second = try T.rebase(prefix: created, remote: early, local: late)
        expectOutcome(second, prefix: created, remote: early, kept: [.todoEdited(TodoChanges(title: "Late"))])
        #expect(second.conflicts.map(\.kind) == [.overrides])
        #expect(first.state.todo(id: T.todo)?.title == "Late" && second.state.todo(id: T.todo)?.title == "Late")
    }

    @Test("at the same instant the greater event id wins")
    func tieBrokenByID() throws {
        let a = T.chain([(.todoEdited(TodoChanges(title: "A")), T.todo, 5, "id-a")], after: created)
        let b = T.chain([(.todoEdited(TodoChanges(title: "B")), T.todo, 5, "id-b")], after: created)
        #expect(try T.rebase(prefix: created, remote: a, local: b).state.todo(id: T.todo)?.title == "B")
        #expect(try T.rebase(prefix: created, remote: b, local: a).state.todo(id: T.todo)?.title == "B")
    }

    @Test("an edit keeps its winning fields and drops the losing one, with a rewritten payload salted like a new event's")
    func partialEdit() throws {
        let remote = T.chain([(.todoEdited(TodoChanges(title: "Remote")), T.todo, 20, "r-1")], after: created)
        let local = T.chain([(.todoEdited(TodoChanges(title: "Local", note: .some("2 litres"))), T.todo, 10, "l-1")], after: created)
        let outcome = try T.rebase(prefix: created, remote: remote, local: local)
        expectOutcome(outcome, prefix: created, remote: remote, kept: [.todoEdited(TodoChanges(note: .some("2 litres")))])
        // Salted like every new event (the rebase's salt source), so the note can be erased later.
        let salt = String(repeating: "5a", count: Commitment.saltBytes)
        #expect(outcome.events.first?.data == #"{"$salts":{"note":"\#(salt)"},"note":"2 litres"}"#)
        let rewritten = try #require(outcome.events.first)
        guard case .erased(let data) = Commitment.erase("note", from: rewritten.data) else {
            Issue.record("the rewritten note cannot be erased")
            return
        }
        #expect(!data.contains("2 litres") && Commitment.samePayload(data, rewritten.data))
        #expect(outcome.conflicts.map(\.kind) == [.overridden])
    }

    @Test("a todo deleted on one device and changed on the other stays deleted, in either order")
    func deleteWins() throws {
        let delete = T.chain([(.todoDeleted, T.todo, 5, "d-1")], after: created, actor: "bob@desktop")
        let edits = T.chain([
            (.todoEdited(TodoChanges(title: "Later title")), T.todo, 9, "l-1"),
            (.todoCompleted, T.todo, 10, "l-2"),
        ], after: created)
        let dropped = try T.rebase(prefix: created, remote: delete, local: edits)
        expectOutcome(dropped, prefix: created, remote: delete, kept: [])
        #expect(dropped.conflicts.map(\.kind) == [.deleted, .deleted])
        #expect(dropped.conflicts.first?.other?.event == "d-1")
        let kept = try T.rebase(prefix: created, remote: edits, local: delete)
        expectOutcome(kept, prefix: created, remote: edits, kept: [.todoDeleted])
        #expect(dropped.state.todo(id: T.todo)?.deleted == true && kept.state.todo(id: T.todo)?.deleted == true)
    }

    @Test("completing a todo completed meanwhile is dropped as redundant; a reopen recorded later wins")
    func completion() throws {
        let remote = T.chain([(.todoCompleted, T.todo, 5, "r-1")], after: created)
        let local = T.chain([(.todoCompleted, T.todo, 7, "l-1"), (.todoReopened, T.todo, 8, "l-2")], after: created)
        let outcome = try T.rebase(prefix: created, remote: remote, local: local)
        expectOutcome(outcome, prefix: created, remote: remote, kept: [.todoReopened])
        #expect(outcome.conflicts.map(\.kind) == [.redundant, .overrides])
        #expect(outcome.state.todo(id: T.todo)?.completed == false)
        let reverse = try T.rebase(prefix: created, remote: local, local: remote)
        expectOutcome(reverse, prefix: created, remote: local, kept: [])
        #expect(reverse.conflicts.map(\.kind) == [.overridden])
    }

    @Test("tags merge as added and removed sets")
    func tagsMerge() throws {
        let remote = T.chain([(.todoEdited(TodoChanges(tags: ["shop", "urgent"])), T.todo, 5, "r-1")], after: created)
        let local = T.chain([(.todoEdited(TodoChanges(tags: ["home"])), T.todo, 3, "l-1")], after: created)
        let outcome = try T.rebase(prefix: created, remote: remote, local: local)
        expectOutcome(outcome, prefix: created, remote: remote, kept: [.todoEdited(TodoChanges(tags: ["urgent", "home"]))])
        #expect(outcome.conflicts.isEmpty)
        // Adding a tag the other device added too changes nothing and is named.
        let same = T.chain([(.todoEdited(TodoChanges(tags: ["shop", "urgent"])), T.todo, 9, "l-2")], after: created)
        let redundant = try T.rebase(prefix: created, remote: remote, local: same)
        expectOutcome(redundant, prefix: created, remote: remote, kept: [])
        #expect(redundant.conflicts.map(\.kind) == [.redundant])
    }

    @Test("todos created on both devices are numbered in the shared order, and the move is reported")
    func renumbering() throws {
        let remote = T.chain([(.todoCreated(TodoFields(title: "Bread")), T.other, 9, "r-1")], after: created)
        let local = T.chain([(.todoCreated(TodoFields(title: "Eggs")), "dddddddd-0000-4000-8000-000000000004", 5, "l-1")], after: created)
        let outcome = try T.rebase(prefix: created, remote: remote, local: local)
        expectOutcome(outcome, prefix: created, remote: remote, kept: [.todoCreated(TodoFields(title: "Eggs"))])
        #expect(outcome.renumbered == [Renumbering(kind: .todo, stream: "dddddddd-0000-4000-8000-000000000004", from: 2, to: 3)])
        #expect(outcome.state.todo(number: 2)?.title == "Bread")
    }

    @Test("the same item created on two devices (one recurring occurrence) becomes one; later changes apply to it")
    func duplicateCreation() throws {
        let remote = T.chain([(.todoCreated(TodoFields(title: "Water plants")), T.other, 5, "r-1")], after: created)
        let local = T.chain([
            (.todoCreated(TodoFields(title: "Water plants")), T.other, 6, "l-1"),
            (.todoCompleted, T.other, 7, "l-2"),
        ], after: created)
        let outcome = try T.rebase(prefix: created, remote: remote, local: local)
        expectOutcome(outcome, prefix: created, remote: remote, kept: [.todoCompleted])
        #expect(outcome.conflicts.map(\.kind) == [.duplicate])
        #expect(outcome.state.todos.count == 2 && outcome.renumbered.isEmpty)
    }

    @Test("saved views: the later save wins; records follow the same field rules")
    func filtersAndRecords() throws {
        let logged = created + T.chain([(.recordLogged(RecordFields(name: "Run", category: "running", durationSeconds: 1800, date: Fixtures.epoch)), T.record, 0, "e-1")], after: created)
        let remote = T.chain([
            (.filterSaved(scope: .todos, filter: ["status": "active"]), FilterScope.todos.stream, 9, "r-1"),
            (.recordEdited(RecordChanges(durationSeconds: 2000)), T.record, 9, "r-2"),
        ], after: logged)
        let local = T.chain([
            (.filterSaved(scope: .todos, filter: ["sort": "due"]), FilterScope.todos.stream, 5, "l-1"),
            (.recordEdited(RecordChanges(durationSeconds: 1900, place: .some("Park"))), T.record, 5, "l-2"),
            (.recordDeleted, T.record, 6, "l-3"),
        ], after: logged)
        let outcome = try T.rebase(prefix: logged, remote: remote, local: local)
        expectOutcome(outcome, prefix: logged, remote: remote, kept: [.recordEdited(RecordChanges(place: .some("Park"))), .recordDeleted])
        #expect(outcome.conflicts.map(\.kind) == [.overridden, .overridden])
        #expect(outcome.state.filters[.todos] == ["status": "active"])
    }

    @Test("local events already in the shared log (a push whose confirmation was lost) are not appended again")
    func alreadyShared() throws {
        let local = T.chain([(.todoCompleted, T.todo, 5, "l-1")], after: created)
        let remote = local + T.chain([(.todoEdited(TodoChanges(title: "X")), T.todo, 6, "r-1")], after: created + local)
        let outcome = try T.rebase(prefix: created, remote: remote, local: local)
        expectOutcome(outcome, prefix: created, remote: remote, kept: [])
        #expect(outcome.alreadyShared == 1 && outcome.conflicts.isEmpty)
    }

    @Test("undo markers always stand, and an undo's compensations follow the field rules")
    func undoMarkers() throws {
        let edit = T.chain([(.todoEdited(TodoChanges(title: "Mine")), T.todo, 1, "p-1")], after: created)
        let prefix = created + edit
        let remote = T.chain([(.todoEdited(TodoChanges(title: "Theirs")), T.todo, 9, "r-1")], after: prefix)
        let local = T.chain([
            (.todoEdited(TodoChanges(title: "Milk")), T.todo, 5, "l-1"),
            (.historyUndone(command: "cmd-p-1"), HistoryStream.name, 5, "l-2"),
        ], after: prefix)
        let outcome = try T.rebase(prefix: prefix, remote: remote, local: local)
        expectOutcome(outcome, prefix: prefix, remote: remote, kept: [.historyUndone(command: "cmd-p-1")])
        #expect(outcome.state.todo(id: T.todo)?.title == "Theirs")
    }

    /// Every pair of short offline histories on one todo: syncing A then B or B then A gives the same visible todo.
    @Test("two devices, every combination of up to two changes each: the result does not depend on who syncs first")
    func orderIndependence() throws {
        let moves: [(String, (Todo) -> DomainEvent?)] = [
            ("title", { _ in .todoEdited(TodoChanges(title: "T")) }),
            ("title2", { _ in .todoEdited(TodoChanges(title: "U")) }),
            ("priority", { _ in .todoEdited(TodoChanges(priority: .some(.high))) }),
            ("tag+", { todo in todo.tags.contains("x") ? nil : .todoEdited(TodoChanges(tags: todo.tags + ["x"])) }),
            ("tag-", { todo in todo.tags.contains("shop") ? .todoEdited(TodoChanges(tags: todo.tags.filter { $0 != "shop" })) : nil }),
            ("toggle", { todo in todo.completed ? .todoReopened : .todoCompleted }),
            ("delete", { todo in todo.deleted ? .todoRestored : .todoDeleted }),
        ]
        var histories: [[Int]] = [[]]
        for a in moves.indices { histories.append([a]); for b in moves.indices { histories.append([a, b]) } }
        var checked = 0
        for (ai, hA) in histories.enumerated() {
            for (bi, hB) in histories.enumerated() where ai < bi {
                // Device A acts at odd seconds, B at even ones: every stamp differs, both orders interleave.
                func play(_ history: [Int], start: Int64, prefix: String) -> [EventEnvelope]? {
                    var events: [EventEnvelope] = []
                    for (step, move) in history.enumerated() {
                        let todo = T.fold(created + events).todo(id: T.todo)!
                        if todo.deleted, moves[move].0 != "delete" { return nil }
                        guard let event = moves[move].1(todo) else { return nil }
                        events += T.chain([(event, T.todo, start + Int64(step) * 3, "\(prefix)-\(step)")], after: created + events)
                    }
                    return events
                }
                guard let a = play(hA, start: 1, prefix: "a"), let b = play(hB, start: 2, prefix: "b") else { continue }
                let ab = try T.rebase(prefix: created, remote: a, local: b).state.todo(id: T.todo)!
                let ba = try T.rebase(prefix: created, remote: b, local: a).state.todo(id: T.todo)!
                let names = "A \(hA.map { moves[$0].0 }) B \(hB.map { moves[$0].0 })"
                #expect(ab.deleted == ba.deleted, "\(names)")
                if !ab.deleted {
                    #expect(ab.title == ba.title && ab.priority == ba.priority && ab.completed == ba.completed, "\(names)")
                    #expect(Set(ab.tags) == Set(ba.tags), "\(names)")
                }
                checked += 1
            }
        }
        #expect(checked > 1000)
    }
}
