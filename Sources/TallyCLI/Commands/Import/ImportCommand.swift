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

/// `tally import [--from tally|taskwarrior|todotxt] FILE|-`
enum ImportCommand: CommandHandler {
    /// The formats `--from` accepts: tally's own event export first (the default), then other tools'.
    static let formats = ["tally"] + ForeignImport.formats
    static let spec = CommandSpec(
        name: "import",
        abstract: "Import a tally export, or todos from Taskwarrior or todo.txt.",
        discussion: """
            Without --from, FILE is a JSON Lines file written by 'tally export': its events are appended in file order \
            in one transaction, with seq and hash recomputed (both may be absent). An event already in the log with \
            identical content is skipped, so importing a file twice changes nothing. A malformed line exits 65 naming \
            the line; an event that clashes with the log exits 1. Either way nothing is appended.

            With --from taskwarrior or --from todotxt, the whole file is one command: everything is imported or \
            nothing is, and one 'tally undo' takes it back. Importing a newer export of the same list applies what \
            changed in the source since the last import (completed, reopened, deleted, edited fields) to the todos \
            imported before, and says so per item; unchanged items are left alone. A todo deleted in tally stays \
            deleted unless --restore-deleted is given. Items that cannot be imported, and fields tally has no place \
            for, are reported with their line or task.
            """,
        arguments: [ArgumentSpec(name: "FILE", help: "The file to read, or - for standard input.")],
        options: [
            OptionSpec(
                name: "from", valueName: "FORMAT",
                help: "The format of FILE: tally's JSON Lines export, a 'task export' JSON file, or a todo.txt file.",
                defaultValue: "tally", allowedValues: formats
            ),
            OptionSpec(
                name: "restore-deleted",
                help: "With --from taskwarrior or todotxt: bring back todos deleted in tally that the file still has."
            ),
        ],
        examples: [
            CommandExample("tally --db new.db import backup.jsonl", "Restore a backup into a new database."),
            CommandExample("tally export | tally --db copy.db import -", "Copy the history into another database."),
            CommandExample("task export > tasks.json && tally import --from taskwarrior tasks.json", "Bring every Taskwarrior task over, with its tags, priority, due date and annotations."),
            CommandExample("tally import --from todotxt ~/todo.txt", "Import a todo.txt file; +projects and @contexts become tags."),
            CommandExample("task export > tasks.json && tally import --from taskwarrior tasks.json", "Later, the same again: what changed in Taskwarrior since (fields, state, annotations, start and stop, series rules) is applied to what was imported before."),
        ]
    )

    static func run(_ command: ParsedCommand, _ context: CLIContext) throws {
        let format = command.value("from") ?? "tally"
        // Ctrl-C rolls the import back and says so (exit 130), instead of leaving a bar and a large write-ahead log.
        try Interruption.watch(stopped: .errorInterruptedImport) {
            if format == "tally" {
                if command.has("restore-deleted") {
                    throw UsageError(kind: .custom(context.catalog.text(.errorRestoreDeletedNeedsFrom)), commandPath: [spec.name])
                }
                try importEvents(path: command.arguments[0], context)
            } else {
                try ForeignImport.run(format: format, path: command.arguments[0], restoreDeleted: command.has("restore-deleted"), context)
            }
        }
    }

    /// Lines between progress updates.
    static let progressInterval = 1_000

    /// Appends the events of a `tally export` file, all or nothing.
    static func importEvents(path: String, _ context: CLIContext) throws {
        let reader = try LineReader(path: path, maxLineBytes: BlobLines.maxLineBytes)
        let (log, dispatcher) = try context.writing()
        // Progress by bytes, so it is known how much is left; standard input has no size.
        let size = path == "-" ? 0 : FileProbe.size(path)
        let bar = ProgressBar(total: size, label: context.catalog.text(.importLabel), context: context) { ByteSize.format(Int64($0)) }
        var consumed = 0
        var sawEvent = false
        defer { bar.finish() }
        let blobs = BlobImport(store: log)
        let summary = try Importer.run(into: log, decodedLines: { add in
            // Lines are read, decoded and chained on a second thread while this one stores them.
            try DecodedLineReader(reader, head: try log.head()).forEachLine(blob: { streamed in
                // A blob line longer than the read buffer, decoded as it was read.
                try blobs.take(streamed.result, line: streamed.number)
                sawEvent = true
                consumed += streamed.length + 1
            }, blobFollows: blobs.dropPending) { bytes, number, decoded in
                if try blobs.take(bytes, line: number) {
                    // A blob line (an original activity file) also says the file is a tally export.
                    sawEvent = true
                } else {
                    try blobs.eventLine(bytes)
                    do {
                        try add(bytes, number, decoded)
                    } catch ImportError.malformed(let line, let reason) where !sawEvent {
                        // The first line is not an event: perhaps a file for --from taskwarrior or todotxt.
                        var text = String(decoding: bytes, as: UTF8.self)
                        guard text.utf8.elementsEqual(bytes) else { throw ImportError.malformed(line: line, reason: reason) }
                        if text.hasPrefix("\u{FEFF}") { text.removeFirst() }
                        switch FormatSniffer.format(ofFirstLine: text) {
                        case .taskwarrior: throw WrongImportFormat(path: path, suggested: "taskwarrior")
                        case .todoTxt: throw WrongImportFormat(path: path, suggested: "todotxt")
                        case .otherJSON: throw ImportError.malformed(line: line, reason: reason)
                        }
                    }
                    if !bytes.allSatisfy({ $0 == 0x20 || $0 == 0x09 || $0 == 0x0D }) { sawEvent = true }
                }
                consumed += bytes.count + 1
                if number % progressInterval == 0 {
                    try Interruption.check()
                    bar.update(consumed)
                }
            }
            // The last check before the commit: a Ctrl-C after it cannot stop the import any more.
            try Interruption.check()
        })
        bar.finish()
        // Like any write: a long new tail gets a snapshot now, so the next read does not fold it all
        // (a cache: after Ctrl-C the command ends at once instead, and the next write stores it).
        if summary.appended > 0, !Interruption.isRequested { try dispatcher.settle() }
        if context.json {
            context.printJSON(.object([
                "read": .int(Int64(summary.read)), "appended": .int(Int64(summary.appended)), "skipped": .int(Int64(summary.skipped)),
                "blobs": .int(Int64(blobs.stored)),
            ]))
        } else {
            context.console.line(context.catalog.text(.auditImported, [
                "read": String(summary.read), "appended": String(summary.appended), "skipped": String(summary.skipped),
            ]))
            if blobs.stored > 0 { context.console.line(context.catalog.plural(.blobsImported, count: blobs.stored)) }
        }
    }
}

/// A file given to `import` without `--from` that another importer reads (exit 65).
struct WrongImportFormat: AuditFailure {
    var path: String
    /// `taskwarrior` or `todotxt`.
    var suggested: String

    func failure(catalog: Catalog) -> Failure {
        let id: MessageID = suggested == "taskwarrior" ? .errorLooksLikeTaskwarrior : .errorLooksLikeTodoTxt
        return Failure(exit: .invalidData, code: "invalid_data", message: catalog.text(id, ["path": path]))
    }
}
