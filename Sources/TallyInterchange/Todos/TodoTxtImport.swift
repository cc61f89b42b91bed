#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import TallyEssentials
import TallyDomain

/// Reads a todo.txt file (https://github.com/todotxt/todo.txt): one task per line.
///
/// The title is the description exactly as written: `+project` and `@context` words stay in it (as
/// todo.txt tools show them) and also become tags; inner spacing is kept; tabs become spaces. Only
/// the fields tally stores elsewhere leave the text: `due:YYYY-MM-DD` → due, `pri:X` → priority.
/// `x` → completed (with its completion date), `(A)`/`(B)`/`(C)` → high/medium/low, the creation
/// date → when created (in the origin). See docs/guide/import-export.md for every odd case.
public enum TodoTxtImport {
    /// Converts the file's bytes; throws when a line is not UTF-8 text or the file is JSON.
    public static func parse(_ bytes: [UInt8], zone: Zone) throws(ImportFormatError) -> ImportBatch {
        let lines = try ImportSupport.lines(bytes)
        if let location = jsonLine(lines) {
            throw ImportFormatError(location: location, reason: "this is JSON, not todo.txt", otherFormat: .otherJSON)
        }
        var batch = ImportBatch()
        var occurrences: [String: Int] = [:]
        for (index, raw) in lines.enumerated() {
            let line = raw.trimming(.whitespaces)
            guard !line.isEmpty else { continue }
            let occurrence = (occurrences[line] ?? 0) + 1
            occurrences[line] = occurrence
            convert(line, number: index + 1, occurrence: occurrence, zone: zone, into: &batch)
        }
        return batch
    }

    /// The first line when the file is a JSON array or JSON objects (a Taskwarrior or tally export), else nil.
    public static func jsonLine(_ lines: [String]) -> ImportSource? {
        guard let index = lines.firstIndex(where: { !$0.trimming(.whitespaces).isEmpty }) else { return nil }
        let first = lines[index].trimming(.whitespaces)
        guard first.hasPrefix("{") || first.hasPrefix("[") else { return nil }
        if (try? JSON.parse(first)) != nil { return .line(index + 1) }
        if (try? JSON.parse(lines.joined(separator: "\n"))) != nil { return .line(index + 1) }
        return nil
    }

    /// The markers at the start of a line: completion, dates, priority.
    public struct Header {
        var completed = false
        var completedOn: LocalDate?
        var createdOn: LocalDate?
        var priority: String?
        /// The description: the rest of the line, spacing as written.
        var description: Substring
    }

    /// Reads the markers by the format's rules: `x ` and `(A) ` only count when followed by a space.
    public static func header(_ line: String) -> Header {
        var rest = line[...]
        var header = Header(description: rest)
        func word(_ text: Substring) -> (Substring, Substring)? {
            guard let space = text.firstIndex(of: " ") else { return nil }
            return (text[..<space], text[text.index(after: space)...].drop(while: { $0 == " " }))
        }
        if let (first, after) = word(rest), first == "x" {
            header.completed = true
            rest = after
            if let (date, after) = word(rest), let day = LocalDate.parse(String(date)) {
                header.completedOn = day
                rest = after
                if let (date, after) = word(rest), let day = LocalDate.parse(String(date)) {
                    header.createdOn = day
                    rest = after
                }
            } else if let day = LocalDate.parse(String(rest)) {
                // `x 2026-01-01` and nothing after: completed on that day.
                header.completedOn = day
                rest = rest[rest.endIndex...]
            }
        } else {
            if let (first, after) = word(rest), isPriority(first) {
                header.priority = String(first.dropFirst().prefix(1))
                rest = after
            }
            if let (date, after) = word(rest), let day = LocalDate.parse(String(date)) {
                header.createdOn = day
                rest = after
            }
        }
        header.description = rest
        return header
    }

