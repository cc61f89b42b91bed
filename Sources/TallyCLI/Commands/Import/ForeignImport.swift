#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import TallyEngine
import TallyDomain
import TallyEssentials
import TallyPlatform
import TallyInterchange
import TallyArguments

/// Imports a Taskwarrior export or a todo.txt file as one user command (one undo step).
enum ForeignImport {
    /// The formats `--from` accepts.
    static let formats = ["taskwarrior", "todotxt"]

    /// Reads `path` (`-` is standard input), converts it and appends everything in one transaction.
    static func run(format: String, path: String, restoreDeleted: Bool, _ context: CLIContext) throws {
        let bytes = try read(path)
        let batch: ImportBatch
        do {
            switch format {
            case "taskwarrior": batch = try TaskwarriorImport.parse(bytes, zone: context.zone)
            case "todotxt": batch = try TodoTxtImport.parse(bytes, zone: context.zone)
            default: throw UsageError(kind: .invalidValue(option: "--from", value: format, allowed: formats), commandPath: [ImportCommand.spec.name])
            }
        } catch var error as ImportFormatError {
            error.path = path
            throw error
        }
        var result = Result()
        try Interruption.check()
        if !batch.todos.isEmpty || !batch.series.isEmpty {
            let outcome = try context.dispatcher().importTodos(batch, restoreDeleted: restoreDeleted).outcome
            result.imported = outcome.decision.affected.compactMap { outcome.state.todo(id: $0) }
            for notice in outcome.decision.notices {
                switch notice {
                case .alreadyImported(let source): result.present.append(source)
                case .importUpdated(let source, let number, let changes): result.updated.append((source, number, changes))
                case .importKeptDeleted(let source, let number, let open): result.keptDeleted.append((source, number, open))
                case .importSeriesUpdated(let source, let open, let changes): result.series.append((source, open, changes))
                case .importSeriesRefused(let source, let reason): result.refused.append((source, reason))
                case .importLegacyLeftAlone(let source, let number): result.legacy.append((source, number))
                default: break
                }
            }
        }
        if context.json {
            let english = Catalog.english
            context.printJSON(.object([
                "imported": .array(result.imported.map(JSONShapes.todo)),
                "updated": .array(result.updated.map { source, number, changes in
                    .object(["source": .string(label(source, english)), "number": .int(Int64(number)), "changes": names(changes)])
                }),
                "seriesUpdated": .array(result.series.map { source, open, changes in
                    .object(["source": .string(label(source, english)), "openInstance": open.map { .int(Int64($0)) } ?? .null, "changes": names(changes)])
                }),
                "seriesRefused": .array(result.refused.map { source, reason in
                    .object(["source": .string(label(source, english)), "reason": .string(refusal(reason, english, zone: context.zone))])
                }),
                "keptDeleted": .array(result.keptDeleted.map { source, number, open in
                    .object(["source": .string(label(source, english)), "number": .int(Int64(number)), "openInstance": open.map { .int(Int64($0)) } ?? .null])
                }),
                "legacyLeftAlone": .array(result.legacy.map { source, number in
                    .object(["source": .string(label(source, english)), "number": .int(Int64(number))])
                }),
                "alreadyPresent": .array(result.present.map { .string(label($0, english)) }),
                "skipped": .array(batch.skipped.map { issue($0, english, zone: context.zone) }),
                "warnings": .array(batch.warnings.map { issue($0, english, zone: context.zone) }),
            ]))
            return
        }
        report(result, batch: batch, path: path, context)
    }

    /// What the import did, item by item.
    private struct Result {
        var imported: [Todo] = []
        var present: [ImportSource] = []
        var updated: [(ImportSource, Int, [ImportChange])] = []
        var keptDeleted: [(ImportSource, Int, Int?)] = []
        var series: [(ImportSource, Int?, [ImportChange])] = []
        var refused: [(ImportSource, SeriesRefusal)] = []
        var legacy: [(ImportSource, Int)] = []
    }

