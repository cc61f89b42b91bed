import Foundation
import TallyApp
import TallyDomain
import TallyStorage

/// Why the shared log could not be used; each maps to its own message and exit code.
enum RemoteError: Error {
    /// No remote is set and none was given.
    case noRemote
    /// The remote cannot be opened: the server is down, the directory is missing, ...
    case unreachable(address: String, reason: String)
    /// The remote is the local database file itself.
    case sameFile(address: String)
    /// This build cannot open PostgreSQL addresses.
    case noPostgres(address: String)
    /// A sync refused or stopped; `address` names the remote (masked).
    case sync(address: String, SyncError)
}

/// The address of a shared log: a PostgreSQL URI, or the path of a SQLite file (a shared disk, or tests).
enum RemoteAddress {
    /// True for `postgresql://` and `postgres://` URIs.
    static func isPostgres(_ address: String) -> Bool {
        address.hasPrefix("postgresql://") || address.hasPrefix("postgres://")
    }

    /// The address as stored: URIs as given, a file path (or `file:` URL) made absolute.
    static func normalized(_ raw: String) -> String {
        if isPostgres(raw) { return raw }
        var path = raw
        if path.hasPrefix("file://") { path.removeFirst("file://".count) } else if path.hasPrefix("file:") { path.removeFirst("file:".count) }
        if !path.hasPrefix("/") { path = FileManager.default.currentDirectoryPath + "/" + path }
        return (path as NSString).standardizingPath
    }

    /// The address with any password replaced by `***`: in the user-info part and in a `password=` parameter.
    static func masked(_ address: String) -> String {
        guard isPostgres(address), let scheme = address.range(of: "://") else { return address }
        var rest = String(address[scheme.upperBound...])
        let authorityEnd = rest.firstIndex { $0 == "/" || $0 == "?" } ?? rest.endIndex
        if let at = rest[..<authorityEnd].lastIndex(of: "@"), let colon = rest[..<at].firstIndex(of: ":") {
            rest.replaceSubrange(rest.index(after: colon)..<at, with: "***")
        }
        var result = String(address[..<scheme.upperBound]) + rest
        if let query = result.firstIndex(of: "?") {
            let parameters = result[result.index(after: query)...].split(separator: "&", omittingEmptySubsequences: false).map { part -> String in
                part.lowercased().hasPrefix("password=") ? "password=***" : String(part)
            }
            result = String(result[...query]) + parameters.joined(separator: "&")
        }
        return result
    }

    /// Opens the shared log for reading and appending. A SQLite file is created when its directory
    /// exists (a new shared log); a missing directory means the shared disk is not there.
    static func open(_ address: String, localPath: String, context: CLIContext) throws -> EventLog {
        let shown = masked(address)
        if isPostgres(address) { throw RemoteError.noPostgres(address: shown) }
        if normalized(address) == normalized(localPath) {
            throw RemoteError.sameFile(address: shown)
        }
        let directory = (address as NSString).deletingLastPathComponent
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: directory, isDirectory: &isDirectory), isDirectory.boolValue else {
            throw RemoteError.unreachable(address: shown, reason: "the directory \(directory) does not exist")
        }
        do {
            return try context.openForWriting(path: address)
        } catch let error as EventLogError {
            if case .busy = error { throw error }
            throw RemoteError.unreachable(address: shown, reason: FailureMapper.failure(for: error, catalog: context.catalog).message)
        }
    }
}
