#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import TallyEssentials
import TallyDomain

/// Taskwarrior's recurrence and waiting, mapped onto series and wait dates.
///
/// A template (a task with `recur` and no `parent`; status `recurring`, or `deleted` when it was
/// stopped) becomes a series (with its first instance when the file holds none of its instances): `recur` the period, `due` the start, `until` the end, `rtype`
/// `chained` a schedule counted from the completion. An instance (a task with `parent`) becomes a
/// todo of that series whose id is derived from the series and its occurrence (its `due`, else
/// an instance without one is imported like any task), so duplicate instances of one occurrence, which
/// Taskwarrior can create when two replicas sync, come in as one todo. The template's `mask`
/// only mirrors the instances' states, which come in with the instances themselves. `wait`
/// becomes the todo's wait date.
public enum TaskwarriorRecurrence {
    /// The fields mapped here, left out of the note: an instance's copies of its template's recurrence
    /// fields, and `wait` when it is a date. (A template that became a series never reaches the note.)
    public static func mappedFields(_ task: JSONObject, zone: Zone) -> Set<String> {
        var fields: Set<String> = task["parent"] != nil ? ["recur", "until", "rtype", "mask"] : []
        if wait(task, zone: zone) != nil { fields.insert("wait") }
        return fields
    }

    /// The series stream of a template with this uuid.
    public static func seriesStream(_ uuid: String) -> String {
        NameUUID.make("taskwarrior-series:" + uuid.lowercased())
    }

    /// A template (`recur` without `parent`) as a series in the batch, with its first instance when the
    /// file has none of its instances; false when it is not a template or its rule cannot be read
    /// (then it is imported like any task, its fields kept in the note).
    public static func template(_ task: JSONObject, source: ImportSource, parents: Set<String>, zone: Zone, into batch: inout ImportBatch) -> Bool {
        guard task["recur"] != nil, task["parent"] == nil, let uuid = task["uuid"]?.stringValue?.lowercased(), !uuid.isEmpty else { return false }
        let raw = task["recur"].map(TaskwarriorImport.text) ?? ""
        guard let period = period(raw) else {
            batch.warnings.append(ImportIssue(source: source, problem: .invalidPeriod(field: "recur", value: raw)))
            batch.unreadableRules.append(UnreadableRule(stream: seriesStream(uuid), source: source, reason: .unreadablePeriod(raw)))
            return false
        }
        // Without a due date or a usable title there is nothing to count from: imported as one todo, like `task` shows it.
        guard let start = task["due"].flatMap({ TaskwarriorImport.date($0, zone: zone) }).map({ ImportSupport.due(instant: $0, zone: zone) }),
              let title = task["description"]?.stringValue.flatMap({ try? Validation.title($0) })
        else {
            batch.unreadableRules.append(UnreadableRule(stream: seriesStream(uuid), source: source, reason: .noStart))
            return false
        }
        let startDay = SeriesSchedule.day(of: start, zone: zone)
        let until = task["until"].flatMap { TaskwarriorImport.date($0, zone: zone) }.map { LocalDate.containing($0, in: zone) }
        var tags: [String] = []
        if let project = task["project"]?.stringValue, let tag = ImportSupport.tag(project) { tags.append(tag) }
        for raw in task["tags"]?.arrayValue ?? [] {
            if let name = raw.stringValue, let tag = ImportSupport.tag(name), !tags.contains(tag) { tags.append(tag) }
        }
        let priority: Priority? = switch task["priority"]?.stringValue?.uppercased() {
        case "H": .high
        case "M": .medium
        case "L": .low
        default: nil
        }
        let anchor: RecurrenceAnchor = task["rtype"]?.stringValue == "chained" ? .completion : .due
        let series = SeriesFields(
            rule: RecurrenceRule(period: period, anchor: anchor), start: start,
            until: until.flatMap { $0 >= startDay ? $0 : nil },
            title: title, tags: Array(tags.prefix(Validation.maxTags)), priority: priority
        )
        let stream = seriesStream(uuid)
        let ended = task["status"]?.stringValue == "deleted"
        batch.series.append(ImportedSeries(stream: stream, source: source, fields: series, ended: ended))
        if !parents.contains(uuid), !ended {
            let created = task["entry"].flatMap { TaskwarriorImport.date($0, zone: zone) }
            batch.todos.append(ImportedTodo(
                stream: SeriesInstance.id(series: stream, occurrence: startDay), source: source,
                fields: TodoFields(
                    title: title, tags: series.tags, priority: priority, due: start, series: stream,
                    origin: TodoOrigin(tool: .taskwarrior, id: uuid, createdAt: created)
                )
            ))
        }
        return true
    }

