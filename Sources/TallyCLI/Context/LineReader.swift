#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Reads a file (or standard input) line by line in large chunks, without copying lines.
final class LineReader {
    private let descriptor: Int32
    private let path: String
    private let ownsDescriptor: Bool
    /// Bytes read at a time; the buffer doubles when one line is longer.
    private let chunkSize: Int
    /// The longest line read; a longer one is refused (`LineTooLong`) before it is held whole.
    private let maxLineBytes: Int

    /// Opens `path` for reading; `-` is standard input.
    init(path: String, chunkSize: Int = 1 << 20, maxLineBytes: Int = .max) throws {
        self.path = path
        self.chunkSize = max(1, chunkSize)
        self.maxLineBytes = maxLineBytes
        if path == "-" {
            descriptor = 0
            ownsDescriptor = false
        } else {
            let fd = open(path, O_RDONLY)
            guard fd >= 0 else { throw CLIError.cannotOpenInput(path: path, reason: String(cString: strerror(errno))) }
            descriptor = fd
            ownsDescriptor = true
        }
    }

    deinit {
        if ownsDescriptor { close(descriptor) }
    }

    /// Everything left to read.
    func readAll() throws -> [UInt8] {
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: chunkSize)
        while true {
            let count = chunk.withUnsafeMutableBytes { raw in read(descriptor, raw.baseAddress!, raw.count) }
            if count < 0 {
                if errno == EINTR { continue }
                throw CLIError.cannotOpenInput(path: path, reason: String(cString: strerror(errno)))
            }
            if count == 0 { return bytes }
            bytes.append(contentsOf: chunk[0..<count])
        }
    }

    /// Calls `body` with each line (without `\n` or a trailing `\r`) and its 1-based number; a last line without `\n` counts.
    ///
    /// A line longer than the chunk is offered to `streaming` (with the part read so far) before the
    /// buffer grows for it: when that returns a `LinePieces`, the line is handed to it piece by piece
    /// (a trailing `\r` included) and then to `streamed` with its number and length, never held whole.
    /// - Complexity: O(bytes); memory O(chunk + longest line not streamed).
    /// Inlined, so that an import's per-line closure is too (it is called for every line of a large file).
    @inline(__always)
    func forEachLine(
        streaming: (UnsafeBufferPointer<UInt8>) throws -> LinePieces? = { _ in nil },
        streamed: (LinePieces, Int, Int) throws -> Void = { _, _, _ in },
        _ body: (UnsafeBufferPointer<UInt8>, Int) throws -> Void
    ) throws {
        var buffer = [UInt8](repeating: 0, count: chunkSize)
        var filled = 0
        var number = 0
        var atEnd = false
        // Where the search for the next newline resumes: a long line is not searched again from its start.
        var searched = 0
        while !atEnd {
            if filled == buffer.count {
                // The buffer holds one unfinished line (complete ones were moved out).
                if let pieces = try buffer.withUnsafeBufferPointer({ try streaming(UnsafeBufferPointer(rebasing: $0[0..<filled])) }) {
                    number += 1
                    let (length, ended) = try stream(into: pieces, buffer: &buffer, filled: &filled, line: number)
                    try streamed(pieces, number, length)
                    searched = 0
                    atEnd = ended
                    continue
                }
                guard filled <= maxLineBytes else { throw LineTooLong(line: number + 1, limit: maxLineBytes) }
                buffer.append(contentsOf: [UInt8](repeating: 0, count: min(buffer.count, max(maxLineBytes - buffer.count, chunkSize))))
            }
            let count = buffer.withUnsafeMutableBytes { raw in read(descriptor, raw.baseAddress! + filled, raw.count - filled) }
            if count < 0 {
                if errno == EINTR { continue }
                throw CLIError.cannotOpenInput(path: path, reason: String(cString: strerror(errno)))
            }
            atEnd = count == 0
            filled += count
            var start = 0
            try buffer.withUnsafeBufferPointer { bytes in
                let base = bytes.baseAddress!
                while start < filled {
                    let end: Int
                    let from = max(start, searched)
                    if let newline = memchr(base + from, 0x0A, filled - from) {
                        end = base.distance(to: newline.assumingMemoryBound(to: UInt8.self))
                    } else if atEnd {
                        end = filled
                    } else {
                        searched = filled
                        break
                    }
                    var stop = end
                    if stop > start, bytes[stop - 1] == 0x0D { stop -= 1 }
                    number += 1
                    try body(UnsafeBufferPointer(rebasing: bytes[start..<stop]), number)
                    start = end + 1
                }
            }
            start = min(start, filled)
            if start > 0 {
                buffer.withUnsafeMutableBufferPointer { bytes in
                    _ = memmove(bytes.baseAddress!, bytes.baseAddress! + start, filled - start)
                }
                filled -= start
                searched = max(searched - start, 0)
            }
        }
    }

    /// Hands the line that fills `buffer` to `pieces`, then reads on to its newline through the same
    /// buffer; leaves what follows the newline at the buffer's start. Returns the line's length
    /// (without the newline), and whether the input ended before a newline.
    private func stream(into pieces: LinePieces, buffer: inout [UInt8], filled: inout Int, line: Int) throws -> (Int, Bool) {
        var length = filled
        try buffer.withUnsafeBufferPointer { try pieces.append(UnsafeBufferPointer(rebasing: $0[0..<filled])) }
        while true {
            let count = buffer.withUnsafeMutableBytes { raw in read(descriptor, raw.baseAddress!, raw.count) }
            if count < 0 {
                if errno == EINTR { continue }
                throw CLIError.cannotOpenInput(path: path, reason: String(cString: strerror(errno)))
            }
            if count == 0 {
                filled = 0
                return (length, true)
            }
            let found: Int? = buffer.withUnsafeBytes { raw in
                memchr(raw.baseAddress!, 0x0A, count).map { raw.baseAddress!.distance(to: UnsafeRawPointer($0)) }
            }
            let end = found ?? count
            length += end
            guard length <= maxLineBytes else { throw LineTooLong(line: line, limit: maxLineBytes) }
            try buffer.withUnsafeBufferPointer { try pieces.append(UnsafeBufferPointer(rebasing: $0[0..<end])) }
            if found != nil {
                filled = count - end - 1
                buffer.withUnsafeMutableBufferPointer { bytes in
                    _ = memmove(bytes.baseAddress!, bytes.baseAddress! + end + 1, filled)
                }
                return (length, false)
            }
        }
    }
}

