#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The errors `LineReader.swift` throws, as the command-line module defines them.
enum CLIError: Error {
    case cannotOpenInput(path: String, reason: String)
    case cannotWriteOutput(path: String, reason: String)
}

/// Fuzzes the import line reader and the event-line decoder together.
///
/// The first byte picks the read chunk size (1-64 bytes, so lines cross chunk boundaries);
/// the rest is written to a file and read back line by line. The lines, joined with `\n`, must
/// give back the input (a `\r` before each `\n` aside), and every line must decode to an event or
/// throw `EventLineError`; a decoded event must survive encoding and decoding again.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzLines(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    guard size > 0 else { return 0 }
    let chunk = Int(data[0] % 64) + 1
    let input = Array(UnsafeBufferPointer(start: data + 1, count: size - 1))
    let path = "/tmp/tally-fuzz-lines-\(getpid())"
    let descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
    precondition(descriptor >= 0, "cannot create \(path)")
    _ = input.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
    close(descriptor)
    defer { unlink(path) }

    var lines: [[UInt8]] = []
    do {
        try LineReader(path: path, chunkSize: chunk).forEachLine { bytes, number in
            precondition(number == lines.count + 1, "line numbers are not consecutive")
            precondition(!bytes.contains(0x0A), "a line contains a newline")
            lines.append(Array(bytes))
            if let event = try? EventLines.decode(bytes) {
                var again = Array(EventLines.encode(event.envelope(seq: 1, previous: EventHash.genesis)).utf8)
                let decoded = again.withUnsafeMutableBufferPointer { try? EventLines.decode(UnsafeBufferPointer($0)) }
                precondition(decoded.map { $0.sameContent(as: event.envelope(seq: 1, previous: EventHash.genesis)) } == true, "an event line does not survive re-encoding")
            }
        }
    } catch {
        preconditionFailure("reading a regular file failed: \(error)")
    }
    // Rebuild the input: each line was followed by "\n" or "\r\n"; the last one may instead
    // end the file, with or without a "\r" (which the reader drops too).
    var rebuilt: [UInt8] = []
    var offset = 0
    for line in lines {
        rebuilt += line
        offset += line.count
        if offset < input.count, input[offset] == 0x0D, offset + 1 == input.count || input[offset + 1] == 0x0A {
            rebuilt.append(0x0D)
            offset += 1
        }
        if offset < input.count {
            precondition(input[offset] == 0x0A, "a line ends before a newline")
            rebuilt.append(0x0A)
            offset += 1
        }
    }
    precondition(rebuilt == input, "the lines do not give back the input")
    return 0
}
