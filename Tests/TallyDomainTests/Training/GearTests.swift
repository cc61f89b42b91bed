import Testing
@testable import TallyDomain
import TallyTestSupport
@testable import TallyEssentials

/// Runs commands through the decider and folds what they append, like the dispatcher.
private struct GearWorld {
    var model = ReadModel()
    var seq: Int64 = 0
    var counter = 0
    var steps: [RevertStep] = []
    let ids = SequentialIDs(prefix: "dddddddd-0000-4000-8000-")

    mutating func run(_ command: Command) throws(DomainError) -> Decision {
        counter += 1
        let ids = self.ids
        let context = DecisionContext(now: Fixtures.epoch + Int64(counter) * 60_000, zone: .utc, makeID: { ids.make() })
        let decision = try Decider.decide(command, state: model, context: context)
        apply(decision, command: "command-\(counter)")
        return decision
    }

    mutating func apply(_ decision: Decision, command: String) {
        let before = model
        for pending in decision.events {
            seq += 1
            Reducer.evolve(&model, pending.event, stream: pending.stream, version: pending.version, seq: seq, at: Fixtures.epoch + seq * 1000)
        }
        if !decision.events.isEmpty {
            steps.append(RevertStep(command: command, events: decision.events.map { AppliedEvent(stream: $0.stream, event: $0.event) }, before: before))
        }
    }

    /// Undoes the latest command, as `tally undo` does.
    mutating func undo() {
        let step = steps.removeLast()
        let decision = Compensation.undo([step], current: model, now: Fixtures.epoch)
        for pending in decision.events {
            seq += 1
            Reducer.evolve(&model, pending.event, stream: pending.stream, version: model.version(of: pending.stream) + 1, seq: seq, at: Fixtures.epoch)
        }
    }

    func gear(_ name: String) -> Gear? { model.gear.named(name) }
}

@Suite("Gear: folds, decisions, undo and sync")
struct GearTests {
    let shoe = "aaaaaaaa-0000-4000-8000-00000000000a"
    let bike = "bbbbbbbb-0000-4000-8000-00000000000b"
    let run = "cccccccc-0000-4000-8000-00000000000c"

    @Test("gear events fold field by field; a record's gear is set, moved and taken off")
    func fold() {
        var store = FoldStore()
        let t = Fixtures.epoch
        store.send(.gearAdded(GearFields(name: "Pegasus 40", category: "running", retireAtMeters: 800_000)), to: shoe) { model in
            model.gear.insert(Gear(id: shoe, number: 1, name: "Pegasus 40", category: "running", retireAtMeters: 800_000, createdAt: t + 60_000, updatedAt: t + 60_000))
            model.settingsVersions[shoe] = 1
        }
        store.send(.gearDefaulted(category: "running", gear: shoe), to: GearBook.defaultsStream) { model in
            model.gear.setDefault("running", shoe)
            model.settingsVersions[GearBook.defaultsStream] = 1
        }
        store.send(.gearChanged(GearChanges(name: "Pegasus", retireAtMeters: .some(nil), retired: true)), to: shoe) { model in
            model.gear.update(id: shoe) { gear in
                gear.name = "Pegasus"
                gear.retireAtMeters = nil
                gear.retired = true
                gear.updatedAt = t + 180_000
            }
            model.settingsVersions[shoe] = 2
        }
        let fields = RecordFields(name: "Run", category: "running", durationSeconds: 1800, distanceMeters: 6000, date: t, gear: shoe)
        store.send(.recordLogged(fields), to: run) { model in
            model.insertRecord(Record(
                id: run, number: 1, name: "Run", category: "running", durationSeconds: 1800, distanceMeters: 6000, date: t,
                createdAt: t + 240_000, updatedAt: t + 240_000, gear: shoe
            ))
        }
        store.send(.recordEdited(RecordChanges(gear: .some(nil))), to: run) { model in
            model.records[0].gear = nil
            model.records[0].updatedAt = t + 300_000
            model.records[0].version = 2
        }
        store.send(.gearChanged(GearChanges(removed: true)), to: shoe) { model in
            model.gear.update(id: shoe) { gear in
                gear.removed = true
                gear.updatedAt = t + 360_000
            }
            model.settingsVersions[shoe] = 3
        }
        // Removed and retired gear is nobody's default, whatever the defaults stream says.
        #expect(store.model.gear.defaultGear(for: "running") == nil)
        #expect(store.model.gear.named("pegasus") == nil)
    }

