import TallyEngine
import TallyDomain
import TallyEssentials
import TallyArguments

/// `tally snapshot`
enum SnapshotCommand: CommandHandler {
    static let spec = CommandSpec(
        name: "snapshot",
        abstract: "Store a snapshot of the read models now.",
        discussion: "Write commands take snapshots on their own once enough events have piled up after the last one; this takes one at once. The two newest snapshots are kept.",
        examples: [
            CommandExample(command: "tally snapshot", explanation: "Snapshot the current state, so the next start-up folds no tail."),
            CommandExample(command: "tally --db ~/work.db snapshot", explanation: "Snapshot another database file, whatever the length of its tail."),
        ]
    )

    static func run(_ command: ParsedCommand, _ context: CLIContext) throws {
        guard try context.openForReading() != nil else {
            return emptyLog(context)
        }
        let log = try context.openForWriting()
        let loaded = try context.loadReadOnlyState(log)
        guard loaded.model.position > 0 else { return emptyLog(context) }
        let info = try SnapshotWriter.write(loaded.folded, log: log, to: log, now: context.now)
        if context.json {
            context.printJSON(SnapshotShapes.snapshot(info, head: info.seq, now: context.now))
        } else {
            context.console.line(context.catalog.text(.snapshotWritten, [
                "seq": String(info.seq), "todos": context.catalog.plural(.countTodos, count: loaded.model.todos.count),
                "size": ByteSize.format(Int64(info.size)),
            ]))
        }
    }

    /// The notice (or JSON) for a store with no events.
    private static func emptyLog(_ context: CLIContext) {
        if context.json {
            context.printJSON(.null)
        } else {
            context.console.line(context.catalog.text(.snapshotEmptyLog))
        }
    }
}

/// JSON shapes of snapshot metadata.
enum SnapshotShapes {
    /// `{"seq","format","reducerVersion","createdAt","ageSeconds","tail","sizeBytes","checksum"}`.
    static func snapshot(_ info: SnapshotInfo, head: Int64, now: Int64) -> JSON {
        .object([
            "seq": .int(info.seq),
            "format": .int(Int64(info.format)),
            "reducerVersion": .int(Int64(info.reducerVersion)),
            "createdAt": .string(Timestamp.format(info.createdAt)),
            "ageSeconds": .int(max(0, now - info.createdAt) / 1000),
            "tail": .int(head - info.seq),
            "sizeBytes": .int(Int64(info.size)),
            "checksum": .string(info.checksum),
        ])
    }
}
