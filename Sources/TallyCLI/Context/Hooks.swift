#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import TallyEngine
import TallyDomain

/// Executables run around commands: `pre-command` gets a command's events before they are
/// appended and may refuse them; `post-commit` gets them after the commit. Both read the events
/// as JSON lines on standard input.
///
/// The directory is `TALLY_HOOKS`, else `DB.hooks` beside a database file (none for a server log
/// without `TALLY_HOOKS`). A hook runs only when it and its directory belong to this user (or
/// root) and nobody else may write them; one that does not finish within `TALLY_HOOK_TIMEOUT`
/// seconds (default 10) is killed with its process group. Events that `sync` pulls or `import`
/// appends do not run hooks.
struct Hooks {
    let directory: String
    let timeoutSeconds: Int32
    let location: String

    static let defaultTimeout: Int32 = 10
    static let maxTimeout: Int32 = 600
    /// The most of a hook's output that is kept (and shown when it refuses).
    static let maxOutput = 4096

    /// The hooks of this database, or nil when it has no hook directory.
    static func forContext(_ context: CLIContext) throws -> Hooks? {
        var timeout = defaultTimeout
        if let raw = ProcessEnvironment.value("TALLY_HOOK_TIMEOUT") {
            guard raw.utf8.count <= 4, raw.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }), let value = Int32(raw), (1...maxTimeout).contains(value) else {
                throw CLIError.invalidOptionValue(option: "TALLY_HOOK_TIMEOUT", value: raw, expected: context.catalog.text(.hookTimeoutExpected))
            }
            timeout = value
        }
        let directory: String
        if let given = ProcessEnvironment.value("TALLY_HOOKS"), !given.isEmpty {
            directory = given
        } else if case .file(let path) = context.settings.storeLocation {
            directory = path + ".hooks"
        } else {
            return nil
        }
        return Hooks(directory: directory, timeoutSeconds: timeout, location: context.settings.storeLocation.display)
    }

    /// What running one hook came to.
    enum Outcome: Equatable {
        /// There is no such hook.
        case absent
        /// It exited with this status; `output` is the start of what it wrote.
        case exited(Int32, output: String)
        /// A signal ended it (it crashed, or was killed by someone else).
        case signalled(Int32, output: String)
        /// It ran past the timeout and was killed.
        case timedOut(output: String)
        /// It exists but is not run: the reason.
        case unsafe(String)
        /// It could not be started.
        case failed(String)
    }

    /// Runs the hook `name` with `events` as JSON lines on its standard input.
    func run(_ name: String, _ events: [EventEnvelope]) -> Outcome {
        let path = directory + "/" + name
        var info = stat()
        guard lstat(path, &info) == 0 || errno != ENOENT else { return .absent }
        if let reason = Self.unsafeReason(directory: directory, file: path) { return .unsafe(reason) }
        var input: [UInt8] = []
        for event in events {
            input.append(contentsOf: JSONShapes.event(event).serialized(.compact).utf8)
            input.append(0x0A)
        }
        return spawn(path, name: name, input: input)
    }

    /// Why a hook must not run, or nil: the directory and the file (after symbolic links) must
    /// belong to this user or root and be writable by nobody else; the file must be a regular,
    /// executable file.
    static func unsafeReason(directory: String, file: String) -> String? {
        var folder = stat()
        guard stat(directory, &folder) == 0, (folder.st_mode & S_IFMT) == S_IFDIR else { return "\(directory) is not a directory" }
        var item = stat()
        guard stat(file, &item) == 0 else { return "\(file) cannot be read (\(String(cString: strerror(errno))))" }
        let me = geteuid()
        for (what, status) in [(directory, folder), (file, item)] {
            if status.st_uid != me && status.st_uid != 0 { return "\(what) belongs to another user" }
            if status.st_mode & (S_IWGRP | S_IWOTH) != 0 { return "\(what) may be written by other users" }
        }
        guard (item.st_mode & S_IFMT) == S_IFREG else { return "\(file) is not a regular file" }
        guard item.st_mode & S_IXUSR != 0 else { return "\(file) is not executable" }
        return nil
    }

    private func spawn(_ path: String, name: String, input: [UInt8]) -> Outcome {
        var stdinPipe: [Int32] = [0, 0]
        var outPipe: [Int32] = [0, 0]
        guard pipe(&stdinPipe) == 0 else { return .failed(String(cString: strerror(errno))) }
        guard pipe(&outPipe) == 0 else {
            close(stdinPipe[0]); close(stdinPipe[1])
            return .failed(String(cString: strerror(errno)))
        }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_adddup2(&actions, stdinPipe[0], 0)
        posix_spawn_file_actions_adddup2(&actions, outPipe[1], 1)
        posix_spawn_file_actions_adddup2(&actions, outPipe[1], 2)
        for descriptor in [stdinPipe[0], stdinPipe[1], outPipe[0], outPipe[1]] { posix_spawn_file_actions_addclose(&actions, descriptor) }
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETPGROUP))
        posix_spawnattr_setpgroup(&attributes, 0)
        var environment = ProcessEnvironment.current.map { "\($0.key)=\($0.value)" }
        environment += ["TALLY_HOOK=\(name)", "TALLY_HOOK_DB=\(location)"]
        var pid: pid_t = 0
        let argv: [UnsafeMutablePointer<CChar>?] = [strdup(path), nil]
        let envp: [UnsafeMutablePointer<CChar>?] = environment.map { strdup($0) } + [nil]
        defer { for pointer in argv + envp { free(pointer) } }
        let spawned = posix_spawn(&pid, path, &actions, &attributes, argv, envp)
        close(stdinPipe[0])
        close(outPipe[1])
        guard spawned == 0 else {
            close(stdinPipe[1]); close(outPipe[0])
            return .failed(String(cString: strerror(spawned)))
        }
        // A hook that does not read its input must not stop tally: no SIGPIPE, non-blocking writes.
        let previousPipe = signal(SIGPIPE, SIG_IGN)
        defer { signal(SIGPIPE, previousPipe) }
        _ = fcntl(stdinPipe[1], F_SETFL, fcntl(stdinPipe[1], F_GETFL) | O_NONBLOCK)
        _ = fcntl(outPipe[0], F_SETFL, fcntl(outPipe[0], F_GETFL) | O_NONBLOCK)
        var written = 0
        var writer: Int32 = stdinPipe[1]
        if input.isEmpty { close(writer); writer = -1 }
        var output: [UInt8] = []
        var reader: Int32 = outPipe[0]
        var status: Int32 = 0
        var exited = false
        var start = timespec()
        clock_gettime(CLOCK_MONOTONIC, &start)
        let deadline = Int64(start.tv_sec) * 1000 + Int64(start.tv_nsec) / 1_000_000 + Int64(timeoutSeconds) * 1000
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            if !exited, waitpid(pid, &status, WNOHANG) == pid { exited = true }
            if exited, reader < 0 || !drain(reader, &buffer, &output) { break }
            var now = timespec()
            clock_gettime(CLOCK_MONOTONIC, &now)
            let left = deadline - (Int64(now.tv_sec) * 1000 + Int64(now.tv_nsec) / 1_000_000)
            if left <= 0 {
                kill(-pid, SIGKILL)
                kill(pid, SIGKILL)
                if !exited { waitpid(pid, &status, 0) }
                if writer >= 0 { close(writer) }
                if reader >= 0 { close(reader) }
                return .timedOut(output: Self.text(output))
            }
            var fds: [pollfd] = []
            if writer >= 0 { fds.append(pollfd(fd: writer, events: Int16(POLLOUT), revents: 0)) }
            if reader >= 0 { fds.append(pollfd(fd: reader, events: Int16(POLLIN), revents: 0)) }
            _ = poll(&fds, nfds_t(fds.count), Int32(min(left, 50)))
            if writer >= 0 {
                let count = input.withUnsafeBytes { bytes in write(writer, bytes.baseAddress! + written, input.count - written) }
                if count > 0 { written += count }
                if written >= input.count || (count < 0 && errno != EAGAIN && errno != EINTR) {
                    close(writer)
                    writer = -1
                }
            }
            if reader >= 0, !drain(reader, &buffer, &output) {
                close(reader)
                reader = -1
            }
        }
        if writer >= 0 { close(writer) }
        if reader >= 0 { close(reader) }
        // The hook is gone; anything it left running in its group goes too.
        kill(-pid, SIGKILL)
        if status & 0x7f == 0 { return .exited((status >> 8) & 0xff, output: Self.text(output)) }
        return .signalled(status & 0x7f, output: Self.text(output))
    }

    /// Reads what is there; false at end of file or on an error, true while more may come.
    private func drain(_ descriptor: Int32, _ buffer: inout [UInt8], _ output: inout [UInt8]) -> Bool {
        while true {
            let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            if count > 0 {
                if output.count < Self.maxOutput { output.append(contentsOf: buffer[0..<min(count, Self.maxOutput - output.count)]) }
                continue
            }
            if count == 0 { return false }
            return errno == EAGAIN || errno == EINTR
        }
    }

    /// A hook's output as one escaped line of text.
    static func text(_ bytes: [UInt8]) -> String {
        var slice = bytes[...]
        while let first = slice.first, first == 0x20 || first == 0x0A || first == 0x0D || first == 0x09 { slice = slice.dropFirst() }
        while let last = slice.last, last == 0x20 || last == 0x0A || last == 0x0D || last == 0x09 { slice = slice.dropLast() }
        return TerminalText.escaped(String(decoding: slice, as: UTF8.self))
    }
}

