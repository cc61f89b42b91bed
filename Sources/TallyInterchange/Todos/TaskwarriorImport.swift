#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import TallyEssentials
import TallyDomain

/// Reads what `task import` reads: a JSON array of tasks, one task object per line, or objects spread
/// over several lines (pretty-printed), with or without a byte-order mark.
///
/// Mapping: description → title, tags → tags, project → project, depends → the todos it waits for, priority H/M/L → high/medium/low,
/// due → due (a local midnight becomes a whole day), annotations → annotations (with their dates), start → a running
/// interval, entry → when created
/// (in the origin), end (else modified) → when completed or deleted, uuid → the origin's id.
/// Fields tally has no place for are kept in the note as `field: value` lines. See docs/guide/import-export.md.
public enum TaskwarriorImport {
    /// Fields that are mapped, or computed by `task` and worth nothing in another tool.
    public static let knownFields: Set<String> = [
        "id", "uuid", "description", "status", "tags", "priority", "project", "due", "entry", "end",
        "modified", "annotations", "urgency", "imask", "parent", "depends", "start",
    ]

    /// Converts the file's bytes; throws when the JSON itself is broken or an element is not an object.
    public static func parse(_ bytes: [UInt8], zone: Zone) throws(ImportFormatError) -> ImportBatch {
        let text = try ImportSupport.text(bytes)
        var tasks: [(location: ImportSource, object: JSONObject)] = []
        for (location, value) in try values(text) {
            if let array = value.arrayValue {
                for (index, element) in array.enumerated() {
                    guard let object = element.objectValue else {
                        throw ImportFormatError(location: .item(index + 1), reason: "expected a task object")
                    }
                    tasks.append((.item(index + 1), object))
                }
            } else if let object = value.objectValue {
                tasks.append((location, object))
            } else {
                throw ImportFormatError(location: location, reason: "expected a task object")
            }
        }
        return convert(tasks, zone: zone)
    }

    /// The JSON values of the file: one document, or several objects one after another.
    public static func values(_ text: String) throws(ImportFormatError) -> [(ImportSource, JSON)] {
        if let whole = try? JSON.parse(text) { return [(.line(1), whole)] }
        var values: [(ImportSource, JSON)] = []
        for (line, piece) in pieces(text) {
            do {
                values.append((.line(line), try JSON.parse(piece)))
            } catch {
                throw ImportFormatError(location: .line(line + lineBreaks(in: piece, before: error.offset)), reason: error.reason)
            }
        }
        return values
    }

    /// Splits `text` into top-level JSON texts by bracket depth (outside strings), each with its first line.
    public static func pieces(_ text: String) -> [(Int, String)] {
        var result: [(Int, String)] = []
        var current: [UInt8] = []
        var depth = 0
        var inString = false
        var escaped = false
        var line = 1
        var start = 1
        var previousCR = false
        for byte in text.utf8 {
            let isBreak = byte == 0x0D || (byte == 0x0A && !previousCR)
            previousCR = byte == 0x0D
            if isBreak { line += 1 }
            if current.isEmpty, depth == 0, !inString {
                if byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D || byte == 0x2C { continue }
                start = line
            }
            current.append(byte)
            if inString {
                if escaped { escaped = false } else if byte == 0x5C { escaped = true } else if byte == 0x22 { inString = false }
                continue
            }
            switch byte {
            case 0x22: inString = true
            case 0x7B, 0x5B: depth += 1
            case 0x7D, 0x5D: depth -= 1
            default: break
            }
            if depth <= 0, byte == 0x7D || byte == 0x5D || byte == 0x0A || byte == 0x0D {
                let piece = String(decoding: current, as: UTF8.self)
                if !piece.allSatisfy(\.isWhitespace) { result.append((start, piece)) }
                current = []
                depth = 0
            }
        }
        let rest = String(decoding: current, as: UTF8.self)
        if !rest.allSatisfy(\.isWhitespace) { result.append((start, rest)) }
        return result
    }

    /// How many line breaks come before byte `offset` of `text`.
    public static func lineBreaks(in text: String, before offset: Int) -> Int {
        text.utf8.prefix(offset).reduce(0) { $0 + ($1 == 0x0A ? 1 : 0) }
    }

