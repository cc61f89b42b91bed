import Foundation

/// Reads `task export` output: a JSON array of tasks, or one task object per line.
///
/// Mapping: description → title, tags and project → tags, priority H/M/L → high/medium/low,
/// due → due (a local midnight becomes a whole day), annotations → note lines,
/// entry → when created, end (else modified) → when completed or deleted.
public enum TaskwarriorImport {
    /// Fields that are either mapped or carry nothing worth keeping.
    static let knownFields: Set<String> = [
        "id", "uuid", "description", "status", "tags", "priority", "project", "due", "entry", "end",
        "modified", "annotations", "urgency", "mask", "imask", "parent", "rtype",
    ]

    /// Converts the file's bytes; throws when the JSON itself is broken or an element is not an object.
    public static func parse(_ bytes: [UInt8], zone: TimeZone) throws(ImportFormatError) -> ImportBatch {
        let lines = try ImportSupport.lines(bytes)
        let text = lines.joined(separator: "\n")
        let items: [(location: ImportSource, value: JSON)]
        if text.drop(while: { $0.isWhitespace }).first == "[" {
            let document: JSON
            do {
                document = try JSON.parse(text)
            } catch {
                throw ImportFormatError(location: .line(line(ofOffset: error.offset, in: text)), reason: error.reason)
            }
            items = (document.arrayValue ?? []).enumerated().map { (.item($0.offset + 1), $0.element) }
        } else {
            var parsed: [(ImportSource, JSON)] = []
            for (index, line) in lines.enumerated() where !line.allSatisfy(\.isWhitespace) {
                do {
                    parsed.append((.line(index + 1), try JSON.parse(line)))
                } catch {
                    throw ImportFormatError(location: .line(index + 1), reason: error.reason)
                }
            }
            items = parsed
        }

        var batch = ImportBatch()
        var seen: Set<String> = []
        for (location, value) in items {
            guard let object = value.objectValue else {
                throw ImportFormatError(location: location, reason: "expected a task object")
            }
            convert(object, location: location, zone: zone, seen: &seen, into: &batch)
        }
        TaskwarriorRecurrence.keepOneOpenInstance(&batch, zone: zone)
        return batch
    }

    /// One task: appended to the batch's todos, or to its skipped items with the reason.
    static func convert(_ task: JSONObject, location: ImportSource, zone: TimeZone, seen: inout Set<String>, into batch: inout ImportBatch) {
        let uuid = task["uuid"]?.stringValue?.lowercased()
        let source = uuid.map { ImportSource.task(String($0.prefix(8))) } ?? location
        if TaskwarriorRecurrence.isTemplate(task) { return TaskwarriorRecurrence.template(task, source: source, zone: zone, into: &batch) }
        let status = task["status"]?.stringValue ?? "pending"
        let mapped: ImportedTodo.Status
        switch status {
        case "pending", "waiting": mapped = .pending
        case "completed": mapped = .completed
        case "deleted": mapped = .deleted
        case "recurring":
            batch.skipped.append(ImportIssue(source: source, problem: .recurringTemplate))
            return
        default:
            batch.skipped.append(ImportIssue(source: source, problem: .unknownStatus(status)))
            return
        }
        guard let description = task["description"]?.stringValue,
              !description.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty else {
            batch.skipped.append(ImportIssue(source: source, problem: .missingTitle))
            return
        }

        var warnings: [ImportProblem] = []
        for key in task.keys where !knownFields.contains(key) && !TaskwarriorRecurrence.fields.contains(key) {
            warnings.append(.unsupportedField(key))
        }

        var tags: [String] = []
        if let project = task["project"]?.stringValue, let tag = ImportSupport.tag(project) { tags.append(tag) }
        for raw in task["tags"]?.arrayValue ?? [] {
            if let name = raw.stringValue, let tag = ImportSupport.tag(name), !tags.contains(tag) { tags.append(tag) }
        }

        var priority: Priority? = nil
        if let raw = task["priority"]?.stringValue {
            switch raw.uppercased() {
            case "H": priority = .high
            case "M": priority = .medium
            case "L": priority = .low
            default: warnings.append(.unmappedPriority(raw))
            }
        }

        var due: Due? = nil
        if let raw = task["due"]?.stringValue {
            if let instant = timestamp(raw) {
                due = ImportSupport.due(instant: instant, zone: zone)
            } else {
                warnings.append(.invalidDate(field: "due", value: raw))
            }
        }

        var noteLines: [String] = []
        for annotation in task["annotations"]?.arrayValue ?? [] {
            guard let object = annotation.objectValue, let text = object["description"]?.stringValue else { continue }
            if let entry = object["entry"]?.stringValue.flatMap(timestamp) {
                noteLines.append(LocalDate.containing(entry, in: zone).description + " " + text)
            } else {
                noteLines.append(text)
            }
        }

        let created = task["entry"]?.stringValue.flatMap(timestamp)
        var closed: Int64? = nil
        if mapped != .pending {
            closed = (task["end"]?.stringValue ?? task["modified"]?.stringValue).flatMap(timestamp)
            if let end = closed, let start = created, end < start { closed = start }
        }

        var fields: TodoFields
        do {
            fields = try ImportSupport.validated(TodoFields(
                title: description, tags: tags, priority: priority, due: due,
                note: noteLines.isEmpty ? nil : noteLines.joined(separator: "\n"),
                wait: TaskwarriorRecurrence.wait(task, zone: zone, warnings: &warnings)
            ))
        } catch {
            if case .invalid(let input) = error {
                batch.skipped.append(ImportIssue(source: source, problem: .invalid(input)))
            }
            return
        }
        let name = "taskwarrior:" + (uuid ?? "\(location.ordinal):\(description)")
        let instance = TaskwarriorRecurrence.instance(task, due: due, zone: zone)
        let stream = instance?.stream ?? NameUUID.make(name)
        guard seen.insert(stream).inserted else { return }
        fields.series = instance?.series
        batch.todos.append(ImportedTodo(stream: stream, source: source, fields: fields, status: mapped, createdAt: created, closedAt: closed))
        batch.warnings += warnings.map { ImportIssue(source: source, problem: $0) }
    }

    /// Taskwarrior's `20261121T143000Z`, or any ISO-8601 instant tally reads.
    static func timestamp(_ text: String) -> Int64? {
        let bytes = Array(text.utf8)
        guard bytes.count == 16, bytes[8] == UInt8(ascii: "T"), bytes[15] == UInt8(ascii: "Z") else {
            return Timestamp.parse(text)
        }
        let digits = Array(bytes[0..<8]) + Array(bytes[9..<15])
        guard digits.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }) else { return nil }
        func number(_ range: Range<Int>) -> Int { digits[range].reduce(0) { $0 * 10 + Int($1 - 0x30) } }
        guard let date = LocalDate(year: number(0..<4), month: number(4..<6), day: number(6..<8)) else { return nil }
        let (hour, minute, second) = (number(8..<10), number(10..<12), number(12..<14))
        guard hour < 24, minute < 60, second < 61 else { return nil }
        let midnight = date.startInstant(in: TimeZone(identifier: "UTC")!)
        return midnight + Int64((hour * 3600 + minute * 60 + second) * 1000)
    }

    /// The 1-based line that holds byte `offset` of `text`.
    static func line(ofOffset offset: Int, in text: String) -> Int {
        1 + text.utf8.prefix(offset).reduce(0) { $0 + ($1 == 0x0A ? 1 : 0) }
    }
}