    /// An instance's series and its derived id; nil for a task that is not an instance.
    public static func instance(_ task: JSONObject, due: Due?, zone: Zone) -> (series: String, stream: String)? {
        guard let parent = task["parent"]?.stringValue?.lowercased(), UUIDBytes.pack(parent) != nil, let due else { return nil }
        let series = seriesStream(parent)
        return (series, SeriesInstance.id(series: series, occurrence: SeriesSchedule.day(of: due, zone: zone)))
    }

    /// `wait` as a wait date (a local midnight becomes a whole day); nil when absent or not a date.
    public static func wait(_ task: JSONObject, zone: Zone) -> Due? {
        task["wait"].flatMap { TaskwarriorImport.date($0, zone: zone) }.map { ImportSupport.due(instant: $0, zone: zone) }
    }

    /// Keeps the earliest pending instance of each series and drops the later ones Taskwarrior
    /// generated ahead (or for missed occurrences), with one warning per series.
    public static func keepOneOpenInstance(_ batch: inout ImportBatch, zone: Zone) {
        var earliest: [String: (index: Int, day: Int64)] = [:]
        for (index, todo) in batch.todos.enumerated() where todo.status == .pending {
            guard let series = todo.fields.series else { continue }
            let day = todo.fields.due?.sortInstant(in: zone) ?? Int64.max
            if let kept = earliest[series], kept.day <= day { continue }
            earliest[series] = (index, day)
        }
        var dropped: [String: Int] = [:]
        var kept: [ImportedTodo] = []
        var streams: Set<String> = []
        for (index, todo) in batch.todos.enumerated() where streams.insert(todo.stream).inserted || todo.fields.series == nil {
            if todo.status == .pending, let series = todo.fields.series, earliest[series]?.index != index {
                dropped[series, default: 0] += 1
            } else {
                kept.append(todo)
            }
        }
        batch.todos = kept
        for series in batch.series {
            if let count = dropped[series.stream] {
                batch.warnings.append(ImportIssue(source: series.source, problem: .laterOccurrencesSkipped(count: count)))
            }
        }
    }

    /// Taskwarrior's recurrence periods: names, `Nd`/`Nw`/`Nm`/`Nq`/`Ny` with unit words, ISO `P1M`.
    public static func period(_ raw: String) -> RecurrencePeriod? {
        var text = raw.lowercased().trimming(.whitespaces)
        switch text {
        case "daily", "day": return .days(1)
        case "weekdays": return .weekdays
        case "weekly", "week": return .weeks(1)
        case "biweekly", "fortnight": return .weeks(2)
        case "monthly", "month": return .months(1)
        case "bimonthly": return .months(2)
        case "quarterly", "quarter": return .months(3)
        case "semiannual": return .months(6)
        case "yearly", "annual", "year", "biannual", "biyearly":
            return text.hasPrefix("bi") ? .years(2) : .years(1)
        default: break
        }
        if text.hasPrefix("p") { text.removeFirst() }
        let digits = text.prefix(while: \.isNumber)
        let count = digits.isEmpty ? 1 : Int(digits) ?? 0
        guard (1...RecurrencePeriod.maxCount).contains(count) else { return nil }
        switch String(text.dropFirst(digits.count)) {
        case "d", "day", "days": return .days(count)
        case "w", "wk", "wks", "week", "weeks": return .weeks(count)
        case "m", "mo", "mos", "month", "months": return .months(count)
        case "q", "qtr", "qtrs", "quarter", "quarters": return count * 3 <= RecurrencePeriod.maxCount ? .months(count * 3) : nil
        case "y", "yr", "yrs", "year", "years": return .years(count)
        default: return nil
        }
    }
}