    /// The changes for `--json`: each kind once, in the order they came.
    private static func names(_ changes: [ImportChange]) -> JSON {
        var seen: Set<ImportChange> = []
        return .array(changes.filter { seen.insert($0).inserted }.map { .string($0.rawValue) })
    }

    /// Why a series' rule was left as it was.
    static func refusal(_ reason: SeriesRefusal, _ catalog: Catalog, zone: Zone) -> String {
        func day(_ due: Due) -> String { due.localText(in: zone) }
        return switch reason {
        case .startMoved(let from, let to): catalog.text(.importSeriesStartMoved, ["from": day(from), "to": day(to)])
        case .unreadablePeriod(let value): catalog.text(.importSeriesUnreadablePeriod, ["value": TerminalText.escaped(value)])
        case .noStart: catalog.text(.importSeriesNoStart)
        }
    }

    /// One series a re-import changed.
    static func seriesLine(source: ImportSource, open: Int?, changes: [ImportChange], _ catalog: Catalog) -> String {
        let words = words(changes, catalog)
        guard let open else { return catalog.text(.importSeriesUpdatedNoOpen, ["source": label(source, catalog), "changes": words]) }
        return catalog.text(.importSeriesUpdatedLine, ["source": label(source, catalog), "number": String(open), "changes": words])
    }

    /// `completed; changed priority, due date` for a re-import's changes to one todo.
    static func words(_ changes: [ImportChange], _ catalog: Catalog) -> String {
        var parts: [String] = []
        var fields: [String] = []
        var counted: Set<ImportChange> = []
        for change in changes {
            switch change {
            case .annotated, .denotated, .annotationsLeftOut:
                guard counted.insert(change).inserted else { continue }
                let id: MessageID = change == .annotated ? .importChangeAnnotated : change == .denotated ? .importChangeDenotated : .importChangeAnnotationsLeftOut
                parts.append(catalog.plural(id, count: changes.filter { $0 == change }.count, ["max": String(Annotation.maxPerTodo)]))
            case .started: parts.append(catalog.text(.importChangeStarted))
            case .stopped: parts.append(catalog.text(.importChangeStopped))
            case .recur: fields.append(catalog.text(.importChangeRecur))
            case .recurFrom: fields.append(catalog.text(.importChangeRecurFrom))
            case .until: fields.append(catalog.text(.importChangeUntil))
            case .restored: parts.append(catalog.text(.importChangeRestored))
            case .completed: parts.append(catalog.text(.importChangeCompleted))
            case .reopened: parts.append(catalog.text(.importChangeReopened))
            case .deleted: parts.append(catalog.text(.importChangeDeleted))
            case .title: fields.append(catalog.text(.importChangeTitle))
            case .tags: fields.append(catalog.text(.importChangeTags))
            case .priority: fields.append(catalog.text(.importChangePriority))
            case .due: fields.append(catalog.text(.importChangeDue))
            case .note: fields.append(catalog.text(.importChangeNote))
            case .wait: fields.append(catalog.text(.importChangeWait))
            case .project: fields.append(catalog.text(.importChangeProject))
            case .after: fields.append(catalog.text(.importChangeAfter))
            }
        }
        if !fields.isEmpty { parts.append(catalog.text(.importChangedFields, ["fields": fields.joined(separator: ", ")])) }
        return parts.joined(separator: "; ")
    }

    /// One todo a re-import left deleted.
    static func keptDeletedLine(source: ImportSource, number: Int, open: Int?, _ catalog: Catalog) -> String {
        if let open {
            return catalog.text(.importKeptDeletedOpen, ["source": label(source, catalog), "number": String(number), "open": String(open)])
        }
        return catalog.text(.importKeptDeletedLine, ["source": label(source, catalog), "number": String(number)])
    }

    /// The whole file; a missing or unreadable file is exit 66.
    private static func read(_ path: String) throws -> [UInt8] {
        if path == "-" { return try LineReader(path: "-").readAll() }
        guard let isDirectory = FileProbe.isDirectory(path) else {
            throw CLIError.cannotOpenInput(path: path, reason: "no such file")
        }
        guard !isDirectory, let data = FileManager.default.contents(atPath: path) else {
            throw CLIError.cannotOpenInput(path: path, reason: isDirectory ? "it is a directory" : "permission denied")
        }
        return Array(data)
    }

