import Foundation
import Testing
@testable import TallyDomain
import TallyTestSupport
@testable import TallyEssentials

/// The payload scanner (replay hot path) against the tree decoder it stands in for: on every input
/// the public byte decoder must give the tree decoder's event or its very error.
@Suite("Payload scanner")
struct PayloadScannerTests {
    typealias Outcome = Result<DomainEvent, EventDecodingError>

    static func outcome(_ body: () throws(EventDecodingError) -> DomainEvent) -> Outcome {
        do throws(EventDecodingError) {
            return .success(try body())
        } catch {
            return .failure(error)
        }
    }

    /// Checks one input; returns whether the scanner read it on its own.
    @discardableResult
    static func check(_ type: String, _ schema: Int, _ bytes: [UInt8], _ comment: Comment? = nil, sourceLocation: SourceLocation = #_sourceLocation) -> Bool {
        bytes.withUnsafeBufferPointer { data in
            let tree = outcome { () throws(EventDecodingError) in try EventCatalog.decodeTree(type: type, schema: schema, utf8: data) }
            let fast = outcome { () throws(EventDecodingError) in try EventCatalog.decode(type: type, schema: schema, utf8: data) }
            #expect(fast == tree, comment, sourceLocation: sourceLocation)
            guard let scanned = PayloadScanner.decode(type: type, schema: schema, utf8: data) else { return false }
            #expect(tree == .success(scanned), "the scanner accepted what the tree decoder \(tree): \(comment?.rawValue ?? "")", sourceLocation: sourceLocation)
            return true
        }
    }

    static func check(_ type: String, _ schema: Int, _ text: String, sourceLocation: SourceLocation = #_sourceLocation) -> Bool {
        check(type, schema, Array(text.utf8), Comment(rawValue: text), sourceLocation: sourceLocation)
    }

    static let uuid = "0b6a3c1e-2f4d-4a5b-8c7d-9e0f1a2b3c4d"

    @Test("every event type of a generated log decodes as the tree decodes it, the todo events without the tree")
    func generatedLog() throws {
        var generator = LogGenerator(seed: 12)
        let events = generator.events(3_000) + generator.seriesEvents(300) + generator.recordEvents(300)
        #expect(Set(events.map(\.type)) == LogGenerator.coveredTypes)
        var scanned: [String: Int] = [:]
        for event in events {
            if Self.check(event.type, event.schema, Array(event.data.utf8), Comment(rawValue: event.data)) {
                scanned[event.type, default: 0] += 1
            }
            let expected = try EventCatalog.decode(event)
            #expect(EventCatalog.payload(of: expected) == (try JSON.parse(event.data)).objectValue)
        }
        #expect(Set(scanned.keys) == ["todo.created", "todo.edited", "todo.completed", "todo.reopened", "todo.deleted", "todo.restored"])
    }

    @Test("todo payloads the scanner reads itself")
    func accepted() {
        let created = #"{"due":null,"note":null,"priority":"high","series":null,"tags":["home"],"title":"Call Bob","wait":null}"#
        #expect(Self.check("todo.created", 4, created))
        #expect(Self.check("todo.created", 4, " {\n\t\"title\" : \"Příliš žluťoučký\" ,\"tags\":[ ],\"priority\":null,\"due\":\"2026-03-01\",\"note\":\"\",\"wait\":\"2026-02-01T10:00:00Z\",\"series\":\"\(Self.uuid)\"}\r\n"))
        #expect(Self.check("todo.edited", 3, #"{"title":"Edited"}"#))
        #expect(Self.check("todo.edited", 3, #"{}"#))
        #expect(Self.check("todo.edited", 3, #"{"priority":null,"due":null,"note":null,"wait":null,"series":null,"tags":["a","b"]}"#))
        for type in ["todo.completed", "todo.reopened", "todo.deleted", "todo.restored"] {
            #expect(Self.check(type, 1, "{}"))
            #expect(Self.check(type, 1, " { } "))
        }
    }

    @Test("every todo key is recognised by its name, at the end of the buffer too, and no other name is")
    func keys() {
        let names: [(String, PayloadScanner.TodoKey)] = [
            ("title", .title), ("tags", .tags), ("priority", .priority), ("due", .due), ("note", .note), ("wait", .wait), ("series", .series),
        ]
        for (name, key) in names {
            for padding in [0, 12] {
                let bytes = Array(name.utf8) + Array(repeating: UInt8(ascii: "x"), count: padding)
                bytes.withUnsafeBufferPointer { buffer in
                    let cursor = PayloadScanner.Cursor(bytes: buffer.baseAddress!, count: buffer.count)
                    #expect(cursor.todoKey(0, name.utf8.count) == key, "\(name) + \(padding)")
                    #expect(cursor.todoKey(0, name.utf8.count - 1) == nil, "\(name) shortened")
                    #expect(cursor.todoKey(0, name.utf8.count + (padding > 0 ? 1 : 0)) == (padding > 0 ? nil : key), "\(name) extended")
                }
            }
        }
    }

