import Testing
@testable import TallyDomain
import TallyTestSupport

@Suite("Item tables used in place")
struct ItemTableTests {
    /// Folds `events` onto `model`.
    static func fold(_ model: inout ReadModel, _ events: ArraySlice<EventEnvelope>) throws {
        for envelope in events { try Reducer.evolve(&model, envelope) }
    }

    /// A model decoded from the snapshot bytes of `model`: every item read in place.
    static func reopened(_ model: ReadModel) throws -> ReadModel {
        try SnapshotCodec.decode(SnapshotCodec.encode(model, latestRecordedAt: 0, logHash: EventHash.genesis)).model
    }

    @Test("a snapshot at any point plus the tail folded onto its overlay equals the full fold, item, id, summary and bytes")
    func snapshotPlusTail() throws {
        for seed in UInt64(1)...8 {
            var generator = LogGenerator(seed: seed)
            let events = generator.events(400)
            var full = ReadModel()
            try Self.fold(&full, events[...])
            for cut in [0, 1, 57, 200, 399, 400] {
                var head = ReadModel()
                try Self.fold(&head, events[..<cut])
                var resumed = try Self.reopened(head)
                try Self.fold(&resumed, events[cut...])
                #expect(resumed == full, "seed \(seed), cut at \(cut): \(Diff.describe(full, resumed))")
                for (index, todo) in full.todos.enumerated() {
                    #expect(resumed.todo(id: todo.id) == todo)
                    #expect(resumed.todoSummary(at: index) == todo.summary)
                }
                for record in full.records { #expect(resumed.record(id: record.id) == record) }
                #expect(resumed.todo(id: "00000000-0000-4000-8000-000000000000") == nil)
                #expect(resumed.version(of: "filter:todos") == full.version(of: "filter:todos"))
                // Unchanged items are copied as stored bytes, changed ones re-encoded: the bytes are the same.
                #expect(SnapshotCodec.encode(resumed, latestRecordedAt: 0, logHash: EventHash.genesis)
                    == SnapshotCodec.encode(full, latestRecordedAt: 0, logHash: EventHash.genesis))
                #expect(resumed.todos.damage() == nil && resumed.records.damage() == nil)
            }
        }
    }

    @Test("ids that are not lowercase UUIDs are found through the stored list of other ids")
    func otherIDs() throws {
        var model = ReadModel()
        let ids = ["legacy-1", "0F1E2D3C-4B5A-4978-8695-A4B3C2D1E0FF", "0f1e2d3c-4b5a-4978-8695-a4b3c2d1e0ff"]
        for (offset, id) in ids.enumerated() {
            Reducer.evolve(&model, .todoCreated(TodoFields(title: "t\(offset)")), stream: id, version: 1, seq: Int64(offset + 1), at: 1000)
        }
        let reopened = try Self.reopened(model)
        #expect(reopened == model)
        for (offset, id) in ids.enumerated() { #expect(reopened.todo(id: id)?.number == offset + 1) }
    }

    @Test("a body whose index or summary rows were tampered with decodes, and damage() names the problem")
    func tamperedIndex() throws {
        var generator = LogGenerator(seed: 3)
        var model = ReadModel()
        try Self.fold(&model, generator.events(200)[...])
        let bytes = SnapshotCodec.encode(model, latestRecordedAt: 0, logHash: EventHash.genesis)
        var found = 0
        var random = SeededRandom(seed: 5)
        for _ in 0..<200 {
            var damaged = bytes
            damaged[Int.random(in: 0..<damaged.count, using: &random)] ^= UInt8.random(in: 1...255, using: &random)
            guard let decoded = try? SnapshotCodec.decode(damaged).model else { continue }
            let damage = decoded.todos.damage() ?? decoded.records.damage()
            // Whatever damage() does not see must leave the models readable and equal.
            if damage == nil {
                #expect(decoded.todos.count == model.todos.count)
            } else {
                found += 1
            }
        }
        #expect(found > 0)
    }
}
