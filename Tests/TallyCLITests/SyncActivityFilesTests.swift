import Foundation
import Testing
import TallyDomain
import TallyTestSupport
@testable import TallyEssentials

/// `tally sync` carries the original files of imported activities to the shared log and back.
@Suite("tally sync carries the original activity files, end to end")
struct SyncActivityFilesTests {
    static func fixture(_ name: String) -> String {
        PackageFiles.url("Tests/Fixtures/activities/\(name)").path
    }

    /// The blob lines of an export, by name, with their decoded bytes.
    static func blobs(_ export: String) -> [String: [UInt8]] {
        var result: [String: [UInt8]] = [:]
        for line in export.split(separator: "\n") where line.hasPrefix("{\"blob\":") {
            guard case .object(let object)? = try? JSON.parse(String(line)), let name = object["blob"]?.stringValue,
                  let data = object["data"]?.stringValue.flatMap({ Data(base64Encoded: $0) }) else { continue }
            result[name] = Array(data)
        }
        return result
    }

    @Test("files imported on two devices reach the shared log and the other device; verify passes; a second sync moves nothing",
          arguments: SharedLogKind.available)
    func filesTravel(kind: SharedLogKind) throws {
        let fleet = Fleet(["laptop", "desktop"], kind: kind)
        let laptopFiles = ["cerknicko-jezero.gpx", "fenix5-run.fit"]
        let desktopFiles = ["fenix5-bike.fit"]
        let imported = fleet.devices[0].run(["record", "import"] + laptopFiles.map(Self.fixture), environment: ["TALLY_NOW": "2026-11-21T09:00:00Z"])
        #expect(imported.status == 0, "\(imported.stderr)")
        #expect(fleet.devices[1].run(["record", "import"] + desktopFiles.map(Self.fixture), environment: ["TALLY_NOW": "2026-11-21T09:01:00Z"]).status == 0)
        #expect(fleet.sync(0, at: "2026-11-21T10:00:00Z").stdout == "Pushed 2 events, pulled 0.\n")
        #expect(Self.blobs(fleet.export(fleet.server)).count == 2)
        let desktop = fleet.sync(1, at: "2026-11-21T10:01:00Z")
        #expect(desktop.status == 0 && desktop.stdout.hasPrefix("Pushed 1 event, pulled 2.\n"), "\(desktop.stdout)\(desktop.stderr)")
        #expect(fleet.sync(0, at: "2026-11-21T10:02:00Z").stdout == "Pushed 0 events, pulled 1.\n")

        let shared = fleet.export(fleet.server)
        let files = Self.blobs(shared)
        var expected: [String: [UInt8]] = [:]
        for name in laptopFiles + desktopFiles {
            let bytes = Array(try Data(contentsOf: URL(fileURLWithPath: Self.fixture(name))))
            expected[SHA256.hex(SHA256.digest(bytes))] = bytes
        }
        // Compared as a flag: a failure would otherwise print every byte.
        #expect(files.keys.sorted() == expected.keys.sorted())
        let sameBytes = files == expected
        #expect(sameBytes)
        #expect(fleet.server.run("verify").status == 0)
        for device in 0..<2 {
            #expect(fleet.export(fleet[device]) == shared, "device \(device)")
            let verify = fleet[device].run("verify")
            #expect(verify.status == 0, "device \(device): \(verify.stdout)\(verify.stderr)")
            #expect(fleet.sync(device, at: "2026-11-21T11:0\(device):00Z").stdout == "Pushed 0 events, pulled 0.\n")
        }
        #expect(fleet.export(fleet.server) == shared)
    }
}
