#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import TallyEngine
import TallyDomain
import TallyEssentials
import TallyArguments

/// `tally sync [--remote URL]`
enum SyncCommand: CommandHandler {
    static let spec = CommandSpec(
        name: "sync",
        abstract: "Push local events to the shared log and pull the ones this database lacks.",
        discussion: """
            The shared log's order is the one order: unpushed local events are rebased on top of what \
            others pushed meanwhile, keeping their ids, actors and times. Conflicting changes are decided \
            the same way on every device and named here; 'tally conflicts' lists them later. On an empty \
            database sync is a clone. Without a server, every other command keeps working offline.
            """,
        options: [OptionSpec(name: "remote", valueName: "URL", help: "The shared log for this run (stored as the remote when none is set).", defaultValue: "the remote set with 'tally remote set'")],
        examples: [
            CommandExample("tally sync", "Exchange events with the remote."),
            CommandExample("tally --db laptop.db sync --remote postgresql://ada@db.example.com/tally", "Clone a shared log into a new database."),
        ]
    )

    static func run(_ command: ParsedCommand, _ context: CLIContext) throws {
        // Ctrl-C stops at the next point where what is saved is known, and says what that is (exit 130).
        try Interruption.watch(stopped: .errorInterruptedSync) { try sync(command, context) }
    }

    private static func sync(_ command: ParsedCommand, _ context: CLIContext) throws {
        let local = try context.openReplica()
        let given = command.value("remote").map(RemoteAddress.normalized)
        let replica = try local.replicaState()
        guard let address = given ?? replica.remote else { throw RemoteError.noRemote }
        let shown = RemoteAddress.masked(address)
        // A file this replica synced with before is never created anew: missing, it is unreachable.
        let remote = try RemoteAddress.open(address, localPath: context.settings.databasePath, synced: replica.synced, context: context)
        // A clone or a long pull inserts many rows into the index of random event ids.
        try local.prepareForPull()
        let engine = SyncEngine(local: local, remote: remote, now: { context.now })
        var bar: ProgressBar?
        engine.onPull = { done, total in
            if bar == nil { bar = ProgressBar(total: Int(total), label: context.catalog.text(.syncPullLabel), context: context, showsRate: true) }
            bar?.update(Int(done))
            try Interruption.check()
        }
        // Once the pull is saved, stopping before the push keeps the pulled events and pushes nothing.
        engine.afterStep = { step in
            if step == "local" { try Interruption.check(kept: .errorInterruptedSyncPulled) }
        }
        let report: SyncReport
        do {
            defer { bar?.finish() }
            report = try engine.run()
        } catch let error as SyncError {
            throw RemoteError.sync(address: shown, error)
        }
        if replica.remote == nil { try local.setRemote(address) }
        guard !report.isNoOp else { return print(report, state: ReadModel(), context) }
        guard !Interruption.isRequested else { return print(report, state: try context.readState(local), context) }
        // Like any write: store a snapshot when the tail has grown long enough.
        let dispatcher = try context.dispatcher()
        try dispatcher.settle()
        print(report, state: dispatcher.state, context)
    }

    private static func print(_ report: SyncReport, state: ReadModel, _ context: CLIContext) {
        if context.json {
            context.printJSON(.object([
                "pushed": .int(Int64(report.pushed)), "pulled": .int(Int64(report.pulled)),
                "conflicts": .array(report.conflicts.map { SyncMessages.json($0, now: state) }),
                "renumbered": .array(report.renumbered.map(SyncMessages.json)),
                "head": .object(["seq": .int(report.head.seq), "hash": .string(report.head.hash)]),
            ]))
            return
        }
        let catalog = context.catalog
        context.console.line(catalog.text(.syncSummary, [
            "events": catalog.plural(.countEvents, count: report.pushed), "pulled": String(report.pulled),
        ]))
        if !report.conflicts.isEmpty {
            context.console.line(catalog.plural(.syncConflicts, count: report.conflicts.count))
            for conflict in report.conflicts {
                context.console.line(SyncMessages.line(conflict, now: state, before: report.before, context: context))
            }
        }
        for item in report.renumbered {
            context.console.line(SyncMessages.renumbered(item, catalog: catalog))
        }
    }

    /// The actor whose commands undo and redo may revert: on a shared log (a server, or a
    /// database that syncs with one) only the current actor's own; elsewhere nil (every command).
    static func undoActor(_ log: any EventStore, _ context: CLIContext) throws -> String? {
        if context.settings.storeLocation.isShared { return context.settings.actor }
        guard let replica = log.replica else { return nil }
        let state = try replica.replicaState()
        return state.remote != nil || state.synced.seq > 0 ? context.settings.actor : nil
    }
}

/// `tally conflicts`
enum ConflictsCommand: CommandHandler {
    static let spec = CommandSpec(
        name: "conflicts",
        abstract: "List every change a sync dropped or let override another.",
        discussion: "Kept in this database, newest sync last, so nothing a user typed disappears silently.",
        examples: [
            CommandExample("tally conflicts", "What past syncs could not apply as typed."),
            CommandExample("tally --json conflicts", "The same as JSON objects."),
        ]
    )

    static func run(_ command: ParsedCommand, _ context: CLIContext) throws {
        guard let log = try context.openReplicaForReading() else {
            if context.json { context.printJSON(.array([])) } else { context.console.line(context.catalog.text(.conflictsNone)) }
            return
        }
        let stored = try log.storedConflicts()
        let state = try context.readState(log)
        if context.json {
            context.printJSON(.array(stored.map { entry in
                guard case .object(var object) = SyncMessages.json(entry.conflict, now: state) else { return .null }
                object["syncedAt"] = .string(Timestamp.format(entry.syncedAt))
                return .object(object)
            }))
            return
        }
        guard !stored.isEmpty else {
            context.console.line(context.catalog.text(.conflictsNone))
            return
        }
        var lastSync: Int64?
        for entry in stored {
            if entry.syncedAt != lastSync {
                lastSync = entry.syncedAt
                context.console.line(context.catalog.text(.conflictsHeader, ["time": Timestamp.formatLocal(entry.syncedAt, in: context.zone, withTime: true)]))
            }
            context.console.line(SyncMessages.line(entry.conflict, now: state, before: state, context: context))
        }
    }
}
