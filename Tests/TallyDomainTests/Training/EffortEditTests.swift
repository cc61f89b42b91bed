import Testing
@testable import TallyDomain
import TallyTestSupport
@testable import TallyEssentials

/// An effort given, changed or cleared after the fact (`record edit --effort N`, `--no-effort`):
/// the decision, the fold, undo and redo, revert, the history fields and sync, each compared with
/// the whole read model it should give.
@Suite("Records: an effort edited after the fact")
struct EffortEditTests {
    /// An imported activity without heart rate or power, as `record import` logs one: no effort.
    static let imported = RecordFields(
        name: "ACTIVE LOG", category: "other", durationSeconds: 7190, distanceMeters: 4570, date: Fixtures.epoch - 86_400_000, source: .import
    )
    let stream = "cccccccc-0000-4000-8000-0000000000e1"

    /// A world holding the imported activity, logged at the epoch.
    func world() -> SeriesWorld {
        var world = SeriesWorld()
        world.fold([(stream, .recordLogged(Self.imported), Fixtures.epoch)])
        return world
    }

    /// `model` after one more event on the record: its effort, version and update time as given.
    func expected(_ model: ReadModel, effort: Int?, note: String? = nil, at time: Int64) -> ReadModel {
        var expected = model
        expected.position += 1
        expected.updateRecord(id: stream) { record in
            record.effort = effort
            if let note { record.note = note }
            record.version += 1
            record.updatedAt = time
        }
        return expected
    }

    @Test("--effort gives an imported activity an effort, changes it, and --no-effort clears it: one record.edited each")
    func setChangeClear() throws {
        var world = world()
        let before = world.model
        world.now += 60_000
        let set = try world.run(.editRecord("1", RecordEditInput(effort: "6")))
        #expect(set.events == [PendingEvent(stream: stream, version: 2, event: .recordEdited(RecordChanges(effort: .some(6))))])
        #expect(world.model == expected(before, effort: 6, at: world.now), "\(Diff.describe(expected(before, effort: 6, at: world.now), world.model))")
        // With another field: still one event, one undo step.
        let afterSet = world.model
        world.now += 60_000
        let both = try world.run(.editRecord("1", RecordEditInput(note: "tired", effort: " 8 ")))
        #expect(both.events == [PendingEvent(stream: stream, version: 3, event: .recordEdited(RecordChanges(note: .some("tired"), effort: .some(8))))])
        #expect(world.model == expected(afterSet, effort: 8, note: "tired", at: world.now))
        let afterBoth = world.model
        world.now += 60_000
        let cleared = try world.run(.editRecord("1", RecordEditInput(noEffort: true)))
        #expect(cleared.events == [PendingEvent(stream: stream, version: 4, event: .recordEdited(RecordChanges(effort: .some(nil))))])
        #expect(world.model == expected(afterBoth, effort: nil, at: world.now))
        #expect(world.model.record(number: 1)?.effort == nil && before.record(number: 1)?.effort == nil)
    }

    @Test("an effort the record already has, or --no-effort without one, changes nothing and appends nothing")
    func unchanged() throws {
        var world = world()
        #expect(try world.run(.editRecord("1", RecordEditInput(noEffort: true))) == Decision(notices: [.recordUnchanged(number: 1)], affected: [stream]))
        try world.run(.editRecord("1", RecordEditInput(effort: "5")))
        let model = world.model
        #expect(try world.run(.editRecord("1", RecordEditInput(effort: "5"))) == Decision(notices: [.recordUnchanged(number: 1)], affected: [stream]))
        #expect(world.model == model)
    }

    @Test("a bad effort is refused as record add refuses it, and nothing is decided", arguments: ["0", "11", "-1", "5.5", "abc", "", "none", "1000", "7/10"])
    func refused(_ raw: String) throws {
        var world = world()
        try world.run(.editRecord("1", RecordEditInput(effort: "4")))
        let model = world.model
        let expected = DomainError.invalid(.trainingValue(option: "--effort", value: raw, low: 1, high: 10))
        #expect(throws: expected) { try world.run(.editRecord("1", RecordEditInput(note: "tired", effort: raw))) }
        #expect(throws: expected) { try world.run(.logRecord(RecordInput(name: "Run", category: "running", duration: "30m", effort: raw))) }
        #expect(world.model == model, "nothing was folded")
    }

    /// `model` with the bookkeeping of `now` (log position, settings versions, the record's version
    /// and update time): what undo and redo give back is the model before, with the log moved on.
    func settled(_ model: ReadModel, like now: ReadModel) -> ReadModel {
        var settled = model
        settled.position = now.position
        settled.settingsVersions = now.settingsVersions
        let record = now.record(id: stream)
        settled.updateRecord(id: stream) { settledRecord in
            settledRecord.version = record?.version ?? 0
            settledRecord.updatedAt = record?.updatedAt ?? 0
        }
        return settled
    }

