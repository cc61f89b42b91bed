import Testing
@testable import TallyDomain
import TallyTestSupport
@testable import TallyEssentials

@Suite("Stream ids read as bytes and items keyed by their packed UUID")
struct StreamKeyTests {
    /// The digit-by-digit packing the word-at-a-time `UUIDBytes.pack` replaced, kept as the reference.
    static func referencePack(_ utf8: [UInt8]) -> UUIDBytes.Packed? {
        func hex(_ from: Int, _ digits: Int) -> UInt64? {
            var value: UInt64 = 0
            for char in utf8[from..<from + digits] {
                switch char {
                case UInt8(ascii: "0")...UInt8(ascii: "9"): value = value << 4 | UInt64(char - UInt8(ascii: "0"))
                case UInt8(ascii: "a")...UInt8(ascii: "f"): value = value << 4 | UInt64(char - UInt8(ascii: "a") + 10)
                default: return nil
                }
            }
            return value
        }
        guard utf8.count == 36, [8, 13, 18, 23].allSatisfy({ utf8[$0] == UInt8(ascii: "-") }),
              let a = hex(0, 8), let b = hex(9, 4), let c = hex(14, 4), let d = hex(19, 4), let e = hex(24, 12)
        else { return nil }
        return ((a << 32 | b << 16 | c).bigEndian, (d << 48 | e).bigEndian)
    }

    static func pack(_ utf8: [UInt8]) -> UUIDBytes.Packed? {
        utf8.withUnsafeBufferPointer { UUIDBytes.pack(utf8: $0) }
    }

    static func same(_ lhs: UUIDBytes.Packed?, _ rhs: UUIDBytes.Packed?) -> Bool {
        switch (lhs, rhs) {
        case (nil, nil): true
        case let (l?, r?): l == r
        default: false
        }
    }

    static func randomUUID(_ random: inout SeededRandom) -> [UInt8] {
        let digits = Array("0123456789abcdef".utf8)
        return (0..<36).map { [8, 13, 18, 23].contains($0) ? UInt8(ascii: "-") : digits[Int(random.next() % 16)] }
    }

    @Test("packing a word at a time agrees with packing digit by digit: random ids, every byte at every place, other lengths")
    func packAgreesWithReference() {
        var random = SeededRandom(seed: 41)
        for _ in 0..<2000 {
            let id = Self.randomUUID(&random)
            #expect(Self.pack(id) != nil)
            #expect(Self.same(Self.pack(id), Self.referencePack(id)), "\(String(decoding: id, as: UTF8.self))")
            #expect(UUIDBytes.unpack(withUnsafeBytes(of: Self.pack(id)!) { $0 }) == String(decoding: id, as: UTF8.self))
        }
        for _ in 0..<3 {
            let id = Self.randomUUID(&random)
            for place in 0..<36 {
                for byte in UInt8.min...UInt8.max {
                    var changed = id
                    changed[place] = byte
                    #expect(Self.same(Self.pack(changed), Self.referencePack(changed)), "byte \(byte) at \(place)")
                }
            }
            #expect(Self.pack(Array(id.dropLast())) == nil)
            #expect(Self.pack(id + [UInt8(ascii: "0")]) == nil)
            if id.contains(where: { $0 >= UInt8(ascii: "a") }) {
                #expect(Self.pack(Array(String(decoding: id, as: UTF8.self).uppercased().utf8)) == nil)
            }
        }
        #expect(Self.pack([]) == nil)
    }

    /// The log with every item's stream id rewritten by `rename` (the same id each time it appears).
    static func renamed(_ events: [EventEnvelope], _ rename: (String, Int) -> String) -> (events: [EventEnvelope], original: [String: String]) {
        var names: [String: String] = [:]
        var original: [String: String] = [:]
        var result = events
        for index in result.indices where result[index].type.hasPrefix("todo.") || result[index].type.hasPrefix("record.") {
            let stream = result[index].stream
            let name = names[stream] ?? rename(stream, names.count)
            names[stream] = name
            original[name] = stream
            result[index].stream = name
        }
        return (result, original)
    }

    @Test("a log whose item ids are not lowercase UUIDs (legacy names, uppercase) folds to the same items, directly and from a snapshot plus tail")
    func otherIDsFoldLikeUUIDs() throws {
        for seed in UInt64(1)...4 {
            var generator = LogGenerator(seed: seed)
            let events = generator.events(500)
            var expected = ReadModel()
            for envelope in events { try Reducer.evolve(&expected, envelope) }
            let renames: [(String, Int) -> String] = [
                { _, n in n % 3 == 0 ? "legacy-\(n)" : "" },
                { id, n in n % 2 == 0 ? id.uppercased() : id },
                { id, n in n % 4 == 0 ? "legacy-\(n)" : id },
            ]
            for (variant, rename) in renames.enumerated() {
                let (log, original) = Self.renamed(events) { id, n in
                    let name = rename(id, n)
                    return name.isEmpty ? id : name
                }
                for cut in [0, 137, 500] {
                    var head = ReadModel()
                    for envelope in log[..<cut] { try Reducer.evolve(&head, envelope) }
                    var model = try SnapshotCodec.decode(SnapshotCodec.encode(head, latestRecordedAt: 0, logHash: EventHash.genesis)).model
                    for envelope in log[cut...] { try Reducer.evolve(&model, envelope) }
                    #expect(model.todos.count == expected.todos.count && model.records.count == expected.records.count)
                    for var todo in model.todos {
                        #expect(model.todo(id: todo.id) == todo, "seed \(seed), variant \(variant), cut \(cut)")
                        todo.id = original[todo.id] ?? todo.id
                        #expect(expected.todo(id: todo.id) == todo, "seed \(seed), variant \(variant), cut \(cut)")
                    }
                    for var record in model.records {
                        #expect(model.record(id: record.id) == record)
                        record.id = original[record.id] ?? record.id
                        #expect(expected.record(id: record.id) == record, "seed \(seed), variant \(variant), cut \(cut)")
                    }
                }
            }
        }
    }

    @Test("folding with the stream id as bytes in a buffer of its own gives the model folded with it as a String")
    func bytesFoldLikeStrings() throws {
        var generator = LogGenerator(seed: 9)
        let events = generator.events(600)
        var byString = ReadModel()
        var byBytes = ReadModel()
        for envelope in events {
            let event = try EventCatalog.decode(envelope)
            Reducer.evolve(&byString, event, stream: envelope.stream, version: envelope.version, seq: envelope.seq, at: envelope.recordedAt)
            // A copy in a separate allocation, like a row in the store's buffer.
            let bytes = Array(envelope.stream.utf8)
            bytes.withUnsafeBufferPointer { buffer in
                Reducer.evolve(&byBytes, event, stream: StreamKey(utf8: buffer), version: envelope.version, seq: envelope.seq, at: envelope.recordedAt)
            }
        }
        #expect(byBytes == byString, "\(Diff.describe(byString, byBytes))")
        #expect(byBytes.todos.idIndex == byString.todos.idIndex)
    }
}
