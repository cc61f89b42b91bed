#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import TallyDomain
import TallyEssentials

/// Describes changes as before → after: "title: 'Buy milk' → 'Buy oat milk'", "completed → active".
struct ChangeDescriber {
    let context: CLIContext
    /// Gear id → name, for a record's gear.
    var gearNames: [String: String] = [:]
    /// The numbers of the todos an edit says one waits for.
    var todoNumbers = TodoNumbers()

    private var catalog: Catalog { context.catalog }
    private var renderer: TodoRenderer { TodoRenderer(context: context) }

    /// The fields an edit changed, each with its value before the edit.
    func edit(_ changes: TodoChanges, before: Todo) -> String {
        var after = before
        after.apply(changes)
        return fieldChanges(before, after, keys: changes).joined(separator: ", ")
    }

    /// Everything that differs between two versions of one todo: status first, then fields.
    func todo(_ before: Todo, _ after: Todo) -> [String] {
        var parts: [String] = []
        let (from, to) = (renderer.status(before), renderer.status(after))
        if from != to { parts.append(catalog.text(.auditStatusChange, ["from": from, "to": to])) }
        return parts + fieldChanges(before, after, keys: nil)
    }

    /// The fields a record edit changed, each with its value before the edit.
    func edit(_ changes: RecordChanges, before: Record) -> String {
        var after = before
        after.apply(changes)
        return fieldChanges(before, after, keys: changes).joined(separator: ", ")
    }

    /// Everything that differs between two versions of one record: status first, then fields.
    func record(_ before: Record, _ after: Record) -> [String] {
        var parts: [String] = []
        let (from, to) = (recordStatus(before), recordStatus(after))
        if from != to { parts.append(catalog.text(.auditStatusChange, ["from": from, "to": to])) }
        return parts + fieldChanges(before, after, keys: nil)
    }

    /// A saved view as list options, or "default" when none is saved.
    func view(_ filter: JSONObject?) -> String {
        guard let filter else { return catalog.text(.auditDefaultView) }
        let options = ContextCommand.describe(stored: filter, catalog)
        return options.isEmpty ? catalog.text(.auditDefaultView) : options
    }

    /// Before → after lines for the todos and records in `streams` and for every saved view that changed.
    func lines(from before: ReadModel, to after: ReadModel, streams: [String]) -> [String] {
        var describer = self
        describer.gearNames = GearText.names(before).merging(GearText.names(after)) { _, new in new }
        describer.todoNumbers = TodoNumbers(after, before)
        return describer.describedLines(from: before, to: after, streams: streams)
    }

