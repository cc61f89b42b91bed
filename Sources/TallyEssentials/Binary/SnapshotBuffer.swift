/// Reads chunk `index` of a stored snapshot body into the given bytes (exactly the chunk's length);
/// false when the chunk is gone or has another length.
public typealias SnapshotChunkReader = (_ index: Int, _ into: UnsafeMutableRawBufferPointer) throws -> Bool

/// The bytes of one snapshot body, read in place by `ItemTable`s.
///
/// A buffer either holds every byte from the start (`init(copying:)`, `init(count:fill:)`), or is
/// reserved at full size and filled **chunk by chunk on demand** (`init(count:chunkSize:sums:read:)`):
/// the memory is allocated untouched (the system gives pages only when they are written), and
/// the first access to a byte of a chunk reads that chunk from the store and checks it against its
/// checksum. So a command pays for the chunks it touches, not for the body.
///
/// A chunk of a snapshot that another process deleted or replaced meanwhile (it prunes to the
/// newest few, or stores one at the same position) cannot be read either: the buffer asks the store
/// (`gone`) whether the snapshot is still stored as it was opened, and when it is not, it is
/// `superseded` rather than damaged. It is poisoned all the same (its bytes are not there), but the
/// application starts over from the newest snapshot without warning about damage.
///
/// A chunk that cannot be read or fails its checksum **poisons** the buffer: its bytes read as
/// zeros (every reader of the buffer copes with any bytes without trapping), `damagedChunk` says
/// which one, and the application must not trust anything read from the buffer: it restarts the
/// command from a full replay before committing or printing (see `ReadModel.isPoisoned`). A value
/// in sound chunks that no fold of valid events can produce (a forged body with valid checksums)
/// poisons it the same way (`reject`, `forgery`).
///
/// Not thread-safe once chunks are read on demand: a model read from a snapshot belongs to one thread.
public final class SnapshotBuffer: @unchecked Sendable {
    /// Every byte of the body; a chunk's bytes are only valid after `touch` covered them.
    public let bytes: UnsafeRawBufferPointer
    private let storage: UnsafeMutableRawBufferPointer
    /// Bytes per chunk (a power of two); `count` for a buffer that holds everything.
    public let chunkSize: Int
    @usableFromInline let chunkShift: Int
    /// One flag per chunk: 1 once read (or found damaged).
    @usableFromInline let loaded: UnsafeMutableBufferPointer<UInt8>
    private let sums: [UInt64]
    private let read: SnapshotChunkReader?
    /// True once every chunk is present: `touch` is then one test. Unchecked: `touch`, inlined into
    /// other modules, reads it for every value, and only `load` (never re-entered) writes it.
    @exclusivity(unchecked) @usableFromInline var complete: Bool
    /// The first chunk that could not be read or failed its checksum; nil while the buffer is sound.
    public private(set) var damagedChunk: Int?
    /// Why a value read from sound chunks was refused (it does not decode, or is out of range); nil
    /// while every value read was one valid events can produce. Poisons the buffer like a damaged chunk.
    public private(set) var forgery: String?
    /// Chunks read from the store so far.
    public private(set) var chunksRead = 0
    /// True when a chunk could not be read because the snapshot is no longer stored as it was
    /// opened (another process pruned or replaced it): nothing is damaged, the bytes are just gone.
    public private(set) var superseded = false
    /// Whether the snapshot is no longer stored as it was opened; asked when a chunk fails.
    private let gone: (() -> Bool)?

    /// One allocation and one copy of `source`; the cost of a `memcpy`, not of decoding.
    public convenience init(copying source: UnsafeRawBufferPointer) {
        self.init(count: source.count) { target in
            if let base = source.baseAddress, source.count > 0 {
                target.baseAddress!.copyMemory(from: base, byteCount: source.count)
            }
        }
    }

    /// `count` bytes written by `fill`, which must initialise all of them.
    public init(count: Int, fill: (UnsafeMutableRawBufferPointer) throws -> Void) rethrows {
        storage = UnsafeMutableRawBufferPointer.allocate(byteCount: max(count, 1), alignment: 8)
        let filled = UnsafeMutableRawBufferPointer(rebasing: storage[0..<count])
        do {
            try fill(filled)
        } catch {
            storage.deallocate()
            throw error
        }
        bytes = UnsafeRawBufferPointer(filled)
        chunkSize = max(count, 1)
        chunkShift = 62
        loaded = UnsafeMutableBufferPointer<UInt8>.allocate(capacity: 0)
        sums = []
        read = nil
        gone = nil
        complete = true
    }

    /// A body of `count` bytes stored in chunks of `chunkSize` bytes (a power of two; the last chunk
    /// may be shorter), with the XXH64 of each chunk in `sums`. Nothing is read until touched.
    /// `gone` tells a snapshot deleted or replaced since it was opened from a damaged one.
    public init(count: Int, chunkSize: Int, sums: [UInt64], read: @escaping SnapshotChunkReader, gone: (() -> Bool)? = nil) {
        precondition(chunkSize > 0 && chunkSize & (chunkSize - 1) == 0, "the chunk size is a power of two")
        precondition(sums.count == SnapshotChunks.count(size: count, chunkSize: chunkSize), "one checksum per chunk")
        storage = UnsafeMutableRawBufferPointer.allocate(byteCount: max(count, 1), alignment: 8)
        bytes = UnsafeRawBufferPointer(rebasing: UnsafeRawBufferPointer(storage)[0..<count])
        self.chunkSize = chunkSize
        chunkShift = chunkSize.trailingZeroBitCount
        loaded = UnsafeMutableBufferPointer<UInt8>.allocate(capacity: sums.count)
        loaded.initialize(repeating: 0)
        self.sums = sums
        self.read = read
        self.gone = gone
        complete = sums.isEmpty
    }

