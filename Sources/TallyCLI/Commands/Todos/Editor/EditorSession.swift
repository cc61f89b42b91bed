#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import TallyEngine
import TallyDomain
import TallyArguments

/// `tally edit REF` without options: the todo's text form in `$VISUAL` or `$EDITOR`, applied as one edit.
///
/// The editor's command line is run as git runs it, `sh -c '<editor> "$@"' <file>`: the user's own
/// setting may hold arguments (`code -w`) and quotes, while the file's path travels as an argument of
/// its own and the todo's text only inside the file, so no title can reach a shell. The file is
/// created private (0600, `mkstemps`) in the temporary folder and removed afterwards, unless it is
/// kept for the user: a form that cannot be applied, with no terminal to reopen it on, or after the
/// user saved it unchanged below the error (gave up).
enum EditorSession {
    /// What the file left, when it is not an edit to apply.
    struct Kept: AuditFailure {
        var reason: String
        var path: String

        func failure(catalog: Catalog) -> Failure {
            Failure(exit: .invalidData, code: "invalid_data", message: catalog.text(.editorTextKept, ["reason": reason, "path": path]))
        }
    }

    /// The editor could not be started, or ended with a failure status: nothing changes.
    struct EditorFailed: AuditFailure {
        var editor: String
        var status: Int32?
        var number: Int

        func failure(catalog: Catalog) -> Failure {
            if let status {
                return Failure(exit: .failure, code: "editor_failed", message: catalog.text(.editorExited, ["editor": editor, "status": String(status), "number": String(number)]))
            }
            return Failure(exit: .failure, code: "editor_failed", message: catalog.text(.editorCannotRun, ["editor": editor, "number": String(number)]))
        }
    }

    /// The editor to run: `$VISUAL`, else `$EDITOR`, else `vi` when there is a terminal to show it on.
    static func editor(environment: [String: String], terminal: Bool) -> String? {
        for name in ["VISUAL", "EDITOR"] {
            if let value = environment[name], !value.trimming(.whitespaces).isEmpty { return value }
        }
        return terminal ? "vi" : nil
    }

    /// True when standard input and output are a terminal: a form that does not apply can be reopened.
    static var hasTerminal: Bool { isatty(0) == 1 && isatty(1) == 1 }

    /// Opens the editor on `ref`'s form and applies what the user changed.
    static func run(ref: String, editor: String, _ context: CLIContext) throws {
        let dispatcher = try context.dispatcher()
        let todo = try ReferenceResolver.todo(ref, in: dispatcher.state)
        if todo.deleted { throw DomainError.itemDeleted(.todo, number: todo.number) }
        let original = TodoForm(todo: todo, state: dispatcher.state, zone: context.zone)
        let catalog = context.catalog
        let header = [catalog.text(.editorHeaderFirst, ["number": String(todo.number)]), catalog.text(.editorHeaderSecond)]
        let file = try PrivateFile.create()
        var keep = false
        defer { if !keep { file.remove() } }
        var written = Array(original.text(header: header).utf8)
        try file.write(written)
        var shownError = false
        while true {
            let status = try launch(editor, path: file.path)
            guard status == 0 else { throw EditorFailed(editor: editor, status: status, number: todo.number) }
            let saved = try file.read(limit: TodoForm.maxBytes + 1)
            if saved == written {
                if shownError {
                    // Saved below the error without a change: the user gave up; the text stays for them.
                    keep = true
                    throw Kept(reason: catalog.text(.editorGaveUp), path: file.path)
                }
                context.console.line(catalog.text(.noticeUnchanged, ["number": String(todo.number)]))
                return
            }
            let problem: String
            do {
                guard let form = try TodoForm.parse(saved) else {
                    context.console.line(catalog.text(.editorEmptied, ["number": String(todo.number)]))
                    return
                }
                let input = form.changes(from: original)
                guard !input.isEmpty else {
                    context.console.line(catalog.text(.noticeUnchanged, ["number": String(todo.number)]))
                    return
                }
                do {
                    MutationPrinter(context: context).print(try dispatcher.execute(.editTodo(todo.id, input)))
                    return
                } catch let error as DomainError {
                    guard case .invalid = error else { throw error }
                    problem = FailureMapper.failure(for: error, catalog: catalog).message
                }
            } catch let error as TodoForm.Problem {
                problem = text(error, catalog)
            }
            guard hasTerminal else {
                keep = true
                throw Kept(reason: problem, path: file.path)
            }
            // Reopened with the error on top, the user's text below it as they left it.
            let body = String(decoding: saved, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false)
                .drop(while: { $0.hasPrefix("# !") }).joined(separator: "\n")
            let errorLines = [catalog.text(.editorErrorLine, ["reason": problem]), catalog.text(.editorErrorHint)]
                .map { "# ! " + $0.replacingAll("\n", with: " ") }
            written = Array((errorLines.joined(separator: "\n") + "\n" + body).utf8)
            try file.write(written)
            shownError = true
        }
    }

