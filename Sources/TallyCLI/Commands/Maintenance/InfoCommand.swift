#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import TallyEngine
import TallyDomain
import TallyStores
import TallyEssentials
import TallyArguments

/// `tally info`
enum InfoCommand: CommandHandler {
    static let spec = CommandSpec(
        name: "info",
        abstract: "Show the database path, schema version, counts, size and snapshot status.",
        discussion: "A read-only command: it never creates the database.",
        examples: [
            CommandExample(command: "tally info", explanation: "Where the data lives and how much there is."),
            CommandExample(command: "tally --db ~/work.db info", explanation: "The same for another database file."),
        ]
    )

    static func run(_ command: ParsedCommand, _ context: CLIContext) throws {
        let location = context.settings.storeLocation
        let path = location.display
        let store = try context.openForReading()
        let log: any EventStore = store ?? InMemoryStore()
        let loaded = try context.loadReadOnlyState(log)
        let state = loaded.model
        let head = try log.head()
        let todos = state.todos
        // The stored counts: no todo is read.
        let deleted = todos.counts.deleted
        let completed = todos.counts.completed
        let active = todos.count - deleted - completed
        let size = try store?.storageSize() ?? 0
        let schema = try store?.schemaVersion() ?? 0
        let known = store?.latestSchemaVersion ?? 0
        let replica = try store?.replica?.replicaState() ?? ReplicaState()
        let syncs = replica.remote != nil || replica.synced.seq > 0
        if context.json {
            var shape: JSONObject = [
                "path": .string(path),
                "exists": .bool(store != nil),
                "schemaVersion": .int(Int64(schema)),
                "events": .int(head.seq),
                "todos": .object(["total": .int(Int64(todos.count)), "active": .int(Int64(active)), "completed": .int(Int64(completed)), "deleted": .int(Int64(deleted))]),
                "records": .object(["total": .int(Int64(state.records.count)), "deleted": .int(Int64(state.records.counts.deleted))]),
                "fileSizeBytes": .int(size),
                "snapshot": loaded.snapshot.map { SnapshotShapes.snapshot($0, head: head.seq, now: context.now) } ?? .null,
                "remote": syncs ? RemoteStatus.json(replica, unpushed: head.seq - replica.synced.seq) : .null,
            ]
            if let role = store?.appendingRole { shape["role"] = .string(role) }
            context.printJSON(.object(shape))
            return
        }
        let catalog = context.catalog
        var rows: [(String, String)] = [(catalog.text(.infoPath), path)]
        if let role = store?.appendingRole {
            rows.append((catalog.text(.infoServer), catalog.text(.infoServerValue, ["role": role])))
        }
        if store == nil {
            rows.append((catalog.text(.infoStatus), catalog.text(location.isShared ? .infoServerMissing : .infoMissing)))
        } else {
            rows.append((catalog.text(.infoSchema), String(schema) + (known > schema ? " (\(known))" : "")))
            rows.append((catalog.text(.infoEvents), String(head.seq)))
            rows.append((catalog.text(.infoTodos), catalog.text(.infoTodoCounts, [
                "total": String(todos.count), "active": catalog.plural(.footerActive, count: active),
                "completed": catalog.plural(.footerCompleted, count: completed), "deleted": catalog.plural(.footerDeleted, count: deleted),
            ])))
            rows.append((catalog.text(.infoRecords), catalog.text(.infoRecordCounts, [
                "total": String(state.records.count), "deleted": catalog.plural(.footerDeleted, count: state.records.counts.deleted),
            ])))
            rows.append((catalog.text(location.isShared ? .infoServerSize : .infoSize), ByteSize.format(size)))
            rows.append((catalog.text(.infoSnapshot), snapshotStatus(loaded, head: head.seq, context)))
            if syncs { rows += RemoteStatus.rows(replica, unpushed: head.seq - replica.synced.seq, context: context).prefix(3) }
        }
        let width = rows.map { TextWidth.of($0.0) }.max() ?? 0
        for (label, value) in rows {
            context.console.line(TextWidth.pad(label, to: width, alignRight: false) + "  " + value)
        }
    }
}

extension InfoCommand {
    /// `@120, 5 minutes ago, 3 events after it`, `none`, or why stored snapshots were ignored.
    static func snapshotStatus(_ loaded: LoadedState, head: Int64, _ context: CLIContext) -> String {
        let catalog = context.catalog
        guard let snapshot = loaded.snapshot else {
            return loaded.problems.isEmpty ? catalog.text(.infoNoSnapshot) : catalog.text(.infoSnapshotIgnored, ["count": String(loaded.problems.count)])
        }
        return catalog.text(.infoSnapshotStatus, [
            "seq": String(snapshot.seq),
            "age": Age.format(milliseconds: context.now - snapshot.createdAt, catalog: catalog),
            "tail": catalog.plural(.countEvents, count: Int(head - snapshot.seq)),
        ])
    }
}

/// How long ago something happened, in the largest whole unit: `just now`, `5 minutes ago`, `2 days ago`.
enum Age {
    /// The age of something `milliseconds` old.
    static func format(milliseconds: Int64, catalog: Catalog) -> String {
        let seconds = Int(max(0, milliseconds) / 1000)
        switch seconds {
        case ..<1: return catalog.text(.ageJustNow)
        case ..<60: return catalog.plural(.ageSeconds, count: seconds)
        case ..<3600: return catalog.plural(.ageMinutes, count: seconds / 60)
        case ..<86_400: return catalog.plural(.ageHours, count: seconds / 3600)
        default: return catalog.plural(.ageDays, count: seconds / 86_400)
        }
    }
}

/// Human-readable byte counts: `812 B`, `4.2 KB`, `1.5 MB` (powers of 1000).
enum ByteSize {
    static func format(_ bytes: Int64) -> String {
        let units = ["B", "KB", "MB", "GB", "TB"]
        var value = Double(bytes)
        var unit = 0
        while value >= 1000, unit < units.count - 1 {
            value /= 1000
            unit += 1
        }
        return unit == 0 ? "\(bytes) B" : CFormat.fixed(value, places: 1) + " " + units[unit]
    }
}