    /// `{"source": ..., "reason": ...}` for `--json`, always in English so programs can rely on it.
    private static func issue(_ issue: ImportIssue, _ catalog: Catalog, zone: Zone) -> JSON {
        .object(["source": .string(label(issue.source, catalog)), "reason": .string(text(issue.problem, catalog, zone: zone))])
    }

    /// `line 3`, `item 2`, `task 1c5e2f0a`.
    static func label(_ source: ImportSource, _ catalog: Catalog) -> String {
        switch source {
        case .line(let number): catalog.text(.importSourceLine, ["number": String(number)])
        case .item(let number): catalog.text(.importSourceItem, ["number": String(number)])
        case .task(let id): catalog.text(.importSourceTask, ["id": id])
        }
    }

    /// The human summary: counts first, then every skipped item and warning with its source.
    private static func report(_ result: Result, batch: ImportBatch, path: String, _ context: CLIContext) {
        let catalog = context.catalog
        let console = context.console
        let imported = result.imported
        let present = result.present
        let completed = imported.filter { $0.completed && !$0.deleted }.count
        let deleted = imported.filter(\.deleted).count
        let detail = completed + deleted == 0 ? "" : " " + catalog.text(.importImportedDetail, [
            "completed": String(completed), "deleted": String(deleted),
        ])
        console.line(catalog.plural(.importImported, count: imported.count, ["path": path, "detail": detail]))
        if !present.isEmpty {
            console.line(catalog.plural(.importAlreadyPresent, count: present.count))
        }
        if !result.updated.isEmpty {
            console.line(catalog.plural(.importUpdated, count: result.updated.count))
            for (source, number, changes) in result.updated {
                console.line(catalog.text(.importUpdatedLine, ["source": label(source, catalog), "number": String(number), "changes": words(changes, catalog)]))
            }
        }
        if !result.series.isEmpty {
            console.line(catalog.plural(.importUpdatedSeries, count: result.series.count))
            for (source, open, changes) in result.series {
                console.line(seriesLine(source: source, open: open, changes: changes, catalog))
            }
        }
        if !result.refused.isEmpty {
            console.line(catalog.plural(.importSeriesRefused, count: result.refused.count))
            for (source, reason) in result.refused {
                console.line(catalog.text(.importIssueLine, ["source": label(source, catalog), "reason": refusal(reason, catalog, zone: context.zone)]))
            }
        }
        if !result.legacy.isEmpty {
            console.line(catalog.plural(.importLegacy, count: result.legacy.count))
            for (source, number) in result.legacy {
                console.line(catalog.text(.importLegacyLine, ["source": label(source, catalog), "number": String(number)]))
            }
        }
        if !result.keptDeleted.isEmpty {
            // With --restore-deleted, only instances whose series has an open one are left.
            let asked = result.keptDeleted.allSatisfy { $0.2 != nil }
            console.line(catalog.plural(asked ? .importNotRestored : .importKeptDeleted, count: result.keptDeleted.count))
            for (source, number, open) in result.keptDeleted {
                console.line(keptDeletedLine(source: source, number: number, open: open, catalog))
            }
        }
        if !batch.skipped.isEmpty {
            console.line(catalog.plural(.importSkipped, count: batch.skipped.count))
            for item in batch.skipped {
                console.line(catalog.text(.importIssueLine, ["source": label(item.source, catalog), "reason": text(item.problem, catalog, zone: context.zone)]))
            }
        }
        if !batch.warnings.isEmpty {
            console.line(catalog.plural(.importWarnings, count: batch.warnings.count))
            for item in batch.warnings {
                console.line(catalog.text(.importIssueLine, ["source": label(item.source, catalog), "reason": text(item.problem, catalog, zone: context.zone)]))
            }
        }
    }

