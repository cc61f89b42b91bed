import Foundation
import Testing
import TallyDomain
import TallyTestSupport

/// `tally record import` of hostile FIT, TCX and GPX files, end to end: a refused file is named with
/// its reason and appends nothing; whatever is accepted leaves a store that `verify`, `snapshot` and
/// `rebuild` still accept, and whose export imports into an empty store unchanged.
@Suite("record import of hostile activity files")
struct ActivityFileAttackTests {
    /// A store with one ordinary record in it, so that "nothing lost" has something to lose.
    static func store() -> TallyRunner {
        let tally = TallyRunner(now: "2026-11-21T12:00:00Z")
        tally.run("record", "add", "Evening run", "--category", "running", "--duration", "45m", "--distance", "8km")
        return tally
    }

    /// `verify`, `snapshot` and `rebuild` succeed, and the export imports into an empty store byte for byte.
    static func expectHealthy(_ tally: TallyRunner, _ context: String) {
        let verify = tally.run("verify")
        #expect(verify.status == 0, "\(context): verify: \(verify.stdout)\(verify.stderr)")
        let snapshot = tally.run("snapshot")
        #expect(snapshot.status == 0, "\(context): snapshot: \(snapshot.stderr)")
        let rebuild = tally.run("rebuild")
        #expect(rebuild.status == 0, "\(context): rebuild: \(rebuild.stderr)")
        let exported = tally.run("export")
        #expect(exported.status == 0)
        let copy = TallyRunner(now: "2026-11-21T12:00:00Z")
        let file = copy.directory.path("export.jsonl")
        try? exported.stdout.write(toFile: file, atomically: true, encoding: .utf8)
        let imported = copy.run("import", file)
        #expect(imported.status == 0, "\(context): the export does not import: \(imported.stderr)")
        #expect(copy.run("export").stdout == exported.stdout, "\(context): the export changes on import")
    }

    @Test("the issue's files (FIT timestamps past Int64, endless sessions, a 5,000 km climb; TCX laps of NaN, inf, 1e300 and below zero) are refused by name and reason")
    func knownFiles() throws {
        let tally = Self.store()
        for (name, file, bytes) in KnownHostileFiles.impossible {
            let path = tally.directory.path(file)
            try Data(bytes).write(to: URL(fileURLWithPath: path))
            let before = tally.run("export").stdout
            let result = tally.run("record", "import", path)
            #expect(result.status == 0, "\(name): \(result.stderr)")
            #expect(result.stdout.hasPrefix("No new activities.\nSkipped 1 file:\n"), "\(name): \(result.stdout)")
            #expect(result.stdout.contains("  \(path): impossible value ("), "\(name): \(result.stdout)")
            #expect(result.stderr.isEmpty, "\(name): \(result.stderr)")
            #expect(tally.run("export").stdout == before, "\(name): something was appended")
            let json = tally.run("record", "import", path, "--json").json?.objectValue
            let skipped = json?["skipped"]?.arrayValue?.first?.objectValue
            #expect(skipped?["source"]?.stringValue == path)
            #expect(skipped?["reason"]?.stringValue?.hasPrefix("impossible value (") == true, "\(name)")
        }
        #expect(tally.eventCount == 1)
        Self.expectHealthy(tally, "after the issue's files")
    }

    @Test("a folder of generated hostile files: each imported or skipped with a reason, one event per import, and the store stays whole")
    func generatedFolder() throws {
        let rounds = AttackScale.count(short: 1, full: 12)
        var files = HostileActivityFiles(SeededRandom(seed: 2_022))
        for round in 0..<rounds {
            let tally = Self.store()
            let folder = tally.directory.path("hostile-\(round)")
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
            let count = AttackScale.count(short: 45, full: 150)
            var names: [String] = []
            for index in 0..<count {
                let file = files.any()
                let name = String(format: "%04d-", index) + file.name
                try Data(file.bytes).write(to: URL(fileURLWithPath: folder + "/" + name))
                names.append(name)
            }
            let result = tally.run("record", "import", folder, "--json")
            #expect(result.status == 0, "round \(round): \(result.stderr)")
            let report = try #require(result.json?.objectValue, "round \(round): \(result.stdout)\(result.stderr)")
            let imported = report["imported"]?.arrayValue ?? []
            let skipped = report["skipped"]?.arrayValue ?? []
            let present = report["alreadyPresent"]?.arrayValue ?? []
            #expect(imported.count + skipped.count + present.count == count, "round \(round): every file is accounted for")
            for skip in skipped {
                let source = skip.objectValue?["source"]?.stringValue ?? ""
                let reason = skip.objectValue?["reason"]?.stringValue ?? ""
                #expect(names.contains { source.hasSuffix("/" + $0) } && !reason.isEmpty, "round \(round): \(source): \(reason)")
            }
            #expect(tally.eventCount == Int64(1 + imported.count), "round \(round): one event per imported file, none for a refused one")
            Self.expectHealthy(tally, "round \(round)")
        }
    }
}
