import Foundation
import Testing
import TallyTestSupport
@testable import TallyCLI
@testable import TallyEssentials

/// The version a binary says it is, the licence and the licences of the committed third-party files.
@Suite("Versions and licences")
struct PackagingTests {
    @Test("the release version is the version of CHANGELOG.md's top entry")
    func changelogNamesTheRelease() throws {
        let changelog = try String(contentsOf: PackageFiles.url("CHANGELOG.md"), encoding: .utf8)
        let top = try #require(changelog.split(separator: "\n").first { $0.hasPrefix("## ") })
        #expect(top.contains(BuildVersion.release), "\(top)")
        #expect(BuildVersion.release.split(separator: ".").count == 3 && BuildVersion.release.allSatisfy { $0.isNumber || $0 == "." })
    }

    @Test("a stamped version names its commit cut to 12 characters; an unstamped one only the version")
    func description() {
        #expect(BuildVersion.describe(version: "0.9.0", commit: nil) == "0.9.0")
        #expect(BuildVersion.describe(version: "0.9.0", commit: "") == "0.9.0")
        #expect(BuildVersion.describe(version: "0.9.0-3-g1a2b3c4-dirty", commit: "1a2b3c4d5e6f7a8b9c0d1a2b3c4d5e6f7a8b9c0d")
            == "0.9.0-3-g1a2b3c4-dirty (commit 1a2b3c4d5e6f)")
    }

    @Test("--version and info say the same version, in text and JSON")
    func versionEverywhere() throws {
        let tally = TallyRunner()
        let version = tally.run("--version")
        #expect(version.status == 0 && version.stdout == "tally \(BuildVersion.description)\n" && version.stderr.isEmpty)
        let info = tally.run("info")
        #expect(info.status == 0 && info.stdout.contains("Version ") && info.stdout.contains("tally \(BuildVersion.description)\n"))
        let json = try #require(tally.run("info", "--json").json?.objectValue)
        #expect(json["version"]?.stringValue == BuildVersion.version)
        #expect(tally.run(["info"], environment: ["LANG": "cs_CZ.UTF-8"]).stdout.contains("Verze"))
    }

    @Test("scripts/version-stamp names the checkout's commit and a version")
    func stampScript() throws {
        guard FileManager.default.fileExists(atPath: PackageFiles.url(".git").path) else { return }
        let process = Process()
        process.executableURL = PackageFiles.url("scripts/version-stamp")
        process.arguments = ["--print"]
        let pipe = Pipe()
        process.standardOutput = pipe
        try process.run()
        let output = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        let words = output.split(separator: " ").map { $0.trimmingCharacters(in: .whitespacesAndNewlines) }
        #expect(process.terminationStatus == 0 && words.count == 2)
        #expect(words.first?.first?.isNumber == true)
        #expect(words.last?.count == 40 && words.last?.allSatisfy(\.isHexDigit) == true, "\(output)")
    }

    @Test("outside git, version-stamp reads .tarball-version, and without it stamps nothing")
    func stampWithoutGit() throws {
        let directory = TemporaryDirectory()
        let root = URL(fileURLWithPath: directory.path("tally-src"))
        let version = root.appendingPathComponent("Sources/TallyCLI/Version")
        try FileManager.default.createDirectory(at: version, withIntermediateDirectories: true)
        try FileManager.default.createDirectory(at: root.appendingPathComponent("scripts"), withIntermediateDirectories: true)
        try FileManager.default.copyItem(at: PackageFiles.url("Sources/TallyCLI/Version/BuildVersion.swift"), to: version.appendingPathComponent("BuildVersion.swift"))
        let script = root.appendingPathComponent("scripts/version-stamp")
        try FileManager.default.copyItem(at: PackageFiles.url("scripts/version-stamp"), to: script)
        func stamp(_ arguments: [String] = []) throws -> String {
            let process = Process()
            process.executableURL = script
            process.arguments = arguments
            process.currentDirectoryURL = root
            let pipe = Pipe()
            process.standardOutput = pipe
            try process.run()
            let output = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            process.waitUntilExit()
            #expect(process.terminationStatus == 0)
            return output
        }
        let generated = version.appendingPathComponent("BuildStamp.generated.swift").path
        // A copy of the sources with neither .git nor .tarball-version: the release version, no stamp.
        #expect(try stamp() == "")
        #expect(!FileManager.default.fileExists(atPath: generated))
        #expect(try stamp(["--print"]) == "\(BuildVersion.release) -\n")
        // A source tarball of make dist.
        try "1.2.3 0123456789abcdef0123456789abcdef01234567\n".write(to: root.appendingPathComponent(".tarball-version"), atomically: true, encoding: .utf8)
        #expect(try stamp() == "-Xswiftc -DTALLY_STAMPED\n")
        let text = try String(contentsOfFile: generated, encoding: .utf8)
        #expect(text.contains("static let version: String? = \"1.2.3\"") && text.contains("0123456789abcdef0123456789abcdef01234567"))
        // Anything that could break out of a Swift string is not stamped.
        try "1.2.3\" 0123\n".write(to: root.appendingPathComponent(".tarball-version"), atomically: true, encoding: .utf8)
        #expect(try stamp() == "")
        #expect(!FileManager.default.fileExists(atPath: generated))
    }

    @Test("LICENSE, the README and the package metadata name the same licence")
    func licence() throws {
        let licence = try String(contentsOf: PackageFiles.url("LICENSE"), encoding: .utf8)
        #expect(licence.hasPrefix("                                 Apache License\n                           Version 2.0, January 2004"))
        let readme = try String(contentsOf: PackageFiles.url("README.md"), encoding: .utf8)
        #expect(readme.contains("Apache License 2.0") && readme.contains("(LICENSE)"))
        let manifest = try String(contentsOf: PackageFiles.url("Package.swift"), encoding: .utf8)
        #expect(manifest.contains("Apache-2.0"))
        let formula = try String(contentsOf: PackageFiles.url("packaging/homebrew/tally.rb"), encoding: .utf8)
        #expect(formula.contains("license \"Apache-2.0\""))
    }

    @Test("every third-party fixture is listed with its licence, and every file and licence text listed exists")
    func fixtureLicences() throws {
        let list = try String(contentsOf: PackageFiles.url("Tests/Fixtures/LICENSES.md"), encoding: .utf8)
        let rows = list.split(separator: "\n").filter { $0.hasPrefix("| `") }
        #expect(rows.count >= 7)
        var named: [String] = []
        for row in rows {
            let cells = row.split(separator: "|").map { $0.trimmingCharacters(in: .whitespaces) }
            #expect(cells.count == 4, "\(row)")
            guard cells.count == 4 else { continue }
            // The first file of a cell carries its folder; the others in the cell are in the same folder.
            var folder = ""
            for file in Self.quoted(cells[0]) {
                if file.contains("/") { folder = String(file[..<file.lastIndex(of: "/")!]) + "/" }
                let path = file.contains("/") ? file : folder + file
                if path.contains("*") {
                    let directory = PackageFiles.url(String(path[..<path.lastIndex(of: "/")!]))
                    let names = try FileManager.default.contentsOfDirectory(atPath: directory.path)
                    let prefix = String(path[path.index(after: path.lastIndex(of: "/")!)...].prefix { $0 != "*" })
                    #expect(names.contains { $0.hasPrefix(prefix) }, "\(path)")
                } else {
                    #expect(FileManager.default.fileExists(atPath: PackageFiles.url(path).path), "\(path)")
                    named.append(path)
                }
            }
            for text in Self.quoted(cells[3]) {
                #expect(FileManager.default.fileExists(atPath: PackageFiles.url(text).path), "\(text)")
            }
        }
        // Every activity file came from another project.
        let activities = try FileManager.default.contentsOfDirectory(atPath: PackageFiles.url("Tests/Fixtures/activities").path)
        for name in activities where !name.hasPrefix("README") && !name.hasPrefix("LICENSE") {
            #expect(named.contains("Tests/Fixtures/activities/" + name), "\(name) is not in Tests/Fixtures/LICENSES.md")
        }
    }

    /// The `backquoted` words of a table cell.
    static func quoted(_ cell: String) -> [String] {
        cell.split(separator: "`", omittingEmptySubsequences: false).enumerated().filter { $0.offset % 2 == 1 }.map { String($0.element) }
    }
}
