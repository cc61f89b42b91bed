import CZlib

/// Why compressed bytes could not be inflated.
public struct GzipError: Error, Sendable, Equatable, CustomStringConvertible {
    public var reason: String

    /// The reason alone, so a message that interpolates the error reads as words, not a type dump.
    public var description: String { reason }
}

/// gzip (and zlib) decompression through the system zlib; the only module that links it.
public enum Gzip {
    /// True when `bytes` start with the gzip magic number.
    public static func isGzip(_ bytes: [UInt8]) -> Bool {
        bytes.count >= 2 && bytes[0] == 0x1F && bytes[1] == 0x8B
    }

    /// The decompressed content of a gzip stream (concatenated members are read in turn).
    ///
    /// Refuses to produce more than `limit` bytes, so a small "zip bomb" cannot fill memory.
    /// - Complexity: O(output).
    public static func decompress(_ bytes: [UInt8], limit: Int) throws(GzipError) -> [UInt8] {
        var output: [UInt8] = []
        output.reserveCapacity(min(limit, max(bytes.count * 4, 64 * 1024)))
        try decompressPieces(bytes, limit: limit) { output.append(contentsOf: $0) }
        return output
    }

    /// Calls `body` with the decompressed content a piece (at most 256 KiB) at a time, so it need
    /// not be held whole (hashing a stored file); the same checks and limit as `decompress`.
    /// - Complexity: O(output); memory O(1).
    public static func decompressPieces(_ bytes: [UInt8], limit: Int, _ body: (UnsafeBufferPointer<UInt8>) -> Void) throws(GzipError) {
        var stream = z_stream()
        // 15 window bits + 32: detect gzip or zlib headers automatically.
        guard inflateInit2_(&stream, 15 + 32, ZLIB_VERSION, Int32(MemoryLayout<z_stream>.size)) == Z_OK else {
            throw GzipError(reason: "zlib could not start")
        }
        defer { inflateEnd(&stream) }
        var total = 0
        var chunk = [UInt8](repeating: 0, count: 256 * 1024)
        // Read in place: zlib does not write to its input, and a mutable copy would double a large file.
        let input = bytes
        let inputCount = input.count
        var consumed = 0
        while true {
            let (status, used, produced) = input.withUnsafeBufferPointer { inputBuffer in
                chunk.withUnsafeMutableBufferPointer { chunkBuffer -> (Int32, Int, Int) in
                    stream.next_in = inputBuffer.baseAddress.map { UnsafeMutablePointer(mutating: $0 + consumed) }
                    stream.avail_in = UInt32(inputCount - consumed)
                    stream.next_out = chunkBuffer.baseAddress
                    stream.avail_out = UInt32(chunkBuffer.count)
                    let status = inflate(&stream, Z_NO_FLUSH)
                    return (status, inputCount - consumed - Int(stream.avail_in), chunkBuffer.count - Int(stream.avail_out))
                }
            }
            consumed += used
            total += produced
            if total > limit { throw GzipError(reason: "it expands to more than \(limit >> 20) MB") }
            chunk.withUnsafeBufferPointer { body(UnsafeBufferPointer(rebasing: $0[0..<produced])) }
            switch status {
            case Z_STREAM_END:
                // Another gzip member may follow (concatenated files).
                if consumed < inputCount, inputCount - consumed >= 2, input[consumed] == 0x1F, input[consumed + 1] == 0x8B {
                    inflateReset(&stream)
                    continue
                }
                return
            case Z_OK:
                if used == 0 && produced == 0 { throw GzipError(reason: "the compressed data is cut short") }
            case Z_BUF_ERROR:
                if consumed >= inputCount { throw GzipError(reason: "the compressed data is cut short") }
            default:
                throw GzipError(reason: "the compressed data is damaged")
            }
        }
    }

    /// `bytes` as one gzip member (for tests, benchmarks and tools that write `.gz` files).
    public static func compress(_ bytes: [UInt8], level: Int32 = 6) throws(GzipError) -> [UInt8] {
        var stream = z_stream()
        // 15 window bits + 16: write a gzip header and trailer.
        guard deflateInit2_(&stream, level, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY, ZLIB_VERSION, Int32(MemoryLayout<z_stream>.size)) == Z_OK else {
            throw GzipError(reason: "zlib could not start")
        }
        defer { deflateEnd(&stream) }
        var input = bytes
        var output = [UInt8](repeating: 0, count: Int(deflateBound(&stream, UInt(bytes.count))) + 32)
        let status = input.withUnsafeMutableBufferPointer { inputBuffer in
            output.withUnsafeMutableBufferPointer { outputBuffer -> Int32 in
                stream.next_in = inputBuffer.baseAddress
                stream.avail_in = UInt32(inputBuffer.count)
                stream.next_out = outputBuffer.baseAddress
                stream.avail_out = UInt32(outputBuffer.count)
                return deflate(&stream, Z_FINISH)
            }
        }
        guard status == Z_STREAM_END else { throw GzipError(reason: "zlib could not compress") }
        return Array(output.prefix(Int(stream.total_out)))
    }
}