    @Test("a new activity gets its category's default; --gear names gear of its category; --no-gear none")
    func defaults() throws {
        var world = GearWorld()
        _ = try world.run(.addGear(GearInput(name: "Pegasus 40", category: "running", retireAt: "800km", makeDefault: true)))
        _ = try world.run(.addGear(GearInput(name: "Trail shoes", category: "running")))
        _ = try world.run(.addGear(GearInput(name: "Čížek 自転車", category: "cycling")))
        let pegasus = try #require(world.gear("PEGASUS 40"))
        #expect(pegasus.retireAtMeters == 800_000)
        _ = try world.run(.logRecord(RecordInput(name: "Run", category: "running", duration: "30m", distance: "6km")))
        #expect(world.model.record(number: 1)?.gear == pegasus.id)
        _ = try world.run(.logRecord(RecordInput(name: "Trail", category: "running", duration: "1h", gear: "trail SHOES")))
        #expect(world.model.record(number: 2)?.gear == world.gear("Trail shoes")?.id)
        _ = try world.run(.logRecord(RecordInput(name: "Treadmill", category: "running", duration: "20m", noGear: true)))
        #expect(world.model.record(number: 3)?.gear == nil)
        // A ride has no default: nothing is invented.
        _ = try world.run(.logRecord(RecordInput(name: "Ride", category: "cycling", duration: "1h")))
        #expect(world.model.record(number: 4)?.gear == nil)
        // The name compares in NFC: a decomposed Č finds the composed one.
        _ = try world.run(.editRecord("4", RecordEditInput(gear: "C\u{30C}i\u{301}z\u{30C}ek 自転車")))
        #expect(world.model.record(number: 4)?.gear == world.gear("Čížek 自転車")?.id)
        // An import gets the default too.
        _ = try world.run(.importRecords([ImportedRecord(stream: ImportedRecord.stream(rowKey: "x"), fields: RecordFields(name: "Imported", category: "running", durationSeconds: 600, date: Fixtures.epoch))]))
        #expect(world.model.record(number: 5)?.gear == pegasus.id)
    }