/// Takes a line too long to hold whole, a piece at a time.
protocol LinePieces: AnyObject {
    func append(_ piece: UnsafeBufferPointer<UInt8>) throws
}

/// A line longer than a reader takes: refused as soon as it is seen (exit 65).
struct LineTooLong: Error {
    var line: Int
    var limit: Int
}

/// A file written through a buffer; errors name the file.
final class FileOutput {
    private let descriptor: Int32
    private let path: String
    private var buffer: [UInt8] = []

    /// Creates or truncates `path`.
    init(path: String) throws {
        self.path = path
        let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        guard fd >= 0 else { throw CLIError.cannotWriteOutput(path: path, reason: String(cString: strerror(errno))) }
        descriptor = fd
        buffer.reserveCapacity(1 << 16)
    }

    deinit {
        close(descriptor)
    }

    /// Adds text to the file, writing it out once 64 KiB are buffered.
    func append(_ text: String) throws {
        buffer.append(contentsOf: text.utf8)
        if buffer.count >= 1 << 16 { try flush() }
    }

    /// Writes what is buffered and asks the system to put it on disk.
    func finish() throws {
        try flush()
        guard fsync(descriptor) == 0 else { throw CLIError.cannotWriteOutput(path: path, reason: String(cString: strerror(errno))) }
    }

    private func flush() throws {
        var offset = 0
        while offset < buffer.count {
            let written = buffer.withUnsafeBytes { raw in write(descriptor, raw.baseAddress! + offset, raw.count - offset) }
            if written < 0 {
                if errno == EINTR { continue }
                throw CLIError.cannotWriteOutput(path: path, reason: String(cString: strerror(errno)))
            }
            offset += written
        }
        buffer.removeAll(keepingCapacity: true)
    }
}
