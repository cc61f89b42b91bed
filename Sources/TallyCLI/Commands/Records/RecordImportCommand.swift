#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import TallyEngine
import TallyDomain
import TallyEssentials
import TallyInterchange
import TallyArguments

/// `tally record import FILE|DIR...`
enum RecordImportCommand: CommandHandler {
    static let spec = CommandSpec(
        name: "import",
        abstract: "Import activities from GPX, TCX and FIT files, a Strava export or Garmin Connect's Activities.csv.",
        discussion: """
            Each FILE may be a .gpx, .tcx or .fit file, also gzipped (.gpx.gz, .fit.gz), a Strava bulk-export folder \
            (activities.csv and activities/) or its activities.csv, Garmin Connect's Activities.csv, or a folder, which \
            is searched for track files. From a track tally takes the start, elapsed and moving time, distance (the \
            device's total when the file has one), elevation gain, category and name, and the best efforts over the \
            standard distances. The original file is kept, named by its SHA-256, which the record's event carries.

            The whole run is one command: everything is imported or nothing is, and one 'tally undo' takes it back. \
            Importing the same file again adds nothing. Files that cannot be read are listed with the reason and skipped.
            """,
        arguments: [ArgumentSpec(name: "FILE", help: "A track file, a CSV or a folder.", repeating: true)],
        examples: [
            CommandExample(command: "tally record import ~/Downloads/export_12345", explanation: "Import a Strava bulk export: every activity, with its track."),
            CommandExample(command: "tally record import /media/GARMIN/Garmin/Activity", explanation: "Import every FIT file of a watch."),
            CommandExample(command: "tally record import morning.gpx evening.fit.gz", explanation: "Import two files."),
        ]
    )

    static func run(_ command: ParsedCommand, _ context: CLIContext) throws {
        // Ctrl-C rolls the import back (files and records) and says so, instead of dying with the bar on screen.
        try Interruption.watch(stopped: .errorInterruptedImport) { try importFiles(command, context) }
    }

    private static func importFiles(_ command: ParsedCommand, _ context: CLIContext) throws {
        // Every store keeps the original files next to its log (the BlobStore port).
        let (blobs, dispatcher) = try context.writing()
        var bar: ProgressBar?
        let importer = ActivityImport(blobs: blobs, zone: context.zone, inflate: { bytes, limit in
            try Gzip.decompress(bytes, limit: limit)
        }, progress: { done, total in
            if bar == nil { bar = ProgressBar(total: total, label: context.catalog.text(.activityImportLabel), context: context) { ByteSize.format(Int64($0)) } }
            bar?.update(done)
            try Interruption.check()
        })
        let report: ActivityImportReport
        do {
            defer { bar?.finish() }
            report = try importer.run(command.arguments, dispatcher: dispatcher)
        } catch ActivityImportError.notFound(let path) {
            throw CLIError.cannotOpenInput(path: path, reason: "no such file")
        }
        for source in report.cutShort {
            context.warn(code: "activity_cut_short", context.catalog.text(.activityCutShortImported, ["source": source]))
        }
        if context.json {
            let english = Catalog.english
            context.printJSON(.object([
                "imported": .array(report.imported.map(JSONShapes.record)),
                "alreadyPresent": .array(report.alreadyPresent.map { .string($0) }),
                "skipped": .array(report.skipped.map { .object(["source": .string($0.source), "reason": .string(reason($0.problem, english))]) }),
                "filesRead": .int(Int64(report.filesRead)),
                "bytesRead": .int(Int64(report.bytesRead)),
                "droppedEfforts": droppedJSON(report.droppedEfforts, state: report.outcome?.state),
            ]))
            return
        }
        let catalog = context.catalog
        if report.imported.isEmpty {
            context.console.line(catalog.text(.activityImportedNone))
        } else {
            context.console.line(catalog.plural(.activityImported, count: report.imported.count, [
                "files": String(report.filesRead), "size": ByteSize.format(Int64(report.bytesRead)),
            ]))
        }
        if !report.alreadyPresent.isEmpty {
            context.console.line(catalog.plural(.activityAlreadyPresent, count: report.alreadyPresent.count))
        }
        for notice in report.outcome?.decision.notices ?? [] {
            if case .recordImportedWhole = notice { context.console.line(NoticeText.text(notice, catalog)) }
        }
        printDropped(report.droppedEfforts, state: report.outcome?.state, context)
        if !report.skipped.isEmpty {
            context.console.line(catalog.plural(.activitySkipped, count: report.skipped.count))
            for skip in report.skipped {
                context.console.line(catalog.text(.activitySkipLine, ["source": skip.source, "reason": reason(skip.problem, catalog)]))
            }
        }
    }

    /// Says which stretches were left out of the best efforts for beating the world record.
    static func printDropped(_ dropped: [DroppedEfforts], state: ReadModel?, _ context: CLIContext) {
        guard !dropped.isEmpty else { return }
        let catalog = context.catalog
        let renderer = RecordRenderer(context: context)
        context.console.line(catalog.text(.activityEffortsDropped))
        for item in dropped {
            let label = state?.record(id: item.stream).map(renderer.label) ?? String(item.stream.prefix(8))
            for effort in item.efforts {
                context.console.line(catalog.text(.activityEffortDroppedLine, [
                    "record": label, "distance": RecordBestsCommand.label(effort.meters, catalog), "time": RecordBestsCommand.time(effort.seconds),
                    "category": item.category, "record_time": BestEfforts.footWorldRecords[effort.meters].map(RecordBestsCommand.time) ?? "-",
                ]))
            }
        }
    }

    /// `[{"id","number","category","meters","seconds","worldRecordSeconds"}]`, one per effort left out.
    static func droppedJSON(_ dropped: [DroppedEfforts], state: ReadModel?) -> JSON {
        var items: [JSON] = []
        for item in dropped {
            let number: JSON = state?.record(id: item.stream).map { .int(Int64($0.number)) } ?? .null
            for effort in item.efforts {
                let world: JSON = BestEfforts.footWorldRecords[effort.meters].map { .double($0) } ?? .null
                items.append(.object([
                    "id": .string(item.stream), "number": number, "category": .string(item.category),
                    "meters": .int(Int64(effort.meters)), "seconds": .double(effort.seconds), "worldRecordSeconds": world,
                ]))
            }
        }
        return .array(items)
    }

    /// Words for why a file was skipped.
    static func reason(_ problem: ActivityFileProblem, _ catalog: Catalog) -> String {
        switch problem {
        case .unknownFormat: catalog.text(.activityUnknownFormat)
        case .corrupt(let detail): catalog.text(.activityCorrupt, ["detail": detail])
        case .impossible(let detail): catalog.text(.activityImpossible, ["detail": detail])
        case .truncated: catalog.text(.activityTruncated)
        case .notAnActivity: catalog.text(.activityNotActivity)
        case .noTimestamps: catalog.text(.activityNoTimestamps)
        case .missingFile(let file): catalog.text(.activityMissingFile, ["file": file])
        case .outsideFolder(let file): catalog.text(.activityOutsideFolder, ["file": file])
        case .unreadable(let file, let reason): catalog.text(.activityUnreadable, ["file": file, "reason": reason])
        case .notAFile(let file): catalog.text(.activityNotAFile, ["file": file])
        case .tooLarge: catalog.text(.activityTooLarge, ["size": String(ActivityLimits.maxFileBytes >> 20)])
        }
    }
}
