import Foundation
import Testing
@testable import TallyEngine
import TallyDomain
import TallyEssentials
import TallySQLite
import TallyTestSupport

/// Redaction on generated histories in a real SQLite file: random todos and records whose texts
/// carry unique secret tokens, edited, annotated, undone and redone at random, then one random
/// field of one random item redacted (every third seed: the annotations of an annotated todo).
@Suite("Redaction on generated histories")
struct RedactionPropertyTests {
    let clock = TestClock()

    func environment() -> AppEnvironment {
        let clock = clock
        let ids = SequentialIDs()
        return AppEnvironment(now: { clock.now }, makeID: { ids.make() }, actor: "alice@laptop", zone: Fixtures.utc)
    }

    /// A token nobody else writes: `sekrit` and 12 random hex digits.
    static func token(_ random: inout SplitMix64) -> String {
        "sekrit" + String((0..<12).map { _ in "0123456789abcdef".randomElement(using: &random)! })
    }

    /// A random history of 3-6 todos and 1-3 records with edits, undos and redos.
    func history(_ dispatcher: Dispatcher, _ random: inout SplitMix64) throws {
        let todos = Int.random(in: 3...6, using: &random)
        for _ in 0..<todos {
            _ = try dispatcher.execute(.addTodo(TodoInput(
                title: "title " + Self.token(&random), tags: ["t" + String(Self.token(&random).suffix(6))],
                note: Bool.random(using: &random) ? "note " + Self.token(&random) : nil,
                project: Bool.random(using: &random) ? "p" + String(Self.token(&random).suffix(6)) : nil
            )))
        }
        for _ in 0..<Int.random(in: 1...3, using: &random) {
            _ = try dispatcher.execute(.logRecord(RecordInput(
                name: "run " + Self.token(&random), category: "run", duration: "30m",
                place: Bool.random(using: &random) ? "park " + Self.token(&random) : nil, note: "felt " + Self.token(&random)
            )))
        }
        for _ in 0..<Int.random(in: 4...12, using: &random) {
            let number = String(Int.random(in: 1...todos, using: &random))
            switch Int.random(in: 0..<8, using: &random) {
            case 0: _ = try dispatcher.execute(.editTodo(number, TodoEditInput(title: "renamed " + Self.token(&random))))
            case 1: _ = try dispatcher.execute(.editTodo(number, TodoEditInput(note: "later " + Self.token(&random))))
            case 2: _ = try dispatcher.execute(.editTodo(number, TodoEditInput(tagChanges: ["x" + String(Self.token(&random).suffix(5))])))
            case 3: _ = try dispatcher.execute(.editRecord("1", RecordEditInput(place: "hill " + Self.token(&random))))
            case 4: _ = try? dispatcher.undo()
            case 5, 6: _ = try dispatcher.execute(.annotateTodo(number, text: "called " + Self.token(&random)))
            default: _ = try dispatcher.execute(.completeTodos([number]))
            }
        }
    }

    /// The tokens in an erased value (the value as the payload held it).
    static func tokens(in value: JSON) -> [String] {
        let text = value.serialized(.canonical)
        var found: [String] = []
        var rest = Substring(text)
        while let range = rest.range(of: "sekrit") {
            found.append(String(rest[range.lowerBound...].prefix(18)))
            rest = rest[range.upperBound...]
        }
        return found
    }

    func bytes(_ path: String) -> [UInt8] {
        (try? [UInt8](Data(contentsOf: URL(fileURLWithPath: path)))) ?? []
    }

    static func contains(_ haystack: [UInt8], _ needle: String) -> Bool {
        let pattern = Array(needle.utf8)
        guard !pattern.isEmpty, haystack.count >= pattern.count else { return false }
        for start in 0...(haystack.count - pattern.count) where haystack[start] == pattern[0] {
            if Array(haystack[start..<(start + pattern.count)]) == pattern { return true }
        }
        return false
    }

