import Foundation
import Testing
import TallyDomain
import TallyTestSupport
@testable import TallyCLI
@testable import TallyEssentials

/// Failed commands and read-only ones leave no file behind; a read-only file stays usable for a later writer.
@Suite("The database file: created by writes only, nothing left behind by readers, end to end")
struct DatabaseFileCommandTests {
    @Test("a failed command creates no database file; --db \"\" is a usage error", arguments: [
        ["done", "1"], ["add", ""], ["undo"], ["record", "add", "Run", "--category", "run", "--duration", "-5m"], ["restore", "1"],
    ])
    func failedCommandsCreateNothing(arguments: [String]) {
        let tally = TallyRunner()
        let typo = tally.directory.path("typo.db")
        let result = tally.run(["--db", typo] + arguments)
        #expect(result.status != 0)
        let left = (try? FileManager.default.contentsOfDirectory(atPath: tally.directory.url.path)) ?? []
        #expect(left.isEmpty, "\(arguments) left \(left)")
    }

    @Test("a command that succeeds without writing creates no database file either", arguments: [
        ["toggle", "--all"], ["delete", "--completed"], ["filter", "reset"], ["record", "filter", "reset"], ["list"], ["stats"],
    ])
    func noOpCommandsCreateNothing(arguments: [String]) {
        let tally = TallyRunner()
        let result = tally.run(arguments)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(!FileManager.default.fileExists(atPath: tally.databasePath), "\(arguments) created the database")
    }

    @Test("--db with an empty path is a usage error that names the option")
    func emptyDatabaseOption() {
        let tally = TallyRunner()
        let result = tally.run("--db", "", "add", "milk")
        #expect(result.status == 64)
        #expect(result.stderr.hasPrefix("Error: Missing value for option '--db'.\nUsage: tally add"))
        #expect(!FileManager.default.fileExists(atPath: tally.databasePath))
        #expect(tally.run("--db", "x.db", "add", "milk").status == 0, "a successful write still creates its file")
    }

    @Test("reading a read-only database leaves nothing that stops a later writer")
    func readOnlyLeavesNothingBehind() throws {
        let tally = TallyRunner()
        let manager = FileManager.default
        // As root, permissions do not apply: run every command as nobody, in a directory nobody may write.
        var launcher: [String] = []
        if getuid() == 0 {
            guard manager.isExecutableFile(atPath: "/usr/bin/setpriv") else { return }
            launcher = ["/usr/bin/setpriv", "--reuid=nobody", "--regid=nogroup", "--clear-groups"]
            try manager.setAttributes([.posixPermissions: 0o777], ofItemAtPath: tally.directory.url.path)
        }
        #expect(tally.run(["add", "first"], launcher: launcher).status == 0)
        try manager.setAttributes([.posixPermissions: 0o444], ofItemAtPath: tally.databasePath)
        let list = tally.run(["list"], launcher: launcher)
        #expect(list.status == 0 && list.stdout.contains("first"), "\(list.stderr)")
        #expect(tally.run(["info"], launcher: launcher).status == 0)
        #expect(tally.run(["list"]).status == 0, "and as whoever runs the tests, root included")
        for suffix in ["-shm", "-wal"] {
            #expect(!manager.fileExists(atPath: tally.databasePath + suffix), "reading left \(suffix) behind")
        }
        let refused = tally.run(["add", "refused"], launcher: launcher)
        #expect(refused.status != 0, "a read-only file refuses a write")
        try manager.setAttributes([.posixPermissions: 0o644], ofItemAtPath: tally.databasePath)
        let later = tally.run(["add", "second"], launcher: launcher)
        #expect(later.status == 0, "a writer after chmod 644: \(later.stderr)")
        #expect(tally.run(["list", "--json"], launcher: launcher).json?.arrayValue?.count == 2)
    }
}
