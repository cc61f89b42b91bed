import Foundation
import Testing
import TallyDomain
import TallyTestSupport
@testable import TallyEssentials

/// A downloaded export folder that tries to make `record import` read files outside it: names in
/// `activities.csv` that climb out or are absolute, symbolic links (files and directories) leading
/// out, and files that may not be read. None of them is read, stored or exported; each is reported.
@Suite("Nothing outside the folder you named")
struct FolderEscapeAttackTests {
    static let fixtures = PackageFiles.url("Tests/Fixtures/activities")

    /// A secret activity outside the export, an export folder beside it, and the runner.
    struct Setup {
        let tally = TallyRunner()
        var root: String { tally.directory.path("downloads") }
        var export: String { PathText.appending(root, "export") }
        var outside: String { PathText.appending(root, "private") }
        /// The SHA-256 of each secret file, which must never reach the store.
        var secrets: [String] = []

        init() throws {
            let manager = FileManager.default
            try manager.createDirectory(atPath: PathText.appending(export, "activities"), withIntermediateDirectories: true)
            try manager.createDirectory(atPath: outside, withIntermediateDirectories: true)
            for (source, name) in [("fenix5-run.fit", "secret.fit"), ("cerknicko-jezero.gpx", "secret.gpx")] {
                let bytes = try Data(contentsOf: FolderEscapeAttackTests.fixtures.appendingPathComponent(source))
                try bytes.write(to: URL(fileURLWithPath: PathText.appending(outside, name)))
                secrets.append(SHA256.hex(SHA256.digest(Array(bytes))))
            }
            try Data(contentsOf: FolderEscapeAttackTests.fixtures.appendingPathComponent("fenix5-bike.fit"))
                .write(to: URL(fileURLWithPath: PathText.appending(export, "activities/ok.fit")))
        }

        func link(_ name: String, to target: String) throws {
            try FileManager.default.createSymbolicLink(atPath: PathText.appending(export, name), withDestinationPath: target)
        }

        /// Writes `activities.csv` with one row per file name (row n is on line n + 1).
        func csv(_ files: [String]) throws {
            var text = "Activity ID,Activity Date,Activity Name,Activity Type,Elapsed Time,Distance,Filename\n"
            for (index, file) in files.enumerated() {
                text += "\(index + 1),\"Jan \(index + 1), 2024, 10:00:00 AM\",Run \(index + 1),Run,1800,5,\(file)\n"
            }
            try text.write(toFile: PathText.appending(export, "activities.csv"), atomically: true, encoding: .utf8)
        }

        /// No secret in the store: not as a record's file, not in an export.
        func expectNoSecret() {
            let exported = tally.run("export")
            #expect(exported.status == 0)
            for secret in secrets {
                #expect(!exported.stdout.contains(secret), "the file outside the folder was stored")
            }
            #expect(tally.run("verify").status == 0)
        }
    }

