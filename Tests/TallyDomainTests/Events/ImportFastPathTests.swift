import Foundation
import Testing
@testable import TallyDomain
import TallyTestSupport
@testable import TallyEssentials

/// The byte-level shortcuts of a bulk import against the definitions they stand in for.
@Suite("Import fast paths")
struct ImportFastPathTests {
    /// The canonical text as the chain defines it, field by field through the JSON serializer.
    static func reference(_ event: EventEnvelope) -> String {
        func quoted(_ text: String) -> String { JSON.string(text).serialized(.canonical) }
        return "{\"actor\":\(quoted(event.actor)),\"command\":\(quoted(event.command)),\"data\":\(event.data),\"id\":\(quoted(event.id))"
            + ",\"recordedAt\":\(event.recordedAt),\"schema\":\(event.schema),\"seq\":\(event.seq),\"stream\":\(quoted(event.stream))"
            + ",\"type\":\(quoted(event.type)),\"version\":\(event.version)}"
    }

    @Test("the hash chain's canonical bytes and links equal the field-by-field definition")
    func canonical() {
        var generator = LogGenerator(seed: 3)
        var events = generator.events(500)
        events.append(EventEnvelope(
            seq: 9_223_372_036_854_775_807, id: "a\"b\\c\u{01}\u{1F}\n\t\r\u{08}\u{0C}", stream: "žluť/😀\u{7F}", version: 2_147_483_647,
            type: "", schema: 1, data: "{}", recordedAt: -9_223_372_036_854_775_808, actor: "", command: "x", hash: ""
        ))
        events.append(EventEnvelope(seq: 0, id: "", stream: "", version: 0, type: "t", schema: 0, data: "{\"a\":[1,2.5]}", recordedAt: 0, actor: "a b", command: "", hash: ""))
        var previous = EventHash.genesis
        for event in events {
            let text = Self.reference(event)
            #expect(EventHash.canonical(event) == text)
            var hasher = SHA256()
            hasher.update(previous)
            hasher.update(text)
            let link = SHA256.hex(hasher.finalize())
            #expect(EventHash.link(previous: previous, event) == link)
            previous = link
        }
    }

    static let texts: [String] = {
        let max = Validation.maxTitleLength
        var texts = [
            "", " ", "   ", "a", " a ", "Call Bob", "tab\there", "line\nbreak", "\r\n", "\u{7F}", "del\u{7F}", "\u{01}x",
            "caf\u{E9}", "cafe\u{301}", "\u{A0}x", "x\u{85}", "UPPER", "lower-case_1", "-", "_", "a b", "a.b", "tag!", "\u{2028}",
            String(repeating: "x", count: max), String(repeating: "x", count: max + 1), String(repeating: " ", count: max + 1),
            " " + String(repeating: "y", count: max) + " ", String(repeating: "é", count: max),
            String(repeating: "n", count: Validation.maxNoteLength), String(repeating: "n", count: Validation.maxNoteLength + 1),
            String(repeating: "t", count: Validation.maxTagLength), String(repeating: "t", count: Validation.maxTagLength + 1),
        ]
        for byte in UInt8(0x00)...UInt8(0x7F) {
            texts.append("a" + String(UnicodeScalar(byte)) + "b")
            texts.append(String(UnicodeScalar(byte)))
        }
        return texts
    }()

    @Test("titles, notes and tags: the import check refuses exactly what Validation refuses")
    func rules() {
        for text in Self.texts {
            let title = (try? Validation.title(text)) != nil
            #expect(Self.accepts(.todoCreated(TodoFields(title: text))) == title, "title \(Array(text.utf8))")
            #expect(Self.accepts(.todoEdited(TodoChanges(title: text))) == title, "title \(Array(text.utf8))")
            #expect(Self.accepts(.todoEdited(TodoChanges(note: .some(text)))) == ((try? Validation.note(text)) != nil), "note \(Array(text.utf8))")
            // A tag is stored as Validation keeps it, scalar by scalar (a decomposed é is not one: the server refuses it too).
            let tag = (try? Validation.tag(text)).map { $0.unicodeScalars.elementsEqual(text.unicodeScalars) } ?? false
            #expect(Self.accepts(.todoEdited(TodoChanges(tags: [text]))) == tag, "tag \(Array(text.utf8))")
        }
    }

    typealias LineOutcome = Result<ImportedEvent, EventLineError>

    /// Checks one export line: the public decoder gives the tree's event or its error; returns whether the scanner read it.
    @discardableResult
    static func checkLine(_ bytes: [UInt8], sourceLocation: SourceLocation = #_sourceLocation) -> Bool {
        bytes.withUnsafeBufferPointer { line in
            func outcome(_ body: () throws(EventLineError) -> ImportedEvent) -> LineOutcome {
                do throws(EventLineError) { return .success(try body()) } catch { return .failure(error) }
            }
            let tree = outcome { () throws(EventLineError) in try EventLines.decodeTree(line) }
            let fast = outcome { () throws(EventLineError) in try EventLines.decode(line) }
            let comment = Comment(rawValue: String(decoding: bytes, as: UTF8.self))
            #expect(fast == tree, comment, sourceLocation: sourceLocation)
            guard let scanned = EventLineScanner.decode(line) else { return false }
            #expect(tree == .success(scanned), comment, sourceLocation: sourceLocation)
            return true
        }
    }