    private func describedLines(from before: ReadModel, to after: ReadModel, streams: [String]) -> [String] {
        var lines: [String] = []
        var seen = Set<String>()
        for stream in streams where seen.insert(stream).inserted {
            let label: String
            let parts: [String]
            if let old = before.todo(id: stream), let new = after.todo(id: stream) {
                (label, parts) = (renderer.label(new), todo(old, new))
            } else if let old = before.record(id: stream), let new = after.record(id: stream) {
                (label, parts) = (RecordRenderer(context: context).label(new), record(old, new))
            } else {
                continue
            }
            if parts.isEmpty { continue }
            lines.append(catalog.text(.auditItemChange, ["label": label, "changes": parts.joined(separator: ", ")]))
        }
        if before.athlete != after.athlete {
            let days = Set(before.athlete.entries.map(\.from) + after.athlete.entries.map(\.from)).sorted()
            for day in days where before.athlete.entry(on: day) != after.athlete.entry(on: day) {
                let old = before.athlete.entry(on: day).map(AthleteText.values) ?? "-"
                let new = after.athlete.entry(on: day).map(AthleteText.values) ?? "-"
                lines.append(catalog.text(.auditAthleteChange, ["from": day.description, "old": old.isEmpty ? "-" : old, "new": new.isEmpty ? "-" : new]))
            }
        }
        if before.gear != after.gear {
            for gear in after.gear.items {
                let old = before.gear[gear.id]
                guard old != gear else { continue }
                var parts: [String] = []
                if old == nil || old?.removed != gear.removed { parts.append(catalog.text(gear.removed ? .auditGearRemoved : .auditGearAdded)) }
                if let old, old.name != gear.name { parts.append(catalog.text(.auditEditedField, ["field": "name", "from": quote(old.name), "to": quote(gear.name)])) }
                if let old, old.retired != gear.retired { parts.append(catalog.text(gear.retired ? .gearRetired : .gearInUse)) }
                if let old, old.retireAtMeters != gear.retireAtMeters {
                    parts.append(catalog.text(.auditEditedField, ["field": "retire-at", "from": value(old.retireAtMeters.map(Distance.format)), "to": value(gear.retireAtMeters.map(Distance.format))]))
                }
                if !parts.isEmpty { lines.append(catalog.text(.auditGearChange, ["name": TerminalText.escaped(gear.name), "changes": parts.joined(separator: ", ")])) }
            }
            for category in Set(before.gear.defaults.keys).union(after.gear.defaults.keys).sorted()
            where before.gear.defaults[category] != after.gear.defaults[category] {
                lines.append(catalog.text(.auditGearDefault, [
                    "category": category, "from": value(before.gear.defaults[category].flatMap { gearNames[$0] }),
                    "to": value(after.gear.defaults[category].flatMap { gearNames[$0] }),
                ]))
            }
        }
        for key in Set(before.goals.goals.keys).union(after.goals.goals.keys).sorted() where before.goals[key] != after.goals[key] {
            func text(_ goal: Goal?) -> String { goal.map { GoalText.title($0, miles: false, catalog: catalog) } ?? "-" }
            lines.append(catalog.text(.auditGoalChange, ["from": text(before.goals[key]), "to": text(after.goals[key])]))
        }
        for scope in FilterScope.allCases where before.filters[scope] != after.filters[scope] {
            lines.append(catalog.text(.auditViewChange, ["scope": scope.rawValue, "from": view(before.filters[scope]), "to": view(after.filters[scope])]))
        }
        return lines
    }

    /// Field changes between two todos; with `keys`, only the fields an edit named.
    private func fieldChanges(_ before: Todo, _ after: Todo, keys: TodoChanges?) -> [String] {
        var parts: [String] = []
        func add(_ field: String, _ named: Bool, _ from: String, _ to: String) {
            guard keys == nil ? from != to : named else { return }
            parts.append(catalog.text(.auditEditedField, ["field": field, "from": from, "to": to]))
        }
        add("title", keys?.title != nil, quote(before.title), quote(after.title))
        add("tags", keys?.tags != nil, tags(before.tags), tags(after.tags))
        add("priority", keys?.priority != nil, value(before.priority?.rawValue), value(after.priority?.rawValue))
        add("due", keys?.due != nil, value(before.due.map(renderer.due)), value(after.due.map(renderer.due)))
        add("note", keys?.note != nil, value(before.note.map(quote)), value(after.note.map(quote)))
        add("wait", keys?.wait != nil, value(before.wait.map(renderer.due)), value(after.wait.map(renderer.due)))
        add("project", keys?.project != nil, value(before.project), value(after.project))
        add("after", keys?.after != nil, todoNumbers.list(before.after), todoNumbers.list(after.after))
        add("annotations", false, String(before.annotations.count), String(after.annotations.count))
        add("intervals", false, intervals(before), intervals(after))
        return parts
    }

    /// A todo's time as the audit shows it: how many intervals, and whether one runs (`2, running`).
    private func intervals(_ todo: Todo) -> String {
        guard let running = todo.running else { return String(todo.intervals.count) }
        return "\(todo.intervals.count), running since \(Timestamp.formatLocal(running.start, in: context.zone, withTime: true))"
    }

