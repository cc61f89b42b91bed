#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import TallyDomain
import TallyEssentials

/// Describes events in words a person reads: "completed", "title: 'a' → 'b'".
struct EventDescriber {
    let catalog: Catalog
    let zone: Zone
    /// Gear id → name, for events that name gear.
    var gearNames: [String: String] = [:]
    /// The numbers of the todos an edit says one waits for.
    var todoNumbers = TodoNumbers()

    /// `2026-11-21 14:30  alice@laptop  completed`
    func historyLine(_ event: EventEnvelope) -> String {
        "\(Timestamp.formatLocal(event.recordedAt, in: zone, withTime: true))  \(Self.who(event))  \(summary(event))"
    }

    /// The actor, and the database role that appended the event where the store records one: `alice@laptop (alice)`.
    static func who(_ event: EventEnvelope) -> String {
        TerminalText.escaped(event.role.map { "\(event.actor) (\($0))" } ?? event.actor)
    }

    /// What the event did, in one line.
    func summary(_ envelope: EventEnvelope) -> String {
        guard let event = try? EventCatalog.decode(envelope) else {
            return catalog.text(.historyUndecodable, ["type": envelope.type])
        }
        switch event {
        case .todoCreated(let fields):
            return catalog.text(.historyCreated, ["title": fields.title])
        case .todoEdited(let changes):
            var parts: [String] = []
            if let title = changes.title { parts.append(catalog.text(.historyFieldSet, ["field": "title", "value": quote(title)])) }
            if let tags = changes.tags { parts.append(catalog.text(.historyFieldSet, ["field": "tags", "value": tags.isEmpty ? "-" : tags.joined(separator: " ")])) }
            if let priority = changes.priority { parts.append(fieldChange("priority", priority?.rawValue)) }
            if let due = changes.due { parts.append(fieldChange("due", due?.localText(in: zone))) }
            if let note = changes.note { parts.append(fieldChange("note", note.map(quote))) }
            if let wait = changes.wait { parts.append(fieldChange("wait", wait?.localText(in: zone))) }
            if let series = changes.series { parts.append(fieldChange("series", series.map { String($0.prefix(8)) })) }
            if let project = changes.project { parts.append(fieldChange("project", project)) }
            if let after = changes.after { parts.append(catalog.text(.historyFieldSet, ["field": "after", "value": todoNumbers.list(after)])) }
            return catalog.text(.historyEdited, ["changes": parts.joined(separator: ", ")])
        case .todoCompleted: return catalog.text(.historyCompleted)
        case .todoReopened: return catalog.text(.historyReopened)
        case .todoDeleted: return catalog.text(.historyDeleted)
        case .todoRestored: return catalog.text(.historyRestored)
        case .recordLogged(let fields):
            var parts: [String] = []
            if let meters = fields.distanceMeters { parts.append(Distance.format(meters)) }
            parts.append(fields.category)
            if let gear = fields.gear { parts.append(catalog.text(.historyWithGear, ["gear": gearName(gear)])) }
            return catalog.text(.historyLogged, [
                "name": fields.name, "what": parts.joined(separator: " "), "duration": ActivityDuration.format(fields.durationSeconds),
            ])
        case .recordEdited(let changes):
            var parts: [String] = []
            if let name = changes.name { parts.append(catalog.text(.historyFieldSet, ["field": "name", "value": quote(name)])) }
            if let category = changes.category { parts.append(catalog.text(.historyFieldSet, ["field": "category", "value": category])) }
            if let seconds = changes.durationSeconds { parts.append(catalog.text(.historyFieldSet, ["field": "duration", "value": ActivityDuration.format(seconds)])) }
            if let meters = changes.distanceMeters { parts.append(fieldChange("distance", meters.map(Distance.format))) }
            if let place = changes.place { parts.append(fieldChange("place", place.map(quote))) }
            if let date = changes.date { parts.append(catalog.text(.historyFieldSet, ["field": "date", "value": Timestamp.formatLocal(date, in: zone, withTime: true)])) }
            if let note = changes.note { parts.append(fieldChange("note", note.map(quote))) }
            if let track = changes.track { parts.append(catalog.text(.historyFieldSet, ["field": "analysis", "value": String(track.analysisVersion)])) }
            if let gear = changes.gear { parts.append(fieldChange("gear", gear.map(gearName))) }
            if let effort = changes.effort { parts.append(fieldChange("effort", effort.map(ChangeDescriber.effort))) }
            return catalog.text(.historyEdited, ["changes": parts.joined(separator: ", ")])
        case .recordDeleted: return catalog.text(.historyDeleted)
        case .recordRestored: return catalog.text(.historyRestored)
        case .filterSaved(let scope, let filter):
            // The view as the options that make it, the way 'filter show' prints it.
            let options = switch scope {
            case .todos: ContextCommand.describe(stored: filter, catalog)
            case .records: RecordOptions.describe(RecordQuery(json: filter))
            }
            return catalog.text(.historyFilterSaved, ["scope": scope.rawValue, "filter": options.isEmpty ? catalog.text(.filterDefaultOptions) : options])
        case .filterReset(let scope):
            return catalog.text(.historyFilterReset, ["scope": scope.rawValue])
        case .athleteSet(let entry):
            let values = AthleteText.values(entry)
            return catalog.text(.historyAthleteSet, ["from": entry.from.description, "values": values.isEmpty ? "-" : values])
        case .gearAdded(let fields):
            let retire = fields.retireAtMeters.map { catalog.text(.historyGearRetireAt, ["distance": Distance.format($0)]) } ?? ""
            return catalog.text(.historyGearAdded, ["name": quote(fields.name), "category": fields.category, "retire": retire])
        case .gearChanged(let changes):
            var parts: [String] = []
            if let name = changes.name { parts.append(catalog.text(.historyFieldSet, ["field": "name", "value": quote(name)])) }
            if let retireAt = changes.retireAtMeters { parts.append(fieldChange("retire-at", retireAt.map(Distance.format))) }
            if let retired = changes.retired { parts.append(catalog.text(retired ? .gearRetired : .gearInUse)) }
            if let removed = changes.removed { parts.append(catalog.text(removed ? .auditGearRemoved : .auditGearAdded)) }
            let name = gearNames[envelope.stream].map(quote) ?? String(envelope.stream.prefix(8))
            return catalog.text(.historyGearChanged, ["name": name, "changes": parts.joined(separator: ", ")])
        case .goalSet(let goal):
            return catalog.text(.historyGoalSet, ["goal": GoalText.title(goal, miles: false, catalog: catalog), "from": goal.from.description])
        case .goalRemoved(let key):
            return catalog.text(.historyGoalRemoved, ["goal": GoalText.key(key, catalog)])
        case .gearDefaulted(let category, let gear):
            return catalog.text(.historyGearDefault, ["category": category, "gear": gear.map(gearName) ?? "-"])
        case .historyUndone(let command):
            return catalog.text(.historyUndone, ["command": String(command.prefix(8))])
        case .historyRedone(let command):
            return catalog.text(.historyRedone, ["command": String(command.prefix(8))])
        case .historyRedacted(let facts):
            return catalog.text(.historyRedacted, [
                "field": facts.field, "item": String(facts.stream.prefix(8)), "count": String(facts.events.count),
                "reason": facts.reason.map { TerminalText.escaped($0) } ?? catalog.text(.redactNoReason),
            ])
        case .seriesStarted(let fields):
            return catalog.text(.historySeriesStarted, [
                "period": PeriodWords.text(fields.rule.period, catalog), "from": anchor(fields.rule.anchor), "start": fields.start.localText(in: zone),
                "until": fields.until.map { catalog.text(.historySeriesUntil, ["until": $0.description]) } ?? "",
            ])
        case .seriesChanged(let changes):
            var parts: [String] = []
            if let period = changes.period { parts.append(catalog.text(.historyFieldSet, ["field": "every", "value": PeriodWords.text(period, catalog)])) }
            if let from = changes.anchor { parts.append(catalog.text(.historyFieldSet, ["field": "from", "value": from.rawValue])) }
            if let until = changes.until { parts.append(fieldChange("until", until?.description)) }
            if let title = changes.title { parts.append(catalog.text(.historyFieldSet, ["field": "title", "value": quote(title)])) }
            if let tags = changes.tags { parts.append(catalog.text(.historyFieldSet, ["field": "tags", "value": tags.isEmpty ? "-" : tags.joined(separator: " ")])) }
            if let priority = changes.priority { parts.append(fieldChange("priority", priority?.rawValue)) }
            if let note = changes.note { parts.append(fieldChange("note", note.map(quote))) }
            return catalog.text(.historySeriesChanged, ["changes": parts.joined(separator: ", ")])
        case .seriesEnded: return catalog.text(.historySeriesEnded)
        case .seriesResumed: return catalog.text(.historySeriesResumed)
        case .todoAnnotated(let annotation):
            // An annotation dated otherwise than its event (an import keeps the source's date) says so.
            let sameMinute = abs(annotation.at - envelope.recordedAt) < 60_000
            return sameMinute
                ? catalog.text(.historyAnnotated, ["text": annotation.text])
                : catalog.text(.historyAnnotatedAt, ["text": annotation.text, "at": local(annotation.at)])
        case .todoDenotated(let id): return catalog.text(.historyDenotated, ["id": String(id.prefix(8))])
        case .todoStarted(let start, let end):
            guard let end else { return catalog.text(.historyStarted, ["at": local(start)]) }
            return catalog.text(.historyInterval, ["start": local(start), "end": local(end)])
        case .todoStopped(let at): return catalog.text(.historyStopped, ["at": local(at)])
        case .todoUnstarted(let start): return catalog.text(.historyUnstarted, ["at": local(start)])
        }
    }

    /// What a schedule counts from, in words.
    func anchor(_ anchor: RecurrenceAnchor) -> String {
        catalog.text(anchor == .due ? .recurFromDue : .recurFromCompletion)
    }

    private func fieldChange(_ field: String, _ value: String?) -> String {
        guard let value else { return catalog.text(.historyFieldCleared, ["field": field]) }
        return catalog.text(.historyFieldSet, ["field": field, "value": value])
    }

    private func quote(_ text: String) -> String { "'\(text)'" }

    /// A gear's name in quotes, or its id's first eight characters when the name is not known here.
    private func gearName(_ id: String) -> String {
        gearNames[id].map(quote) ?? String(id.prefix(8))
    }
    private func local(_ ms: Int64) -> String { Timestamp.formatLocal(ms, in: zone, withTime: true) }
}