/// The process environment, read once.
enum ProcessEnvironment {
    static let current: [String: String] = {
        var result: [String: String] = [:]
        var pointer = environ
        while let entry = pointer.pointee {
            let text = String(cString: entry)
            if let equals = text.firstIndex(of: "=") { result[String(text[..<equals])] = String(text[text.index(after: equals)...]) }
            pointer += 1
        }
        return result
    }()

    /// One variable, looked up without building `current`: every write command asks for the two
    /// hook settings, and the whole environment as a dictionary cost 2 % of an `add`.
    static func value(_ name: String) -> String? {
        getenv(name).map { String(cString: $0) }
    }
}

/// A `pre-command` hook refused the command, or could not be asked; nothing was appended.
struct HookRefusal: AuditFailure {
    var outcome: Hooks.Outcome
    var seconds: Int32

    func failure(catalog: Catalog) -> Failure {
        let message: String = switch outcome {
        case .exited(let status, let output):
            catalog.text(.hookRefused, ["status": String(status), "output": output.isEmpty ? "-" : output])
        case .signalled(let signal, let output):
            catalog.text(.hookCrashed, ["signal": String(signal), "output": output.isEmpty ? "-" : output])
        case .timedOut:
            catalog.text(.hookTimedOut, ["seconds": String(seconds)])
        case .unsafe(let reason):
            catalog.text(.hookUnsafe, ["reason": reason])
        case .failed(let reason):
            catalog.text(.hookNotStarted, ["reason": reason])
        case .absent:
            ""
        }
        return Failure(exit: .failure, code: "hook_refused", message: message)
    }
}

