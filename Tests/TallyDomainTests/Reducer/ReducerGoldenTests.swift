import Foundation
import Testing
import TallyEssentials
@testable import TallyDomain
import TallyTestSupport

/// Makes `Reducer.version` hard to forget: any change in what the reducers compute for the
/// committed fixture log changes the digest, and the test fails until the version is bumped.
@Suite("Reducer version golden test")
struct ReducerGoldenTests {
    @Test("folding the fixture log gives the digest recorded for this Reducer.version")
    func digestMatchesVersion() throws {
        let digest = GoldenLog.digest(try GoldenLog.foldedWithLegacy())
        let recorded = try GoldenLog.digests()
        #expect(recorded[Reducer.version] == digest, """
            The reducers now fold Tests/Fixtures/reducer-golden/events.jsonl differently.
            Snapshots taken by the old reducers must not be trusted: bump Reducer.version to \(Reducer.version + 1)
            and add the line '\(Reducer.version + 1) \(digest)' to Tests/Fixtures/reducer-golden/digests.txt.
            """)
        let versions = recorded.filter { $0.value == digest }.map(\.key)
        #expect(versions.count <= 1, "versions \(versions.sorted()) record the same digest: a version was bumped for nothing, or a line was edited")
    }

    @Test("the fixture log is intact and uses every event type of the catalog")
    func fixtureIsComplete() throws {
        let events = try GoldenLog.events()
        var previous = EventHash.genesis
        for (offset, event) in events.enumerated() {
            #expect(event.seq == Int64(offset + 1))
            #expect(event.hash == EventHash.link(previous: previous, event), "event \(event.seq) does not chain")
            previous = event.hash
        }
        #expect(Set(events.map(\.type)) == Set(EventCatalog.types), "append events of the new types to the fixture, then record the new digest")
    }

    @Test("the digest covers every stored property: it differs as soon as one todo field does")
    func digestIsSensitive() throws {
        var model = try GoldenLog.folded()
        let digest = GoldenLog.digest(model)
        model.todos[0].note = (model.todos[0].note ?? "") + "!"
        #expect(GoldenLog.digest(model) != digest)
    }

    @Test("writes the fixture when asked (TALLY_WRITE_GOLDEN_LOG=1): 400 events, then record events appended once")
    func writeFixture() throws {
        guard ProcessInfo.processInfo.environment["TALLY_WRITE_GOLDEN_LOG"] == "1" else { return }
        if !FileManager.default.fileExists(atPath: GoldenLog.eventsURL.path) {
            var generator = LogGenerator(seed: 20_261_121)
            let text = generator.events(400).map(GoldenLog.line).joined(separator: "\n") + "\n"
            try text.write(to: GoldenLog.eventsURL, atomically: true, encoding: .utf8)
        }
        // The fixture predates records: their events are appended after the first 400, never mixed in.
        let events = try GoldenLog.events()
        if !events.contains(where: { $0.type.hasPrefix("record.") }) {
            var generator = LogGenerator(seed: 20_261_122, continuing: events)
            try append(generator.recordEvents(80))
        }
        // Series, waiting and series instances came later still: appended after the records, once.
        let withRecords = try GoldenLog.events()
        if !withRecords.contains(where: { $0.type.hasPrefix("series.") }) {
            var generator = LogGenerator(seed: 20_261_123, continuing: withRecords)
            try append(generator.seriesEvents(60) + generator.events(40))
        }
        // Gear came after the athlete's settings: appended once, at the end.
        let withAthlete = try GoldenLog.events()
        if !withAthlete.contains(where: { $0.type.hasPrefix("gear.") }) {
            var generator = LogGenerator(seed: 20_261_125, continuing: withAthlete)
            try append(generator.gearEvents(12))
        }
        // Goals came with gear: appended once, after it.
        let withGear = try GoldenLog.events()
        if !withGear.contains(where: { $0.type.hasPrefix("goal.") }) {
            var generator = LogGenerator(seed: 20_261_126, continuing: withGear)
            try append(generator.goalEvents(8))
        }
        // Annotations and time came later still: appended once, and the legacy events chained after them again.
        let withSeries = try GoldenLog.events()
        if !withSeries.contains(where: { $0.type == "todo.annotated" }) {
            var generator = LogGenerator(seed: 20_261_125, continuing: withSeries)
            try append(generator.timeEvents(60))
            try rechainLegacy(after: try GoldenLog.events())
        }
        // Redaction came last: a todo whose values carry salts, an edit, and the redaction of its note,
        // kept in redaction.jsonl with their commitments computed independently. Appended once, renumbered,
        // rechained, and the legacy events chained after them again.
        let withTime = try GoldenLog.events()
        if !withTime.contains(where: { $0.type == "history.redacted" }) {
            var head = LogHead(seq: withTime.last?.seq ?? 0, hash: withTime.last?.hash ?? EventHash.genesis)
            var renumbered: [Int64: Int64] = [:]
            var appended: [EventEnvelope] = []
            let source = GoldenLog.eventsURL.deletingLastPathComponent().appendingPathComponent("redaction.jsonl")
            for line in try String(contentsOf: source, encoding: .utf8).split(separator: "\n") {
                var event = try GoldenLog.envelope(String(line))
                renumbered[event.seq] = head.seq + 1
                event.seq = head.seq + 1
                event.id = "e0000000-0000-4000-8000-" + String(format: "%012lld", event.seq)
                event.version = (withTime + appended).filter { $0.stream == event.stream }.count + 1
                if event.type == "history.redacted", case .object(var payload) = try JSON.parse(event.data),
                   case .array(let seqs)? = payload["events"] {
                    payload["events"] = .array(seqs.map { seq in seq.intValue.flatMap { renumbered[$0] }.map { JSON.int($0) } ?? seq })
                    event.data = JSON.object(payload).serialized(.canonical)
                }
                event.hash = EventHash.link(previous: head.hash, event)
                head = LogHead(seq: event.seq, hash: event.hash)
                appended.append(event)
            }
            try append(appended)
            try rechainLegacy(after: try GoldenLog.events())
        }
    }

    /// Renumbers and rechains the legacy events after `events`, keeping their payloads as they are.
    private func rechainLegacy(after events: [EventEnvelope]) throws {
        var head = LogHead(seq: events.last?.seq ?? 0, hash: events.last?.hash ?? EventHash.genesis)
        var lines: [String] = []
        for line in try String(contentsOf: GoldenLog.legacyURL, encoding: .utf8).split(separator: "\n") {
            var event = try GoldenLog.envelope(String(line))
            event.seq = head.seq + 1
            event.id = "e0000000-0000-4000-8000-" + String(format: "%012lld", event.seq)
            event.hash = EventHash.link(previous: head.hash, event)
            head = LogHead(seq: event.seq, hash: event.hash)
            lines.append(GoldenLog.line(event))
        }
        try (lines.joined(separator: "\n") + "\n").write(to: GoldenLog.legacyURL, atomically: true, encoding: .utf8)
    }

    private func append(_ events: [EventEnvelope]) throws {
        let text = events.map(GoldenLog.line).joined(separator: "\n") + "\n"
        let handle = try FileHandle(forWritingTo: GoldenLog.eventsURL)
        try handle.seekToEnd()
        try handle.write(contentsOf: Data(text.utf8))
        try handle.close()
    }
}