    /// One line: appended to the batch's todos with its warnings.
    ///
    /// The stream id comes from the line's text and how many identical lines came before it,
    /// so re-importing a file with lines added or moved still finds the earlier ones.
    public static func convert(_ line: String, number: Int, occurrence: Int, zone: Zone, into batch: inout ImportBatch) {
        let source = ImportSource.line(number)
        var warnings: [ImportProblem] = []
        var header = header(line)
        if header.description.trimming(.whitespaces).isEmpty {
            // Markers and nothing else: the whole line is the text, so nothing is lost.
            warnings.append(.markersOnly)
            // ... but a completion keeps its day (`x 2026-01-01` is done on 2026-01-01).
            let markers = header
            header = Header(description: line[...])
            header.completed = markers.completed
            header.completedOn = markers.completedOn
        }

        var draft = ImportDraft(text: "")
        draft.tagsStayInTitle = true
        var kept: [Substring] = []
        var priorityLetter = header.priority
        var recurrence = TodoTxtRecurrence.Keys()
        for word in header.description.split(separator: " ", omittingEmptySubsequences: false) {
            if isProjectOrContext(word) {
                if let tag = ImportSupport.tag(String(word.dropFirst())) {
                    draft.tags.append(tag)
                } else {
                    draft.unusableTags.append(String(word))
                }
            } else if let (key, value) = keyValue(word) {
                switch key {
                case "due" where draft.due != nil:
                    // A second `due:` stays in the title: one due date, and nothing lost.
                    warnings.append(.repeatedFieldKeptInTitle(key))
                case "due":
                    if let date = LocalDate.parse(value) {
                        draft.due = .date(date)
                        continue
                    }
                    warnings.append(.invalidDateKeptInTitle(field: "due", value: value))
                case "pri" where priorityLetter == nil && isPriorityLetter(value):
                    priorityLetter = value
                    continue
                case "pri" where !isPriorityLetter(value):
                    warnings.append(.invalidPriorityKeptInTitle(value))
                case _ where recurrence.read(key, value, completed: header.completed):
                    continue
                case "rec" where recurrence.ruleText != nil && TodoTxtRecurrence.rule(value) != nil,
                     "t" where recurrence.wait != nil && LocalDate.parse(value) != nil:
                    warnings.append(.repeatedFieldKeptInTitle(key))
                default:
                    warnings.append(unknownField(key))
                }
            }
            kept.append(word)
        }
        draft.text = kept.joined(separator: " ").replacingAll("\t", with: " ")
        if line.contains("\t"), !warnings.contains(.controlCharactersReplaced) { warnings.append(.controlCharactersReplaced) }

        switch priorityLetter {
        case nil: break
        case "A": draft.priority = .high
        case "B": draft.priority = .medium
        case "C": draft.priority = .low
        case let letter?:
            warnings.append(.unmappedTodoTxtPriority(letter))
            draft.noteLines.append("priority: (\(letter))")
        }

        if let (line, problem) = recurrence.unused(completed: header.completed, due: draft.due) {
            draft.noteLines.append(line)
            warnings.append(problem)
        }

        var created = header.createdOn?.startInstant(in: zone)
        let closed = header.completed ? header.completedOn?.startInstant(in: zone) : nil
        if let end = closed {
            if let start = created, end < start {
                warnings.append(.closedBeforeCreated(created: start, closed: end))
                draft.noteLines.append("created: \(header.createdOn!.description)")
                created = end
            } else if created == nil {
                // todo.sh writes `x DATE text` without a creation date: it cannot have been created later.
                created = end
            }
        }
        draft.origin = TodoOrigin(tool: .todotxt, id: String(number), createdAt: created)
        let (fitted, changes) = draft.fitted()
        var fields: TodoFields
        do {
            fields = try ImportSupport.validated(fitted)
        } catch {
            if case .invalid(let input) = error {
                batch.skipped.append(ImportIssue(source: source, problem: .invalid(input)))
            }
            return
        }
        let stream = NameUUID.make("todotxt:\(occurrence):\(line)")
        recurrence.apply(to: &fields, completed: header.completed, todoStream: stream, source: source, into: &batch)
        batch.todos.append(ImportedTodo(
            stream: stream, source: source, fields: fields,
            status: header.completed ? .completed : .pending, closedAt: closed
        ))
        batch.warnings += (warnings + changes).map { ImportIssue(source: source, problem: $0) }
    }

    /// The warning for a `key:value` tally has no field for (a `rec:` or `t:` it cannot read included).
    public static func unknownField(_ key: String) -> ImportProblem {
        .unsupportedFieldKeptInTitle(key)
    }

    /// `+project` or `@context`: the sign, then a letter, digit or `_` (as todo.sh highlights them: not `@*` or `+(bar)`).
    public static func isProjectOrContext(_ word: Substring) -> Bool {
        guard word.hasPrefix("+") || word.hasPrefix("@"), let first = word.dropFirst().unicodeScalars.first else { return false }
        return first == "_" || (Validation.isTagScalar(first) && first != "-" && !first.properties.isDiacritic)
    }

    /// `(A)` through `(Z)`.
    public static func isPriority(_ word: Substring) -> Bool {
        let scalars = Array(word.unicodeScalars)
        return scalars.count == 3 && scalars[0] == "(" && scalars[2] == ")" && isPriorityLetter(String(scalars[1]))
    }

    /// One uppercase letter A-Z, as priorities are written.
    public static func isPriorityLetter(_ text: String) -> Bool {
        let scalars = Array(text.unicodeScalars)
        return scalars.count == 1 && scalars[0].value >= 0x41 && scalars[0].value <= 0x5A
    }

    /// `key:value`: a key that starts with a letter (so `10:30` is not one), a value that is not a URL's `//...` or a path's `\\...`.
    public static func keyValue(_ word: Substring) -> (String, String)? {
        guard let colon = word.firstIndex(of: ":") else { return nil }
        let key = String(word[..<colon])
        let value = String(word[word.index(after: colon)...])
        guard let first = key.unicodeScalars.first, TextScalars.isLetter(first),
              !value.isEmpty, !value.hasPrefix("/"), !value.hasPrefix("\\"),
              key.unicodeScalars.allSatisfy({ TextScalars.isLetterOrDigit($0) || $0 == "_" || $0 == "-" })
        else { return nil }
        return (key, value)
    }
}
