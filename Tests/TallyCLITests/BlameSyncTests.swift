import Foundation
import Testing
import TallyDomain
import TallyTestSupport

@Suite("tally blame through sync, end to end")
struct BlameSyncTests {
    @Test("on a replica, what another device changed reads as a sync from that device", arguments: SharedLogKind.available)
    func synced(kind: SharedLogKind) throws {
        guard !TallyRunner.onPostgres else { return }
        let fleet = Fleet(["laptop", "desktop"], kind: kind)
        fleet.run(0, at: "2026-11-21T09:00:00Z", "add", "Buy milk")
        #expect(fleet.sync(0, at: "2026-11-21T09:05:00Z").status == 0)
        #expect(fleet.sync(1, at: "2026-11-21T09:06:00Z").status == 0)
        fleet.run(1, at: "2026-11-21T10:00:00Z", "edit", "1", "--priority", "high")
        #expect(fleet.sync(1, at: "2026-11-21T10:05:00Z").status == 0)
        #expect(fleet.sync(0, at: "2026-11-21T10:06:00Z").status == 0)
        fleet.run(0, at: "2026-11-21T11:00:00Z", "edit", "1", "--note", "oat")
        let lines = blamed(fleet[0].run("--json", "blame", "1"))
        #expect(lines["priority"]?.how == "sync" && lines["priority"]?.actor == "desktop@device")
        #expect(lines["title"]?.how == "command", "this device's own event, pushed and synced, is its command")
        #expect(lines["note"]?.how == "command")
        #expect(fleet[0].run("blame", "1").stdout.contains("sync from desktop@device"))
    }
}
