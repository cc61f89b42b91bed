import TallyEngine
import TallyDomain
import TallyInterchange
import TallyArguments

/// `tally record reanalyze [--all]`
enum RecordReanalyzeCommand: CommandHandler {
    static let spec = CommandSpec(
        name: "reanalyze",
        abstract: "Read imported activities again from their kept files with today's analysis.",
        discussion: """
            Every imported record whose figures come from an older analysis is read again from its original file \
            (kept by 'record import'): heart rate, cadence and power, moving time, elevation gain and best efforts. \
            A record that holds a whole multisport file, or a GPX file of several days, is split into one record \
            per leg or day, the first keeping its number. \
            The new figures are appended as events, all in one command: one 'tally undo' takes them back. A record \
            whose file is not stored is listed and left as it is.
            """,
        options: [OptionSpec(name: "all", help: "Read every imported record again, also those already analysed by this version.")],
        examples: [
            CommandExample(command: "tally record reanalyze", explanation: "Add heart rate, cadence and power to activities imported before tally read them."),
            CommandExample(command: "tally record reanalyze --all", explanation: "Read every imported activity again."),
        ]
    )

    static func run(_ command: ParsedCommand, _ context: CLIContext) throws {
        // Every store keeps the original files next to its log (the BlobStore port).
        let (blobs, dispatcher) = try context.writing()
        let kept = KeptTrack(blobs: blobs, inflate: { bytes, limit in try Gzip.decompress(bytes, limit: limit) })
        let report = try RecordReanalysis(kept: kept).run(all: command.has("all"), dispatcher: dispatcher)
        let renderer = RecordRenderer(context: context)
        if context.json {
            let english = Catalog.english
            context.printJSON(.object([
                "analysisVersion": .int(Int64(SensorAnalysis.version)),
                "analyzed": .array(report.analyzed.map(JSONShapes.record)),
                "unchanged": .int(Int64(report.unchanged)),
                "split": .array(report.split.map { .object(["number": .int(Int64($0.number)), "records": .int(Int64($0.parts))]) }),
                "droppedEfforts": RecordImportCommand.droppedJSON(report.droppedEfforts, state: report.outcome?.state),
                "skipped": .array(report.skipped.map { skip in
                    .object(["number": .int(Int64(skip.record.number)), "id": .string(skip.record.id), "reason": .string(reason(skip.problem, english))])
                }),
            ]))
            return
        }
        let catalog = context.catalog
        let version = String(SensorAnalysis.version)
        if report.analyzed.isEmpty {
            context.console.line(catalog.text(.reanalyzeNone, ["version": version]))
        } else {
            context.console.line(catalog.plural(.reanalyzeDone, count: report.analyzed.count, ["version": version]))
        }
        if report.unchanged > 0 { context.console.line(catalog.plural(.reanalyzeUnchanged, count: report.unchanged)) }
        for split in report.split {
            context.console.line(catalog.text(.reanalyzeSplit, ["number": String(split.number), "parts": String(split.parts)]))
        }
        RecordImportCommand.printDropped(report.droppedEfforts, state: report.outcome?.state, context)
        for skip in report.skipped {
            context.console.line(catalog.text(.activitySkipLine, ["source": renderer.label(skip.record), "reason": reason(skip.problem, catalog)]))
        }
    }

    /// Words for why a kept file could not be read again.
    static func reason(_ problem: KeptTrack.Problem, _ catalog: Catalog) -> String {
        switch problem {
        case .missing: catalog.text(.reanalyzeMissing)
        case .damaged: catalog.text(.reanalyzeDamaged)
        case .file(let problem): RecordImportCommand.reason(problem, catalog)
        }
    }
}
