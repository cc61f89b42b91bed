import Foundation
import TallyDomain
import TallyTestSupport
@testable import TallyEssentials

/// What one run of the binary produced.
struct RunResult {
    var stdout: String
    var stderr: String
    var status: Int32

    /// stdout parsed as JSON (fails the caller's expectation when it is not).
    var json: JSON? { try? JSON.parse(stdout) }
}

/// Runs the built `tally` binary against a database in a fresh temporary directory.
/// `run` only reads its properties, so sharing one runner between tasks is safe.
final class TallyRunner: @unchecked Sendable {
    let directory = TemporaryDirectory("tally-e2e")
    var environment: [String: String]

    /// The binary built next to the test bundle (`swift build` puts both in the same folder).
    static let binary: URL = {
        let candidates = [
            ProcessInfo.processInfo.environment["TALLY_BINARY"].map { URL(fileURLWithPath: $0) },
            Bundle.main.bundleURL.deletingLastPathComponent().appendingPathComponent("tally"),
            URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("tally"),
            PackageFiles.url(".build/debug/tally"),
        ].compactMap { $0 }
        return candidates.first { FileManager.default.isExecutableFile(atPath: $0.path) } ?? candidates.last!
    }()

    /// The database the runner's commands use: a file in `directory`, or with
    /// `TALLY_TEST_BACKEND=postgresql` a fresh database on the test cluster (its URI).
    let databasePath: String

    /// True when the end-to-end suites run against PostgreSQL (`TALLY_TEST_BACKEND=postgresql`).
    static let onPostgres = ProcessInfo.processInfo.environment["TALLY_TEST_BACKEND"] == "postgresql"

    init(now: String = "2026-11-21T12:00:00Z", zone: String = "UTC") {
        if Self.onPostgres {
            do {
                databasePath = try PostgresTestServer.shared().makeDatabase("e2e")
            } catch {
                fatalError("TALLY_TEST_BACKEND=postgresql, but no PostgreSQL: \(error)")
            }
        } else {
            databasePath = directory.path("tally.db")
        }
        environment = [
            "TALLY_DB": databasePath,
            "TALLY_NOW": now,
            "TALLY_ACTOR": "tester@e2e",
            "TZ": zone,
            "HOME": directory.url.path,
            "PATH": "/usr/bin:/bin",
            "LANG": "C.UTF-8",
        ]
    }

    /// Runs `tally` with the arguments; `input` goes to standard input.
    ///
    /// With a `launcher` (such as `setpriv ...` or `sh -c ...`), that program runs instead, with the
    /// tally binary and the arguments after its own.
    @discardableResult
    func run(_ arguments: [String], input: String? = nil, environment extra: [String: String] = [:], launcher: [String] = []) -> RunResult {
        let process = Process()
        if let program = launcher.first {
            process.executableURL = URL(fileURLWithPath: program)
            process.arguments = Array(launcher.dropFirst()) + [Self.binary.path] + arguments
        } else {
            process.executableURL = Self.binary
            process.arguments = arguments
        }
        process.environment = environment.merging(extra) { $1 }
        let out = Pipe()
        let err = Pipe()
        let stdin = Pipe()
        process.standardOutput = out
        process.standardError = err
        process.standardInput = stdin
        do {
            try process.run()
        } catch {
            return RunResult(stdout: "", stderr: "cannot run \(Self.binary.path): \(error)", status: -1)
        }
        if let input { stdin.fileHandleForWriting.write(Data(input.utf8)) }
        try? stdin.fileHandleForWriting.close()
        // Read both pipes concurrently so a full pipe never blocks the child.
        let group = DispatchGroup()
        nonisolated(unsafe) var errData = Data()
        group.enter()
        DispatchQueue.global().async {
            errData = err.fileHandleForReading.readDataToEndOfFile()
            group.leave()
        }
        let outData = out.fileHandleForReading.readDataToEndOfFile()
        group.wait()
        process.waitUntilExit()
        return RunResult(stdout: String(decoding: outData, as: UTF8.self), stderr: String(decoding: errData, as: UTF8.self), status: process.terminationStatus)
    }

    @discardableResult
    func run(_ arguments: String...) -> RunResult {
        run(arguments)
    }

    /// The database as tally prints it: the path, or the URI with its password hidden.
    var displayedLocation: String {
        databasePath.replacingOccurrences(of: ":\(PostgresTestServer.password)@", with: ":***@")
    }

    /// How history lines name who appended an event: on PostgreSQL the actor and the server's role.
    func who(_ actor: String) -> String {
        Self.onPostgres ? "\(actor) (\(PostgresTestServer.superuser))" : actor
    }

    /// The keys of an event in `--json` beyond the common ones: the role on PostgreSQL.
    var extraEventKeys: [String] { Self.onPostgres ? ["role"] : [] }

    /// What `info` says about a store that no command has created yet.
    var notCreatedText: String { Self.onPostgres ? "no tally log in this database yet" : "not created yet" }

    /// The number of events in the database (0 when it does not exist).
    var eventCount: Int64 {
        let result = run(["info", "--json"])
        guard case .object(let info)? = result.json, let events = info["events"]?.intValue else { return -1 }
        return events
    }
}
