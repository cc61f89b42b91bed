import Foundation
import Testing
import TallyDomain
import TallySQLite
import TallyTestSupport

@Suite("tally anchor and verify --anchor, end to end", .tags(.postgresql))
struct AnchorCommandTests {
    /// Three todos, one command each; the anchor taken at the head.
    func seeded() throws -> (TallyRunner, String) {
        let tally = TallyRunner()
        for title in ["Buy milk", "Bread", "Eggs"] {
            let added = tally.run("add", title)
            #expect(added.status == 0, "\(added.stderr)")
        }
        let anchor = tally.run("anchor")
        #expect(anchor.status == 0 && anchor.stderr == "", "\(anchor.stderr)")
        return (tally, anchor.stdout.trimmingCharacters(in: .newlines))
    }

    /// Events after `seq` removed by hand, as someone cutting the log would.
    func truncate(_ tally: TallyRunner, after seq: Int) throws {
        try sqlite(tally.databasePath, "DROP TRIGGER events_reject_delete; DELETE FROM events WHERE seq > \(seq)")
    }

    @Test("anchor prints SEQ:HASH with 32 digits, the full hash with --full and in --json")
    func prints() throws {
        let (tally, anchor) = try seeded()
        let head = try #require(tally.run("--json", "log", "--limit", "1").json?.arrayValue?.first?.objectValue)
        let hash = try #require(head["hash"]?.stringValue)
        #expect(anchor == "3:" + hash.prefix(32))
        #expect(tally.run("anchor", "--full").stdout == "3:\(hash)\n")
        let json = try #require(tally.run("--json", "anchor").json)
        #expect(json == .object(["anchor": .string(anchor), "seq": 3, "hash": .string(hash)]))
    }

    @Test("an empty or absent log has nothing to anchor: exit 1")
    func empty() {
        let result = TallyRunner().run("anchor")
        #expect(result.status == 1 && result.stdout == "")
        #expect(result.stderr == "Error: The log is empty: there is nothing to anchor yet.\n")
    }

