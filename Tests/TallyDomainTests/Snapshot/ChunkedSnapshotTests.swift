import Testing
@testable import TallyDomain
import TallyTestSupport
@testable import TallyEssentials

/// Snapshot bodies read chunk by chunk: the same models as a whole body, whatever the chunk size.
@Suite("Chunked snapshot bodies")
struct ChunkedSnapshotTests {
    /// A buffer over `body` in chunks of `chunkSize`, read from the array on demand.
    static func chunked(_ body: [UInt8], chunkSize: Int, sums: [UInt64]? = nil) -> SnapshotBuffer {
        SnapshotBuffer(count: body.count, chunkSize: chunkSize, sums: sums ?? SnapshotChunks.sums(body, chunkSize: chunkSize)) { index, target in
            let start = index * chunkSize
            guard start + target.count <= body.count else { return false }
            body.withUnsafeBytes { target.copyMemory(from: UnsafeRawBufferPointer(rebasing: $0[start ..< start + target.count])) }
            return true
        }
    }

    /// The counts a table should hold, recomputed from every item.
    static func recount<Item: SnapshotItem>(_ table: ItemTable<Item>) -> ItemCounts {
        var counts = ItemCounts()
        for position in table.indices { counts.add(Item.status(table[position].summary), at: position) }
        return counts
    }

    /// The models folded from `count` generated events.
    static func folded(seed: UInt64, count: Int) throws -> ReadModel {
        var generator = LogGenerator(seed: seed)
        var model = ReadModel()
        for envelope in generator.events(count) { try Reducer.evolve(&model, envelope) }
        return model
    }

    static func encode(_ model: ReadModel) -> [UInt8] {
        SnapshotCodec.encode(model, latestRecordedAt: 7, logHash: EventHash.genesis)
    }

    @Test("decoding in chunks gives the whole model, for chunk sizes from 1 byte to more than the body", arguments: [1, 2, 16, 64, 4096, 1 << 20])
    func roundTrip(chunkSize: Int) throws {
        for model in try SnapshotCodecTests.generatedModels() {
            let body = Self.encode(model)
            let buffer = Self.chunked(body, chunkSize: chunkSize)
            let (header, decoded) = try SnapshotCodec.decode(buffer)
            #expect(header.latestRecordedAt == 7 && header.position == model.position)
            #expect(decoded == model)
            #expect(decoded.todos.counts == model.todos.counts && decoded.records.counts == model.records.counts)
            #expect(decoded.todos.damage() == nil && decoded.records.damage() == nil)
            #expect(!buffer.isPoisoned && Self.encode(decoded) == body, "re-encoding copies the items' bytes unchanged")
        }
    }

    @Test("an empty model, and a body that fills exactly one chunk or ends exactly at a chunk's end")
    func edges() throws {
        let empty = Self.encode(ReadModel())
        for chunkSize in [1, 4, 1 << 16] {
            let (_, model) = try SnapshotCodec.decode(Self.chunked(empty, chunkSize: chunkSize))
            #expect(model == ReadModel() && model.todos.counts == ItemCounts())
        }
        let body = Self.encode(try SnapshotCodecTests.generatedModels()[4])
        // The smallest power of two holding the body: one chunk; and 1 byte: every chunk ends a byte.
        let one = 1 << (Int.bitWidth - (body.count - 1).leadingZeroBitCount)
        #expect(SnapshotChunks.count(size: body.count, chunkSize: one) == 1)
        let buffer = Self.chunked(body, chunkSize: one)
        #expect(try SnapshotCodec.decode(buffer).model == (try SnapshotCodec.decode(body).model))
        #expect(buffer.chunksRead == 1)
        #expect(SnapshotChunks.count(size: 64, chunkSize: 16) == 4 && SnapshotChunks.count(size: 65, chunkSize: 16) == 5)
    }

