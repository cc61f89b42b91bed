import Dispatch
import TallyApp
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
        var failure: (any Error)?
        var last = false
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
    /// decode, chained ahead from `head`, when the reading thread made one.
    func forEachLine(_ body: (UnsafeBufferPointer<UInt8>, Int, PreparedEvent?) throws -> Void) throws {
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
                for index in batch.ends.indices {
                    let end = batch.ends[index]
                    try body(UnsafeBufferPointer(rebasing: all[start..<end]), batch.firstNumber + index, batch.events[index])
                    start = end
                }
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
    }

    /// Runs on the reading thread: fills batches and queues them until the end, an error or `stop`.
    private func produce() {
        var batch = Batch()
        var chain = PreparedEvent.Chain(from: head)
        do {
            try reader.forEachLine { bytes, number in
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
