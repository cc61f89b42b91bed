import Foundation
import Testing
import TallyDomain
import TallyTestSupport

@Suite("tally anchor on a replica, end to end")
struct AnchorReplicaTests {
    @Test("an anchor over unpushed events warns that sync will move them; after sync it holds on the replica and the shared log")
    func replica() throws {
        guard !TallyRunner.onPostgres else { return }
        let fleet = Fleet(["laptop", "desktop"])
        fleet.run(0, at: "2026-11-21T09:00:00Z", "add", "one")
        #expect(fleet.sync(0, at: "2026-11-21T09:01:00Z").status == 0)
        fleet.run(0, at: "2026-11-21T09:02:00Z", "add", "two")
        let early = fleet[0].run("anchor")
        #expect(early.status == 0 && early.stdout.hasPrefix("2:"))
        #expect(early.stderr == "Warning: 1 event after seq 1 is not pushed yet: the next sync gives it a new position and hash, so this anchor holds only until then. Anchor after 'tally sync' to keep one that lasts.\n")
        #expect(fleet.sync(0, at: "2026-11-21T09:03:00Z").status == 0)
        let anchor = fleet[0].run("anchor")
        #expect(anchor.stderr == "")
        let text = anchor.stdout.trimmingCharacters(in: .newlines)
        #expect(fleet[0].run("verify", "--anchor", text).status == 0)
        #expect(fleet.server.run("verify", "--anchor", text).status == 0, "the same history in the shared log")
    }
}
