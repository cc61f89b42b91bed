#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import TallyEssentials

/// The recurrence half of the decider: starting series, the next instance, changing and ending them.
extension Decider {
    /// `add --recur`: a `series.started` on a new series stream, then its first instance.
    static func decideRecurringAdd(_ fields: TodoFields, _ input: RecurrenceInput, context: DecisionContext, into builder: inout DecisionBuilder) throws(DomainError) {
        let (seriesID, start) = try startSeries(fields, input, context: context, into: &builder)
        var instance = fields
        instance.series = seriesID
        let id = SeriesInstance.id(series: seriesID, occurrence: start)
        builder.append(.todoCreated(instance), to: id)
        builder.affected.append(id)
    }

    /// Appends the `series.started` of a new series whose first instance has `fields`; its id and first day.
    private static func startSeries(
        _ fields: TodoFields, _ input: RecurrenceInput, context: DecisionContext, into builder: inout DecisionBuilder
    ) throws(DomainError) -> (id: String, start: LocalDate) {
        guard let rawPeriod = input.period else {
            throw .invalid(.recurrenceOptionWithoutRecur(input.from != nil ? "--recur-from" : "--until"))
        }
        guard let due = fields.due else { throw .invalid(.recurrenceWithoutDue) }
        let start = SeriesSchedule.day(of: due, zone: context.zone)
        let until = try input.until.map { raw throws(DomainError) in try untilDate(raw, start: start, context: context) }
        let series = SeriesFields(
            rule: RecurrenceRule(period: try period(rawPeriod), anchor: try anchor(input.from)),
            start: due, until: until, title: fields.title, tags: fields.tags, priority: fields.priority, note: fields.note
        )
        let seriesID = context.makeID()
        builder.append(.seriesStarted(series), to: seriesID)
        return (seriesID, start)
    }

    /// After an instance was completed or deleted: its series' next instance, in the same command.
    ///
    /// The id is derived from the series and the occurrence, so an instance that exists already
    /// (made on another device, or deleted by an undo) is found rather than duplicated; a deleted
    /// one is restored. Nothing is created while another instance of the series is open.
    static func appendNextInstance(after todo: Todo, context: DecisionContext, into builder: inout DecisionBuilder) {
        let state = builder.state
        guard let seriesID = todo.series, let series = state.series[seriesID] else { return }
        let open = state.todos.contains { $0.series == seriesID && $0.id != todo.id && !$0.completed && !$0.deleted }
        guard !open else { return }
        let today = LocalDate.containing(context.now, in: context.zone)
        guard let next = SeriesSchedule.next(series, after: todo, today: today, zone: context.zone) else { return }
        let id = SeriesInstance.id(series: seriesID, occurrence: next.date)
        guard id != todo.id, !builder.decision.events.contains(where: { $0.stream == id }) else { return }
        if let existing = state.todo(id: id) {
            if existing.deleted { builder.append(.todoRestored, to: id) }
            if existing.completed { builder.append(.todoReopened, to: id) }
            if existing.deleted || existing.completed { builder.affected.append(id) }
            return
        }
        let fields = series.fields
        // The series keeps no project: the next instance takes the one the last instance had.
        builder.append(
            .todoCreated(TodoFields(title: fields.title, tags: fields.tags, priority: fields.priority, due: next.due, note: fields.note, series: seriesID, project: todo.project)),
            to: id
        )
        builder.affected.append(id)
    }

    /// `edit REF` on a todo: `--series` and the recurrence options change its series (or start one).
    static func decideSeriesEdit(_ input: TodoEditInput, todo: Todo, context: DecisionContext, into builder: inout DecisionBuilder) throws(DomainError) {
        guard let seriesID = todo.series, let series = builder.state.series[seriesID] else {
            if input.series { throw .invalid(.notRecurring(number: todo.number)) }
            guard !input.recurrence.isEmpty else { return }
            // A one-off todo becomes the first instance of a new series.
            let fields = TodoFields(title: todo.title, tags: todo.tags, priority: todo.priority, due: todo.due, note: todo.note)
            let (seriesID, _) = try startSeries(fields, input.recurrence, context: context, into: &builder)
            builder.append(.todoEdited(TodoChanges(series: .some(seriesID))), to: todo.id)
            return
        }
        var changes = SeriesChanges()
        let fields = series.fields
        if let raw = input.recurrence.period {
            let value = try period(raw)
            if value != fields.rule.period { changes.period = value }
        }
        if let raw = input.recurrence.from {
            let value = try anchor(raw)
            if value != fields.rule.anchor { changes.anchor = value }
        }
        if let raw = input.recurrence.until {
            let value = isNone(raw) ? nil : try untilDate(raw, start: SeriesSchedule.day(of: fields.start, zone: context.zone), context: context)
            if value != fields.until { changes.until = .some(value) }
        }
        if input.series {
            if let raw = input.title {
                let title = try Validation.title(raw)
                if title != fields.title { changes.title = title }
            }
            if !input.tagChanges.isEmpty {
                let tags = try edited(fields.tags, input.tagChanges)
                if tags != fields.tags { changes.tags = tags }
            }
            if let raw = input.priority {
                let value = isNone(raw) ? nil : try Validation.priority(raw)
                if value != fields.priority { changes.priority = .some(value) }
            }
            if let raw = input.note {
                let value = isNone(raw) ? nil : try Validation.note(raw)
                if value != fields.note { changes.note = .some(value) }
            }
        }
        if !changes.isEmpty { builder.append(.seriesChanged(changes), to: seriesID) }
    }

    /// `delete --series REF...`: ends each named instance's series and deletes the instance.
    static func decideEndSeries(_ todos: [Todo], into builder: inout DecisionBuilder) throws(DomainError) {
        for todo in todos {
            guard let seriesID = todo.series, let series = builder.state.series[seriesID] else {
                throw .invalid(.notRecurring(number: todo.number))
            }
            builder.affected.append(todo.id)
            if !series.ended { builder.append(.seriesEnded, to: seriesID) }
            if !todo.deleted { builder.append(.todoDeleted, to: todo.id) }
            if series.ended && todo.deleted { builder.notices.append(.alreadyDeleted(number: todo.number)) }
        }
    }

    private static func period(_ raw: String) throws(DomainError) -> RecurrencePeriod {
        do {
            return try RecurrencePeriod.parse(raw)
        } catch {
            throw .invalid(.value(error))
        }
    }

    private static func anchor(_ raw: String?) throws(DomainError) -> RecurrenceAnchor {
        guard let raw else { return .due }
        guard let value = RecurrenceAnchor(rawValue: raw.lowercased()) else { throw .invalid(.invalidRecurFrom(raw)) }
        return value
    }

    /// `--until WHEN`: the day it falls on, not before the first occurrence.
    private static func untilDate(_ raw: String, start: LocalDate, context: DecisionContext) throws(DomainError) -> LocalDate {
        let due = try Validation.due(raw, now: context.now, zone: context.zone)
        let date = SeriesSchedule.day(of: due, zone: context.zone)
        guard date >= start else { throw .invalid(.untilBeforeDue(until: date.description, due: start.description)) }
        return date
    }
}
