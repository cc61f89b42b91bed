import Foundation
import Testing
import TallyDomain
import TallyTestSupport
@testable import TallyCLI
@testable import TallyEssentials

/// Deleted things come back, and lists count them as deleted.
@Suite("restore and deleted items, end to end")
struct RestoreCommandTests {
    @Test("restore and record restore bring deleted items back as one command, with notices for live ones")
    func restore() {
        let tally = TallyRunner()
        for title in ["a", "b", "c"] { tally.run("add", title) }
        tally.run("delete", "1", "2")
        let refused = tally.run("done", "1")
        #expect(refused.status == 1 && refused.stderr == "Error: Todo 1 is deleted; 'tally restore 1' brings it back.\n")
        let restored = tally.run("restore", "1", "2", "3")
        #expect(restored.status == 0)
        #expect(restored.stdout == "Restored 1: a\nRestored 2: b\nTodo 3 is not deleted; nothing changed.\n")
        #expect(tally.run("list", "--json").json?.arrayValue?.count == 3)
        #expect(tally.run("restore", "9").status == 1)
        #expect(tally.run("undo").status == 0)
        #expect(tally.run("list", "--json").json?.arrayValue?.count == 1, "one undo takes the whole restore back")

        tally.run("record", "add", "Run", "--category", "running", "--duration", "30m", "--distance", "5km")
        tally.run("record", "add", "Swim", "--category", "swimming", "--duration", "40m")
        tally.run("record", "delete", "1")
        #expect(tally.run("record", "edit", "1", "--name", "x").stderr == "Error: Record 1 is deleted; 'tally record restore 1' brings it back.\n")
        let listed = tally.run("record", "list", "--deleted")
        #expect(listed.stdout.contains("Run (deleted)") && listed.stdout.contains("2 records, 40:00"), "\(listed.stdout)")
        #expect(!tally.run("record", "list").stdout.contains("Run"))
        #expect(tally.run("record", "list", "--deleted", "--json").json?.arrayValue?.count == 2)
        let back = tally.run("--json", "record", "restore", "1")
        #expect(back.json?.arrayValue?.first?.objectValue?["deleted"] == false)
        #expect(tally.run("record", "restore", "2").stdout == "Record 2 is not deleted; nothing changed.\n")
        #expect(tally.run("record", "list").stdout.contains("2 records, 1:10:00, 5.00 km"))
    }

    @Test("list --deleted counts deleted todos as deleted, in English and Czech")
    func deletedFooter() {
        let tally = TallyRunner()
        for title in ["a", "b", "c", "d", "e", "f", "g"] { tally.run("add", title) }
        tally.run("done", "3", "4")
        tally.run("delete", "4", "5", "6", "7")
        #expect(tally.run("list", "--deleted").stdout.hasSuffix("\n\n2 active, 1 completed, 4 deleted\n"))
        #expect(tally.run("list").stdout.hasSuffix("\n\n2 active, 1 completed\n"))
        let czech = tally.run(["list", "--deleted"], environment: ["LANG": "cs_CZ.UTF-8"])
        #expect(czech.stdout.hasSuffix("\n\n2 aktivní, 1 hotový, 4 smazané\n"), "\(czech.stdout)")
    }
}
