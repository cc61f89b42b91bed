import TallyEngine
import TallyDomain
import TallyEssentials
import TallyArguments

/// `tally redact REF --field FIELD [--record] [--reason TEXT]`: erases every past value of a field for good.
enum RedactCommand: CommandHandler {
    static let spec = CommandSpec(
        name: "redact",
        abstract: "Erase every past value of one field of a todo or record for good, keeping the log verifiable.",
        discussion: """
            Every value the field ever had, in every event of the item (its creation, edits, undos, synced \
            and imported events, and the series a todo belongs to), is replaced by a marker that keeps \
            only a salted commitment, so every hash of the chain stays what it was and 'tally verify' still \
            proves that nothing else changed. One history.redacted event records who, when, why and which \
            field, never the value. Snapshots are dropped, freed database pages are overwritten and the \
            write-ahead log is emptied. A redaction cannot be undone. Backups and exports made \
            before it keep the value, and a replica keeps it until its next sync: see docs/guide/history.md.
            """,
        arguments: [ArgumentSpec(name: "REF", help: "The todo (a number or a unique id prefix); with --record, the record.")],
        options: [
            OptionSpec(name: "field", valueName: "FIELD", help: "The field to erase: title, note, tags, project or annotations (the text of every annotation); for a record name, place or note."),
            OptionSpec(name: "annotation", valueName: "N", help: "Erase only the text of the todo's Nth annotation (as 'show' numbers them) instead of every annotation's; implies --field annotations."),
            OptionSpec(name: "file", help: "With --record: erase the record's kept activity files (GPX, TCX, FIT) instead of a field."),
            OptionSpec(name: "reason", valueName: "TEXT", help: "Why, kept in the history.redacted event (never the value itself)."),
            OptionSpec(name: "record", help: "REF names a record, not a todo."),
        ],
        examples: [
            CommandExample(command: "tally redact 12 --field note --reason \"pasted a password\"", explanation: "Erase every note todo 12 ever had."),
            CommandExample(command: "tally redact 12 --field annotations", explanation: "Erase the text of every annotation todo 12 ever had."),
            CommandExample(command: "tally redact 4 --record --field place", explanation: "Erase every place record 4 ever had."),
            CommandExample(command: "tally redact 4 --record --file", explanation: "Erase the activity file record 4 was imported from (its route)."),
        ]
    )

    static func run(_ command: ParsedCommand, _ context: CLIContext) throws {
        guard let ref = command.arguments.first else { throw UsageError(kind: .missingArgument("REF"), commandPath: command.path) }
        if command.arguments.count > 1 { throw UsageError(kind: .unexpectedArgument(command.arguments[1]), commandPath: command.path) }
        let record = command.has("record")
        let file = command.has("file")
        if file, command.value("field") != nil { throw UsageError(kind: .conflictingOptions("--field", "--file"), commandPath: command.path) }
        let annotationIndex = command.value("annotation")
        if annotationIndex != nil {
            if file { throw UsageError(kind: .conflictingOptions("--annotation", "--file"), commandPath: command.path) }
            if record { throw UsageError(kind: .conflictingOptions("--annotation", "--record"), commandPath: command.path) }
            if let other = command.value("field"), other != Commitment.annotationsField {
                throw UsageError(kind: .conflictingOptions("--annotation", "--field \(other)"), commandPath: command.path)
            }
        }
        if !file, annotationIndex == nil, command.value("field") == nil { throw UsageError(kind: .missingArgument("--field"), commandPath: command.path) }
        if file, !record { throw RedactFailure(error: .notRedactable(field: Redaction.fileField, record: false), item: ref) }
        let field = file ? Redaction.fileField : command.value("field") ?? Commitment.annotationsField
        var reason = command.value("reason").map { TextForm.normalized($0) }
        if let text = reason, text.isEmpty { reason = nil }
        if let text = reason, Redaction.problem(RedactionFacts(stream: "00000000-0000-0000-0000-000000000000", field: "note", events: [], reason: text)) != nil {
            throw CLIError.invalidOptionValue(option: "--reason", value: String(text.prefix(40)), expected: "at most \(RedactionFacts.maxReasonLength) characters without control characters")
        }
        let (store, dispatcher) = try context.writing()
        let stream: String
        let item: String
        if record {
            let found = try ReferenceResolver.record(ref, in: dispatcher.state)
            (stream, item) = (found.id, String(found.number))
        } else {
            let found = try ReferenceResolver.todo(ref, in: dispatcher.state)
            (stream, item) = (found.id, String(found.number))
        }
        // --annotation N: the annotation `show` lists as N now.
        var annotation: String?
        if let index = annotationIndex {
            let annotations = dispatcher.state.todo(id: stream)?.annotations ?? []
            guard let position = Int(index), position >= 1, position <= annotations.count else {
                throw DomainError.invalid(.noSuchAnnotation(number: Int(item) ?? 0, index: index, count: annotations.count))
            }
            annotation = annotations[position - 1].id
        }
        let result: RedactionOutcome
        do {
            result = try dispatcher.redact(stream: stream, record: record, field: field, reason: reason, annotation: annotation, keptFiles: store)
        } catch let error as HistoryError {
            throw RedactFailure(error: error, item: item)
        }
        let seqs = result.erased.flatMap(\.events)
        if file {
            let names = Redaction.files(in: try dispatcher.log.events(inStream: stream)).names
            if context.json {
                context.printJSON(.object(["item": .string(stream), "files": .array(names.map { .string($0) }), "events": .array(seqs.map { .int($0) })]))
            } else {
                context.console.line(context.catalog.plural(.redactFilesErased, count: names.count))
            }
            return
        }
        if context.json {
            context.printJSON(.object([
                "item": .string(stream), "field": .string(field), "reason": reason.map { .string($0) } ?? .null,
                "annotation": annotation.map { .string($0) } ?? .null,
                "events": .array(seqs.map { .int($0) }),
                "redaction": .array(result.outcome.appended.map { .int($0.seq) }),
            ]))
            return
        }
        context.console.line(context.catalog.plural(.redactDone, count: seqs.count, [
            "field": annotationIndex.map { "annotation \($0)" } ?? field, "item": item, "seqs": seqs.map(String.init).joined(separator: ", "),
        ]))
    }
}

/// A redaction that could not run, worded with the item as the user named it.
struct RedactFailure: AuditFailure {
    var error: HistoryError
    var item: String

    func failure(catalog: Catalog) -> Failure {
        switch error {
        case .nothingToRedact(let field, 0):
            Failure(exit: .failure, code: "nothing_to_redact", message: catalog.text(.errorNoValueToRedact, ["item": item, "field": field]))
        case .nothingToRedact(let field, let already):
            Failure(exit: .failure, code: "nothing_to_redact", message: catalog.plural(.errorNothingToRedact, count: already, ["item": item, "field": field]))
        case .notRedactable(Redaction.fileField, false):
            Failure(exit: .usage, code: "usage", message: catalog.text(.errorRedactFileNotRecord))
        case .notRedactable(let field, let record):
            Failure(exit: .usage, code: "usage", message: catalog.text(.errorNotRedactable, [
                "field": field, "kind": record ? "record" : "todo",
                "fields": (record ? Redaction.recordFields : Redaction.todoFields).joined(separator: ", "),
            ]))
        case .uncommittedValues(let field, let events):
            Failure(exit: .failure, code: "redaction_uncommitted", message: catalog.text(.errorRedactUncommitted, [
                "item": item, "field": field, "seqs": events.map(String.init).joined(separator: ", "),
            ]))
        default:
            error.failure(catalog: catalog)
        }
    }
}
