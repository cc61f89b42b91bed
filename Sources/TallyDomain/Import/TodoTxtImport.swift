import Foundation

/// Reads a todo.txt file (https://github.com/todotxt/todo.txt): one task per line.
///
/// Mapping: `x` → completed (with its completion date), `(A)`/`(B)`/`(C)` → high/medium/low,
/// the creation date → when created, `+project` and `@context` → tags, `due:YYYY-MM-DD` → due,
/// `pri:X` (kept by many clients on completed tasks) → priority. Other `key:value` pairs stay in the title.
public enum TodoTxtImport {
    /// Converts the file's bytes; throws only when a line is not UTF-8 text.
    public static func parse(_ bytes: [UInt8], zone: TimeZone) throws(ImportFormatError) -> ImportBatch {
        var batch = ImportBatch()
        var occurrences: [String: Int] = [:]
        for (index, raw) in try ImportSupport.lines(bytes).enumerated() {
            let line = raw.trimmingCharacters(in: .whitespaces)
            guard !line.isEmpty else { continue }
            let occurrence = (occurrences[line] ?? 0) + 1
            occurrences[line] = occurrence
            convert(line, number: index + 1, occurrence: occurrence, zone: zone, into: &batch)
        }
        return batch
    }

    /// One line: appended to the batch's todos, or to its skipped items with the reason.
    ///
    /// The stream id comes from the line's text and how many identical lines came before it,
    /// so re-importing a file with lines added or moved still finds the earlier ones.
    static func convert(_ line: String, number: Int, occurrence: Int, zone: TimeZone, into batch: inout ImportBatch) {
        let source = ImportSource.line(number)
        var words = line.split(separator: " ", omittingEmptySubsequences: true).map(String.init)[...]
        var completed = false
        var completedOn: LocalDate? = nil
        var createdOn: LocalDate? = nil
        var priorityLetter: String? = nil

        if words.first == "x" {
            completed = true
            words = words.dropFirst()
            if let date = words.first.flatMap(LocalDate.parse) {
                completedOn = date
                words = words.dropFirst()
                if let created = words.first.flatMap(LocalDate.parse) {
                    createdOn = created
                    words = words.dropFirst()
                }
            }
        } else {
            if let first = words.first, isPriority(first) {
                priorityLetter = String(first.dropFirst().prefix(1))
                words = words.dropFirst()
            }
            if let created = words.first.flatMap(LocalDate.parse) {
                createdOn = created
                words = words.dropFirst()
            }
        }

        var title: [String] = []
        var tags: [String] = []
        var due: Due? = nil
        var wait: Due? = nil
        var rule: RecurrenceRule? = nil
        var warnings: [ImportProblem] = []
        for word in words {
            if word.count > 1, word.hasPrefix("+") || word.hasPrefix("@") {
                if let tag = ImportSupport.tag(String(word.dropFirst())) {
                    if !tags.contains(tag) { tags.append(tag) }
                    continue
                }
            }
            if let (key, value) = keyValue(word) {
                switch key {
                case "due":
                    if let date = LocalDate.parse(value) {
                        due = .date(date)
                        continue
                    }
                    warnings.append(.invalidDateKeptInTitle(field: "due", value: value))
                case "rec" where TodoTxtRecurrence.rule(value) != nil:
                    // A completed line's next occurrence is a line of its own.
                    if !completed { rule = TodoTxtRecurrence.rule(value) }
                    continue
                case "t" where LocalDate.parse(value) != nil:
                    wait = LocalDate.parse(value).map(Due.date)
                    continue
                case "pri" where priorityLetter == nil && value.count == 1:
                    priorityLetter = value.uppercased()
                    continue
                default:
                    warnings.append(.unsupportedFieldKeptInTitle(key))
                }
            }
            title.append(word)
        }

        var priority: Priority? = nil
        switch priorityLetter {
        case nil: break
        case "A": priority = .high
        case "B": priority = .medium
        case "C": priority = .low
        case let letter?: warnings.append(.unmappedPriority(letter))
        }

        guard !title.isEmpty else {
            batch.skipped.append(ImportIssue(source: source, problem: .missingTitle))
            return
        }
        if rule != nil, due == nil { warnings.append(.recurrenceWithoutDue(field: "rec")) }
        var fields: TodoFields
        do {
            fields = try ImportSupport.validated(TodoFields(title: title.joined(separator: " "), tags: tags, priority: priority, due: due, wait: wait))
        } catch {
            if case .invalid(let input) = error {
                batch.skipped.append(ImportIssue(source: source, problem: .invalid(input)))
            }
            return
        }
        let created = createdOn?.startInstant(in: zone)
        var closed = completedOn?.startInstant(in: zone)
        if let end = closed, let start = created, end < start { closed = start }
        let stream = NameUUID.make("todotxt:\(occurrence):\(line)")
        if let rule, let series = TodoTxtRecurrence.series(rule, fields: &fields, todoStream: stream, source: source, createdAt: created) {
            batch.series.append(series)
        }
        batch.todos.append(ImportedTodo(
            stream: stream, source: source, fields: fields,
            status: completed ? .completed : .pending, createdAt: created, closedAt: closed
        ))
        batch.warnings += warnings.map { ImportIssue(source: source, problem: $0) }
    }

    /// `(A)` through `(Z)`.
    static func isPriority(_ word: String) -> Bool {
        let scalars = Array(word.unicodeScalars)
        return scalars.count == 3 && scalars[0] == "(" && scalars[2] == ")" && scalars[1].value >= 0x41 && scalars[1].value <= 0x5A
    }

    /// `key:value` with a plain key and a value that is not a URL's `//...`.
    static func keyValue(_ word: String) -> (String, String)? {
        guard let colon = word.firstIndex(of: ":") else { return nil }
        let key = String(word[..<colon])
        let value = String(word[word.index(after: colon)...])
        guard !key.isEmpty, !value.isEmpty, !value.hasPrefix("/"),
              key.unicodeScalars.allSatisfy({ CharacterSet.alphanumerics.contains($0) || $0 == "_" || $0 == "-" })
        else { return nil }
        return (key, value)
    }
}
