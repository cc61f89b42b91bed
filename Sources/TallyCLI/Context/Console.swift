#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Where output goes: buffered standard output and error, written with `write(2)`.
final class Console {
    private var outBuffer: [UInt8] = []
    private var errBuffer: [UInt8] = []
    let stdoutIsTerminal: Bool
    let stderrIsTerminal: Bool
    /// While true, standard output is written only by an explicit `flush()`, never because the
    /// buffer grew: a command reading a snapshot chunk by chunk may still have to start over.
    var holdOutput = false

    init() {
        stdoutIsTerminal = isatty(1) == 1
        stderrIsTerminal = isatty(2) == 1
    }

    /// Appends a line (a newline is added) to standard output. Like everything written here but a
    /// progress bar, it is checked by `TerminalText.safeLine`: no control character reaches the terminal raw.
    func line(_ text: String = "") {
        // Appended as it is, then the newline: `text + "\n"` would copy a whole table once more.
        outBuffer.append(contentsOf: TerminalText.safeLine(text).utf8)
        outBuffer.append(0x0A)
        if outBuffer.count >= 1 << 16, !holdOutput { flushOut() }
    }

    /// Appends text to standard output, flushing when the buffer grows large.
    func out(_ text: String) {
        outBuffer.append(contentsOf: TerminalText.safeLine(text).utf8)
        if outBuffer.count >= 1 << 16, !holdOutput { flushOut() }
    }

    /// Appends a file format's own text to standard output as it is (`export --ical`: its CRLF line
    /// ends belong to the format). The text must already be free of other control characters.
    func raw(_ text: String) {
        outBuffer.append(contentsOf: text.utf8)
        if outBuffer.count >= 1 << 16, !holdOutput { flushOut() }
    }

    /// Drops the standard output not written yet (a command that starts over prints it again).
    func discardOutput() {
        outBuffer.removeAll(keepingCapacity: true)
    }

    /// Appends a line to standard error.
    func errorLine(_ text: String) {
        errBuffer.append(contentsOf: TerminalText.safeLine(text).utf8)
        errBuffer.append(0x0A)
        flushErr()
    }

    /// Writes raw text to standard error at once (progress bars).
    func errorRaw(_ text: String) {
        errBuffer.append(contentsOf: text.utf8)
        flushErr()
    }

    func flush() {
        flushOut()
        flushErr()
    }

    private func flushOut() {
        Self.writeAll(1, outBuffer)
        outBuffer.removeAll(keepingCapacity: true)
    }

    private func flushErr() {
        Self.writeAll(2, errBuffer)
        errBuffer.removeAll(keepingCapacity: true)
    }

    private static func writeAll(_ fd: Int32, _ bytes: [UInt8]) {
        bytes.withUnsafeBytes { buffer in
            var offset = 0
            while offset < buffer.count {
                let written = write(fd, buffer.baseAddress! + offset, buffer.count - offset)
                if written < 0 {
                    if errno == EINTR { continue }
                    return
                }
                offset += written
            }
        }
    }
}
