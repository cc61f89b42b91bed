import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Runs the built `tally` on a real pseudo-terminal of a chosen size, as its controlling terminal
/// (through `setsid --ctty`), so standard output and error are terminals, the size comes from the
/// terminal and Ctrl-C typed on it interrupts the command. Linux only (util-linux `setsid`).
final class PseudoTerminal: @unchecked Sendable {
    static let setsid = "/usr/bin/setsid"
    /// Whether this machine can give a test a pseudo-terminal (a container may lack `/dev/pts`).
    static var isAvailable: Bool {
        guard FileManager.default.isExecutableFile(atPath: setsid) else { return false }
        let master = open("/dev/ptmx", O_RDWR | O_NOCTTY)
        guard master >= 0 else { return false }
        defer { close(master) }
        var unlock: Int32 = 0
        var number: UInt32 = 0
        return ioctl(master, unlockRequest, &unlock) == 0 && ioctl(master, numberRequest, &number) == 0
            && FileManager.default.fileExists(atPath: "/dev/pts/\(number)")
    }
    /// `TIOCSPTLCK` and `TIOCGPTN` (Linux).
    static let unlockRequest: UInt = 0x4004_5431
    static let numberRequest: UInt = 0x8004_5430

    let master: Int32
    private let slave: Int32
    private let process = Process()
    private let lock = NSLock()
    private var bytes: [UInt8] = []
    private let drained = DispatchSemaphore(value: 0)

    /// Starts `tally arguments` on a terminal `columns` wide and 24 rows high.
    init(columns: Int, _ arguments: [String], environment: [String: String]) throws {
        // posix_openpt and friends are not in the Glibc module: open the multiplexer, unlock the
        // terminal and ask its number with the Linux ioctls they are built on.
        master = open("/dev/ptmx", O_RDWR | O_NOCTTY)
        var unlock: Int32 = 0
        var number: UInt32 = 0
        guard master >= 0, ioctl(master, Self.unlockRequest, &unlock) == 0, ioctl(master, Self.numberRequest, &number) == 0 else {
            throw POSIXError(.ENOTTY)
        }
        let name = "/dev/pts/\(number)"
        var size = winsize(ws_row: 24, ws_col: UInt16(columns), ws_xpixel: 0, ws_ypixel: 0)
        _ = ioctl(master, UInt(TIOCSWINSZ), &size)
        slave = open(name, O_RDWR | O_NOCTTY)
        guard slave >= 0 else { throw POSIXError(.ENOTTY) }
        let terminal = FileHandle(fileDescriptor: slave, closeOnDealloc: false)
        process.executableURL = URL(fileURLWithPath: Self.setsid)
        process.arguments = ["--ctty", "--wait", TallyRunner.binary.path] + arguments
        process.environment = environment
        process.standardInput = terminal
        process.standardOutput = terminal
        process.standardError = terminal
        try process.run()
        close(slave)
        let master = master
        Thread.detachNewThread { [self] in
            var buffer = [UInt8](repeating: 0, count: 4096)
            while true {
                let count = read(master, &buffer, buffer.count)
                if count > 0 {
                    lock.lock()
                    bytes.append(contentsOf: buffer[0..<count])
                    lock.unlock()
                } else if count < 0 && errno == EINTR {
                    continue
                } else {
                    break
                }
            }
            drained.signal()
        }
    }

    deinit {
        close(master)
    }

    /// Everything the terminal received so far.
    var output: [UInt8] {
        lock.lock()
        defer { lock.unlock() }
        return bytes
    }

    /// Types `text` on the terminal (`"\u{03}"` is Ctrl-C).
    func type(_ text: String) {
        _ = text.utf8CString.withUnsafeBufferPointer { write(master, $0.baseAddress!, $0.count - 1) }
    }

    /// Waits until the output contains `needle`, at most `seconds`; true when it appeared.
    func waitFor(_ needle: String, seconds: Double) -> Bool {
        let deadline = Date().addingTimeInterval(seconds)
        while Date() < deadline {
            if String(decoding: output, as: UTF8.self).contains(needle) { return true }
            usleep(2_000)
        }
        return false
    }

    /// Waits for the command to end and its output to be read; returns its exit status.
    func finish() -> Int32 {
        process.waitUntilExit()
        _ = drained.wait(timeout: .now() + 10)
        return process.terminationStatus
    }

    /// Runs `tally arguments` to the end and returns the screen it leaves and its status.
    static func run(columns: Int, _ arguments: [String], environment: [String: String]) throws -> (screen: VirtualScreen, status: Int32) {
        let terminal = try PseudoTerminal(columns: columns, arguments, environment: environment)
        let status = terminal.finish()
        var screen = VirtualScreen(columns: columns)
        screen.feed(terminal.output)
        return (screen, status)
    }
}

/// A terminal screen just precise enough to see what a program leaves on it: printable
/// characters with auto-wrap at the right margin, carriage return, line feed, and erase to the
/// end of the line (`ESC [ K`); other escape sequences (colors) are read and ignored.
struct VirtualScreen {
    let columns: Int
    private(set) var rows: [[Character]] = [[]]
    private var row = 0
    private var column = 0
    /// The cursor sits after the last column; the next character goes on a new line.
    private var pendingWrap = false
    /// How many times output ran past the right margin (0 when no line was wider than the terminal).
    private(set) var wraps = 0

    init(columns: Int) {
        self.columns = columns
    }

    /// The screen's lines with trailing spaces removed, empty lines at the end dropped.
    var lines: [String] {
        var lines = rows.map { String($0).replacingOccurrences(of: "\u{0}", with: " ") }
            .map { line in String(line.reversed().drop { $0 == " " }.reversed()) }
        while lines.last == "" { lines.removeLast() }
        return lines
    }

    mutating func feed(_ bytes: [UInt8]) {
        let text = String(decoding: bytes, as: UTF8.self)
        var iterator = text.unicodeScalars.makeIterator()
        while let scalar = iterator.next() {
            switch scalar {
            case "\r":
                column = 0
                pendingWrap = false
            case "\n":
                newLine()
                pendingWrap = false
            case "\u{1B}":
                guard let next = iterator.next() else { return }
                if next == "[" {
                    var parameters = ""
                    while let part = iterator.next() {
                        if (0x40...0x7E).contains(part.value) {
                            if part == "K" { eraseToEnd(parameters) }
                            break
                        }
                        parameters.unicodeScalars.append(part)
                    }
                }
            case "\u{07}", "\u{08}":
                if scalar == "\u{08}", column > 0 { column -= 1 }
            default:
                guard scalar.value >= 0x20 else { continue }
                put(Character(scalar))
            }
        }
    }

    private mutating func newLine() {
        row += 1
        while rows.count <= row { rows.append([]) }
    }

    private mutating func put(_ character: Character) {
        if pendingWrap {
            wraps += 1
            newLine()
            column = 0
            pendingWrap = false
        }
        while rows[row].count <= column { rows[row].append(" ") }
        rows[row][column] = character
        if column == columns - 1 {
            pendingWrap = true
        } else {
            column += 1
        }
    }

    private mutating func eraseToEnd(_ parameters: String) {
        guard parameters.isEmpty || parameters == "0" else { return }
        if rows[row].count > column { rows[row].removeSubrange(column...) }
    }
}
