#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import TallyEngine
import TallyDomain
import TallyEssentials
import TallyArguments

/// `tally remote` — where this database syncs to.
enum RemoteGroup {
    static let spec = CommandSpec(
        name: "remote",
        abstract: "Set, show or remove the shared log this database syncs with.",
        discussion: "Stored in the database as local configuration, not as an event. A PostgreSQL URI, or the path of a shared tally file.",
        examples: [
            CommandExample("tally remote set postgresql://ada@db.example.com/tally", "Sync with a team's PostgreSQL log."),
            CommandExample("tally remote show", "The remote, the last sync and what is not pushed yet."),
        ]
    )
}

/// `tally remote set URL`
enum RemoteSetCommand: CommandHandler {
    static let spec = CommandSpec(
        name: "set",
        abstract: "Set the shared log to sync with.",
        discussion: "Nothing is contacted: the next 'tally sync' uses it. The synced history stays with the database, so a new address must hold the same log.",
        arguments: [ArgumentSpec(name: "URL", help: "postgresql://user@host:5432/dbname (also postgres://), or a file path.")],
        examples: [
            CommandExample("tally remote set postgresql://ada@db.example.com/tally?sslmode=require", "Use a PostgreSQL server."),
            CommandExample("tally remote set /mnt/team/tally-shared.db", "Use a tally file on a disk every device reaches."),
        ]
    )

    static func run(_ command: ParsedCommand, _ context: CLIContext) throws {
        guard let raw = command.arguments.first, !raw.trimming(.whitespaces).isEmpty else {
            throw UsageError(kind: .missingArgument("URL"), commandPath: command.path)
        }
        let address = RemoteAddress.normalized(raw)
        let log = try context.openReplica()
        if !RemoteAddress.isPostgres(address), address == RemoteAddress.normalized(context.settings.databasePath) {
            throw RemoteError.sameFile(address: address)
        }
        try log.setRemote(address)
        let shown = RemoteAddress.masked(address)
        if context.json {
            context.printJSON(.object(["url": .string(shown)]))
        } else {
            context.console.line(context.catalog.text(.remoteSet, ["url": shown]))
        }
    }
}

/// `tally remote show`
enum RemoteShowCommand: CommandHandler {
    static let spec = CommandSpec(
        name: "show",
        abstract: "Show the remote (password masked), the last sync and how many local events are not pushed.",
        examples: [
            CommandExample("tally remote show", "Where this database syncs to, and what is not pushed yet."),
            CommandExample("tally --json remote show", "The same as one JSON object."),
        ]
    )

    static func run(_ command: ParsedCommand, _ context: CLIContext) throws {
        let log = try context.openReplicaForReading()
        let replica = try log?.replicaState() ?? ReplicaState()
        let unpushed = try (log?.head().seq ?? 0) - replica.synced.seq
        if context.json {
            context.printJSON(RemoteStatus.json(replica, unpushed: unpushed))
            return
        }
        guard replica.remote != nil || replica.synced.seq > 0 else {
            context.console.line(context.catalog.text(.remoteNone))
            return
        }
        RemoteStatus.printRows(RemoteStatus.rows(replica, unpushed: unpushed, context: context), context)
    }
}

/// `tally remote remove`
enum RemoteRemoveCommand: CommandHandler {
    static let spec = CommandSpec(
        name: "remove",
        aliases: ["rm"],
        abstract: "Forget the remote; the synced history and unpushed events stay.",
        examples: [
            CommandExample("tally remote remove", "Stop syncing this database."),
            CommandExample("tally remote rm && tally remote set postgresql://ada@new.example.com/tally", "Move to a server that holds the same log."),
        ]
    )

    static func run(_ command: ParsedCommand, _ context: CLIContext) throws {
        let log = try context.openReplica()
        guard let address = try log.replicaState().remote else {
            context.console.line(context.catalog.text(.remoteNone))
            return
        }
        try log.setRemote(nil)
        let shown = RemoteAddress.masked(address)
        if context.json {
            context.printJSON(.object(["removed": .string(shown)]))
        } else {
            context.console.line(context.catalog.text(.remoteRemoved, ["url": shown]))
        }
    }
}

/// The remote's status, as `remote show` and `info` print it.
enum RemoteStatus {
    static func json(_ replica: ReplicaState, unpushed: Int64) -> JSON {
        .object([
            "url": replica.remote.map { .string(RemoteAddress.masked($0)) } ?? .null,
            "lastSync": replica.lastSync.map { .string(Timestamp.format($0)) } ?? .null,
            "unpushed": .int(unpushed),
            "synced": .object(["seq": .int(replica.synced.seq), "hash": .string(replica.synced.hash)]),
        ])
    }

    static func rows(_ replica: ReplicaState, unpushed: Int64, context: CLIContext) -> [(String, String)] {
        let catalog = context.catalog
        let lastSync = replica.lastSync.map {
            Timestamp.formatLocal($0, in: context.zone, withTime: true) + " (" + Age.format(milliseconds: context.now - $0, catalog: catalog) + ")"
        } ?? catalog.text(.remoteNever)
        return [
            (catalog.text(.remoteURL), replica.remote.map(RemoteAddress.masked) ?? catalog.text(.remoteNone)),
            (catalog.text(.remoteLastSync), lastSync),
            (catalog.text(.remoteUnpushed), catalog.plural(.countEvents, count: Int(unpushed))),
            (catalog.text(.remoteSynced), catalog.text(.remoteSyncedAt, ["seq": String(replica.synced.seq), "hash": String(replica.synced.hash.prefix(8))])),
        ]
    }

    static func printRows(_ rows: [(String, String)], _ context: CLIContext) {
        let width = rows.map { TextWidth.of($0.0) }.max() ?? 0
        for (label, value) in rows {
            context.console.line(TextWidth.pad(label, to: width, alignRight: false) + "  " + value)
        }
    }
}