    @Test("refusals: unknown gear, a duplicate name in any case, gear of another category, a category change the gear does not fit")
    func refusals() throws {
        var world = GearWorld()
        _ = try world.run(.addGear(GearInput(name: "Pegasus 40", category: "running", makeDefault: true)))
        _ = try world.run(.addGear(GearInput(name: "Bike", category: "cycling")))
        let position = world.model.position
        #expect(throws: DomainError.gear(.duplicate("pegasus   40"))) { try world.run(.addGear(GearInput(name: " pegasus   40 ", category: "cycling"))) }
        #expect(throws: DomainError.gear(.unknown("Nope"))) { try world.run(.logRecord(RecordInput(name: "Run", category: "running", duration: "30m", gear: "Nope"))) }
        #expect(throws: DomainError.gear(.otherCategory(gear: "Bike", gearCategory: "cycling", category: "running"))) {
            try world.run(.logRecord(RecordInput(name: "Run", category: "running", duration: "30m", gear: "bike")))
        }
        _ = try world.run(.logRecord(RecordInput(name: "Run", category: "running", duration: "30m")))
        #expect(throws: DomainError.gear(.otherCategory(gear: "Pegasus 40", gearCategory: "running", category: "walking"))) {
            try world.run(.editRecord("1", RecordEditInput(category: "walking")))
        }
        // With --no-gear (or gear of the new category) the category changes.
        _ = try world.run(.editRecord("1", RecordEditInput(category: "cycling", gear: "Bike")))
        #expect(world.model.record(number: 1)?.category == "cycling")
        #expect(world.model.record(number: 1)?.gear == world.gear("bike")?.id)
        #expect(throws: DomainError.invalid(.emptyName)) { try world.run(.addGear(GearInput(name: "  ", category: "running"))) }
        #expect(throws: DomainError.invalid(.textTooLong(field: "gear name", max: 60))) { try world.run(.addGear(GearInput(name: String(repeating: "é", count: 61), category: "running"))) }
        #expect(throws: DomainError.invalid(.controlCharacters(field: "gear name"))) { try world.run(.addGear(GearInput(name: "a\u{1B}[31m", category: "running"))) }
        for bad in ["0.5km", "100001km", "-5km", "nan km", "1e308km"] {
            #expect(throws: DomainError.self) { try world.run(.addGear(GearInput(name: "X", category: "running", retireAt: bad))) }
        }
        #expect(throws: DomainError.invalid(.invalidCategory("Run ning"))) { try world.run(.addGear(GearInput(name: "X", category: "Run ning"))) }
        #expect(world.model.position == position + 2, "refused commands appended nothing")
    }

    @Test("retiring the default gear leaves the category without one; retired gear cannot become the default")
    func retire() throws {
        var world = GearWorld()
        _ = try world.run(.addGear(GearInput(name: "Old", category: "running", makeDefault: true)))
        let decision = try world.run(.editGear("old", GearEditInput(retired: true)))
        #expect(decision.events.map(\.event) == [.gearChanged(GearChanges(retired: true)), .gearDefaulted(category: "running", gear: nil)])
        #expect(world.model.gear.defaultGear(for: "running") == nil)
        #expect(throws: DomainError.gear(.retiredDefault("Old"))) { try world.run(.editGear("Old", GearEditInput(makeDefault: true))) }
        #expect(try world.run(.editGear("Old", GearEditInput(retired: true))).notices == [.gearUnchanged(name: "Old")])
        _ = try world.run(.editGear("Old", GearEditInput(makeDefault: true, retired: false)))
        #expect(world.model.gear.defaultGear(for: "running")?.name == "Old")
    }

    @Test("undo takes gear back: an added gear is removed (its name free again), a default returns to the one before")
    func undo() throws {
        var world = GearWorld()
        _ = try world.run(.addGear(GearInput(name: "First", category: "running", makeDefault: true)))
        _ = try world.run(.addGear(GearInput(name: "Second", category: "running", makeDefault: true)))
        #expect(world.model.gear.defaultGear(for: "running")?.name == "Second")
        world.undo()
        #expect(world.model.gear.defaultGear(for: "running")?.name == "First")
        #expect(world.gear("Second") == nil)
        _ = try world.run(.addGear(GearInput(name: "second", category: "running")))
        _ = try world.run(.logRecord(RecordInput(name: "Run", category: "running", duration: "30m", gear: "second")))
        _ = try world.run(.editRecord("1", RecordEditInput(gear: "First")))
        world.undo()
        #expect(world.model.record(number: 1)?.gear == world.gear("second")?.id)
    }

    @Test("sync: the later default of a category wins; gear added on both replicas is kept on both")
    func rebase() throws {
        typealias T = Timeline
        let prefix = T.chain([
            (.gearAdded(GearFields(name: "A", category: "running")), shoe, 0, "e-0"),
            (.gearAdded(GearFields(name: "B", category: "running")), bike, 1, "e-1"),
        ], after: [])
        let remote = T.chain([(.gearDefaulted(category: "running", gear: bike), GearBook.defaultsStream, 10, "r-1")], after: prefix, actor: "bob@desktop")
        let local = T.chain([
            (.gearDefaulted(category: "running", gear: shoe), GearBook.defaultsStream, 5, "l-1"),
            (.gearChanged(GearChanges(name: "A2")), shoe, 6, "l-2"),
        ], after: prefix)
        let outcome = try T.rebase(prefix: prefix, remote: remote, local: local)
        #expect(outcome.conflicts.map(\.kind) == [.overridden])
        #expect(outcome.state.gear.defaults["running"] == bike)
        #expect(outcome.state.gear[shoe]?.name == "A2")
        let expected = T.fold(prefix + remote + outcome.events)
        #expect(outcome.state == expected, "\(Diff.describe(expected, outcome.state))")
    }

    @Test("usage totals count live records only and flag gear past its retirement distance")
    func usage() throws {
        var world = GearWorld()
        _ = try world.run(.addGear(GearInput(name: "Shoe", category: "running", retireAt: "10km", makeDefault: true)))
        _ = try world.run(.logRecord(RecordInput(name: "A", category: "running", duration: "30m", distance: "6km")))
        _ = try world.run(.logRecord(RecordInput(name: "B", category: "running", duration: "40m", distance: "5km")))
        _ = try world.run(.logRecord(RecordInput(name: "C", category: "running", duration: "10m", distance: "2km")))
        _ = try world.run(.deleteRecords(["3"]))
        let shoe = try #require(world.gear("shoe"))
        let used = try #require(GearUsage.of(world.model)[shoe.id])
        #expect(used.activities == 2 && used.durationSeconds == 4200 && used.distanceMeters == 11_000)
        #expect(used.worn(shoe))
    }

    @Test("every door refuses gear events past the limits")
    func rules() {
        let bad: [(DomainEvent, String)] = [
            (.gearAdded(GearFields(name: "", category: "running")), shoe),
            (.gearAdded(GearFields(name: String(repeating: "x", count: 61), category: "running")), shoe),
            (.gearAdded(GearFields(name: "x\u{0}", category: "running")), shoe),
            (.gearAdded(GearFields(name: "x", category: "Running")), shoe),
            (.gearAdded(GearFields(name: "x", category: "running", retireAtMeters: .infinity)), shoe),
            (.gearAdded(GearFields(name: "x", category: "running", retireAtMeters: 1e12)), shoe),
            (.gearAdded(GearFields(name: "x", category: "running")), GearBook.defaultsStream),
            (.gearChanged(GearChanges(retireAtMeters: .some(-1))), shoe),
            (.gearDefaulted(category: "running", gear: "not-a-uuid"), GearBook.defaultsStream),
            (.gearDefaulted(category: "running", gear: shoe), shoe),
            (.recordEdited(RecordChanges(gear: .some("X"))), run),
            (.recordLogged(RecordFields(name: "r", category: "running", durationSeconds: 1, date: 0, gear: "x")), run),
        ]
        for (event, stream) in bad {
            #expect(throws: EventLineError.self, "\(event)") {
                try EventRules.check(event, id: "eeeeeeee-0000-4000-8000-000000000001", stream: stream, command: "eeeeeeee-0000-4000-8000-000000000002", actor: "a")
            }
        }
    }

    @Test("gear payloads round-trip through the catalog")
    func payloads() throws {
        let events: [DomainEvent] = [
            .gearAdded(GearFields(name: "Čížek 自転車", category: "cycling", retireAtMeters: 12_000.5)),
            .gearAdded(GearFields(name: "x", category: "running")),
            .gearChanged(GearChanges(name: "y", retireAtMeters: .some(nil), retired: false, removed: true)),
            .gearDefaulted(category: "running", gear: shoe), .gearDefaulted(category: "running", gear: nil),
            .recordEdited(RecordChanges(gear: .some(nil))), .recordEdited(RecordChanges(gear: .some(shoe))),
        ]
        for event in events {
            let type = EventCatalog.typeName(of: event)
            let decoded = try EventCatalog.decode(type: type, schema: EventCatalog.currentSchemas[type]!, data: EventCatalog.payload(of: event))
            #expect(decoded == event)
        }
    }
}

