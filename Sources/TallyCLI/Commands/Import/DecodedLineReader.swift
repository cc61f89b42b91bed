import Dispatch
import TallyEngine
import TallyDomain

/// Reads an export's lines, decodes them and computes their hash chain on a second thread, while the
/// caller's thread stores the events it already has (an import is bound by its CPU work; reading and
/// checking a line, and the chain, were half of it, and a machine with two cores can do it alongside).
///
/// The lines arrive in the file's order, in batches through a queue of at most `depth` batches, so
/// memory stays bounded whatever the file's size. Each line comes with its `EventLines.decode` (chained ahead), or
/// nil when it is blank, a blob line or does not decode: the caller decodes those itself, so an
/// error is made, and reported, at its line as before. A read error reaches the caller after the
/// lines read before it. When the caller stops early (an error, Ctrl-C), the reader stops at its
/// next batch.
final class DecodedLineReader: @unchecked Sendable {
    /// One run of consecutive lines: their bytes end to end, where each ends, and their decodes.
    private struct Batch: Sendable {
        var firstNumber = 1
        var bytes: [UInt8] = []
        var ends: [Int] = []
        var events: [PreparedEvent?] = []
        /// Blob lines too long to hold whole, read in pieces as they came: where each goes among the lines.
        var blobs: [StreamedBlob] = []
        /// A long blob line follows: the reading thread waits for `blobRoom` before decoding it.
        var blobFollows = false
        var failure: (any Error)?
        var last = false
    }

    /// A blob line decoded piece by piece on the reading thread, and where it was.
    struct StreamedBlob: Sendable {
        /// Its place among the batch's lines (before the line at this index).
        var index: Int
        var number: Int
        /// Its length in bytes.
        var length: Int
        var result: Result<BlobLineDecoder.Decoded, EventLineError>
    }

    private let reader: LineReader
    /// The log's head when the import began, where the reading thread starts the chain.
    private let head: LogHead
    private let depth: Int
    private let linesPerBatch: Int
    // The queue and `stopped` are guarded by `lock`; `free` counts empty places, `ready` full batches.
    private let lock = DispatchSemaphore(value: 1)
    private let free: DispatchSemaphore
    private let ready = DispatchSemaphore(value: 0)
    private var queue: [Batch] = []
    private var stopped = false
    /// Signalled by the caller's thread when it is done with the blobs it was given, so that only one
    /// long blob line is decoded, waiting or being stored at a time (each may hold 256 MB).
    private let blobRoom = DispatchSemaphore(value: 0)

    init(_ reader: LineReader, head: LogHead, depth: Int = 8, linesPerBatch: Int = 1_024) {
        self.reader = reader
        self.head = head
        self.depth = max(1, depth)
        self.linesPerBatch = max(1, linesPerBatch)
        // Made empty and then given its places: libdispatch stops the process when a semaphore is freed
        // below the value it was made with, which a queue left full by an early stop would be.
        free = DispatchSemaphore(value: 0)
        for _ in 0..<self.depth { free.signal() }
    }

    /// Calls `body` with each line (as `LineReader.forEachLine` gives it), its 1-based number and its
    /// decode, chained ahead from `head`, when the reading thread made one; and `blob`, in its place,
    /// with each blob line longer than the read buffer, decoded as it was read instead of held whole.
    ///
    /// `blobFollows` is called before a long blob line is decoded: the caller lets go of the blobs it
    /// holds (the next line is no event that names them).
    func forEachLine(
        blob: (StreamedBlob) throws -> Void,
        blobFollows: () -> Void,
        _ body: (UnsafeBufferPointer<UInt8>, Int, PreparedEvent?) throws -> Void
    ) throws {
        DispatchQueue.global(qos: .userInitiated).async { self.produce() }
        defer { stop() }
        while true {
            ready.wait()
            lock.wait()
            let batch = queue.removeFirst()
            lock.signal()
            free.signal()
            try batch.bytes.withUnsafeBufferPointer { all in
                var start = 0
                var streamed = 0
                for index in batch.ends.indices {
                    while streamed < batch.blobs.count, batch.blobs[streamed].index == index {
                        try blob(batch.blobs[streamed])
                        streamed += 1
                    }
                    let end = batch.ends[index]
                    try body(UnsafeBufferPointer(rebasing: all[start..<end]), batch.firstNumber + index, batch.events[index])
                    start = end
                }
                for streamedBlob in batch.blobs[streamed...] { try blob(streamedBlob) }
            }
            if batch.blobFollows {
                blobFollows()
                blobRoom.signal()
            }
            if let failure = batch.failure { throw failure }
            if batch.last { return }
        }
    }

