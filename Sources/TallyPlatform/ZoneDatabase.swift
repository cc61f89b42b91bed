#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import TallyEssentials

/// Finds the zone that `TZ` names, in the system's zone database, the way the C library does.
///
/// - unset or empty: the system's zone, `/etc/localtime`; UTC when there is none;
/// - `:` followed by a path or a name: the same as without the colon;
/// - an absolute path: that TZif file;
/// - `Area/City` (or `UTC`, `EST5EDT`, ...): the TZif file of that name under `TZDIR`, else `/usr/share/zoneinfo`;
/// - otherwise a POSIX TZ string such as `CET-1CEST,M3.5.0,M10.5.0/3` or `UTC0`;
/// - anything else: the system's zone, as if `TZ` were unset.
///
/// Only the one file a command needs is read.
public enum ZoneDatabase {
    /// Where the zone files live when `TZDIR` does not say.
    public static let defaultDirectory = "/usr/share/zoneinfo"
    /// The system's zone.
    public static let systemZoneFile = "/etc/localtime"

    /// The zone for an environment's `TZ` and `TZDIR`.
    public static func zone(environment: [String: String]) -> Zone {
        let directory = environment["TZDIR"].flatMap { $0.isEmpty ? nil : $0 } ?? defaultDirectory
        if var name = environment["TZ"], !name.isEmpty {
            if name.hasPrefix(":") { name.removeFirst() }
            if let zone = zone(named: name, directory: directory) { return zone }
        }
        return system()
    }

    /// The system's zone: `/etc/localtime`, else UTC.
    public static func system() -> Zone {
        (try? load(path: systemZoneFile, name: "localtime")) ?? .utc
    }

    /// The zone for `name`: a path, a name in the database, or a POSIX TZ string; nil when it is none of these.
    public static func zone(named name: String, directory: String = defaultDirectory) -> Zone? {
        guard !name.isEmpty else { return nil }
        if name.hasPrefix("/") { return try? load(path: name, name: name) }
        if isDatabaseName(name), let zone = try? load(path: directory + "/" + name, name: name) {
            return zone
        }
        if name == "UTC" || name == "GMT" || name == "Z" { return Zone(name: name, initialOffset: 0) }
        return PosixZoneRule(name).map { Zone(name: name, initialOffset: $0.standardOffset, rule: $0) }
    }

    /// A relative path without `..` steps: `Europe/Prague`, `Etc/GMT+5`, `UTC`.
    public static func isDatabaseName(_ name: String) -> Bool {
        !name.hasPrefix("/") && !name.split(separator: "/", omittingEmptySubsequences: false).contains { $0 == ".." || $0.isEmpty }
    }

    /// Reads and parses one TZif file.
    public static func load(path: String, name: String) throws -> Zone {
        let data = try Data(contentsOf: URL(fileURLWithPath: path))
        return try TZif.parse(Array(data), name: name)
    }
}

extension Zone {
    /// The zone of this process: `TZ` and `TZDIR` of its environment, read through `ZoneDatabase`.
    public static var current: Zone {
        ZoneDatabase.zone(environment: ProcessInfo.processInfo.environment)
    }

    /// The zone database's zone of that name (`Europe/Prague`), a TZif file's path, or a POSIX TZ string; nil
    /// when it is none of these.
    public static func named(_ name: String) -> Zone? {
        ZoneDatabase.zone(named: name)
    }
}