    @Test("verify passes, every other field, event and hash is unchanged, the values are in no byte of the file, its WAL or an export, and any one-byte change still fails verify")
    func redactRandomFields() throws {
        for seed in 0..<UInt64(AttackScale.count(short: 6, full: 40)) {
            var random = SplitMix64(seed: 0x5EC2E7 &+ seed)
            let directory = TemporaryDirectory("redact-property")
            let path = directory.path("tally.db")
            var log = try SQLiteEventLog.openForWriting(path: path, now: clock.now)
            var dispatcher = Dispatcher(log: log, environment: environment())
            try history(dispatcher, &random)
            var before: [EventEnvelope] = []
            try log.scan(after: 0, through: nil) { before.append($0) }

            // One random item and one of its erasable fields.
            // Every third seed erases the annotations of a todo that has some (the likeliest home of pasted data).
            let annotated = dispatcher.state.todos.filter { !$0.annotations.isEmpty }
            let forceAnnotations = seed % 3 == 1 && !annotated.isEmpty
            let record = !forceAnnotations && Bool.random(using: &random) && !dispatcher.state.records.isEmpty
            let stream = forceAnnotations ? annotated[Int.random(in: 0..<annotated.count, using: &random)].id
                : record ? dispatcher.state.records[Int.random(in: 0..<dispatcher.state.records.count, using: &random)].id
                : dispatcher.state.todos[Int.random(in: 0..<dispatcher.state.todos.count, using: &random)].id
            let field = forceAnnotations ? Commitment.annotationsField
                : (record ? Redaction.recordFields : Redaction.todoFields).randomElement(using: &random)!
            // The values that field held, from the stored payloads before (an annotation's under `text`).
            var secrets: [String] = []
            for event in before where event.stream == stream {
                guard let key = Commitment.key(ofField: field, type: event.type) else { continue }
                if case .object(let object)? = try? JSON.parse(event.data), let value = object[key] { secrets += Self.tokens(in: value) }
            }
            let outcome: RedactionOutcome
            do {
                outcome = try dispatcher.redact(stream: stream, record: record, field: field, reason: "seed \(seed)")
            } catch HistoryError.nothingToRedact {
                #expect(secrets.isEmpty, "seed \(seed): \(field) of \(stream) held \(secrets) but nothing was redacted")
                continue
            }
            let erasedSeqs = Set(outcome.erased.flatMap(\.events))
            log.close()

            // A fresh process: the file alone (the last connection removed the WAL).
            log = try SQLiteEventLog.openForWriting(path: path, now: clock.now)
            dispatcher = Dispatcher(log: log, environment: environment())
            let report = try Verifier.run(log)
            #expect(report.isIntact, "seed \(seed): \(report.problems)")
            #expect(report.redactedValues == erasedSeqs.count)
            var after: [EventEnvelope] = []
            try log.scan(after: 0, through: nil) { after.append($0) }
            #expect(after.count == before.count + outcome.outcome.appended.count)
            for (old, new) in zip(before, after) {
                #expect(old.hash == new.hash && old.id == new.id && old.stream == new.stream && old.version == new.version)
                #expect(old.type == new.type && old.actor == new.actor && old.recordedAt == new.recordedAt && old.command == new.command)
                if erasedSeqs.contains(old.seq) {
                    #expect(Commitment.committedForm(old.data) == Commitment.committedForm(new.data), "seed \(seed) seq \(old.seq)")
                    let oldObject = try #require(try JSON.parse(old.data).objectValue)
                    let newObject = try #require(try JSON.parse(new.data).objectValue)
                    let erasedKey = try #require(Commitment.key(ofField: field, type: old.type))
                    for key in oldObject.keys where key != erasedKey && key != Commitment.saltsKey {
                        #expect(oldObject[key] == newObject[key], "seed \(seed) seq \(old.seq): \(key) changed")
                    }
                    #expect(Commitment.isMarker(newObject[erasedKey]))
                } else {
                    #expect(old.data == new.data, "seed \(seed): event \(old.seq) changed")
                }
            }
            // The values are nowhere: not in the file (free pages included), the WAL, nor an export.
            let export = after.map { EventLines.encode($0) }.joined(separator: "\n")
            log.close()
            let file = bytes(path) + bytes(path + "-wal")
            for secret in secrets {
                #expect(!Self.contains(file, secret), "seed \(seed): \(secret) is still in the database file")
                #expect(!export.contains(secret), "seed \(seed): \(secret) is still in the export")
            }
            // The state shows the placeholder where the value was.
            let model = try Replayer.fold(InMemoryStore(events: after), into: ReadModel())
            if record, let item = model.record(id: stream) {
                let value: String? = field == "name" ? item.name : field == "place" ? item.place : item.note
                #expect(value == nil || value == Commitment.placeholder)
            } else if let item = model.todo(id: stream) {
                switch field {
                case "title": #expect(item.title == Commitment.placeholder)
                case "note": #expect(item.note == nil || item.note == Commitment.placeholder)
                case "tags": #expect(item.tags.isEmpty || item.tags == [Commitment.placeholderName])
                case Commitment.annotationsField: #expect(item.annotations.allSatisfy { $0.text == Commitment.placeholder })
                default: #expect(item.project == nil || item.project == Commitment.placeholderName)
                }
            }

            // Any one-byte change anywhere else still fails verify.
            for _ in 0..<20 {
                var forged = after
                let index = Int.random(in: 0..<forged.count, using: &random)
                var data = Array(forged[index].data.utf8)
                let at = Int.random(in: 0..<data.count, using: &random)
                let original = data[at]
                var replacement = UInt8.random(in: 0x20...0x7e, using: &random)
                if replacement == original { replacement = original == 0x41 ? 0x42 : 0x41 }
                data[at] = replacement
                forged[index].data = String(decoding: data, as: UTF8.self)
                var verifier = LogVerifier()
                for event in forged { verifier.check(event) }
                verifier.finish()
                #expect(!verifier.isIntact, "seed \(seed): changing byte \(at) of event \(forged[index].seq) went unnoticed: \(forged[index].data)")
            }
        }
    }