    deinit {
        storage.deallocate()
        loaded.deallocate()
    }

    /// The byte count of the body.
    public var count: Int { bytes.count }

    /// True when a chunk could not be read or did not match its checksum, or a value read was refused.
    public var isPoisoned: Bool { damagedChunk != nil || forgery != nil }

    /// Refuses the body: a value read from it cannot have been written by a fold of valid events.
    /// Nothing read from the buffer may be trusted any more (the first reason is kept). Not after a
    /// chunk failed: the zeros it reads as would be refused for that reason, not for their own.
    public func reject(_ reason: String) {
        if forgery == nil && damagedChunk == nil { forgery = reason }
    }

    /// Makes the bytes `offset ..< offset + length` present, reading the chunks they lie in.
    /// - Complexity: O(1) when they are present; otherwise a read and a checksum of each missing chunk.
    /// Inlinable: the snapshot readers of TallyDomain call it for every value they read, and a call
    /// across the module boundary for the test of a present chunk cost as much as the read itself.
    @inlinable @inline(__always)
    public func touch(_ offset: Int, _ length: Int) {
        if complete { return }
        let first = offset >> chunkShift
        if length <= 1 || (offset + length - 1) >> chunkShift == first, first < loaded.count, loaded[first] != 0 { return }
        load(offset, length)
    }

    /// Whether chunk `index` has been read (or holds every byte from the start).
    public func isLoaded(_ index: Int) -> Bool {
        read == nil || (index < loaded.count && loaded[index] != 0)
    }

    /// Reads every chunk not read yet; true when the whole body is sound.
    @discardableResult
    public func loadAll() -> Bool {
        touch(0, count)
        return !isPoisoned
    }

    @usableFromInline
    func load(_ offset: Int, _ length: Int) {
        guard count > 0, offset < count else { return }
        let end = min(count, offset + max(length, 1))
        let first = max(0, offset) >> chunkShift
        let last = (end - 1) >> chunkShift
        for chunk in first...last where loaded[chunk] == 0 {
            loaded[chunk] = 1
            let start = chunk << chunkShift
            let target = UnsafeMutableRawBufferPointer(rebasing: storage[start ..< min(count, start + chunkSize)])
            let sound = ((try? read?(chunk, target)) ?? false) && XXHash64.hash(UnsafeRawBufferPointer(target)) == sums[chunk]
            chunksRead += 1
            if !sound {
                // Safe placeholder bytes: every reader copes with zeros (they decode to nothing or fail a check).
                target.initializeMemory(as: UInt8.self, repeating: 0)
                if damagedChunk == nil {
                    damagedChunk = chunk
                    superseded = gone?() ?? false
                }
            }
        }
        if chunksRead == loaded.count { complete = true }
    }
}

/// How a body is cut into chunks, and the checksum that proves all of them.
public enum SnapshotChunks {
    /// The chunk size snapshots are written with: a command reads a few 16 KiB chunks, not the body.
    /// (A lookup by id touches about log2(index chunks) of them, so smaller chunks cost less per
    /// command; 16 KiB keeps the chunk table at 6,700 rows and its checksums at 54 KB for 1M todos.)
    public static let standardSize = 1 << 14

    /// The chunk sizes a stored body may have (powers of two).
    public static let sizes = 1 << 6 ... 1 << 24

    /// The largest body a snapshot may have (32 GiB; a million todos take about 110 MB).
    public static let largestBody = 1 << 35

    /// How many chunks a body of `size` bytes has.
    public static func count(size: Int, chunkSize: Int) -> Int {
        (size + chunkSize - 1) / chunkSize
    }

    /// The XXH64 of each chunk of `body`.
    public static func sums(_ body: [UInt8], chunkSize: Int) -> [UInt64] {
        body.withUnsafeBytes { bytes in
            stride(from: 0, to: bytes.count, by: chunkSize).map { start in
                XXHash64.hash(UnsafeRawBufferPointer(rebasing: bytes[start ..< min(bytes.count, start + chunkSize)]))
            }
        }
    }

    /// The chunk checksums as stored next to the snapshot: 8 little-endian bytes each.
    public static func encode(_ sums: [UInt64]) -> [UInt8] {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(sums.count * 8)
        for sum in sums { withUnsafeBytes(of: sum.littleEndian) { bytes.append(contentsOf: $0) } }
        return bytes
    }

    /// Reads what `encode` wrote; nil when the length is not a multiple of 8.
    public static func decode(_ bytes: [UInt8]) -> [UInt64]? {
        guard bytes.count % 8 == 0 else { return nil }
        return bytes.withUnsafeBytes { raw in
            (0 ..< raw.count / 8).map { UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: $0 * 8, as: UInt64.self)) }
        }
    }

    /// The checksum stored in the snapshot's row: XXH64 over the chunk checksums, the body's size
    /// and the chunk size, so the row proves every chunk without reading one.
    public static func proof(sums: [UInt8], size: Int, chunkSize: Int) -> String {
        var bytes = sums
        withUnsafeBytes(of: Int64(size).littleEndian) { bytes.append(contentsOf: $0) }
        withUnsafeBytes(of: Int64(chunkSize).littleEndian) { bytes.append(contentsOf: $0) }
        return bytes.withUnsafeBytes { XXHash64.hex($0) }
    }
}