    @Test("the anchor holds while the log grows")
    func holds() throws {
        let (tally, anchor) = try seeded()
        tally.run("done", "1")
        tally.run("undo")
        let result = tally.run("verify", "--anchor", anchor)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout == "OK: 6 events, chain intact\nOK: the log still holds the anchored history up to seq 3 (\(anchor))\n")
        let json = try #require(tally.run("--json", "verify", "--anchor", anchor.uppercased()).json?.objectValue)
        #expect(json["ok"] == true)
        #expect(json["anchor"] == .object(["anchor": .string(anchor), "seq": 3, "head": 6, "status": "holds"]))
    }

    @Test("a log cut below the anchor: its own chain is intact, the anchor says truncated, exit 3")
    func truncated() throws {
        let (tally, anchor) = try seeded()
        try truncate(tally, after: 2)
        #expect(tally.run("verify").status == 0, "the chain alone cannot see a cut end")
        let result = tally.run("verify", "--anchor", anchor)
        #expect(result.status == 3)
        #expect(result.stdout == "OK: 2 events, chain intact\n  anchor \(anchor): the log ends at seq 2, below the anchor: events were removed from its end\n")
        #expect(result.stderr == "Error: The log was truncated: it ends at seq 2, below the anchor at seq 3.\n")
        let json = tally.run("--json", "verify", "--anchor", anchor)
        #expect(json.status == 3)
        let object = try #require(json.json?.objectValue)
        #expect(object["ok"] == false)
        #expect(object["anchor"] == .object(["anchor": .string(anchor), "seq": 3, "head": 2, "status": "truncated"]))
    }

    @Test("a log cut and written again with new, valid hashes: rewritten, exit 4, even when it is longer")
    func rewritten() throws {
        let (tally, anchor) = try seeded()
        try truncate(tally, after: 1)
        for title in ["Forged", "Also forged", "And more"] { tally.run("add", title) }
        #expect(tally.run("verify").status == 0, "the rewritten chain is valid on its own")
        let result = tally.run("verify", "--anchor", anchor)
        #expect(result.status == 4)
        let lines = result.stdout.split(separator: "\n").map(String.init)
        #expect(lines.first == "OK: 4 events, chain intact")
        #expect(lines.last?.hasPrefix("  anchor \(anchor): the event at seq 3 has hash ") == true)
        #expect(lines.last?.hasSuffix(", not the anchored one: the history up to the anchor was rewritten") == true)
        #expect(result.stderr == "Error: The log was rewritten: it no longer holds the anchored history up to seq 3.\n")
        let object = try #require(tally.run("--json", "verify", "--anchor", anchor).json?.objectValue?["anchor"]?.objectValue)
        #expect(object["status"] == "rewritten" && object["at"] == 3)
        let stored = try #require(object["stored"]?.stringValue)
        #expect(stored.count == 64 && !stored.hasPrefix(String(anchor.dropFirst(2))))
    }

    @Test("an event before the anchor altered without new hashes: the chain breaks there and the anchor says rewritten, exit 4")
    func alteredBelow() throws {
        let (tally, anchor) = try seeded()
        try sqlite(tally.databasePath, "DROP TRIGGER events_reject_update; UPDATE events SET data = replace(data, 'Bread', 'Brea_') WHERE seq = 2")
        let result = tally.run("verify", "--anchor", anchor)
        #expect(result.status == 4)
        #expect(result.stdout.hasPrefix("  seq 2: hash mismatch"), "\(result.stdout)")
        #expect(result.stdout.hasSuffix("  anchor \(anchor): the chain is broken at seq 2, at or before the anchor: the history up to the anchor was altered\n"))
    }

    @Test("an event before the anchor altered and every later hash recomputed: rewritten, exit 4")
    func recomputed() throws {
        guard !TallyRunner.onPostgres else { return }
        let (tally, anchor) = try seeded()
        let log = try #require(try SQLiteEventLog.openForReading(path: tally.databasePath))
        var events: [EventEnvelope] = []
        try log.scan(after: 0, through: nil) { events.append($0) }
        log.close()
        var previous = EventHash.genesis
        var statements = ["DROP TRIGGER events_reject_update"]
        for var event in events {
            if event.seq == 2 { event.data = event.data.replacingOccurrences(of: "Bread", with: "Brea_") }
            event.hash = EventHash.link(previous: previous, event)
            previous = event.hash
            statements.append("UPDATE events SET data = '\(event.data)', hash = '\(event.hash)' WHERE seq = \(event.seq)")
        }
        try sqlite(tally.databasePath, statements.joined(separator: "; "))
        #expect(tally.run("verify").status == 0, "a consistent forgery passes the chain check")
        #expect(tally.run("list").stdout.contains("Brea_"))
        let result = tally.run("verify", "--anchor", anchor)
        #expect(result.status == 4)
        #expect(result.stdout.contains("  anchor \(anchor): the event at seq 3 has hash "))
    }

    @Test("a malformed anchor is invalid data (exit 65), said with the value escaped, before the log is read", arguments: [
        "3", "3:", ":abc", "3:xyz0123456789abcdef", "3:0123456789abcde", "0:0123456789abcdef", "-3:0123456789abcdef",
        "3:0123456789abcdef\u{1b}[31m", "99999999999999999999:0123456789abcdef", "3 :0123456789abcdef",
        String(repeating: "9", count: 4000),
    ])
    func malformed(text: String) throws {
        let (tally, _) = try seeded()
        let result = tally.run("verify", "--anchor", text)
        #expect(result.status == 65)
        #expect(result.stdout == "")
        #expect(result.stderr.hasPrefix("Error: Invalid value '"))
        #expect(result.stderr.hasSuffix("' for --anchor: expected SEQ:HASH, a position from 1 and 16 to 64 hex digits of its hash, as 'tally anchor' prints it.\n"))
        #expect(!result.stderr.contains("\u{1b}"))
        #expect(result.stderr.utf8.count < 400)
    }

    @Test("a full 64-digit anchor holds, and one changed last digit is a rewrite")
    func fullAnchor() throws {
        let (tally, _) = try seeded()
        let full = tally.run("anchor", "--full").stdout.trimmingCharacters(in: .newlines)
        #expect(tally.run("verify", "--anchor", full).status == 0)
        var wrong = Array(full)
        wrong[wrong.count - 1] = wrong[wrong.count - 1] == "0" ? "1" : "0"
        #expect(tally.run("verify", "--anchor", String(wrong)).status == 4, "the last digit counts")
    }
}
