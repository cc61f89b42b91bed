/// The bytes of one snapshot body, copied once out of the store and read in place by `ItemTable`s.
///
/// Immutable after creation, so sharing it between values (and threads) is safe.
public final class SnapshotBuffer: @unchecked Sendable {
    public let bytes: UnsafeRawBufferPointer
    private let storage: UnsafeMutableRawBufferPointer

    /// One allocation and one copy of `source`; the cost of a `memcpy`, not of decoding.
    public init(copying source: UnsafeRawBufferPointer) {
        storage = UnsafeMutableRawBufferPointer.allocate(byteCount: max(source.count, 1), alignment: 8)
        if let base = source.baseAddress, source.count > 0 {
            storage.baseAddress!.copyMemory(from: base, byteCount: source.count)
        }
        bytes = UnsafeRawBufferPointer(rebasing: UnsafeRawBufferPointer(storage)[0..<source.count])
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
    }

    deinit {
        storage.deallocate()
    }
}
