#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import TallyEngine
import TallyStores
import TallyDomain
import TallyEssentials
import TallyPlatform

/// Why the shared log could not be used; each maps to its own message and exit code.
enum RemoteError: Error {
    /// No remote is set and none was given.
    case noRemote
    /// The remote cannot be opened: the server is down, the directory is missing, ...
    case unreachable(address: String, reason: String)
    /// The remote is the local database file itself.
    case sameFile(address: String)
    /// `--db` names a server: sync works on a local database.
    case notLocal(address: String)
    /// A sync refused or stopped; `address` names the remote (masked).
    case sync(address: String, SyncError)
}

/// The address of a shared log: a PostgreSQL URI, or the path of a SQLite file (a shared disk, or tests).
enum RemoteAddress {
    /// True for `postgresql://` and `postgres://` URIs.
    static func isPostgres(_ address: String) -> Bool {
        StoreLocation(address).isShared
    }

    /// The address as stored: URIs as given, a file path (or `file:` URL) made absolute.
    static func normalized(_ raw: String) -> String {
        if isPostgres(raw) { return raw }
        var path = raw
        if path.hasPrefix("file://") { path.removeFirst("file://".count) } else if path.hasPrefix("file:") { path.removeFirst("file:".count) }
        if !path.hasPrefix("/") { path = FileManager.default.currentDirectoryPath + "/" + path }
        return resolvingLinks(PathText.standardized(path, home: nil))
    }

    /// An absolute path with the symbolic links of its existing part resolved (`/tmp/link/x.db` →
    /// `/tmp/real/x.db` even when `x.db` does not exist yet), so two spellings of one file compare equal.
    static func resolvingLinks(_ path: String) -> String {
        if let resolved = realpath(path, nil) {
            defer { free(resolved) }
            return String(cString: resolved)
        }
        let parent = PathText.deletingLastComponent(path)
        guard parent != path, !parent.isEmpty else { return path }
        return PathText.appending(resolvingLinks(parent), PathText.lastComponent(path))
    }

    /// The address fit to print: any password replaced by `***`.
    static func masked(_ address: String) -> String {
        StoreLocation(address).display
    }

    /// Opens the shared log for reading and appending. A SQLite file is created when its directory
    /// exists (a new shared log) unless `synced` says this replica has synced with it before: then
    /// a missing file, like a missing directory, means the shared disk is not there (unreachable),
    /// and nothing is created.
    static func open(_ address: String, localPath: String, synced: LogHead, context: CLIContext) throws -> any EventStore {
        let location = StoreLocation(address)
        try checkFile(address, localPath: localPath, synced: synced, context: context)
        do {
            return try context.openForWriting(location, create: location.isShared || synced.seq == 0)
        } catch let error as EventLogError {
            throw unreachable(address, error, context: context)
        }
    }

    /// Opens the shared log without ever writing to it or creating it; a missing one is unreachable.
    static func openForReading(_ address: String, localPath: String, synced: LogHead, context: CLIContext) throws -> any EventStore {
        let location = StoreLocation(address)
        try checkFile(address, localPath: localPath, synced: synced, context: context)
        let log: (any EventStore)?
        do {
            log = try context.openForReading(location)
        } catch let error as EventLogError {
            throw unreachable(address, error, context: context)
        }
        guard let log else {
            throw RemoteError.unreachable(address: masked(address), reason: context.catalog.text(.syncNoFile, ["seq": String(synced.seq)]))
        }
        return log
    }

    /// For a file: not this database itself, in a folder that exists, and there when this replica synced with it.
    private static func checkFile(_ address: String, localPath: String, synced: LogHead, context: CLIContext) throws {
        guard !StoreLocation(address).isShared else { return }
        let shown = masked(address)
        if normalized(address) == normalized(localPath) { throw RemoteError.sameFile(address: shown) }
        let directory = PathText.deletingLastComponent(address)
        guard FileProbe.isDirectory(directory) == true else {
            throw RemoteError.unreachable(address: shown, reason: context.catalog.text(.syncNoFolder, ["folder": directory]))
        }
        if synced.seq > 0, FileProbe.isDirectory(address) == nil {
            throw RemoteError.unreachable(address: shown, reason: context.catalog.text(.syncNoFile, ["seq": String(synced.seq)]))
        }
    }

    /// A store error while opening the shared log, as the user should read it.
    private static func unreachable(_ address: String, _ error: EventLogError, context: CLIContext) -> Error {
        // A server that answered and refused (the login, the database name, a grant) is not
        // unreachable: it gets the same message and code as with --db. What follows is said once,
        // with the address named once.
        switch error {
        case .unavailable(let failure) where failure.kind == .refused || failure.kind == .lost:
            RemoteError.unreachable(address: masked(address), reason: failure.detail)
        case .io, .corrupt:
            RemoteError.unreachable(address: masked(address), reason: FailureMapper.failure(for: error, catalog: context.catalog).message)
        default:
            error
        }
    }
}

extension CLIContext {
    /// This database as a replica, for writing: sync, remote and conflicts work on a local file.
    func openReplica() throws -> any EventStore & ReplicaStore {
        guard !settings.storeLocation.isShared, let replica = try openForWriting().replica else {
            throw RemoteError.notLocal(address: settings.storeLocation.display)
        }
        return replica
    }

    /// This database as a replica, read-only; nil when the file does not exist.
    func openReplicaForReading() throws -> (any EventStore & ReplicaStore)? {
        guard !settings.storeLocation.isShared else { throw RemoteError.notLocal(address: settings.storeLocation.display) }
        return try openForReading()?.replica
    }
}
