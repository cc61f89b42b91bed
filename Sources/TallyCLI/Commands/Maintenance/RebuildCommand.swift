#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import TallyEngine
import TallyDomain
import TallyArguments

/// `tally rebuild`
enum RebuildCommand: CommandHandler {
    static let spec = CommandSpec(
        name: "rebuild",
        abstract: "Discard all snapshots, replay the whole log and store a fresh snapshot.",
        discussion: "Shows progress on standard error when it is a terminal. Other tally processes may keep working meanwhile.",
        examples: [
            CommandExample(command: "tally rebuild", explanation: "Recompute every view from the first event."),
            CommandExample(command: "tally verify || tally rebuild", explanation: "Replace snapshots that verify reports as wrong with a fresh one."),
        ]
    )

    static func run(_ command: ParsedCommand, _ context: CLIContext) throws {
        // Ctrl-C during the replay leaves the snapshots as they were and says so (exit 130).
        try Interruption.watch(stopped: .errorInterruptedRebuild) { try rebuild(context) }
    }

    private static func rebuild(_ context: CLIContext) throws {
        let catalog = context.catalog
        guard try context.openForReading() != nil else {
            return emptyLog(context)
        }
        let log = try context.openForWriting()
        var bar: ProgressBar?
        let clock = ContinuousClock()
        let started = clock.now
        let result: RebuildResult
        do {
            result = try Rebuild.run(log: log, snapshots: log, now: context.now) { progress in
                if bar == nil { bar = ProgressBar(total: Int(progress.total), label: catalog.text(.rebuildLabel), context: context, showsRate: true) }
                bar?.update(Int(progress.position))
                try Interruption.check()
            }
        } catch {
            bar?.finish()
            throw error
        }
        bar?.finish()
        context.keepUntilExit(result.folded.model)
        let seconds = ProgressBar.seconds(clock.now - started)
        guard let snapshot = result.snapshot else { return emptyLog(context) }
        let events = result.folded.model.position
        let rate = seconds > 0 ? Int64(Double(events) / seconds) : events
        if context.json {
            context.printJSON(.object([
                "events": .int(events),
                "discardedSnapshots": .int(Int64(result.discarded)),
                "seconds": .double(seconds),
                "eventsPerSecond": .int(rate),
                "snapshot": SnapshotShapes.snapshot(snapshot, head: snapshot.seq, now: context.now),
            ]))
        } else {
            context.console.line(catalog.text(.rebuildDone, [
                "events": catalog.plural(.countEvents, count: Int(events)),
                "duration": catalog.text(.durationSeconds, ["seconds": CFormat.fixed(seconds, places: 2)]),
                "rate": String(rate), "seq": String(snapshot.seq),
            ]))
        }
    }

    /// The notice (or JSON) for a store with no events.
    private static func emptyLog(_ context: CLIContext) {
        if context.json {
            context.printJSON(.object(["events": .int(0), "discardedSnapshots": .int(0), "snapshot": .null]))
        } else {
            context.console.line(context.catalog.text(.rebuildEmptyLog))
        }
    }
}
