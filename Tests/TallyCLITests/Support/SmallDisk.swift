import Foundation
import TallyTestSupport

/// A small tmpfs mounted in a fresh temporary directory, with a filler file to make it (nearly) full.
///
/// Mounting needs root (or CAP_SYS_ADMIN); `available` says whether this machine allows it, and
/// tests that need a real full disk are enabled only then. Unmounted when released.
final class SmallDisk {
    let directory = TemporaryDirectory("tally-disk")
    private var filler: String { directory.path("filler") }

    /// Whether a tmpfs can be mounted here: tried once, on a throw-away mount.
    static let available: Bool = geteuid() == 0 && (try? SmallDisk(kilobytes: 64)) != nil

    init(kilobytes: Int) throws {
        guard Self.system("/bin/mount", "-t", "tmpfs", "-o", "size=\(kilobytes)k", "tmpfs", directory.url.path) else {
            throw CocoaError(.fileWriteNoPermission)
        }
    }

    deinit {
        _ = Self.system("/bin/umount", "-l", directory.url.path)
    }

    /// A path on the disk.
    func path(_ name: String) -> String { directory.path(name) }

    /// A runner whose database (`tally.db`) is on the disk.
    func runner() -> TallyRunner {
        let tally = TallyRunner()
        tally.environment["TALLY_DB"] = path("tally.db")
        return tally
    }

    /// Fills the disk up to `room` bytes short of full (a fresh filler each time).
    func fill(leaving room: Int = 0) throws {
        try? FileManager.default.removeItem(atPath: filler)
        _ = FileManager.default.createFile(atPath: filler, contents: nil)
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: filler))
        defer { try? handle.close() }
        for size in [65_536, 4_096, 512] {
            let chunk = Data(count: size)
            while (try? handle.write(contentsOf: chunk)) != nil {}
        }
        let written = try handle.seekToEnd()
        try handle.truncate(atOffset: written > UInt64(room) ? written - UInt64(room) : 0)
    }

    /// Removes the filler.
    func free() {
        try? FileManager.default.removeItem(atPath: filler)
    }

    private static func system(_ tool: String, _ arguments: String...) -> Bool {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: tool)
        process.arguments = arguments
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        guard (try? process.run()) != nil else { return false }
        process.waitUntilExit()
        return process.terminationStatus == 0
    }
}
