import Foundation
import TallyTestSupport
import Testing

/// tally links FoundationEssentials only: full Foundation brings FoundationInternationalization and the ICU
/// data (about 45 MB of the 60 MB a statically linked binary had). A module that imports `Foundation` again on
/// Linux puts their names back into the binary: the dynamic library names in a debug build
/// (`libFoundation.so`), the module names in a static release build (`FoundationInternationalization`,
/// `_FoundationICU`, the `icudt` data).
@Suite("the tally binary links no ICU")
struct BinaryFoundationTests {
    static let markers = ["libFoundation.so", "FoundationInternationalization", "_FoundationICU", "icudt"]

    /// The binaries to check: the one the end-to-end tests run, and a release build when there is one.
    static var binaries: [URL] {
        let release = PackageFiles.url(".build/release/tally")
        return [TallyRunner.binary] + (FileManager.default.isExecutableFile(atPath: release.path) ? [release] : [])
    }

    @Test func noFullFoundationInTheBinary() throws {
        #if os(Linux)
        for binary in Self.binaries {
            let bytes = try Data(contentsOf: binary)
            for marker in Self.markers {
                #expect(bytes.range(of: Data(marker.utf8)) == nil, "\(binary.path) contains \(marker): a module imports full Foundation")
            }
        }
        #endif
    }

    /// The check above would pass on a file that is not a binary at all: make sure it finds what it looks for.
    @Test func theMarkersAreFoundWhereTheyAre() throws {
        #if os(Linux)
        let bytes = try Data(contentsOf: TallyRunner.binary)
        #expect(bytes.range(of: Data("libFoundationEssentials.so".utf8)) != nil || bytes.range(of: Data("FoundationEssentials".utf8)) != nil)
        #endif
    }
}
