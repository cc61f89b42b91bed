#if canImport(Glibc)
import Glibc
#endif
import Foundation

/// Taskwarrior as the peer measured in the same run: `task add` and `task list` at the same number
/// of pending tasks as tally's small store, so the ratios hold however busy the machine is.
struct TaskwarriorPeer {
    let program: String
    let cache: String
    let pending: Int

    /// The `task` binary; when missing, installed with apt (`taskwarrior`) if `install` and running as root; nil otherwise.
    static func locate(install: Bool, note: (String) -> Void) -> String? {
        let candidates = ["/usr/bin/task", "/usr/local/bin/task"]
        if let found = candidates.first(where: { FileManager.default.isExecutableFile(atPath: $0) }) { return found }
        guard install else {
            note("Taskwarrior ('task') is not installed: the ratios against it are not measured.")
            return nil
        }
        guard getuid() == 0 else {
            note("Taskwarrior ('task') is not installed and this is not root: the ratios against it are not measured.")
            return nil
        }
        note("installing Taskwarrior (apt-get install taskwarrior) ...")
        let status = ProcessTimer.run("/usr/bin/apt-get", ["install", "-y", "-qq", "-o", "DPkg::Lock::Timeout=300", "taskwarrior"], environment: ["PATH": "/usr/sbin:/usr/bin:/sbin:/bin", "DEBIAN_FRONTEND": "noninteractive"]).status
        if status == 0, let found = candidates.first(where: { FileManager.default.isExecutableFile(atPath: $0) }) { return found }
        note("Taskwarrior could not be installed (apt-get exited \(status)): the ratios against it are not measured.")
        return nil
    }

    private var directory: String { "\(cache)/taskwarrior-\(pending)" }
    private var rcPath: String { directory + "/taskrc" }

    /// The environment `task` runs with: its own rc file, no colors, no prompts.
    func environment(data: String) -> [String: String] {
        ["TASKRC": rcPath, "TASKDATA": data, "HOME": cache, "PATH": "/usr/bin:/bin", "LANG": "C.UTF-8", "TZ": "UTC"]
    }

    /// The cached data directory with `pending` pending tasks, imported once.
    func ensureData(note: (String) -> Void) throws -> String {
        let data = directory + "/data"
        if FileManager.default.fileExists(atPath: data + "/pending.data") { return data }
        note("importing \(pending) pending tasks into Taskwarrior ...")
        try? FileManager.default.removeItem(atPath: directory)
        try FileManager.default.createDirectory(atPath: data, withIntermediateDirectories: true)
        try "confirmation=off\nverbose=nothing\ncolor=off\nhooks=off\n".write(toFile: rcPath, atomically: true, encoding: .utf8)
        var tasks: [String] = []
        tasks.reserveCapacity(pending)
        for index in 0..<pending {
            let uuid = String(format: "00000000-0000-4000-8000-%012x", index + 1)
            let tags = index % 3 == 0 ? ",\"tags\":[\"bench\"]" : ""
            tasks.append("{\"uuid\":\"\(uuid)\",\"description\":\"Benchmark task \(index + 1)\",\"status\":\"pending\",\"entry\":\"20261101T000000Z\"\(tags)}")
        }
        let file = directory + "/tasks.json"
        try ("[" + tasks.joined(separator: ",\n") + "]\n").write(toFile: file, atomically: true, encoding: .utf8)
        let status = ProcessTimer.run(program, ["import", file], environment: environment(data: data)).status
        guard status == 0 else { throw Bench.Failure(description: "task import exited with \(status)") }
        return data
    }
}