    @Test("export lines of a generated log import as the tree reads them, the todo lines without the tree")
    func lines() {
        var generator = LogGenerator(seed: 5)
        let events = generator.events(2_000) + generator.seriesEvents(200) + generator.recordEvents(200)
        var scanned = 0
        for event in events where Self.checkLine(Array(EventLines.encode(event).utf8)) {
            scanned += 1
        }
        // Generated titles often have quotes or escapes, which the tree reads.
        #expect(scanned * 3 > events.filter { $0.type.hasPrefix("todo.") }.count)
        let uuid = "0b6a3c1e-2f4d-4a5b-8c7d-9e0f1a2b3c4d"
        let base = #"{"id":"\#(uuid)","stream":"\#(uuid)","version":1,"type":"todo.created","schema":4,"recordedAt":"2026-01-01T00:00:00Z","actor":"a","command":"\#(uuid)","data":{"due":null,"note":null,"priority":null,"series":null,"tags":[],"title":"x","wait":null}"#
        #expect(Self.checkLine(Array((base + "}").utf8)))
        #expect(Self.checkLine(Array((base + #","seq":null,"hash":null}"#).utf8)))
        #expect(Self.checkLine(Array((" " + base + #","seq":7,"hash":"abc"} "#).utf8)))
        let variants = [
            base.replacingOccurrences(of: #""title":"x""#, with: #""title":"x" "#),
            base.replacingOccurrences(of: #""due":null,"note":null"#, with: #""note":null,"due":null"#),
            base.replacingOccurrences(of: #""version":1"#, with: #""version":1.0"#),
            base.replacingOccurrences(of: #""version":1"#, with: #""version":0"#),
            base.replacingOccurrences(of: #""version":1"#, with: #""version":2147483648"#),
            base.replacingOccurrences(of: #""version":1"#, with: #""version":01"#),
            base.replacingOccurrences(of: #""schema":4"#, with: #""schema":3"#),
            base.replacingOccurrences(of: #""actor":"a""#, with: #""actor":"""#),
            base.replacingOccurrences(of: #""actor":"a""#, with: #""actor":"a\u0001""#),
            base.replacingOccurrences(of: #""recordedAt":"2026-01-01T00:00:00Z""#, with: #""recordedAt":"yesterday""#),
            base.replacingOccurrences(of: #""stream":"\#(uuid)""#, with: #""stream":"history""#),
            base.replacingOccurrences(of: #""title":"x""#, with: #""title":"   ""#),
            base.replacingOccurrences(of: #""tags":[]"#, with: #""tags":["Upper"]"#),
            base.replacingOccurrences(of: #""type":"todo.created","schema":4,"#, with: "") + #","type":"todo.created","schema":4"#,
            base + #","seq":-1}"#, base + #","seq":"1"}"#, base + #","hash":5}"#, base + #","extra":1}"#, base + #","id":"\#(uuid)"}"#,
            base + "}}", base, "", "{}", "[]",
        ]
        for variant in variants {
            #expect(!Self.checkLine(Array((variant.hasSuffix("}") || variant.isEmpty || variant == "[]" ? variant : variant + "}").utf8)))
        }
    }

    @Test("every one-byte change of export lines: same event or same error")
    func lineMutations() {
        var generator = LogGenerator(seed: 9)
        let samples = generator.events(120).filter { $0.type.hasPrefix("todo.") }.prefix(8)
        let replacements: [UInt8?] = [nil, 0x22, 0x5C, 0x2C, 0x20, 0x30, 0x7D, 0x3A, 0x2D, 0xFF]
        for event in samples {
            let bytes = Array(EventLines.encode(event).utf8)
            for index in bytes.indices {
                for replacement in replacements {
                    var changed = bytes
                    if let replacement { changed[index] = replacement } else { changed.remove(at: index) }
                    Self.checkLine(changed)
                }
            }
        }
    }

    @Test("stream versions: UUID streams by their bytes, other streams by their text, never mixed up")
    func streamVersions() {
        var table = UUIDKeyedMap()
        let lower = "0b6a3c1e-2f4d-4a5b-8c7d-9e0f1a2b3c4d"
        let upper = lower.uppercased()
        #expect(table[lower] == nil)
        table[lower] = 3
        table["filter:todos"] = 1
        #expect(table[lower] == 3 && table[upper] == nil && table["filter:todos"] == 1 && table["history"] == nil)
        table[upper] = 7
        table[lower] = 4
        #expect(table[lower] == 4 && table[upper] == 7)
        table[lower] = nil
        #expect(table[lower] == nil && table[upper] == 7)
    }

    static func accepts(_ event: DomainEvent) -> Bool {
        (try? EventRules.checkPayload(event)) != nil
    }
}