    @Test("undo gives the effort before back (none, or the older one); redo the edited one")
    func undoRedo() throws {
        var world = world()
        let none = world.model
        world.now += 60_000
        try world.run(.editRecord("1", RecordEditInput(effort: "3")))
        let three = world.model
        world.now += 60_000
        try world.run(.editRecord("1", RecordEditInput(place: "Lake", effort: "9")))
        let nine = world.model
        #expect(nine.record(id: stream)?.effort == 9 && three.record(id: stream)?.effort == 3)
        for (step, wanted) in [("undo", three), ("undo", none), ("redo", three), ("redo", nine)] {
            world.now += 60_000
            if step == "undo" { world.undo() } else { world.redo() }
            let expected = settled(wanted, like: world.model)
            #expect(world.model == expected, "\(step): \(Diff.describe(expected, world.model))")
            #expect(world.model.record(id: stream)?.updatedAt == world.now)
        }
    }

    @Test("revert to before the edit clears the effort; to after it gives it back")
    func revert() throws {
        var world = world()
        let before = world.model
        world.now += 60_000
        try world.run(.editRecord("1", RecordEditInput(effort: "7")))
        let seven = world.model
        world.now += 60_000
        try world.run(.editRecord("1", RecordEditInput(noEffort: true)))
        let toBefore = RevertTo.plan(target: before, current: world.model)
        #expect(toBefore.decision.events.isEmpty, "the effort is already none: nothing to revert")
        let toSeven = RevertTo.plan(target: seven, current: world.model)
        #expect(toSeven.decision.events.map(\.event) == [.recordEdited(RecordChanges(effort: .some(7)))])
        #expect(RevertTo.plan(target: before, current: seven).decision.events.map(\.event) == [.recordEdited(RecordChanges(effort: .some(nil)))])
    }

    @Test("the history fields: effort is a field of a record, attributed to the edit that set it")
    func historyFields() throws {
        var factory = EventFactory()
        let events = [
            factory.make(.recordLogged(Self.imported), stream: stream),
            factory.make(.recordEdited(RecordChanges(effort: .some(6))), stream: stream),
            factory.make(.recordEdited(RecordChanges(note: .some("easy"))), stream: stream),
            factory.make(.recordEdited(RecordChanges(effort: .some(nil))), stream: stream),
        ]
        var trail = FieldTrail()
        let changes = events.map { trail.apply($0) }
        #expect(changes[1] == [FieldChange(field: "effort", before: .null, after: .int(6))])
        #expect(changes[2].map(\.field) == ["note"])
        #expect(changes[3] == [FieldChange(field: "effort", before: .int(6), after: .null)])
        #expect(ItemFields.values(trail.model.records[0]).map(\.field) == ItemFields.record)
        #expect(ItemFields.record.contains("effort") && ItemFields.all.contains("effort"))
    }