    /// Words for one import problem.
    static func text(_ problem: ImportProblem, _ catalog: Catalog, zone: Zone) -> String {
        switch problem {
        case .missingTitle: catalog.text(.importMissingTitle)
        case .markersOnly: catalog.text(.importMarkersOnly)
        case .recurringTemplate: catalog.text(.importRecurringTemplate)
        case .invalidPeriod(let field, let value): catalog.text(.importInvalidPeriod, ["field": field, "value": value])
        case .recurrenceWithoutDue(let field): catalog.text(.importRecurrenceNeedsDue, ["field": field])
        case .laterOccurrencesSkipped(let count): catalog.plural(.importLaterOccurrences, count: count)
        case .recurringTemplateImported: catalog.text(.importTemplateImported)
        case .unknownStatus(let status): catalog.text(.importUnknownStatus, ["status": status])
        case .unsupportedField(let field): catalog.text(.importFieldKeptInNote, ["field": field])
        case .unsupportedFieldKeptInTitle(let field): catalog.text(.importUnsupportedFieldKept, ["field": field])
        case .unmappedTaskwarriorPriority(let value): catalog.text(.importTaskwarriorPriority, ["value": value])
        case .invalidPriorityKeptInTitle(let value): catalog.text(.importPriorityKeptInTitle, ["value": value])
        case .unmappedTodoTxtPriority(let value): catalog.text(.importTodoTxtPriority, ["value": value])
        case .invalidDate(let field, let value, let fallback):
            catalog.text(fallback == .keptInNote ? .importDateKeptInNote : .importDateImportTime, ["field": field, "value": value])
        case .invalidDateKeptInTitle(let field, let value): catalog.text(.importInvalidDateKept, ["field": field, "value": value])
        case .closedBeforeCreated(let created, let closed):
            catalog.text(.importClosedBeforeCreated, [
                "created": Timestamp.formatLocal(created, in: zone, withTime: true), "closed": Timestamp.formatLocal(closed, in: zone, withTime: true),
            ])
        case .controlCharactersReplaced: catalog.text(.importControlCharacters)
        case .titleLinesJoined: catalog.text(.importLinesJoined)
        case .titleShortened(let max): catalog.text(.importTitleShortened, ["max": String(max)])
        case .tagsKeptInNote(let tags): catalog.text(.importTagsKeptInNote, ["tags": tags.joined(separator: ", ")])
        case .tagsKeptInTitle(let tags): catalog.text(.importTagsKeptInTitle, ["tags": tags.joined(separator: ", ")])
        case .noteShortened(let max, let cut): catalog.text(.importNoteShortened, ["max": String(max), "cut": String(cut)])
        case .duplicateTask(let earlier): catalog.text(.importDuplicateTask, ["earlier": label(earlier, catalog)])
        case .tagsFromString: catalog.text(.importTagsFromString)
        case .malformedField(let field): catalog.text(.importMalformedField, ["field": field])
        case .annotationWithoutDescription: catalog.text(.importAnnotationNoDescription)
        case .annotationsKeptInNote(let count): catalog.plural(.importAnnotationsKeptInNote, count: count)
        case .invalid(let input): InvalidInputMessages.text(input, catalog: catalog)
        case .repeatedFieldKeptInTitle(let field): catalog.text(.importRepeatedFieldKept, ["field": field])
        case .dependencyCycleKeptInNote(let cycle):
            catalog.text(.importDependencyCycle, ["task": cycle.dropFirst().first ?? "", "cycle": cycle.joined(separator: " → ")])
        case .dependencyNotInFile(let uuids):
            catalog.plural(.importDependencyNotInFile, count: uuids.count, ["tasks": uuids.map { String($0.prefix(8)) }.joined(separator: ", ")])
        case .dependenciesPastLimit(let max, let uuids):
            catalog.plural(.importDependenciesPastLimit, count: uuids.count, ["max": String(max), "tasks": uuids.map { String($0.prefix(8)) }.joined(separator: ", ")])
        }
    }
}