    @Test("names in activities.csv that lead out of the folder are reported, never read")
    func csvNames() throws {
        let setup = try Setup()
        try setup.link("activities/link.fit", to: "../../private/secret.fit")
        try setup.link("activities/dir", to: "../../private")
        try setup.link("activities/absolute.fit", to: PathText.appending(setup.outside, "secret.fit"))
        try setup.link("activities/inside.fit", to: "ok.fit")
        try FileManager.default.createDirectory(atPath: PathText.appending(setup.export, "activities/deep"), withIntermediateDirectories: true)
        try setup.link("activities/deep/up", to: "../..")
        try setup.link("activities/deep/top", to: "../../..")
        let hostile = [
            "../private/secret.gpx", PathText.appending(setup.outside, "secret.gpx"), "activities/../../private/secret.fit",
            "activities/link.fit", "activities/dir/secret.fit", "activities/absolute.fit", "activities/deep/up/../private/secret.fit",
            "activities/deep/top/private/secret.fit", "./../private/secret.gpx", "activities//..//..//private/secret.gpx",
        ]
        try setup.csv(["activities/ok.fit"] + hostile + ["activities/inside.fit", "activities/missing.fit"])
        let result = setup.tally.run(["record", "import", setup.export])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.hasPrefix("Imported 1 activity"), "\(result.stdout)")
        for (index, name) in hostile.enumerated() {
            #expect(result.stdout.contains("activities.csv line \(index + 3): \(name) leads out of the folder being imported; it was not read"), "\(name): \(result.stdout)")
        }
        // A link that stays inside the folder is followed: the same file as row 1, already imported.
        #expect(result.stdout.contains("1 activity was imported before; skipped."), "\(result.stdout)")
        #expect(result.stdout.contains("the track file activities/missing.fit is missing"))
        let json = setup.tally.run(["--json", "record", "import", setup.export]).json
        let skipped = json?.objectValue?["skipped"]?.arrayValue ?? []
        #expect(skipped.count == hostile.count + 1)
        setup.expectNoSecret()
        #expect(setup.tally.run(["record", "list", "--json"]).json?.arrayValue?.count == 1)
    }

    @Test("a folder searched for tracks does not follow links out of it")
    func searchedFolder() throws {
        let setup = try Setup()
        try setup.link("activities/link.fit", to: "../../private/secret.fit")
        try setup.link("activities/dir", to: "../../private")
        try setup.link("activities/absolute.gpx", to: PathText.appending(setup.outside, "secret.gpx"))
        let result = setup.tally.run(["record", "import", setup.export])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.hasPrefix("Imported 1 activity"), "\(result.stdout)")
        #expect(result.stdout.contains("link.fit leads out of the folder being imported"), "\(result.stdout)")
        #expect(result.stdout.contains("absolute.gpx leads out of the folder being imported"), "\(result.stdout)")
        setup.expectNoSecret()
    }

    @Test("activities.csv itself may not be a link out of the folder")
    func csvLink() throws {
        let setup = try Setup()
        let foreign = PathText.appending(setup.outside, "activities.csv")
        try "Activity ID,Activity Date,Activity Name,Activity Type,Elapsed Time,Distance,Filename\n1,\"Jan 1, 2024, 10:00:00 AM\",A,Run,100,1,secret.fit\n"
            .write(toFile: foreign, atomically: true, encoding: .utf8)
        try setup.link("activities.csv", to: foreign)
        let result = setup.tally.run(["record", "import", setup.export])
        #expect(result.stdout.contains("leads out of the folder being imported"), "\(result.stdout) \(result.stderr)")
        setup.expectNoSecret()
    }

    @Test("a file that may not be read is reported as unreadable, not as missing")
    func unreadable() throws {
        let manager = FileManager.default
        guard manager.isExecutableFile(atPath: "/usr/bin/setpriv") || getuid() != 0 else { return }
        let setup = try Setup()
        let locked = PathText.appending(setup.export, "activities/locked.fit")
        try manager.copyItem(atPath: PathText.appending(setup.outside, "secret.fit"), toPath: locked)
        try manager.setAttributes([.posixPermissions: 0], ofItemAtPath: locked)
        try setup.csv(["activities/ok.fit", "activities/locked.fit"])
        // As root, permissions do not apply: run as nobody, with the database in a folder nobody may write to.
        let launcher = getuid() == 0 ? ["/usr/bin/setpriv", "--reuid=nobody", "--regid=nogroup", "--clear-groups"] : []
        try manager.setAttributes([.posixPermissions: 0o777], ofItemAtPath: setup.tally.directory.url.path)
        for folder in [setup.root, setup.export, setup.outside, PathText.appending(setup.export, "activities")] {
            try manager.setAttributes([.posixPermissions: 0o755], ofItemAtPath: folder)
        }
        let result = setup.tally.run(["record", "import", setup.export], launcher: launcher)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("activities.csv line 3: activities/locked.fit cannot be read (Permission denied)"), "\(result.stdout)")
        #expect(!result.stdout.contains("missing"))
        let named = setup.tally.run(["record", "import", locked], launcher: launcher)
        #expect(named.stdout.contains("cannot be read (Permission denied)"), "\(named.stdout) \(named.stderr)")
    }
}