    /// Runs `sh -c '<editor> "$@"' tally <path>` on this terminal; its exit status (128 + N for signal N).
    private static func launch(_ editor: String, path: String) throws -> Int32 {
        let arguments = ["/bin/sh", "-c", editor + " \"$@\"", "tally", path]
        var pointers = arguments.map { strdup($0) } + [nil]
        defer { for pointer in pointers { free(pointer) } }
        var pid: pid_t = 0
        let started = posix_spawn(&pid, "/bin/sh", nil, nil, &pointers, environ)
        guard started == 0 else { throw EditorFailed(editor: editor, status: nil, number: 0) }
        // Ctrl-C belongs to the editor while it runs (as git does); tally waits for it.
        let previous = signal(SIGINT, SIG_IGN)
        defer { signal(SIGINT, previous) }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 {
            guard errno == EINTR else { throw EditorFailed(editor: editor, status: nil, number: 0) }
        }
        // WIFEXITED / WEXITSTATUS / WTERMSIG, which Swift does not import as functions.
        let signalNumber = status & 0x7F
        return signalNumber == 0 ? (status >> 8) & 0xFF : 128 + signalNumber
    }

    /// `U+001B`.
    static func codePoint(_ scalar: UInt32) -> String {
        let hex = String(scalar, radix: 16, uppercase: true)
        return "U+" + String(repeating: "0", count: max(0, 4 - hex.count)) + hex
    }

    /// Words for a form that does not read.
    static func text(_ problem: TodoForm.Problem, _ catalog: Catalog) -> String {
        switch problem {
        case .notText: catalog.text(.formNotText)
        case .tooLong: catalog.text(.formTooLong, ["max": "1 MB"])
        case .noColon(let line): catalog.text(.formNoColon, ["line": String(line)])
        case .unknownField(let line, let name):
            catalog.text(.formUnknownField, ["line": String(line), "name": name, "fields": TodoForm.fields.joined(separator: ", ")])
        case .repeatedField(let line, let name): catalog.text(.formRepeatedField, ["line": String(line), "name": name])
        case .controlCharacter(let line, let scalar): catalog.text(.formControlCharacter, ["line": String(line), "code": codePoint(scalar)])
        case .missingTitle: catalog.text(.formMissingTitle)
        }
    }
}

/// A file only this user can read, in the temporary folder.
struct PrivateFile {
    let path: String

    /// `$TMPDIR/tally-edit-XXXXXX.txt`, created with mode 0600 and a name nobody could have taken.
    static func create() throws -> PrivateFile {
        let folder = ProcessInfo.processInfo.environment["TMPDIR"].flatMap { $0.isEmpty ? nil : $0 } ?? "/tmp"
        var template = Array((folder.hasSuffix("/") ? folder : folder + "/").utf8CString.dropLast()) + Array("tally-edit-XXXXXX.txt".utf8CString)
        let descriptor = template.withUnsafeMutableBufferPointer { mkstemps($0.baseAddress!, 4) }
        guard descriptor >= 0 else {
            throw CLIError.cannotWriteOutput(path: folder, reason: String(cString: strerror(errno)))
        }
        close(descriptor)
        // The template with its Xs filled in, without the terminating NUL.
        return PrivateFile(path: String(decoding: template.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self))
    }

    func write(_ bytes: [UInt8]) throws {
        let descriptor = open(path, O_WRONLY | O_TRUNC | O_CLOEXEC)
        guard descriptor >= 0 else { throw CLIError.cannotWriteOutput(path: path, reason: String(cString: strerror(errno))) }
        defer { close(descriptor) }
        var offset = 0
        while offset < bytes.count {
            let count = bytes[offset...].withUnsafeBytes { Glibc.write(descriptor, $0.baseAddress, $0.count) }
            guard count > 0 else { throw CLIError.cannotWriteOutput(path: path, reason: String(cString: strerror(errno))) }
            offset += count
        }
    }

    /// At most `limit` bytes of the file (an editor may have replaced it with a new one).
    func read(limit: Int) throws -> [UInt8] {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { throw CLIError.cannotOpenInput(path: path, reason: String(cString: strerror(errno))) }
        defer { close(descriptor) }
        var result: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65_536)
        while result.count < limit {
            let count = buffer.withUnsafeMutableBytes { Glibc.read(descriptor, $0.baseAddress, min($0.count, limit - result.count)) }
            guard count > 0 else { break }
            result += buffer[..<count]
        }
        return result
    }

    func remove() {
        unlink(path)
    }
}
