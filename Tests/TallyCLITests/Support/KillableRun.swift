import Foundation

/// One run of the built `tally` that is sent SIGKILL after a chosen delay, unless it ends first.
struct KillableRun {
    /// How the process ended.
    enum End: Equatable {
        /// It exited on its own with this status before the kill.
        case exited(Int32)
        /// SIGKILL ended it.
        case killed
        /// Another signal ended it: the process crashed on its own.
        case signalled(Int32)
    }

    var end: End
    /// What it wrote to standard error (empty when killed before writing anything).
    var stderr: String
    /// Seconds from the start to the end of the process.
    var seconds: Double

    /// Runs `tally arguments` with the runner's environment and kills it `delay` seconds after it started
    /// (never, when nil). Standard output is discarded; standard error goes through a file.
    static func run(_ tally: TallyRunner, _ arguments: [String], killAfter delay: Double?) -> KillableRun {
        let errorPath = tally.directory.path("killable.stderr")
        _ = FileManager.default.createFile(atPath: errorPath, contents: nil)
        let errorFile = FileHandle(forWritingAtPath: errorPath)!
        defer { try? errorFile.close() }
        let process = Process()
        process.executableURL = TallyRunner.binary
        process.arguments = arguments
        process.environment = tally.environment
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = FileHandle.nullDevice
        process.standardError = errorFile
        let exited = DispatchSemaphore(value: 0)
        process.terminationHandler = { _ in exited.signal() }
        let started = DispatchTime.now()
        do {
            try process.run()
        } catch {
            return KillableRun(end: .exited(-1), stderr: "cannot run \(TallyRunner.binary.path): \(error)", seconds: 0)
        }
        if let delay, exited.wait(timeout: started + delay) == .timedOut {
            // A process that exits meanwhile is a zombie until it is reaped: the signal is harmless.
            kill(process.processIdentifier, SIGKILL)
            exited.wait()
        } else if delay == nil {
            exited.wait()
        }
        let seconds = Double(DispatchTime.now().uptimeNanoseconds - started.uptimeNanoseconds) / 1e9
        process.waitUntilExit()
        let status = process.terminationStatus
        let end: End = switch process.terminationReason {
        case .uncaughtSignal: status == SIGKILL ? .killed : .signalled(status)
        default: .exited(status)
        }
        let stderr = (try? String(contentsOfFile: errorPath, encoding: .utf8)) ?? ""
        return KillableRun(end: end, stderr: stderr, seconds: seconds)
    }
}