    @Test("payloads left to the tree decoder: same event or same error")
    func deferred() {
        let full = #""tags":[],"priority":null,"due":null,"note":null,"wait":null,"series":null"#
        let cases: [(String, Int, String)] = [
            ("todo.created", 4, #"{"title":"a\"b",\#(full)}"#),
            ("todo.created", 4, #"{"title":"caf\u00e9",\#(full)}"#),
            ("todo.created", 4, #"{"title":"a","title":"b",\#(full)}"#),
            ("todo.created", 4, #"{"title":null,\#(full)}"#),
            ("todo.created", 4, #"{"title":1,\#(full)}"#),
            ("todo.created", 4, #"{\#(full)}"#),
            ("todo.created", 4, #"{"title":"a","tags":["x",1],"priority":null,"due":null,"note":null,"wait":null,"series":null}"#),
            ("todo.created", 4, #"{"title":"a","tags":"x","priority":null,"due":null,"note":null,"wait":null,"series":null}"#),
            ("todo.created", 4, #"{"title":"a","tags":[],"priority":"urgent","due":null,"note":null,"wait":null,"series":null}"#),
            ("todo.created", 4, #"{"title":"a","tags":[],"priority":null,"due":"tomorrow","note":null,"wait":null,"series":null}"#),
            ("todo.created", 4, #"{"title":"a","tags":[],"priority":null,"due":null,"note":null,"wait":null,"series":"ABC"}"#),
            ("todo.created", 4, #"{"title":"a","tags":[],"priority":null,"due":null,"note":null,"wait":"2026-13-01","series":null}"#),
            ("todo.created", 4, #"{"title":"a",\#(full),"extra":true}"#),
            ("todo.created", 4, #"{"title":"a",\#(full),"origin":{"tool":"todo.txt","id":"1","createdAt":null}}"#),
            ("todo.created", 4, #"{"title":"a",\#(full)} x"#),
            ("todo.created", 4, #"{"title":"a",\#(full)"#),
            ("todo.created", 4, #"{"title":"a",\#(full),}"#),
            ("todo.created", 4, #"{"title":"a" "tags":[]}"#),
            ("todo.created", 4, #"{"title":"a","tags":[],"priority":nul,"due":null,"note":null,"wait":null,"series":null}"#),
            ("todo.created", 4, #"{"title":"a","tags":[],"priority":nullx,"due":null,"note":null,"wait":null,"series":null}"#),
            ("todo.created", 3, #"{"title":"a",\#(full)}"#),
            ("todo.created", 2, #"{"title":"a","tags":[],"priority":null,"due":null,"note":null}"#),
            ("todo.created", 5, #"{"title":"a",\#(full)}"#),
            ("todo.created", 0, #"{"title":"a",\#(full)}"#),
            ("todo.created", 4, "[]"),
            ("todo.created", 4, ""),
            ("todo.created", 4, "   "),
            ("todo.edited", 3, #"{"title":null}"#),
            ("todo.edited", 3, #"{"tags":null}"#),
            ("todo.edited", 3, #"{"tags":[,]}"#),
            ("todo.edited", 3, #"{"tags":["a",]}"#),
            ("todo.edited", 3, #"{"due":5}"#),
            ("todo.edited", 3, #"{"TITLE":"a"}"#),
            ("todo.edited", 3, #"{"titles":"a"}"#),
            ("todo.edited", 3, #"{"tit":"a"}"#),
            ("todo.edited", 2, #"{"title":"a"}"#),
            ("todo.edited", 1, #"{"title":"a"}"#),
            ("todo.completed", 1, #"{"a":1}"#),
            ("todo.completed", 1, #"{"#),
            ("todo.completed", 1, #"{}}"#),
            ("todo.completed", 2, #"{}"#),
            ("todo.deleted", 1, "null"),
            ("todo.done", 1, "{}"),
            ("Todo.created", 4, #"{"title":"a",\#(full)}"#),
            ("record.deleted", 1, "{}"),
            ("history.undone", 1, #"{"command":"x"}"#),
        ]
        for (type, schema, text) in cases {
            #expect(!Self.check(type, schema, text))
        }
        // Bytes that are not UTF-8 text, and control characters.
        for bad: [UInt8] in [[0xFF], [0xC3], [0xED, 0xA0, 0x80], [0xF4, 0x90, 0x80, 0x80], [0xC0, 0xAF], [0x01], [0x0A]] {
            let bytes = Array(#"{"title":"a"#.utf8) + bad + Array(#"b"}"#.utf8)
            #expect(!Self.check("todo.edited", 3, bytes, Comment(rawValue: "\(bad)")))
        }
    }

    @Test("every one-byte change of real payloads: same event or same error")
    func mutations() {
        var generator = LogGenerator(seed: 7)
        let samples = generator.events(400).filter { $0.type.hasPrefix("todo.") }
        var seen: Set<String> = []
        let replacements: [UInt8?] = [nil, 0x22, 0x5C, 0x2C, 0x20, 0x6E, 0x7D, 0x5D, 0x3A, 0x31, 0xFF, 0xC3]
        for event in samples where seen.insert(event.type + String(event.data.utf8.count)).inserted {
            let bytes = Array(event.data.utf8)
            for index in bytes.indices {
                for replacement in replacements {
                    var changed = bytes
                    if let replacement { changed[index] = replacement } else { changed.remove(at: index) }
                    Self.check(event.type, event.schema, changed, Comment(rawValue: String(decoding: changed, as: UTF8.self)))
                }
            }
        }
        #expect(seen.count > 10)
    }

    @Test("the events and json fuzz corpora: same event or same error for every todo type")
    func corpora() {
        let types = ["todo.created", "todo.edited", "todo.completed", "todo.reopened", "todo.deleted", "todo.restored"]
        var inputs: [(String, [UInt8])] = FuzzCorpus.inputs("json")
        for (name, bytes) in FuzzCorpus.inputs("events") {
            // The first line names a type, the rest is the payload.
            if let newline = bytes.firstIndex(of: 0x0A) { inputs.append((name, Array(bytes[(newline + 1)...]))) }
        }
        #expect(inputs.count >= 7)
        for (name, bytes) in inputs {
            for type in types {
                Self.check(type, EventCatalog.currentSchemas[type]!, bytes, Comment(rawValue: name))
            }
        }
    }
}
