#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

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
