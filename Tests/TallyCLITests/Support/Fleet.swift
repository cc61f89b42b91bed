import Foundation
import TallyDomain
import TallyTestSupport

/// Where a scenario's shared log lives.
enum SharedLogKind: String, CustomStringConvertible, CaseIterable, Sendable {
    /// A tally SQLite file standing in for the server.
    case sqlite
    /// A fresh database on the throw-away PostgreSQL cluster of the tests.
    case postgres

    var description: String { rawValue }

    /// The kinds this machine can run: PostgreSQL when the test cluster is up (always under CI).
    static var available: [SharedLogKind] { PostgresTestServer.isEnabled ? [.sqlite, .postgres] : [.sqlite] }

    /// A fresh, empty shared log's address.
    func make(in directory: TemporaryDirectory) -> String {
        switch self {
        case .sqlite: directory.path("shared.db")
        case .postgres: (try? PostgresTestServer.shared().makeDatabase("sync")) ?? "postgresql://127.0.0.1:1/unavailable"
        }
    }
}

/// Several devices (each its own database and actor) and one shared log, driven through the built binary.
final class Fleet {
    let devices: [TallyRunner]
    let shared: String
    /// Runs tally directly against the shared log (export, verify).
    let server: TallyRunner

    init(_ names: [String], kind: SharedLogKind = .sqlite) {
        devices = names.map { name in
            let runner = TallyRunner()
            runner.environment["TALLY_ACTOR"] = "\(name)@device"
            return runner
        }
        server = TallyRunner()
        server.environment["TALLY_ACTOR"] = "server@host"
        shared = kind.make(in: server.directory)
        server.environment["TALLY_DB"] = shared
    }

    subscript(index: Int) -> TallyRunner { devices[index] }

    /// Runs `arguments` on a device at `now`.
    @discardableResult
    func run(_ device: Int, at now: String, _ arguments: String...) -> RunResult {
        devices[device].run(arguments, environment: ["TALLY_NOW": now])
    }

    @discardableResult
    func sync(_ device: Int, at now: String, json: Bool = false) -> RunResult {
        devices[device].run((json ? ["--json"] : []) + ["sync", "--remote", shared], environment: ["TALLY_NOW": now])
    }

    func export(_ runner: TallyRunner) -> String {
        runner.run("export").stdout
    }
}