    @Test("the payload: 'effort' a whole number, null when cleared, absent otherwise; it reads back; every door refuses one outside 1-10")
    func payload() throws {
        for (changes, text) in [
            (RecordChanges(effort: .some(6)), #"{"effort":6}"#), (RecordChanges(effort: .some(nil)), #"{"effort":null}"#),
            (RecordChanges(note: .some("x")), #"{"note":"x"}"#), (RecordChanges(place: .some(nil), effort: .some(10)), #"{"effort":10,"place":null}"#),
        ] {
            let payload = EventCatalog.payload(of: .recordEdited(changes))
            #expect(JSON.object(payload).serialized(.canonical) == text)
            #expect(try EventCatalog.decode(type: "record.edited", schema: EventCatalog.currentSchemas["record.edited"]!, data: payload) == .recordEdited(changes))
            try EventRules.checkPayload(.recordEdited(changes))
        }
        for bad in [0, 11, -5, Int.max] {
            #expect(throws: EventLineError("field 'effort' is not between 1 and 10")) { try EventRules.checkPayload(.recordEdited(RecordChanges(effort: .some(bad)))) }
        }
        for (value, reason) in [(JSON.string("5"), "is not an integer"), (.double(5.5), "is not an integer"), (.bool(true), "is not an integer")] {
            #expect(throws: EventDecodingError(type: "record.edited", reason: "field 'effort' \(reason)")) {
                try EventCatalog.decode(type: "record.edited", schema: EventCatalog.currentSchemas["record.edited"]!, data: ["effort": value])
            }
        }
        // Schema 1 of record.edited (before 'track') reads the key the same way.
        #expect(try EventCatalog.decode(type: "record.edited", schema: 1, data: ["effort": 4]) == .recordEdited(RecordChanges(effort: .some(4))))
    }

    @Test("an effort outside 1-10 that reached a log behind tally's back is read as none, never folded in")
    func foldBounds() {
        var store = FoldStore()
        store.send(.recordLogged(Self.imported), to: stream) { model in
            model.insertRecord(Record(
                id: stream, number: 1, name: "ACTIVE LOG", category: "other", durationSeconds: 7190, distanceMeters: 4570,
                date: Fixtures.epoch - 86_400_000, source: .import, createdAt: Fixtures.epoch + 60_000, updatedAt: Fixtures.epoch + 60_000
            ))
        }
        store.send(.recordEdited(RecordChanges(effort: .some(7))), to: stream) { model in
            model.records[0].effort = 7
            model.records[0].version = 2
            model.records[0].updatedAt = Fixtures.epoch + 120_000
        }
        store.send(.recordEdited(RecordChanges(effort: .some(12))), to: stream) { model in
            model.records[0].effort = nil
            model.records[0].version = 3
            model.records[0].updatedAt = Fixtures.epoch + 180_000
        }
    }

    @Test("the edited effort is the activity's load: effort × minutes, and none once cleared")
    func load() throws {
        var world = world()
        #expect(TrainingLoad.loads(world.model, zone: .utc).unscored.map(\.id) == [stream])
        try world.run(.editRecord("1", RecordEditInput(effort: "5")))
        let (loads, unscored) = TrainingLoad.loads(world.model, zone: .utc)
        #expect(unscored.isEmpty)
        #expect(loads.map(\.method) == [.effort])
        #expect(abs((loads.first?.load ?? 0) - 5.0 * 7190 / 60) < 1e-9)
        try world.run(.editRecord("1", RecordEditInput(noEffort: true)))
        #expect(TrainingLoad.loads(world.model, zone: .utc).loads.isEmpty)
    }

    @Test("sync: effort is a field like the others: the later edit wins, an edit of another field stands beside it, the same value is dropped")
    func rebase() throws {
        typealias T = Timeline
        let prefix = T.chain([(.recordLogged(Self.imported), stream, 0, "e-0")], after: [])
        func check(remote: [(DomainEvent, Int64)], local: [(DomainEvent, Int64)], kept: [DomainEvent], kinds: [SyncConflict.Kind], effort: Int?,
                   sourceLocation: SourceLocation = #_sourceLocation) throws {
            let shared = T.chain(remote.enumerated().map { ($0.element.0, stream, $0.element.1, "r-\($0.offset)") }, after: prefix, actor: "bob@desktop")
            let mine = T.chain(local.enumerated().map { ($0.element.0, stream, $0.element.1, "l-\($0.offset)") }, after: prefix)
            let outcome = try T.rebase(prefix: prefix, remote: shared, local: mine)
            #expect(outcome.events.compactMap { try? EventCatalog.decode($0) } == kept, sourceLocation: sourceLocation)
            #expect(outcome.events.count == kept.count, sourceLocation: sourceLocation)
            #expect(outcome.conflicts.map(\.kind) == kinds, sourceLocation: sourceLocation)
            let expected = T.fold(prefix + shared + outcome.events)
            #expect(outcome.state == expected, "\(Diff.describe(expected, outcome.state))", sourceLocation: sourceLocation)
            #expect(outcome.state.record(id: stream)?.effort == effort, sourceLocation: sourceLocation)
        }
        let six = DomainEvent.recordEdited(RecordChanges(effort: .some(6)))
        let eight = DomainEvent.recordEdited(RecordChanges(effort: .some(8)))
        let clear = DomainEvent.recordEdited(RecordChanges(effort: .some(nil)))
        // Recorded later than the shared edit: the local effort wins.
        try check(remote: [(six, 5)], local: [(eight, 9)], kept: [eight], kinds: [.overrides], effort: 8)
        // Recorded earlier: the shared one stands, and the local edit is dropped.
        try check(remote: [(six, 9)], local: [(eight, 5)], kept: [], kinds: [.overridden], effort: 6)
        // A later clear wins over a shared effort, and a shared clear over an earlier local effort.
        try check(remote: [(six, 5)], local: [(clear, 9)], kept: [clear], kinds: [.overrides], effort: nil)
        try check(remote: [(clear, 9)], local: [(eight, 5)], kept: [], kinds: [.overridden], effort: nil)
        // The same effort on both: the local one is redundant.
        try check(remote: [(six, 5)], local: [(six, 9)], kept: [], kinds: [.redundant], effort: 6)
        // Another field edited on the shared log: both stand; in one edit, the losing field alone is dropped.
        try check(remote: [(.recordEdited(RecordChanges(note: .some("lake"))), 5)], local: [(eight, 9)], kept: [eight], kinds: [], effort: 8)
        try check(
            remote: [(six, 9)], local: [(.recordEdited(RecordChanges(note: .some("tired"), effort: .some(8))), 5)],
            kept: [.recordEdited(RecordChanges(note: .some("tired")))], kinds: [.overridden], effort: 6
        )
    }
}
