import Foundation

/// A fresh directory under the system temporary directory, removed when released.
public final class TemporaryDirectory: Sendable {
    public let url: URL

    public init(_ label: String = "tally-test") {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("\(label)-\(UUID().uuidString)")
        try! FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    deinit {
        try? FileManager.default.removeItem(at: url)
    }

    /// The path of a file inside the directory.
    public func path(_ name: String) -> String {
        url.appendingPathComponent(name).path
    }
}

/// Where the package's files are, found from this source file.
public enum PackageFiles {
    public static let root: URL = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    public static func url(_ relative: String) -> URL {
        root.appendingPathComponent(relative)
    }
}
