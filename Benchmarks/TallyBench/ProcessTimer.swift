#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Wall time and peak memory of one child process.
struct ProcessSample {
    var seconds: Double
    /// Peak resident set size in bytes (from `wait4`'s rusage).
    var peakBytes: Int64
    var status: Int32
}

/// Runs a program with stdout and stderr sent to /dev/null and measures it.
enum ProcessTimer {
    /// Spawns `program` with `arguments` and waits for it.
    static func run(_ program: String, _ arguments: [String], environment: [String: String]) -> ProcessSample {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
        let argv = ([program] + arguments).map { strdup($0) } + [nil]
        let envp = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer {
            argv.forEach { free($0) }
            envp.forEach { free($0) }
        }
        var pid: pid_t = 0
        let start = now()
        guard posix_spawn(&pid, program, &actions, nil, argv, envp) == 0 else {
            return ProcessSample(seconds: 0, peakBytes: 0, status: -1)
        }
        var status: Int32 = 0
        var usage = rusage()
        while wait4(pid, &status, 0, &usage) < 0 && errno == EINTR {}
        let seconds = now() - start
        let exit = (status & 0x7f) == 0 ? (status >> 8) & 0xff : -1
        return ProcessSample(seconds: seconds, peakBytes: Int64(usage.ru_maxrss) * 1024, status: exit)
    }

    /// Monotonic seconds.
    static func now() -> Double {
        var spec = timespec()
        clock_gettime(CLOCK_MONOTONIC, &spec)
        return Double(spec.tv_sec) + Double(spec.tv_nsec) / 1e9
    }
}

extension Array where Element == Double {
    /// The median (mean of the middle two for an even count).
    var median: Double {
        let sorted = self.sorted()
        guard !sorted.isEmpty else { return .nan }
        let middle = sorted.count / 2
        return sorted.count % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2
    }
}
