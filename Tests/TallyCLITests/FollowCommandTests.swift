import Foundation
import Testing
import TallyDomain
import TallyTestSupport
@testable import TallyEssentials

/// A `tally log --follow` running in the background, its output going to a file.
final class Follower {
    let process = Process()
    let outputPath: String
    let errorPath: String

    init(_ tally: TallyRunner, _ arguments: [String], name: String = "follow") throws {
        outputPath = tally.directory.path("\(name).out")
        errorPath = tally.directory.path("\(name).err")
        _ = FileManager.default.createFile(atPath: outputPath, contents: nil)
        _ = FileManager.default.createFile(atPath: errorPath, contents: nil)
        process.executableURL = TallyRunner.binary
        process.arguments = arguments
        process.environment = tally.environment
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = FileHandle(forWritingAtPath: outputPath)
        process.standardError = FileHandle(forWritingAtPath: errorPath)
        try process.run()
    }

    var output: String { (try? String(contentsOfFile: outputPath, encoding: .utf8)) ?? "" }
    var errors: String { (try? String(contentsOfFile: errorPath, encoding: .utf8)) ?? "" }

    /// The `seq` of each JSON line printed so far.
    var seqs: [Int64] {
        output.split(separator: "\n").compactMap { try? JSON.parse(String($0)) }.compactMap { $0.objectValue?["seq"]?.intValue }
    }

    /// Waits (up to `seconds`) until `done` holds for the output.
    func wait(seconds: Double = 20, until done: (Follower) -> Bool) -> Bool {
        let deadline = Date().addingTimeInterval(seconds)
        while Date() < deadline {
            if done(self) { return true }
            usleep(50_000)
        }
        return done(self)
    }

    /// Ctrl-C, then the exit status.
    func interrupt() -> Int32 {
        kill(process.processIdentifier, SIGINT)
        process.waitUntilExit()
        return process.terminationStatus
    }
}

@Suite("tally log --follow, two processes, end to end", .tags(.postgresql))
struct FollowCommandTests {
    @Test("a follower sees every event two concurrent writers commit, once each, in log order; Ctrl-C ends it with 130")
    func twoWriters() throws {
        let tally = TallyRunner()
        #expect(tally.run("add", "before").status == 0)
        let follower = try Follower(tally, ["--json", "log", "--follow"])
        // The follower is watching once it has printed nothing and is still running: give it a moment.
        usleep(500_000)
        let writers = AttackScale.count(short: 8, full: 40)
        DispatchQueue.concurrentPerform(iterations: 2) { writer in
            for index in 0..<writers {
                let result = tally.run("add", "w\(writer)-\(index)")
                #expect(result.status == 0, "\(result.stderr)")
            }
        }
        tally.run("done", "1")
        let total = Int64(2 * writers + 2)
        #expect(follower.wait { $0.seqs.last == total }, "follower saw \(follower.seqs)")
        usleep(300_000)
        #expect(follower.seqs == Array(2...total), "nothing missed, nothing twice, in order; the event before it started is not repeated")
        #expect(follower.interrupt() == 130)
        #expect(follower.errors.contains("Stopped following the log."), "\(follower.errors)")
        #expect(tally.run("verify").status == 0)
    }

    @Test("human lines; --limit N first prints the N newest; --type, --actor and REF filter")
    func filtered() throws {
        let tally = TallyRunner()
        tally.run("add", "one")
        tally.run("add", "two")
        let follower = try Follower(tally, ["log", "--follow", "--limit", "1", "--type", "todo.completed", "--type", "todo.created"], name: "human")
        let filteredJSON = try Follower(tally, ["--json", "log", "2", "--follow", "--actor", "bob"], name: "bob")
        usleep(500_000)
        tally.run(["done", "2"], environment: ["TALLY_ACTOR": "bob"])
        tally.run(["edit", "1", "--title", "uno"], environment: ["TALLY_ACTOR": "bob"])
        tally.run(["done", "1"], environment: ["TALLY_ACTOR": "ada"])
        #expect(follower.wait { $0.output.split(separator: "\n").count == 3 }, "\(follower.output)")
        #expect(filteredJSON.wait { $0.seqs == [3] }, "\(filteredJSON.output)")
        let lines = follower.output.split(separator: "\n").map(String.init)
        #expect(lines[0].hasPrefix("2  todo.created  2026-11-21 12:00  ") && lines[0].hasSuffix("  created 'two'"), "\(lines)")
        #expect(lines[1].hasPrefix("3  todo.completed  ") && lines[1].hasSuffix("  completed"))
        #expect(lines[2].hasPrefix("5  todo.completed  "))
        #expect(follower.interrupt() == 130)
        #expect(filteredJSON.interrupt() == 130)
        #expect(filteredJSON.seqs == [3])
    }

    @Test("options that need the whole log are refused with --follow")
    func conflicts() {
        let tally = TallyRunner()
        tally.run("add", "one")
        for option in [["--since", "monday"], ["--until", "monday"], ["--field", "title"], ["--reverse"]] {
            let result = tally.run(["log", "--follow"] + option)
            #expect(result.status == 64 && result.stdout == "", "\(option): \(result.stderr)")
        }
    }
}