@Suite("Gear: the limit on pieces of gear")
struct GearLimitTests {
    @Test("the 1,001st piece of gear is refused; a removed one does not count")
    func limit() throws {
        var model = ReadModel()
        for index in 0..<GearLimits.maxItems {
            let stream = "aaaaaaaa-0000-4000-8000-" + String(String(index + 1_000_000_000_000).suffix(12))
            Reducer.evolve(&model, .gearAdded(GearFields(name: "Shoe \(index)", category: "running")), stream: stream, version: 1, seq: Int64(index + 1), at: Fixtures.epoch)
        }
        let ids = SequentialIDs(prefix: "dddddddd-0000-4000-8000-")
        let context = DecisionContext(now: Fixtures.epoch, zone: .utc, makeID: { ids.make() })
        #expect(throws: DomainError.gear(.tooMany(max: GearLimits.maxItems))) {
            try Decider.decide(.addGear(GearInput(name: "One more", category: "running")), state: model, context: context)
        }
        Reducer.evolve(&model, .gearChanged(GearChanges(removed: true)), stream: "aaaaaaaa-0000-4000-8000-000000000000", version: 2, seq: 5_000, at: Fixtures.epoch)
        #expect(try Decider.decide(.addGear(GearInput(name: "One more", category: "running")), state: model, context: context).events.count == 1)
    }
}