    @Test("items straddling chunks decode whole; opening reads only the chunks of the frames, an item only its own")
    func onDemand() throws {
        let model = try Self.folded(seed: 31, count: 2_000)
        let body = Self.encode(model)
        let chunkSize = 256
        let chunks = SnapshotChunks.count(size: body.count, chunkSize: chunkSize)
        let buffer = Self.chunked(body, chunkSize: chunkSize)
        let (_, decoded) = try SnapshotCodec.decode(buffer)
        let opened = buffer.chunksRead
        // The header, each table's counts and frame, and the trailer (saved filters, series).
        #expect(opened * 4 < chunks, "opening read \(opened) of \(chunks) chunks")
        let last = decoded.todos.count - 1
        #expect(decoded.todo(at: last) == model.todo(at: last))
        #expect(buffer.chunksRead - opened <= 4, "one todo's offsets and item")
        #expect(decoded.todo(id: model.todo(at: 3).id) == model.todo(at: 3))
        for position in decoded.todos.indices { #expect(decoded.todo(at: position) == model.todo(at: position)) }
        #expect(decoded.todos.damage() == nil && !buffer.isPoisoned)
    }

    @Test("a chunk that fails its checksum when read late poisons the models: placeholders, never a trap; damage() names it")
    func lateDamage() throws {
        let model = try Self.folded(seed: 32, count: 1_500)
        var body = Self.encode(model)
        let chunkSize = 128
        let sums = SnapshotChunks.sums(body, chunkSize: chunkSize)
        // Find a chunk that opening does not read, then damage it on "disk".
        let probe = Self.chunked(body, chunkSize: chunkSize)
        _ = try SnapshotCodec.decode(probe)
        let untouched = try #require((0 ..< sums.count).reversed().first { !probe.isLoaded($0) && $0 * chunkSize > body.count / 2 })
        body[untouched * chunkSize] ^= 0x40
        let buffer = Self.chunked(body, chunkSize: chunkSize, sums: sums)
        let (_, decoded) = try SnapshotCodec.decode(buffer)
        #expect(!decoded.isPoisoned)
        // Reading everything reaches the damaged chunk: no trap, and the models say they are poisoned.
        for position in decoded.todos.indices { _ = decoded.todo(at: position) }
        for position in decoded.records.indices { _ = decoded.records[position] }
        _ = decoded.todos.idIndex
        #expect(decoded.isPoisoned && buffer.damagedChunk == untouched)
        #expect(decoded.todos.damage() != nil || decoded.records.damage() != nil)
        #expect(decoded.snapshotBuffer === buffer)
    }

    @Test("a chunk that cannot be read (gone, or of another length) poisons the buffer like a checksum mismatch")
    func unreadableChunk() throws {
        let body = Self.encode(try SnapshotCodecTests.generatedModels()[6])
        let buffer = SnapshotBuffer(count: body.count, chunkSize: 32, sums: SnapshotChunks.sums(body, chunkSize: 32)) { index, target in
            guard index != 1 else { return false }
            body.withUnsafeBytes { target.copyMemory(from: UnsafeRawBufferPointer(rebasing: $0[index * 32 ..< index * 32 + target.count])) }
            return true
        }
        buffer.touch(40, 1)
        #expect(buffer.isPoisoned && buffer.damagedChunk == 1)
        #expect(!buffer.loadAll())
        #expect(buffer.bytes[32 ..< 64].allSatisfy { $0 == 0 }, "a damaged chunk reads as zeros")
    }

    @Test("the stored counts follow every change: after a fold, and after a snapshot plus its tail")
    func counts() throws {
        for seed in UInt64(40)...45 {
            var generator = LogGenerator(seed: seed)
            let events = generator.events(400)
            var model = ReadModel()
            var fromSnapshot: ReadModel?
            for envelope in events {
                try Reducer.evolve(&model, envelope)
                if fromSnapshot != nil { try Reducer.evolve(&fromSnapshot!, envelope) }
                if envelope.seq == 150 { fromSnapshot = try SnapshotCodec.decode(Self.chunked(Self.encode(model), chunkSize: 64)).model }
                #expect(model.todos.counts == Self.recount(model.todos), "seed \(seed) at \(envelope.seq)")
            }
            let resumed = try #require(fromSnapshot)
            #expect(resumed == model)
            #expect(resumed.todos.counts == Self.recount(model.todos) && resumed.records.counts == Self.recount(model.records))
        }
    }

    @Test("the row's proof changes with any chunk checksum, the size or the chunk size; checksums round-trip")
    func proof() {
        let sums = SnapshotChunks.encode([1, 2, 3])
        #expect(SnapshotChunks.decode(sums) == [1, 2, 3] && SnapshotChunks.decode([1, 2, 3]) == nil)
        let base = SnapshotChunks.proof(sums: sums, size: 300, chunkSize: 128)
        #expect(base != SnapshotChunks.proof(sums: SnapshotChunks.encode([1, 2, 4]), size: 300, chunkSize: 128))
        #expect(base != SnapshotChunks.proof(sums: sums, size: 301, chunkSize: 128))
        #expect(base != SnapshotChunks.proof(sums: sums, size: 300, chunkSize: 256))
        #expect(base.count == 16)
    }
}