    @Test("undo of a redaction is refused and appends nothing; a second redaction of the same field finds nothing left")
    func undoRefused() throws {
        let log = InMemoryStore()
        let dispatcher = Dispatcher(log: log, environment: environment())
        _ = try dispatcher.execute(.addTodo(TodoInput(title: "Router", note: "pw hunter2")))
        let id = try #require(dispatcher.state.todos.first?.id)
        _ = try dispatcher.redact(stream: id, record: false, field: "note", reason: nil)
        let count = log.events.count
        #expect(throws: HistoryError.self) { try dispatcher.undo() }
        #expect(log.events.count == count)
        #expect(throws: HistoryError.nothingToRedact(field: "note", alreadyErased: 1)) {
            try dispatcher.redact(stream: id, record: false, field: "note", reason: nil)
        }
        #expect(throws: HistoryError.notRedactable(field: "priority", record: false)) {
            try dispatcher.redact(stream: id, record: false, field: "priority", reason: nil)
        }
        #expect(!log.events.contains { $0.data.contains("hunter2") })
        #expect(dispatcher.state.todos.first?.note == Commitment.placeholder)
    }

    @Test("one annotation alone: only its text is erased and read as [redacted]; verify accounts for it and no other annotation's erasure")
    func oneAnnotation() throws {
        let log = InMemoryStore()
        let dispatcher = Dispatcher(log: log, environment: environment())
        _ = try dispatcher.execute(.addTodo(TodoInput(title: "Call the bank")))
        _ = try dispatcher.execute(.annotateTodo("1", text: "PIN 4711"))
        _ = try dispatcher.execute(.annotateTodo("1", text: "IBAN CZ65"))
        let todo = try #require(dispatcher.state.todos.first)
        let first = todo.annotations[0].id
        let outcome = try dispatcher.redact(stream: todo.id, record: false, field: Commitment.annotationsField, reason: nil, annotation: first)
        #expect(outcome.erased.map(\.events) == [[2]])
        #expect(dispatcher.state.todos.first?.annotations.map(\.text) == [Commitment.placeholder, "IBAN CZ65"])
        #expect(!log.events.contains { $0.data.contains("4711") } && log.events.contains { $0.data.contains("IBAN CZ65") })
        let folded = try Replayer.fold(InMemoryStore(events: log.events), into: ReadModel())
        #expect(folded.todo(id: todo.id)?.annotations.map(\.text) == [Commitment.placeholder, "IBAN CZ65"])
        var verifier = LogVerifier()
        for event in log.events { verifier.check(event) }
        verifier.finish()
        #expect(verifier.isIntact && verifier.redactedValues == 1, "\(verifier.problems)")
        // The second annotation's text erased by hand: the links hold, but no redaction names it.
        var forged = log.events
        guard case .erased(let data) = Commitment.erase("text", from: forged[2].data) else { Issue.record("not erasable"); return }
        forged[2].data = data
        var check = LogVerifier()
        for event in forged { check.check(event) }
        check.finish()
        #expect(check.problems.map(\.seq) == [3], "\(check.problems)")
        // Naming one annotation is for the annotations field only.
        #expect(Redaction.problem(RedactionFacts(stream: todo.id, field: "note", events: [1], reason: nil, annotation: first)) != nil)
        #expect(Redaction.problem(RedactionFacts(stream: todo.id, field: Commitment.annotationsField, events: [2], reason: nil, annotation: "nope")) != nil)
        // The event survives its own round trip through the catalog.
        let redaction = try #require(log.events.last)
        #expect(try EventCatalog.decode(redaction) == .historyRedacted(RedactionFacts(stream: todo.id, field: Commitment.annotationsField, events: [2], reason: nil, annotation: first)))
    }

    @Test("a value written before commitments cannot be erased: refused, nothing appended")
    func legacyRefused() throws {
        let log = InMemoryStore()
        let dispatcher = Dispatcher(log: log, environment: environment())
        _ = try dispatcher.execute(.addTodo(TodoInput(title: "Router", note: "pw hunter2")))
        // The same event as an older tally wrote it: no salts, the link over the value itself.
        var legacy = try #require(log.events.first)
        let object = try #require(try JSON.parse(legacy.data).objectValue)
        legacy.data = JSON.object(Commitment.readable(object)).serialized(.canonical)
        legacy.hash = EventHash.link(previous: EventHash.genesis, legacy)
        let old = InMemoryStore(events: [legacy])
        let replay = Dispatcher(log: old, environment: environment(), state: try Replayer.fold(old, into: ReadModel()))
        #expect(throws: HistoryError.uncommittedValues(field: "note", events: [1])) {
            try replay.redact(stream: legacy.stream, record: false, field: "note", reason: nil)
        }
        #expect(old.events.count == 1)
    }
}