    /// Converts every task: a uuid seen again replaces the earlier task, as `task import` modifies it.
    public static func convert(_ tasks: [(location: ImportSource, object: JSONObject)], zone: Zone) -> ImportBatch {
        var order: [String] = []
        var latest: [String: (source: ImportSource, object: JSONObject, earlier: ImportSource?)] = [:]
        var anonymous = 0
        var lastLocation: [String: ImportSource] = [:]
        for (location, object) in tasks {
            let uuid = object["uuid"]?.stringValue?.lowercased()
            let key: String
            if let uuid, !uuid.isEmpty {
                key = uuid
            } else {
                anonymous += 1
                key = "\(location.ordinal):\(anonymous)"
            }
            let source = uuid.map { ImportSource.task(String($0.prefix(8))) } ?? location
            if latest[key] != nil {
                latest[key] = (source, object, lastLocation[key])
            } else {
                order.append(key)
                latest[key] = (source, object, nil)
            }
            lastLocation[key] = location
        }
        let parents = Set(tasks.compactMap { $0.object["parent"]?.stringValue?.lowercased() })
        let inFile = Set(order)
        let circles = closingDependencies(order.map { ($0, dependsUUIDs(latest[$0]!.object["depends"])) }, inFile: inFile)
        var batch = ImportBatch()
        for key in order {
            let entry = latest[key]!
            convert(
                entry.object, key: key, source: entry.source, duplicateOf: entry.earlier, parents: parents, inFile: inFile,
                circles: circles[key] ?? [:], zone: zone, into: &batch
            )
        }
        TaskwarriorRecurrence.keepOneOpenInstance(&batch, zone: zone)
        return batch
    }

    /// The uuids of a `depends` (an array of uuids, or one comma-separated string), lowercased.
    static func dependsUUIDs(_ value: JSON?) -> [String] {
        guard let value else { return [] }
        return (value.arrayValue?.compactMap(\.stringValue) ?? value.stringValue.map { $0.split(separator: ",").map(String.init) } ?? [])
            .map { $0.trimming(.whitespaces).lowercased() }.filter { !$0.isEmpty }
    }

    /// The `depends` edges between tasks of the file that would close a circle (tally keeps none), taken
    /// in file order: task → (the uuid it depends on → the circle, first = last, as uuid prefixes).
    /// An edge is left out when what it points to already waits, through the edges taken, for its task.
    /// - Complexity: O(tasks × edges) at worst.
    static func closingDependencies(_ tasks: [(key: String, depends: [String])], inFile: Set<String>) -> [String: [String: [String]]] {
        var edges: [String: [String]] = [:]
        var closing: [String: [String: [String]]] = [:]
        /// A path from `start` to `goal` along the edges taken, or nil.
        func path(from start: String, to goal: String) -> [String]? {
            var previous: [String: String] = [start: start]
            var queue = [start]
            var index = 0
            while index < queue.count {
                let node = queue[index]
                index += 1
                if node == goal {
                    var path = [goal]
                    while let last = path.last, last != start, let before = previous[last] { path.append(before) }
                    return path.reversed()
                }
                for next in edges[node] ?? [] where previous[next] == nil {
                    previous[next] = node
                    queue.append(next)
                }
            }
            return nil
        }
        for (key, depends) in tasks {
            for uuid in depends where inFile.contains(uuid) && !(edges[key] ?? []).contains(uuid) {
                if uuid == key {
                    closing[key, default: [:]][uuid] = [String(key.prefix(8)), String(key.prefix(8))]
                } else if let back = path(from: uuid, to: key) {
                    closing[key, default: [:]][uuid] = ([key] + back).map { String($0.prefix(8)) }
                } else {
                    edges[key, default: []].append(uuid)
                }
            }
        }
        return closing
    }

