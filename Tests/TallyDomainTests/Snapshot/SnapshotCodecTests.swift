import Testing
@testable import TallyDomain
import TallyTestSupport
@testable import TallyEssentials

@Suite("Snapshot codec")
struct SnapshotCodecTests {
    /// Models folded from generated logs of several lengths and seeds.
    static func generatedModels() throws -> [ReadModel] {
        var models: [ReadModel] = []
        for seed in UInt64(1)...12 {
            var generator = LogGenerator(seed: seed)
            var model = ReadModel()
            for envelope in generator.events(Int(seed) * 40) {
                try Reducer.evolve(&model, envelope)
                if envelope.seq % 97 == 0 { models.append(model) }
            }
            models.append(model)
        }
        return models
    }

    @Test("decode(encode(model)) == model for generated models, and encoding is deterministic")
    func roundTrip() throws {
        for model in try Self.generatedModels() {
            let bytes = SnapshotCodec.encode(model, latestRecordedAt: 42, logHash: String(repeating: "ab", count: 32))
            let (header, decoded) = try SnapshotCodec.decode(bytes)
            #expect(decoded == model, "\(Diff.describe(model, decoded))")
            #expect(header == SnapshotHeader(position: model.position, latestRecordedAt: 42, logHash: String(repeating: "ab", count: 32)))
            #expect(SnapshotCodec.encode(decoded, latestRecordedAt: 42, logHash: header.logHash) == bytes)
        }
    }

    @Test("every stored property of the read models varies across generated models, so the round trip covers it")
    func generatorCoversEveryProperty() throws {
        let models = try Self.generatedModels()
        for label in Mirror(reflecting: ReadModel()).children.compactMap(\.label) {
            let values = Set(models.map { model in ModelDump.text(Mirror(reflecting: model).children.first { $0.label == label }!.value) })
            #expect(values.count > 1, "no generated model sets ReadModel.\(label): teach LogGenerator the events that fill it")
        }
        let todos = models.flatMap(\.todos)
        for label in Mirror(reflecting: todos[0]).children.compactMap(\.label) {
            let values = Set(todos.map { todo in ModelDump.text(Mirror(reflecting: todo).children.first { $0.label == label }!.value) })
            #expect(values.count > 1, "every generated todo has the same \(label)")
        }
        let records = models.flatMap(\.records)
        for label in Mirror(reflecting: records[0]).children.compactMap(\.label) {
            let values = Set(records.map { record in ModelDump.text(Mirror(reflecting: record).children.first { $0.label == label }!.value) })
            #expect(values.count > 1, "every generated record has the same \(label)")
        }
    }

    @Test("the generator produces every event type of the catalog")
    func generatorCoversCatalog() {
        #expect(Set(EventCatalog.types) == LogGenerator.coveredTypes, "teach LogGenerator the new event types")
        var generator = LogGenerator(seed: 7)
        #expect(Set(generator.events(600).map(\.type)) == LogGenerator.coveredTypes)
    }

    @Test("the layout of the golden fixture's model is pinned to the format version")
    func layoutIsPinned() throws {
        let model = try GoldenLog.folded(through: GoldenLog.layoutPrefix)
        let digest = SHA256.hex(SHA256.digest(SnapshotCodec.encode(model, latestRecordedAt: 1, logHash: EventHash.genesis, reducerVersion: 5)))
        // One line per format ever released; add a line when the layout changes, never edit one.
        let pinned: [Int: String] = [
            1: "a07fa8ff9afe846eeb6e9719912073b6ad133e9b1dd3666ef5c24b0bb8d1cc8f",
            2: "365168260042d1f44541c4ed6f5f1d7312a9e82e0c45310455e2c6084522e258",
            3: "537babc5caaedb83af191efff39171da624cc4538eb054fa4728a2fe2c8425d2",
            4: "c691c5070d8fedf5be3be05c5901287fec286ddf4beb3240e6db881a54bf9589",
            5: "bde22d2fcc27a1088f9dbe21864d229d32a800d0468b6bea2df3519419d7cf96",
            6: "1f10f0b7e8a96a260d9d1bf4c26edc852d234841c9fb4daedb0794d46a9c8f25",
            7: "20dbea8f9217eb698cec44caeb6aebd8f4c1ce54aaebce2387b89222b5c49320",
            8: "80ec18711cf8da069523d72c001c7f62129d4150c971999011ed037667e1c473",
            9: "1ef502d17357e0e526b6cac44b234fbcc961232ba382d2360e499f0d1310317e",
            10: "8e1160f0dc5cc4da7e78218193e7b91b30df4763f9e9ac45d3f7cb3be73e1bcd",
            11: "afb8a5d934941620e3f81f499674fd17242cb10ae045e1d6510eca592b8153d0",
        ]
        #expect(pinned[SnapshotCodec.format] == digest, """
            The snapshot layout changed: bump SnapshotCodec.format and pin the new digest \(digest) under it.
            """)
    }

    @Test("truncated or damaged bodies are rejected with an error, never a crash")
    func damagedBodies() throws {
        let model = try Self.generatedModels()[3]
        let bytes = SnapshotCodec.encode(model, latestRecordedAt: 0, logHash: EventHash.genesis)
        for length in stride(from: 0, to: bytes.count, by: max(1, bytes.count / 300)) {
            #expect(throws: SnapshotDecodingError.self) { try SnapshotCodec.decode(Array(bytes[..<length])) }
        }
        #expect(throws: SnapshotDecodingError.self) { try SnapshotCodec.decode(bytes + [0]) }
        var random = SeededRandom(seed: 9)
        for _ in 0..<300 {
            var damaged = bytes
            damaged[Int.random(in: 0..<damaged.count, using: &random)] ^= UInt8.random(in: 1...255, using: &random)
            _ = try? SnapshotCodec.decode(damaged)
        }
    }

    @Test("varints and zigzag integers round-trip at their edges, and UUIDs pack to 16 bytes")
    func primitives() throws {
        var writer = BinaryWriter()
        let ints: [Int64] = [0, 1, -1, 63, -64, 64, Int64.max, Int64.min, 1_795_262_400_000]
        for value in ints { writer.int(value) }
        writer.identifier("0f1e2d3c-4b5a-4978-8695-a4b3c2d1e0ff")
        writer.identifier("filter:todos")
        writer.identifier("0F1E2D3C-4B5A-4978-8695-A4B3C2D1E0FF")
        let bytes = writer.bytes
        bytes.withUnsafeBytes { buffer in
            var reader = BinaryReader(buffer)
            do throws(SnapshotDecodingError) {
                for value in ints {
                    let read = try reader.int()
                    #expect(read == value)
                }
                let before = reader.offset
                let uuid = try reader.identifier()
                #expect(uuid == "0f1e2d3c-4b5a-4978-8695-a4b3c2d1e0ff")
                #expect(reader.offset - before == 17)
                let name = try reader.identifier()
                #expect(name == "filter:todos")
                let upper = try reader.identifier()
                #expect(upper == "0F1E2D3C-4B5A-4978-8695-A4B3C2D1E0FF")
                #expect(reader.isAtEnd)
            } catch {
                Issue.record(error)
            }
        }
    }
}