    /// Tells the reading thread to stop, and wakes it if it waits for room.
    private func stop() {
        lock.wait()
        stopped = true
        lock.signal()
        free.signal()
        blobRoom.signal()
    }

    /// Runs on the reading thread: fills batches and queues them until the end, an error or `stop`.
    private func produce() {
        var batch = Batch()
        var chain = PreparedEvent.Chain(from: head)
        do {
            try reader.forEachLine(streaming: { start in
                guard BlobLines.isBlobLine(start) else { return nil }
                // The lines before it go first; the caller then lets go of the blob it holds.
                batch.blobFollows = true
                guard enqueue(batch) else { throw Stopped() }
                batch = Batch()
                blobRoom.wait()
                lock.wait()
                defer { lock.signal() }
                if stopped { throw Stopped() }
                return BlobPieces(expectedBytes: BlobLines.maxLineBytes / 4 * 3)
            }, streamed: { pieces, number, length in
                guard let pieces = pieces as? BlobPieces else { return }
                batch.blobs.append(StreamedBlob(index: batch.ends.count, number: number, length: length, result: pieces.finish()))
                // Sent at once: it is the only long blob line in flight (see `blobRoom`).
                guard enqueue(batch) else { throw Stopped() }
                batch = Batch()
            }) { bytes, number in
                if batch.ends.isEmpty { batch.firstNumber = number }
                batch.bytes.append(contentsOf: bytes)
                batch.ends.append(batch.bytes.count)
                batch.events.append(Self.decode(bytes).map { chain.prepare($0) })
                if batch.ends.count == linesPerBatch {
                    guard enqueue(batch) else { throw Stopped() }
                    batch = Batch()
                }
            }
            batch.last = true
        } catch is Stopped {
            return
        } catch {
            batch.failure = error
            batch.last = true
        }
        _ = enqueue(batch)
    }

    /// Queues `batch` when there is room; false once the caller has stopped.
    private func enqueue(_ batch: Batch) -> Bool {
        free.wait()
        lock.wait()
        defer { lock.signal() }
        if stopped { return false }
        queue.append(batch)
        ready.signal()
        return true
    }

    /// The line's event, or nil for the caller to handle (blank, a blob, or an error to report).
    private static func decode(_ bytes: UnsafeBufferPointer<UInt8>) -> ImportedEvent? {
        if bytes.allSatisfy({ $0 == 0x20 || $0 == 0x09 || $0 == 0x0D }) || BlobLines.isBlobLine(bytes) { return nil }
        return try? EventLines.decode(bytes)
    }

    private struct Stopped: Error {}
}

/// A blob line's pieces, decoded as they arrive; the first error is kept for the end.
private final class BlobPieces: LinePieces {
    private var decoder: BlobLineDecoder
    private var failure: EventLineError?

    init(expectedBytes: Int) {
        decoder = BlobLineDecoder(expectedBytes: expectedBytes)
    }

    func append(_ piece: UnsafeBufferPointer<UInt8>) {
        guard failure == nil else { return }
        do throws(EventLineError) {
            try decoder.append(piece)
        } catch {
            failure = error
        }
    }

    func finish() -> Result<BlobLineDecoder.Decoded, EventLineError> {
        if let failure { return .failure(failure) }
        return Result { () throws(EventLineError) in try decoder.finish() }
    }
}