    /// One task: appended to the batch's todos, or to its skipped items with the reason. `circles`: the
    /// uuids of its `depends` that would close a circle (`closingDependencies`), kept in the note.
    public static func convert(
        _ task: JSONObject, key: String, source: ImportSource, duplicateOf earlier: ImportSource?,
        parents: Set<String>, inFile: Set<String> = [], circles: [String: [String]] = [:], zone: Zone, into batch: inout ImportBatch
    ) {
        var warnings: [ImportProblem] = []
        if let earlier { warnings.append(.duplicateTask(earlier: earlier)) }
        if TaskwarriorRecurrence.template(task, source: source, parents: parents, zone: zone, into: &batch) { return }
        let status = task["status"]?.stringValue ?? "pending"
        let mapped: ImportedTodo.Status
        switch status {
        case "pending", "waiting": mapped = .pending
        case "completed": mapped = .completed
        case "deleted": mapped = .deleted
        case "recurring":
            guard let problem = recurringTemplate(task, key: key, parents: parents) else {
                batch.skipped.append(ImportIssue(source: source, problem: .recurringTemplate))
                return
            }
            warnings.append(problem)
            mapped = .pending
        default:
            batch.skipped.append(ImportIssue(source: source, problem: .unknownStatus(status)))
            return
        }
        let description = task["description"]?.stringValue ?? ""
        guard !description.trimming(.whitespacesAndNewlines).isEmpty else {
            batch.skipped.append(ImportIssue(source: source, problem: .missingTitle))
            return
        }

        var draft = ImportDraft(text: description)
        // The project becomes the todo's project (dots make sub-projects, as in Taskwarrior); one that
        // breaks tally's rules stays in the note with the tags that do. An empty one is no project.
        var project: String?
        switch task["project"] {
        case .string(let raw)? where !raw.trimming(.whitespaces).isEmpty:
            if let path = ProjectPath.normalized(raw) { project = path } else { draft.unusableTags.append(raw) }
        case nil, .null?, .string?: break
        case let value?:
            // Not in the shape `task` writes (`"project": 5`): its text is kept in the note.
            draft.noteLines.append(keptField("project", value, zone: zone))
            warnings.append(.malformedField("project"))
        }
        let rawTags: [String]
        switch task["tags"] {
        case .string(let text)?:
            rawTags = text.split(separator: ",").map { $0.trimming(.whitespaces) }.filter { !$0.isEmpty }
            warnings.append(.tagsFromString)
        case let value?:
            rawTags = (value.arrayValue ?? []).compactMap(\.stringValue)
        case nil:
            rawTags = []
        }
        for name in rawTags {
            if let tag = ImportSupport.tag(name) { draft.tags.append(tag) } else { draft.unusableTags.append(name) }
        }

        if let raw = task["priority"]?.stringValue, !raw.isEmpty {
            switch raw.uppercased() {
            case "H": draft.priority = .high
            case "M": draft.priority = .medium
            case "L": draft.priority = .low
            default:
                warnings.append(.unmappedTaskwarriorPriority(raw))
                draft.noteLines.append("priority: \(raw)")
            }
        }

        if let value = task["due"] {
            if let instant = date(value, zone: zone) {
                draft.due = ImportSupport.due(instant: instant, zone: zone)
            } else {
                warnings.append(.invalidDate(field: "due", value: text(value), fallback: .keptInNote))
                draft.noteLines.append("due: \(text(value))")
            }
        }

        if let annotations = task["annotations"], annotations.arrayValue == nil {
            warnings.append(.malformedField("annotations"))
            draft.noteLines.append(keptField("annotations", annotations, zone: zone))
        }
        // Annotations become annotations with their own dates; one that cannot be one (several lines,
        // over 1000 characters, past the 1000th) stays in the note as a `YYYY-MM-DD text` line, reported.
        var annotations: [(at: Int64?, text: String)] = []
        var keptInNote = 0
        for annotation in task["annotations"]?.arrayValue ?? [] {
            guard let object = annotation.objectValue, let text = object["description"]?.stringValue else {
                warnings.append(.annotationWithoutDescription)
                continue
            }
            let entry = object["entry"].flatMap { date($0, zone: zone) }.flatMap { Timestamp.supportedRange.contains($0) ? $0 : nil }
            if let fitting = try? Validation.annotation(text), annotations.count < Annotation.maxPerTodo, object["entry"] == nil || entry != nil {
                annotations.append((entry, fitting))
                continue
            }
            keptInNote += 1
            if let entry {
                draft.noteLines.append(LocalDate.containing(entry, in: zone).description + " " + text)
            } else {
                draft.noteLines.append(text)
            }
        }
        if keptInNote > 0 { warnings.append(.annotationsKeptInNote(count: keptInNote)) }

        // `start`: started there and not stopped (a running interval).
        var started: Int64?
        if let value = task["start"] {
            if let instant = date(value, zone: zone), Timestamp.supportedRange.contains(instant) {
                started = instant
            } else {
                warnings.append(.invalidDate(field: "start", value: text(value), fallback: .keptInNote))
                draft.noteLines.append(keptField("start", value, zone: zone))
            }
        }

        var created: Int64? = nil
        if let value = task["entry"] {
            created = date(value, zone: zone)
            if created == nil { warnings.append(.invalidDate(field: "entry", value: text(value), fallback: .importTime)) }
        }
        var closed: Int64? = nil
        if mapped != .pending {
            let field = task["end"] != nil ? "end" : "modified"
            if let value = task[field] {
                closed = date(value, zone: zone)
                if closed == nil { warnings.append(.invalidDate(field: field, value: text(value), fallback: .importTime)) }
            }
            if let end = closed, let start = created, end < start {
                warnings.append(.closedBeforeCreated(created: start, closed: end))
                draft.noteLines.append("entry: \(Timestamp.format(start))")
                created = end
            }
        }

        // `depends` (an array of uuids, or one comma-separated string): the tasks of this file become
        // the todos it waits for; uuids of tasks not in the file, or that would close a circle, stay in
        // the note, reported.
        var after: [String] = []
        if let value = task["depends"] {
            // Kept in the note in the order given, each reported with its reason.
            var missing: [String] = []
            var notInFile: [String] = []
            var pastLimit: [String] = []
            for uuid in dependsUUIDs(value) {
                if let circle = circles[uuid] {
                    draft.noteLines.append(keptField("depends", .string(uuid), zone: zone))
                    warnings.append(.dependencyCycleKeptInNote(circle))
                    continue
                }
                let stream = NameUUID.make("taskwarrior:" + uuid)
                if !inFile.contains(uuid) || (after.count >= TodoDependencies.maxAfter && !after.contains(stream)) {
                    missing.append(uuid)
                    if !inFile.contains(uuid) { notInFile.append(uuid) } else { pastLimit.append(uuid) }
                } else if !after.contains(stream) {
                    after.append(stream)
                }
            }
            if value.arrayValue == nil && value.stringValue == nil {
                draft.noteLines.append(keptField("depends", value, zone: zone))
                warnings.append(.malformedField("depends"))
            } else if !missing.isEmpty {
                draft.noteLines.append(keptField("depends", .array(missing.map { .string($0) }), zone: zone))
                if !notInFile.isEmpty { warnings.append(.dependencyNotInFile(notInFile)) }
                if !pastLimit.isEmpty { warnings.append(.dependenciesPastLimit(max: TodoDependencies.maxAfter, pastLimit)) }
            }
        }

        let recurrenceFields = TaskwarriorRecurrence.mappedFields(task, zone: zone)
        let extra = task.keys.filter { !knownFields.contains($0) && !recurrenceFields.contains($0) }.sorted()
        for field in extra {
            draft.noteLines.append(keptField(field, task[field]!, zone: zone))
            warnings.append(.unsupportedField(field))
        }

        let uuid = task["uuid"]?.stringValue?.lowercased() ?? ""
        draft.origin = TodoOrigin(tool: .taskwarrior, id: uuid.isEmpty ? source.ordinal : uuid, createdAt: created)
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
        let name = "taskwarrior:" + (uuid.isEmpty ? "\(key):\(description)" : uuid)
        fields.wait = TaskwarriorRecurrence.wait(task, zone: zone)
        fields.project = project
        fields.after = after
        let instance = TaskwarriorRecurrence.instance(task, due: fields.due, zone: zone)
        fields.series = instance?.series
        var item = ImportedTodo(stream: instance?.stream ?? NameUUID.make(name), source: source, fields: fields, status: mapped, closedAt: closed)
        item.annotations = annotations
        item.started = started
        item.modifiedAt = task["modified"].flatMap { date($0, zone: zone) }.flatMap { Timestamp.supportedRange.contains($0) ? $0 : nil }
        // A template whose rule cannot be a series: left out when an earlier import made it one.
        if task["recur"] != nil, task["parent"] == nil, !uuid.isEmpty { item.templateOf = TaskwarriorRecurrence.seriesStream(uuid) }
        batch.todos.append(item)
        batch.warnings += (warnings + changes).map { ImportIssue(source: source, problem: $0) }
    }