extension Hooks {
    /// Wires the hooks into a dispatcher: `pre-command` may refuse, `post-commit` only warns.
    func attach(to dispatcher: Dispatcher, _ context: CLIContext) {
        dispatcher.beforeAppend = { events in
            let outcome = self.run("pre-command", events)
            switch outcome {
            case .absent, .exited(0, _): return
            default: throw HookRefusal(outcome: outcome, seconds: self.timeoutSeconds)
            }
        }
        dispatcher.afterCommit = { [weak context] events in
            guard let context else { return }
            let outcome = self.run("post-commit", events)
            let catalog = context.catalog
            switch outcome {
            case .absent, .exited(0, _): return
            case .exited(let status, let output):
                context.warn(code: "hook_failed", catalog.text(.hookPostFailed, ["status": String(status), "output": output.isEmpty ? "-" : output]))
            case .signalled(let signal, let output):
                context.warn(code: "hook_failed", catalog.text(.hookPostCrashed, ["signal": String(signal), "output": output.isEmpty ? "-" : output]))
            case .timedOut:
                context.warn(code: "hook_failed", catalog.text(.hookPostTimedOut, ["seconds": String(self.timeoutSeconds)]))
            case .unsafe(let reason), .failed(let reason):
                context.warn(code: "hook_failed", catalog.text(.hookPostNotRun, ["reason": reason]))
            }
        }
    }
}