    /// Field changes between two records; with `keys`, only the fields an edit named.
    private func fieldChanges(_ before: Record, _ after: Record, keys: RecordChanges?) -> [String] {
        var parts: [String] = []
        func add(_ field: String, _ named: Bool, _ from: String, _ to: String) {
            guard keys == nil ? from != to : named else { return }
            parts.append(catalog.text(.auditEditedField, ["field": field, "from": from, "to": to]))
        }
        let records = RecordRenderer(context: context)
        add("name", keys?.name != nil, quote(before.name), quote(after.name))
        add("category", keys?.category != nil, before.category, after.category)
        add("duration", keys?.durationSeconds != nil, ActivityDuration.format(before.durationSeconds), ActivityDuration.format(after.durationSeconds))
        add("distance", keys?.distanceMeters != nil, value(before.distanceMeters.map(Distance.format)), value(after.distanceMeters.map(Distance.format)))
        add("place", keys?.place != nil, value(before.place.map(quote)), value(after.place.map(quote)))
        add("date", keys?.date != nil, records.date(before.date), records.date(after.date))
        add("note", keys?.note != nil, value(before.note.map(quote)), value(after.note.map(quote)))
        add("effort", keys?.effort != nil, value(before.effort.map(Self.effort)), value(after.effort.map(Self.effort)))
        add("gear", keys?.gear != nil, value(before.gear.map(gearName)), value(after.gear.map(gearName)))
        add("analysis", keys?.track != nil, value(before.track.map { String($0.analysisVersion) }), value(after.track.map { String($0.analysisVersion) }))
        return parts
    }

    /// An effort as `record show` gives it: `7/10`.
    static func effort(_ value: Int) -> String { "\(value)/10" }

    /// A gear's name, or its id's first eight characters when its name is not known here.
    private func gearName(_ id: String) -> String {
        gearNames[id].map { quote($0) } ?? String(id.prefix(8))
    }

    /// One field a todo edit sets, as `show` labels it and the CLI prints the value:
    /// `("title", "'Oat milk'")`; nil for a field the edit does not set.
    func field(_ key: String, of changes: TodoChanges) -> (label: String, value: String)? {
        switch key {
        case "title": changes.title.map { (label(.fieldTitle), quote($0)) }
        case "tags": changes.tags.map { (label(.fieldTags), tags($0)) }
        case "priority": changes.priority.map { (label(.fieldPriority), value($0?.rawValue)) }
        case "due": changes.due.map { (label(.fieldDue), value($0.map(renderer.due))) }
        case "note": changes.note.map { (label(.fieldNote), value($0.map(quote))) }
        case "wait": changes.wait.map { (label(.showWait), value($0.map(renderer.due))) }
        case "project": changes.project.map { (label(.fieldProject), value($0)) }
        case "after": changes.after.map { (label(.fieldAfter), todoNumbers.list($0)) }
        default: nil
        }
    }

    /// One field a record edit sets, as `show` labels it and the CLI prints the value:
    /// `("distance", "6.2 km")`, `("time", "1:02:00")`; nil for a field the edit does not set.
    func field(_ key: String, of changes: RecordChanges) -> (label: String, value: String)? {
        switch key {
        case "name": changes.name.map { (label(.fieldName), quote($0)) }
        case "category": changes.category.map { (label(.fieldCategory), $0) }
        case "durationSeconds": changes.durationSeconds.map { (label(.fieldDuration), ActivityDuration.format($0)) }
        case "distanceMeters": changes.distanceMeters.map { (label(.fieldDistance), value($0.map(Distance.format))) }
        case "place": changes.place.map { (label(.fieldPlace), value($0.map(quote))) }
        case "date": changes.date.map { (label(.fieldDate), RecordRenderer(context: context).date($0)) }
        case "note": changes.note.map { (label(.fieldNote), value($0.map(quote))) }
        case "effort": changes.effort.map { (label(.fieldEffort), value($0.map(Self.effort))) }
        case "track": changes.track.map { ("analysis", String($0.analysisVersion)) }
        default: nil
        }
    }

    /// A field's label inside a sentence: `show`'s row label in lower case.
    func label(_ id: MessageID) -> String {
        catalog.text(id).lowercased()
    }

    private func recordStatus(_ record: Record) -> String {
        catalog.text(record.deleted ? .statusDeleted : .statusActive)
    }

    private func tags(_ tags: [String]) -> String {
        tags.isEmpty ? catalog.text(.auditNoValue) : TerminalText.escaped(tags.joined(separator: " "))
    }

    private func value(_ text: String?) -> String {
        text ?? catalog.text(.auditNoValue)
    }

    private func quote(_ text: String) -> String { "'\(TerminalText.escaped(text))'" }
}