    /// A recurring template: nil when its instances are in the file (they are imported instead),
    /// else the warning that it is imported as one todo. Recurrence fields go to the note with the others.
    public static func recurringTemplate(_ task: JSONObject, key: String, parents: Set<String>) -> ImportProblem? {
        parents.contains(key) ? nil : .recurringTemplateImported
    }

    /// A field tally has no place for, as a note line: `wait: 2026-11-25`, `depends: 1c5e…, 2d4a…`.
    public static func keptField(_ field: String, _ value: JSON, zone: Zone) -> String {
        if ["wait", "scheduled", "until", "start"].contains(field), let instant = date(value, zone: zone) {
            // Seconds are kept when there are some (`start: 2026-11-23 06:43:24`), so nothing is lost.
            return "\(field): " + Timestamp.formatLocal(instant, in: zone, withTime: true, withSeconds: instant % 60_000 != 0)
        }
        if let array = value.arrayValue {
            return "\(field): " + array.map(text).joined(separator: ", ")
        }
        return "\(field): " + text(value)
    }

    /// A JSON value as plain text: a string as is, anything else as compact JSON.
    public static func text(_ value: JSON) -> String {
        value.stringValue ?? value.serialized(.compact)
    }

    /// A date as `task import` reads it: `20261121T143000Z`, the same without `Z` (local time),
    /// epoch seconds as a number or a string, `2026-11-21` (local midnight), or an ISO-8601 instant.
    public static func date(_ value: JSON, zone: Zone) -> Int64? {
        if let number = value.intValue { return number * 1000 }
        if let number = value.doubleValue, number.isFinite, abs(number) < 1e12 { return Int64(number * 1000) }
        guard let text = value.stringValue?.trimming(.whitespaces), !text.isEmpty else { return nil }
        let bytes = Array(text.utf8)
        let digit = { (byte: UInt8) in byte >= 0x30 && byte <= 0x39 }
        if bytes.allSatisfy(digit), bytes.count <= 12, let seconds = Int64(text) { return seconds * 1000 }
        if (bytes.count == 15 || (bytes.count == 16 && bytes[15] == UInt8(ascii: "Z"))), bytes[8] == UInt8(ascii: "T") {
            let digits = Array(bytes[0..<8]) + Array(bytes[9..<15])
            guard digits.allSatisfy(digit) else { return nil }
            func number(_ range: Range<Int>) -> Int { digits[range].reduce(0) { $0 * 10 + Int($1 - 0x30) } }
            return instant(
                year: number(0..<4), month: number(4..<6), day: number(6..<8),
                hour: number(8..<10), minute: number(10..<12), second: number(12..<14),
                zone: bytes.count == 16 ? Zone.utc : zone
            )
        }
        if let day = LocalDate.parse(text) { return day.startInstant(in: zone) }
        if let parsed = Timestamp.parse(text) { return parsed }
        // `2026-11-21T14:30:00` without a zone: local time, as `task` reads it.
        if bytes.count == 19, bytes[10] == UInt8(ascii: "T"), let day = LocalDate.parse(String(text.prefix(10))) {
            let parts = text.dropFirst(11).split(separator: ":").compactMap { Int($0) }
            guard parts.count == 3 else { return nil }
            return instant(year: day.year, month: day.month, day: day.day, hour: parts[0], minute: parts[1], second: parts[2], zone: zone)
        }
        return nil
    }

    /// The instant of a wall-clock time in `zone`; nil for an impossible date or time.
    public static func instant(year: Int, month: Int, day: Int, hour: Int, minute: Int, second: Int, zone: Zone) -> Int64? {
        guard LocalDate(year: year, month: month, day: day) != nil, hour < 24, minute < 60, second < 61 else { return nil }
        // A skipped time reads with the offset before the jump, a repeated one is the earlier instant.
        let local = LocalDate(uncheckedYear: year, month: month, day: day).dayNumber * WallClock.msPerDay
            + Int64((hour * 3600 + minute * 60 + second) * 1000)
        return WallClock.instant(forLocal: local, in: zone)
    }
}
