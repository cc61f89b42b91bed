import Foundation
import Testing
import TallyTestSupport

/// The README, CONTRIBUTING, CHANGELOG and docs/ link to each other by relative paths and
/// heading anchors; a moved file or a renamed heading must not leave a link behind.
@Suite("Links between the docs")
struct DocumentationLinkTests {
    static let roots = ["README.md", "CONTRIBUTING.md", "CHANGELOG.md", "migrations/README.md"]

    /// Every Markdown file of the docs, relative to the package.
    static func documents() throws -> [String] {
        var found = roots
        let docs = PackageFiles.url("docs")
        let walker = FileManager.default.enumerator(atPath: docs.path)
        while let name = walker?.nextObject() as? String {
            if name.hasSuffix(".md") { found.append("docs/" + name) }
        }
        return found.sorted()
    }

    /// GitHub's anchor for a heading: lowercased, punctuation dropped, spaces as hyphens.
    static func anchor(_ heading: String) -> String {
        String(heading.lowercased().compactMap { character -> Character? in
            if character == " " { return "-" }
            if character.isLetter || character.isNumber || character == "-" || character == "_" { return character }
            return nil
        })
    }

    /// The lines outside fenced code blocks.
    static func prose(_ text: String) -> [Substring] {
        var inCode = false
        return text.split(separator: "\n", omittingEmptySubsequences: false).filter { line in
            if line.hasPrefix("```") { inCode.toggle(); return false }
            return !inCode
        }
    }

    static func headings(_ text: String) -> Set<String> {
        Set(prose(text).compactMap { line -> String? in
            guard line.hasPrefix("#"), let space = line.firstIndex(of: " ") else { return nil }
            guard line[..<space].allSatisfy({ $0 == "#" }) else { return nil }
            return anchor(String(line[line.index(after: space)...]))
        })
    }

    /// `](target)` links that are not URLs.
    static func links(_ text: String) -> [String] {
        var result: [String] = []
        for line in prose(text) {
            var rest = line[...]
            while let open = rest.range(of: "](") {
                rest = rest[open.upperBound...]
                guard let close = rest.firstIndex(of: ")") else { break }
                let target = String(rest[..<close])
                rest = rest[close...]
                if target.contains("://") || target.hasPrefix("mailto:") || target.hasPrefix("<") || target.contains(" ") { continue }
                result.append(target)
            }
        }
        return result
    }

    static func normalized(_ path: String) -> String {
        var parts: [Substring] = []
        for part in path.split(separator: "/") {
            if part == "." { continue }
            if part == "..", !parts.isEmpty { parts.removeLast(); continue }
            parts.append(part)
        }
        return parts.joined(separator: "/")
    }

    @Test("every relative link names a file that exists, and a heading that file has")
    func linksResolve() throws {
        let files = try Self.documents()
        var texts: [String: String] = [:]
        for file in files { texts[file] = try String(contentsOf: PackageFiles.url(file), encoding: .utf8) }
        #expect(files.contains("docs/design/guarantees.md") && files.contains("docs/reference/commands.md"))
        var checked = 0
        for file in files {
            let directory = file.contains("/") ? String(file[..<file.lastIndex(of: "/")!]) : ""
            for link in Self.links(texts[file]!) {
                let parts = link.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false)
                let path = String(parts[0])
                let target = path.isEmpty ? file : Self.normalized(directory.isEmpty ? path : directory + "/" + path)
                #expect(FileManager.default.fileExists(atPath: PackageFiles.url(target).path), "\(file): \(link) names no file")
                if parts.count == 2, target.hasSuffix(".md") {
                    let text = try texts[target] ?? String(contentsOf: PackageFiles.url(target), encoding: .utf8)
                    #expect(Self.headings(text).contains(String(parts[1])), "\(file): \(link) names no heading of \(target)")
                }
                checked += 1
            }
        }
        #expect(checked > 50, "only \(checked) links found: the scan is broken")
    }

    @Test("the README stays short: under 200 lines")
    func readmeIsShort() throws {
        let readme = try String(contentsOf: PackageFiles.url("README.md"), encoding: .utf8)
        #expect(readme.split(separator: "\n", omittingEmptySubsequences: false).count < 200)
    }
}
