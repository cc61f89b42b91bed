
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// An item's text before it is made to fit tally's limits: nothing in it may be lost.
public struct ImportDraft {
    public var text: String
    public var tags: [String] = []
    /// Tags that could not be used; they go into the note unless the title already holds them.
    public var unusableTags: [String] = []
    public var tagsStayInTitle = false
    public var priority: Priority?
    public var due: Due?
    /// Note paragraphs in order: annotations, kept fields.
    public var noteLines: [String] = []
    public var origin: TodoOrigin?

    public init(text: String) {
        self.text = text
    }

    /// The fields and what had to change to make them fit: long or multi-line text, control characters, tags.
    public func fitted() -> (TodoFields, [ImportProblem]) {
        var problems: [ImportProblem] = []
        var leading: [String] = []
        let original = text.trimming(.whitespacesAndNewlines)
        var title = ""
        var sawBreak = false
        var sawControl = false
        for scalar in original.unicodeScalars {
            if scalar == "\n" || scalar == "\r" || scalar == "\u{2028}" || scalar == "\u{2029}" {
                sawBreak = true
                if title.unicodeScalars.last != " " { title.unicodeScalars.append(" ") }
            } else if Validation.isControl(scalar) {
                sawControl = true
                title.unicodeScalars.append(" ")
            } else {
                title.unicodeScalars.append(scalar)
            }
        }
        title = TextForm.normalized(title.trimming(.whitespaces))
        if sawControl { problems.append(.controlCharactersReplaced) }
        if sawBreak {
            problems.append(.titleLinesJoined)
            leading.append(original)
        }
        if Validation.length(title) > Validation.maxTitleLength {
            problems.append(.titleShortened(max: Validation.maxTitleLength))
            if !sawBreak { leading.append(original) }
            title = Self.shortened(title, to: Validation.maxTitleLength)
        }

        var tags: [String] = []
        var extra = unusableTags
        for tag in Self.unique(self.tags) {
            if tags.count < Validation.maxTags { tags.append(tag) } else { extra.append(tag) }
        }
        if !extra.isEmpty {
            if tagsStayInTitle {
                problems.append(.tagsKeptInTitle(extra))
            } else {
                problems.append(.tagsKeptInNote(extra))
            }
        }
        var lines = leading + noteLines
        if !extra.isEmpty, !tagsStayInTitle { lines.append("tags: " + extra.joined(separator: " ")) }
        var note = TextForm.normalized(lines.joined(separator: "\n").trimming(.whitespacesAndNewlines))
        if Validation.length(note) > Validation.maxNoteLength {
            let kept = String(Validation.prefix(note, maxLength: Validation.maxNoteLength))
            problems.append(.noteShortened(max: Validation.maxNoteLength, cut: note.count - kept.count))
            note = kept
        }
        // Other control characters in the note (tabs and line breaks are allowed) become spaces.
        if note.unicodeScalars.contains(where: { Validation.isControl($0) && $0 != "\n" && $0 != "\t" }) {
            note = String(String.UnicodeScalarView(note.unicodeScalars.map { Validation.isControl($0) && $0 != "\n" && $0 != "\t" ? " " : $0 }))
            if !problems.contains(.controlCharactersReplaced) { problems.append(.controlCharactersReplaced) }
        }
        let fields = TodoFields(
            title: title, tags: tags, priority: priority, due: due, note: note.isEmpty ? nil : note, origin: origin
        )
        return (fields, problems)
    }

    /// Tags without repeats, in first-seen order.
    private static func unique(_ raw: [String]) -> [String] {
        var result: [String] = []
        for tag in raw where !result.contains(tag) { result.append(tag) }
        return result
    }

    /// The start of `text` in at most `max` code points (`Validation.length`), cut after a word when
    /// one ends late enough, then `…`.
    static func shortened(_ text: String, to max: Int) -> String {
        let head = Validation.prefix(text, maxLength: max - 1)
        if let space = head.lastIndex(of: " "), Validation.length(head[..<space]) > max / 2 {
            return head[..<space].trimming(.whitespaces) + "…"
        }
        return head + "…"
    }
}
