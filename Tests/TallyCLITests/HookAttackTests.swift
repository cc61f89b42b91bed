import Foundation
import Testing
import TallyDomain
import TallyTestSupport
@testable import TallyEssentials

/// A runner whose database has a hooks directory (`TALLY_HOOKS`, so it works on PostgreSQL too).
func hooked() throws -> (TallyRunner, String) {
    let tally = TallyRunner()
    let directory = tally.directory.path("hooks")
    try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: false, attributes: [.posixPermissions: 0o755])
    tally.environment["TALLY_HOOKS"] = directory
    return (tally, directory)
}

/// Writes an executable shell script hook.
func hook(_ directory: String, _ name: String, _ script: String, mode: Int = 0o755) throws {
    let path = directory + "/" + name
    try ("#!/bin/sh\n" + script + "\n").write(toFile: path, atomically: false, encoding: .utf8)
    try FileManager.default.setAttributes([.posixPermissions: mode], ofItemAtPath: path)
}

@Suite("Hooks: pre-command and post-commit, end to end", .tags(.postgresql))
struct HookCommandTests {
    @Test("post-commit gets the committed events as JSON lines on stdin, with TALLY_HOOK set; undo runs it too")
    func postCommit() throws {
        let (tally, directory) = try hooked()
        let seen = tally.directory.path("seen")
        try hook(directory, "post-commit", "echo \"$TALLY_HOOK\" >> '\(seen)'; cat >> '\(seen)'")
        #expect(tally.run("add", "Buy milk", "--tag", "shop").status == 0)
        #expect(tally.run("toggle", "1").status == 0)
        #expect(tally.run("undo").status == 0)
        let lines = try String(contentsOfFile: seen, encoding: .utf8).split(separator: "\n").map(String.init)
        #expect(lines.filter { $0 == "post-commit" }.count == 3)
        let events = lines.compactMap { try? JSON.parse($0) }.compactMap(\.objectValue)
        #expect(events.compactMap { $0["seq"]?.intValue } == [1, 2, 3, 4])
        #expect(events.compactMap { $0["type"]?.stringValue } == ["todo.created", "todo.completed", "todo.reopened", "history.undone"])
        #expect(events[0]["data"]?.objectValue?["title"] == "Buy milk")
    }

