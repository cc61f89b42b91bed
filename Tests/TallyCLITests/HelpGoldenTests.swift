import Foundation
import Testing
import TallyTestSupport
@testable import TallyCLI
@testable import TallyArguments

/// Every help text is compared, byte for byte, with a committed file under `Tests/TallyCLITests/Golden/`.
///
/// After an intended change to a spec or to the renderer, regenerate them with
/// `TALLY_UPDATE_GOLDEN=1 swift test --filter HelpGoldenTests` and review the diff.
@Suite("help texts match the golden files")
struct HelpGoldenTests {
    static let directory = PackageFiles.url("Tests/TallyCLITests/Golden")
    static let updating = ProcessInfo.processInfo.environment["TALLY_UPDATE_GOLDEN"] == "1"

    /// Every visible command path, groups included, in tree order.
    static func visiblePaths(_ spec: CommandSpec, prefix: [String] = []) -> [[String]] {
        spec.subcommands.filter { !$0.hidden }.flatMap { child in
            [prefix + [child.name]] + visiblePaths(child, prefix: prefix + [child.name])
        }
    }

    static let cases: [(name: String, text: String)] = {
        var cases = [
            ("tally", ShortOverview.render(root: CommandTree.root)),
            ("tally--help", HelpRenderer.overview(root: CommandTree.root, globalOptions: CommandTree.globalOptions)),
        ]
        for path in visiblePaths(CommandTree.root) {
            let spec = CommandTree.root.descendant(at: path)!
            cases.append((
                (["tally"] + path).joined(separator: "-"),
                HelpRenderer.render(spec, path: path, globalOptions: CommandTree.globalOptions)
            ))
        }
        return cases
    }()

    @Test("each command's help equals its golden file", arguments: cases.map(\.name))
    func golden(_ name: String) throws {
        let text = Self.cases.first { $0.name == name }!.text
        let url = Self.directory.appendingPathComponent(name + ".txt")
        if Self.updating {
            try FileManager.default.createDirectory(at: Self.directory, withIntermediateDirectories: true)
            try text.write(to: url, atomically: true, encoding: .utf8)
            return
        }
        guard let expected = try? String(contentsOf: url, encoding: .utf8) else {
            Issue.record("No golden file \(url.path). Create it with: TALLY_UPDATE_GOLDEN=1 swift test --filter HelpGoldenTests")
            return
        }
        if text != expected {
            Issue.record("""
                The help for '\(name)' differs from \(url.lastPathComponent):
                \(Diff.describe(expected.components(separatedBy: "\n"), text.components(separatedBy: "\n")))
                If the change is intended, regenerate with: TALLY_UPDATE_GOLDEN=1 swift test --filter HelpGoldenTests
                """)
        }
    }

    @Test("every help has an overview, a usage line, options and at least two examples")
    func complete() {
        for path in Self.visiblePaths(CommandTree.root) {
            let spec = CommandTree.root.descendant(at: path)!
            let text = HelpRenderer.render(spec, path: path, globalOptions: CommandTree.globalOptions)
            #expect(text.hasPrefix("OVERVIEW: "), "\(path)")
            #expect(text.contains("\nUSAGE: tally "), "\(path)")
            #expect(text.contains("\nOPTIONS:\n"), "\(path)")
            #expect(spec.examples.count >= 2, "'tally \(path.joined(separator: " "))' needs at least two examples")
        }
    }

    @Test("there is no golden file for a command that no longer exists")
    func noStaleFiles() throws {
        let names = Set(Self.cases.map { $0.name + ".txt" })
        let files = (try? FileManager.default.contentsOfDirectory(atPath: Self.directory.path)) ?? []
        let stale = files.filter { $0.hasSuffix(".txt") && !names.contains($0) }
        #expect(stale.isEmpty, "Stale golden files (delete them): \(stale.sorted())")
    }
}
