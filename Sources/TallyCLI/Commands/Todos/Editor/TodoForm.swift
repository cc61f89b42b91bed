#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import TallyDomain
import TallyEssentials

/// The text form of a todo that `tally edit REF` opens in an editor, and its reading back.
///
/// ```
/// # comments (ignored)
/// Title: Buy milk
/// Tags: shop town
/// Project: home
/// Priority: high
/// Due: 2026-11-25
/// Wait:
/// After: 1 2
/// Note:
/// every line from here on is the note
/// ```
/// Field names are English in every language and read ignoring case; an empty value clears the
/// field (not the title). Only the fields whose text changed become part of the edit, so a field
/// the user did not touch is never re-read (a due time with seconds stays exact).
struct TodoForm: Equatable {
    var title = ""
    var tags: [String] = []
    var project = ""
    var priority = ""
    var due = ""
    var wait = ""
    var after: [String] = []
    var note = ""

    /// The fields before `Note:`, in the order the form shows them.
    static let fields = ["Title", "Tags", "Project", "Priority", "Due", "Wait", "After", "Note"]
    /// Longest file read back: far more than a todo's fields can hold.
    static let maxBytes = 1 << 20

    /// Why the text read back is not a form.
    enum Problem: Error, Equatable {
        case notText
        case tooLong
        case noColon(line: Int)
        case unknownField(line: Int, name: String)
        case repeatedField(line: Int, name: String)
        case controlCharacter(line: Int, scalar: UInt32)
        case missingTitle
    }

    /// The form of `todo` as it is now.
    init(todo: Todo, state: ReadModel, zone: Zone) {
        title = todo.title
        tags = todo.tags
        project = todo.project ?? ""
        priority = todo.priority?.rawValue ?? ""
        due = Self.text(todo.due, zone: zone)
        wait = Self.text(todo.wait, zone: zone)
        after = todo.after.map { state.todo(id: $0).map { String($0.number) } ?? $0 }
        note = todo.note ?? ""
    }

    init() {}

    /// A due or wait date as `--due` reads it back.
    static func text(_ due: Due?, zone: Zone) -> String {
        due?.localText(in: zone) ?? ""
    }

    /// The file's text: `header` comment lines, then the fields.
    func text(header: [String]) -> String {
        var lines = header.map { "# " + $0 }
        func line(_ name: String, _ value: String) -> String { value.isEmpty ? name + ":" : name + ": " + value }
        lines.append(line("Title", title))
        lines.append(line("Tags", tags.joined(separator: " ")))
        lines.append(line("Project", project))
        lines.append(line("Priority", priority))
        lines.append(line("Due", due))
        lines.append(line("Wait", wait))
        lines.append(line("After", after.joined(separator: " ")))
        lines.append("Note:")
        if !note.isEmpty { lines.append(note) }
        return lines.joined(separator: "\n") + "\n"
    }

    /// Reads a saved file; nil when it holds nothing but comments and blank lines (an emptied file).
    static func parse(_ bytes: [UInt8]) throws(Problem) -> TodoForm? {
        guard bytes.count <= maxBytes else { throw .tooLong }
        guard let text = String(validating: bytes, as: UTF8.self), !bytes.contains(0) else { throw .notText }
        var form = TodoForm()
        var seen: Set<String> = []
        var noteLines: [Substring]?
        var sawField = false
        // LF, CRLF (one Character in Swift) or CR, as editors write them.
        let lines = text.split(omittingEmptySubsequences: false, whereSeparator: { $0 == "\n" || $0 == "\r\n" || $0 == "\r" })
        for (index, line) in lines.enumerated() {
            if noteLines != nil {
                try checkControls(line, line: index + 1, allowTab: true)
                noteLines!.append(line)
                continue
            }
            let trimmed = line.trimming(.whitespaces)
            if trimmed.isEmpty || trimmed.hasPrefix("#") { continue }
            guard let colon = line.firstIndex(of: ":") else { throw .noColon(line: index + 1) }
            let name = line[..<colon].trimming(.whitespaces)
            guard let field = fields.first(where: { $0.lowercased() == name.lowercased() }) else {
                throw .unknownField(line: index + 1, name: String(name.prefix(40)))
            }
            guard seen.insert(field).inserted else { throw .repeatedField(line: index + 1, name: field) }
            sawField = true
            let value = line[line.index(after: colon)...]
            try checkControls(value, line: index + 1, allowTab: false)
            let text = value.trimming(.whitespaces)
            switch field {
            case "Title": form.title = text
            case "Tags": form.tags = words(text)
            case "Project": form.project = text
            case "Priority": form.priority = text
            case "Due": form.due = text
            case "Wait": form.wait = text
            case "After": form.after = words(text)
            default:
                // `Note: text` starts the note on its own line; every line after it belongs to the note.
                noteLines = text.isEmpty ? [] : [value.drop(while: { $0 == " " })]
            }
        }
        guard sawField else { return nil }
        form.note = (noteLines ?? []).joined(separator: "\n").trimming(.whitespacesAndNewlines)
        guard !form.title.isEmpty else { throw .missingTitle }
        return form
    }

    /// Words separated by spaces or commas.
    private static func words(_ text: String) -> [String] {
        text.split(whereSeparator: { $0 == " " || $0 == "," || $0 == "\t" }).map(String.init)
    }

    /// Refuses a control character (a tab only where `allowTab`); the whole line is named.
    private static func checkControls(_ text: Substring, line: Int, allowTab: Bool) throws(Problem) {
        for scalar in text.unicodeScalars where Validation.isControl(scalar) && !(allowTab && scalar == "\t") {
            throw .controlCharacter(line: line, scalar: scalar.value)
        }
    }

    /// The edit that turns `original` into this form: only the fields whose text changed.
    func changes(from original: TodoForm) -> TodoEditInput {
        var input = TodoEditInput()
        if title != original.title { input.title = title }
        let added = tags.filter { !original.tags.contains($0) }
        let removed = original.tags.filter { !tags.contains($0) }
        input.tagChanges = added.map { "+" + $0 } + removed.map { "-" + $0 }
        if project != original.project { input.project = project.isEmpty ? "none" : project }
        if priority != original.priority { input.priority = priority.isEmpty ? "none" : priority }
        if due != original.due { input.due = due.isEmpty ? "none" : due }
        if wait != original.wait { input.wait = wait.isEmpty ? "none" : wait }
        if note != original.note { input.note = note.isEmpty ? "none" : note }
        input.addAfter = after.filter { !original.after.contains($0) }
        input.removeAfter = original.after.filter { !after.contains($0) }
        return input
    }
}