    @Test("a refusing pre-command hook: exit 1, its message shown escaped, nothing appended; it sees the events it judges")
    func refusing() throws {
        let (tally, directory) = try hooked()
        try hook(directory, "pre-command", #"if grep -q password; then printf 'no passwords in titles \033]0;x\007\n'; exit 3; fi"#)
        let refused = tally.run("add", "my password is hunter2")
        #expect(refused.status == 1 && refused.stdout == "")
        #expect(refused.stderr == "Error: The pre-command hook refused the command (exit 3); nothing was appended: no passwords in titles \\e]0;x\\x07\n", "\(refused.stderr)")
        #expect(tally.eventCount == 0 || tally.eventCount == -1)
        #expect(tally.run("add", "fine").status == 0)
        #expect(tally.eventCount == 1)
        #expect(tally.run("verify").status == 0)
    }

    @Test("a hanging pre-command hook is killed after TALLY_HOOK_TIMEOUT with what it started; nothing appended")
    func hanging() throws {
        let (tally, directory) = try hooked()
        tally.run("add", "before")
        let marker = tally.directory.path("grandchild")
        try hook(directory, "pre-command", "(sleep 30; touch '\(marker)') & sleep 60")
        let started = Date()
        let result = tally.run(["add", "slow"], environment: ["TALLY_HOOK_TIMEOUT": "1"])
        #expect(Date().timeIntervalSince(started) < 15)
        #expect(result.status == 1)
        #expect(result.stderr == "Error: The hook did not finish within 1 s and was stopped; nothing was appended.\n")
        #expect(tally.eventCount == 1)
        // The background child was in the hook's process group and went with it.
        usleep(200_000)
        let survivors = Process()
        survivors.executableURL = URL(fileURLWithPath: "/usr/bin/pgrep")
        survivors.arguments = ["-f", "touch '\(marker)'"]
        try survivors.run()
        survivors.waitUntilExit()
        #expect(survivors.terminationStatus == 1, "no process of the hook's group is left")
    }

    @Test("a crashing pre-command hook refuses the command; a failing post-commit hook only warns")
    func crashing() throws {
        let (tally, directory) = try hooked()
        try hook(directory, "pre-command", "kill -SEGV $$")
        let crashed = tally.run("add", "x")
        #expect(crashed.status == 1 && crashed.stderr.hasPrefix("Error: The pre-command hook crashed (signal 11); nothing was appended"))
        #expect(tally.eventCount <= 0)
        try FileManager.default.removeItem(atPath: directory + "/pre-command")
        try hook(directory, "post-commit", "echo broken >&2; exit 7")
        let warned = tally.run("add", "y")
        #expect(warned.status == 0 && warned.stdout == "Added 1: y\n")
        #expect(warned.stderr == "Warning: The post-commit hook failed (exit 7); the command was committed: broken\n")
        try hook(directory, "post-commit", "kill -KILL $$")
        #expect(tally.run("add", "z").stderr.hasPrefix("Warning: The post-commit hook crashed (signal 9); the command was committed"))
        #expect(tally.eventCount == 2)
    }

    @Test("a hook that never reads its input, with a large command, does not block tally")
    func notReading() throws {
        let (tally, directory) = try hooked()
        try hook(directory, "pre-command", "exit 0")
        try hook(directory, "post-commit", "sleep 0.2; exit 0")
        let file = tally.directory.path("many.txt")
        try (0..<3000).map { "Task number \($0) with a fairly long title to fill the pipe" }.joined(separator: "\n").write(toFile: file, atomically: true, encoding: .utf8)
        let result = tally.run(["import", "--from", "todotxt", file])
        #expect(result.status == 0, "\(result.stderr)")
        tally.run("rm", "--completed")
        let big = tally.run(["edit", "1", "--note", String(repeating: "n", count: 9000)])
        #expect(big.status == 0 && big.stderr == "", "\(big.stderr)")
    }
}

@Suite("Hooks: hostile hook directories and settings")
struct HookAttackTests {
    @Test("a hook others may write, or owned by another user, or not executable, or not a file, is not run; pre-command then refuses")
    func unsafe() throws {
        let (tally, directory) = try hooked()
        let ran = tally.directory.path("ran")
        try hook(directory, "pre-command", "touch '\(ran)'", mode: 0o777)
        var result = tally.run("add", "x")
        #expect(result.status == 1 && result.stderr.contains("may be written by other users"), "\(result.stderr)")
        try FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: directory + "/pre-command")
        result = tally.run("add", "x")
        #expect(result.status == 1 && result.stderr.contains("is not executable"))
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: directory + "/pre-command")
        if getuid() == 0 {
            try FileManager.default.setAttributes([.ownerAccountID: 65534], ofItemAtPath: directory + "/pre-command")
            result = tally.run("add", "x")
            #expect(result.status == 1 && result.stderr.contains("belongs to another user"))
            try FileManager.default.setAttributes([.ownerAccountID: 0], ofItemAtPath: directory + "/pre-command")
        }
        try FileManager.default.setAttributes([.posixPermissions: 0o777], ofItemAtPath: directory)
        result = tally.run("add", "x")
        #expect(result.status == 1 && result.stderr.contains("\(directory) may be written by other users"))
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: directory)
        try FileManager.default.removeItem(atPath: directory + "/pre-command")
        try FileManager.default.createDirectory(atPath: directory + "/pre-command", withIntermediateDirectories: false)
        result = tally.run("add", "x")
        #expect(result.status == 1 && result.stderr.contains("is not a regular file"))
        #expect(!FileManager.default.fileExists(atPath: ran), "no unsafe hook ever ran")
        #expect(tally.eventCount <= 0)
    }

    @Test("a symbolic link to a hook others may write is judged by its target")
    func symlink() throws {
        let (tally, directory) = try hooked()
        let target = tally.directory.path("elsewhere.sh")
        try "#!/bin/sh\nexit 0\n".write(toFile: target, atomically: false, encoding: .utf8)
        try FileManager.default.setAttributes([.posixPermissions: 0o777], ofItemAtPath: target)
        try FileManager.default.createSymbolicLink(atPath: directory + "/pre-command", withDestinationPath: target)
        #expect(tally.run("add", "x").status == 1)
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: target)
        #expect(tally.run("add", "x").status == 0)
    }

    @Test("bad TALLY_HOOK_TIMEOUT values are refused before anything runs", arguments: ["0", "601", "-1", "1.5", "99999999999999999999", "ten", "", " 5"])
    func timeout(value: String) throws {
        let (tally, directory) = try hooked()
        try hook(directory, "pre-command", "exit 0")
        let result = tally.run(["add", "x"], environment: ["TALLY_HOOK_TIMEOUT": value])
        if value.isEmpty {
            #expect(result.status == 65 || result.status == 0)
        } else {
            #expect(result.status == 65 && result.stderr.contains("TALLY_HOOK_TIMEOUT"), "\(value): \(result.stderr)")
        }
    }

    @Test("events pulled by sync run no hooks")
    func sync() throws {
        let fleet = Fleet(["laptop", "desktop"])
        let directory = fleet[1].directory.path("hooks")
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: false, attributes: [.posixPermissions: 0o755])
        let ran = fleet[1].directory.path("ran")
        try hook(directory, "post-commit", "cat >> '\(ran)'")
        try hook(directory, "pre-command", "cat >> '\(ran)'")
        fleet[1].environment["TALLY_HOOKS"] = directory
        fleet.run(0, at: "2026-11-21T09:00:00Z", "add", "from the laptop")
        #expect(fleet.sync(0, at: "2026-11-21T09:01:00Z").status == 0)
        #expect(fleet.sync(1, at: "2026-11-21T09:02:00Z").status == 0)
        #expect(!FileManager.default.fileExists(atPath: ran))
        fleet.run(1, at: "2026-11-21T09:03:00Z", "done", "1")
        #expect(try String(contentsOfFile: ran, encoding: .utf8).contains("todo.completed"))
        // Asked with --run-hooks: post-commit gets exactly the pulled events, not this device's pushed ones.
        try FileManager.default.removeItem(atPath: ran)
        fleet.run(0, at: "2026-11-21T09:04:00Z", "add", "second from the laptop")
        #expect(fleet.sync(0, at: "2026-11-21T09:05:00Z").status == 0)
        fleet.run(1, at: "2026-11-21T09:06:00Z", "add", "from the desktop")
        try FileManager.default.removeItem(atPath: ran)
        let asked = fleet[1].run(["sync", "--remote", fleet.shared, "--run-hooks"], environment: ["TALLY_NOW": "2026-11-21T09:07:00Z"])
        #expect(asked.status == 0, "\(asked.stderr)")
        let lines = try String(contentsOfFile: ran, encoding: .utf8).split(separator: "\n").compactMap { try? JSON.parse(String($0)) }
        #expect(lines.compactMap { $0.objectValue?["data"]?.objectValue?["title"]?.stringValue } == ["second from the laptop"])
    }
}
