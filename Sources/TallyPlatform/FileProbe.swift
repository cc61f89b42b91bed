#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import TallyEssentials

/// What is at a path, from `stat` (symbolic links followed), the same on Linux and macOS.
public enum FileProbe {
    /// Whether `path` is a directory; nil when nothing is there.
    public static func isDirectory(_ path: String) -> Bool? {
        var status = stat()
        guard stat(path, &status) == 0 else { return nil }
        return status.st_mode & S_IFMT == S_IFDIR
    }

    /// The size in bytes of the file at `path`; 0 when there is none.
    public static func size(_ path: String) -> Int {
        var status = stat()
        guard stat(path, &status) == 0 else { return 0 }
        return Int(status.st_size)
    }
}

/// Why a file could not be read.
public enum FileReadProblem: Error, Sendable, Equatable {
    /// Nothing is there.
    case missing
    /// The name (an absolute path, a `..`, or a symbolic link on the way) leads out of the folder.
    case outsideFolder
    /// It is there but may not be read (permissions), or reading it failed: the system's reason.
    case unreadable(String)
    /// A directory, a device, a pipe: not a file.
    case notAFile
    /// Larger than the limit given.
    case tooLarge
}

/// Reads files by a name relative to a folder without ever leaving that folder, and files named
/// outright, with a size limit, from one open descriptor (what is checked is what is read).
public enum ContainedFile {
    /// The bytes of the regular file at `path` (symbolic links followed: the user named it).
    public static func contents(of path: String, limit: Int) -> Result<[UInt8], FileReadProblem> {
        let descriptor = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
        guard descriptor >= 0 else { return .failure(problem(errno)) }
        defer { close(descriptor) }
        return contents(descriptor, limit: limit)
    }

    /// The bytes of the regular file `name` names inside `folder`.
    ///
    /// An absolute name, a `..` component, or a symbolic link (the file or a directory on the way)
    /// whose target is outside `folder` (its real path) is `.outsideFolder`. The folder is walked
    /// with `openat` and `O_NOFOLLOW`, one component at a time, so a link swapped in while tally
    /// reads cannot lead it out either: a link met on the way is resolved once with `realpath`,
    /// checked, and the resolved path walked again, where any link is refused.
    public static func contents(of name: String, inside folder: String, limit: Int) -> Result<[UInt8], FileReadProblem> {
        descriptor(name, inside: folder).flatMap { descriptor in
            defer { close(descriptor) }
            return contents(descriptor, limit: limit)
        }
    }

    /// The size of the file `contents(of: name, inside: folder)` would read; 0 when it would not read one.
    public static func size(_ name: String, inside folder: String) -> Int {
        guard case .success(let descriptor) = descriptor(name, inside: folder) else { return 0 }
        defer { close(descriptor) }
        var status = stat()
        return fstat(descriptor, &status) == 0 ? Int(status.st_size) : 0
    }

    /// An open descriptor for `name` inside `folder` (see `contents(of:inside:limit:)`).
    public static func descriptor(_ name: String, inside folder: String) -> Result<Int32, FileReadProblem> {
        guard !name.hasPrefix("/") else { return .failure(.outsideFolder) }
        let parts = name.split(separator: "/").filter { $0 != "." }.map(String.init)
        guard !parts.isEmpty else { return .failure(.notAFile) }
        guard !parts.contains("..") else { return .failure(.outsideFolder) }
        switch walk(parts, from: folder) {
        case .success(let descriptor):
            return .success(descriptor)
        case .failure(.outsideFolder):
            // A symbolic link on the way: follow it only when it stays inside the folder.
            guard let root = realPath(folder), let target = realPath(PathText.appending(folder, name)) else {
                return .failure(.missing)
            }
            let prefix = root == "/" ? "/" : root + "/"
            guard target.hasPrefix(prefix) else { return .failure(.outsideFolder) }
            return walk(String(target.dropFirst(prefix.count)).split(separator: "/").map(String.init), from: root)
        case .failure(let problem):
            return .failure(problem)
        }
    }

    /// Opens `parts` one by one from `folder`, refusing symbolic links (`.outsideFolder`).
    private static func walk(_ parts: [String], from folder: String) -> Result<Int32, FileReadProblem> {
        var directory = open(folder, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard directory >= 0 else { return .failure(problem(errno)) }
        for (index, part) in parts.enumerated() {
            let last = index == parts.count - 1
            let descriptor = openat(directory, part, O_RDONLY | O_NOFOLLOW | O_CLOEXEC | (last ? O_NONBLOCK : O_DIRECTORY))
            let failure = errno
            close(directory)
            guard descriptor >= 0 else {
                if failure == ELOOP || isLink(parts[0...index], from: folder) { return .failure(.outsideFolder) }
                return .failure(failure == ENOTDIR ? .missing : problem(failure))
            }
            directory = descriptor
        }
        return .success(directory)
    }

    /// Whether the path of `parts` from `folder` is a symbolic link (`O_NOFOLLOW | O_DIRECTORY` on a
    /// link to a directory fails with ENOTDIR on some systems, not ELOOP).
    private static func isLink(_ parts: ArraySlice<String>, from folder: String) -> Bool {
        var status = stat()
        return lstat(PathText.appending(folder, parts.joined(separator: "/")), &status) == 0 && status.st_mode & S_IFMT == S_IFLNK
    }

    private static func realPath(_ path: String) -> String? {
        guard let resolved = realpath(path, nil) else { return nil }
        defer { free(resolved) }
        return String(cString: resolved)
    }

    /// Reads a regular file of at most `limit` bytes from `descriptor`.
    private static func contents(_ descriptor: Int32, limit: Int) -> Result<[UInt8], FileReadProblem> {
        var status = stat()
        guard fstat(descriptor, &status) == 0 else { return .failure(problem(errno)) }
        guard status.st_mode & S_IFMT == S_IFREG else { return .failure(.notAFile) }
        guard status.st_size <= limit else { return .failure(.tooLarge) }
        var bytes = [UInt8](repeating: 0, count: Int(status.st_size) + 1)
        var filled = 0
        while true {
            if filled == bytes.count {
                guard bytes.count <= limit else { return .failure(.tooLarge) }
                bytes.append(contentsOf: repeatElement(0, count: min(bytes.count, limit + 1 - bytes.count + 1)))
            }
            let count = bytes.withUnsafeMutableBytes { raw in read(descriptor, raw.baseAddress! + filled, raw.count - filled) }
            if count < 0 {
                if errno == EINTR { continue }
                return .failure(problem(errno))
            }
            if count == 0 { break }
            filled += count
        }
        guard filled <= limit else { return .failure(.tooLarge) }
        bytes.removeSubrange(filled...)
        return .success(bytes)
    }

    private static func problem(_ code: Int32) -> FileReadProblem {
        switch code {
        case ENOENT, ENOTDIR: .missing
        case EISDIR: .notAFile
        default: .unreadable(String(cString: strerror(code)))
        }
    }
}
