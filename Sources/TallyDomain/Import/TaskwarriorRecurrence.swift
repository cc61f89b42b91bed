import Foundation

/// Taskwarrior's recurrence and waiting, mapped onto series and wait dates.
///
/// A template (a task with `recur` and no `parent`; status `recurring`, or `deleted` when it was
/// stopped) becomes a series: `recur` the period, `due` the start, `until` the end, `rtype`
/// `chained` a schedule counted from the completion. An instance (a task with `parent`) becomes a
/// todo of that series whose id is derived from the series and its occurrence (its `due`, else
/// the template's due moved by `imask` periods), so duplicate instances of one occurrence, which
/// Taskwarrior can create when two replicas sync, come in as one todo. The template's `mask`
/// only mirrors the instances' states, which come in with the instances themselves. `wait`
/// becomes the todo's wait date.
enum TaskwarriorRecurrence {
    /// Fields mapped here.
    static let fields: Set<String> = ["wait", "recur", "until", "rtype"]

    static func isTemplate(_ task: JSONObject) -> Bool {
        task["recur"] != nil && task["parent"] == nil
    }

    /// The series stream of a template with this uuid.
    static func seriesStream(_ uuid: String) -> String {
        NameUUID.make("taskwarrior-series:" + uuid.lowercased())
    }

    /// A template: a series in the batch, or a warning when its rule cannot be read.
    static func template(_ task: JSONObject, source: ImportSource, zone: TimeZone, into batch: inout ImportBatch) {
        guard let uuid = task["uuid"]?.stringValue else {
            batch.skipped.append(ImportIssue(source: source, problem: .recurringTemplate))
            return
        }
        let raw = task["recur"]?.stringValue ?? ""
        guard let period = period(raw) else {
            batch.skipped.append(ImportIssue(source: source, problem: .invalidPeriod(field: "recur", value: raw)))
            return
        }
        guard let start = task["due"]?.stringValue.flatMap(TaskwarriorImport.timestamp).map({ ImportSupport.due(instant: $0, zone: zone) }),
              let title = task["description"]?.stringValue.flatMap({ try? Validation.title($0) })
        else {
            batch.skipped.append(ImportIssue(source: source, problem: .recurringTemplate))
            return
        }
        let until = task["until"]?.stringValue.flatMap(TaskwarriorImport.timestamp).map { LocalDate.containing($0, in: zone) }
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
        batch.series.append(ImportedSeries(
            stream: seriesStream(uuid), source: source,
            fields: SeriesFields(
                rule: RecurrenceRule(period: period, anchor: anchor), start: start,
                until: until.flatMap { $0 >= SeriesSchedule.day(of: start, zone: zone) ? $0 : nil },
                title: title, tags: Array(tags.prefix(Validation.maxTags)), priority: priority
            ),
            ended: task["status"]?.stringValue == "deleted",
            createdAt: task["entry"]?.stringValue.flatMap(TaskwarriorImport.timestamp)
        ))
    }

    /// An instance's series and its derived id; nil for a task that is not an instance.
    static func instance(_ task: JSONObject, due: Due?, zone: TimeZone) -> (series: String, stream: String)? {
        guard let parent = task["parent"]?.stringValue, UUIDBytes.pack(parent.lowercased()) != nil else { return nil }
        let series = seriesStream(parent)
        guard let due else { return (series, NameUUID.make("taskwarrior:" + (task["uuid"]?.stringValue?.lowercased() ?? parent))) }
        return (series, SeriesInstance.id(series: series, occurrence: SeriesSchedule.day(of: due, zone: zone)))
    }

    /// Keeps the earliest pending instance of each series and drops the later ones Taskwarrior
    /// generated ahead (or for missed occurrences), with one warning per series.
    static func keepOneOpenInstance(_ batch: inout ImportBatch, zone: TimeZone) {
        var earliest: [String: (index: Int, day: Int64)] = [:]
        for (index, todo) in batch.todos.enumerated() where todo.status == .pending {
            guard let series = todo.fields.series else { continue }
            let day = todo.fields.due?.sortInstant(in: zone) ?? Int64.max
            if let kept = earliest[series], kept.day <= day { continue }
            earliest[series] = (index, day)
        }
        var dropped: [String: Int] = [:]
        var kept: [ImportedTodo] = []
        for (index, todo) in batch.todos.enumerated() {
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

    /// `wait` as a wait date (a local midnight becomes a whole day).
    static func wait(_ task: JSONObject, zone: TimeZone, warnings: inout [ImportProblem]) -> Due? {
        guard let raw = task["wait"]?.stringValue else { return nil }
        guard let instant = TaskwarriorImport.timestamp(raw) else {
            warnings.append(.invalidDate(field: "wait", value: raw))
            return nil
        }
        return ImportSupport.due(instant: instant, zone: zone)
    }

    /// Taskwarrior's recurrence periods: names, `Nd`/`Nw`/`Nm`/`Nq`/`Ny` with unit words, ISO `P1M`.
    static func period(_ raw: String) -> RecurrencePeriod? {
        var text = raw.lowercased().trimmingCharacters(in: .whitespaces)
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
