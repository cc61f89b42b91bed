
/// `revert --to WHEN`: the compensating events that make the present equal to a past state. Pure.
///
/// Nothing is rewritten: for every todo, record, series and saved view whose state differs from
/// the target, ordinary events (the ones undo appends) set it back, so the result is one command
/// that `undo` takes back. What the log cannot take back is only deleted: an item created after
/// the target point gets `todo.deleted` / `record.deleted` (its number stays taken, its events stay).
public enum RevertTo {
    /// The decision, and the items created since the target that it deletes (not erases), todos then records in number order.
    public struct Plan: Sendable {
        public var decision: Decision
        public var createdSince: [String]
    }

    /// The plan that turns `current` into `target` as far as events can.
    /// - Complexity: O(items + series + views) of the current state.
    public static func plan(target: ReadModel, current: ReadModel) -> Plan {
        var builder = DecisionBuilder(state: current)
        var createdSince: [String] = []
        for now in current.todos {
            guard let then = target.todo(id: now.id) else {
                if !now.deleted {
                    createdSince.append(now.id)
                    builder.append(.todoDeleted, to: now.id)
                }
                continue
            }
            var events: [DomainEvent] = []
            if now.deleted, !then.deleted { events.append(.todoRestored) }
            var changes = TodoChanges()
            if now.title != then.title { changes.title = then.title }
            if now.tags != then.tags { changes.tags = then.tags }
            if now.priority != then.priority { changes.priority = .some(then.priority) }
            if now.due != then.due { changes.due = .some(then.due) }
            if now.note != then.note { changes.note = .some(then.note) }
            if now.wait != then.wait { changes.wait = .some(then.wait) }
            if now.series != then.series { changes.series = .some(then.series) }
            if now.project != then.project { changes.project = .some(then.project) }
            if now.after != then.after { changes.after = then.after }
            if !changes.isEmpty { events.append(.todoEdited(changes)) }
            for annotation in now.annotations where !then.annotations.contains(annotation) { events.append(.todoDenotated(id: annotation.id)) }
            for annotation in then.annotations where !now.annotations.contains(annotation) { events.append(.todoAnnotated(annotation)) }
            for interval in now.intervals where !then.intervals.contains(where: { $0.start == interval.start }) {
                events.append(.todoUnstarted(start: interval.start))
            }
            for interval in then.intervals where !now.intervals.contains(interval) {
                events.append(.todoStarted(start: interval.start, end: interval.end))
            }
            if now.completed != then.completed { events.append(then.completed ? .todoCompleted : .todoReopened) }
            if !now.deleted, then.deleted { events.append(.todoDeleted) }
            for event in events { builder.append(event, to: now.id) }
            if !events.isEmpty { builder.affected.append(now.id) }
        }
        for now in current.records {
            guard let then = target.record(id: now.id) else {
                if !now.deleted {
                    createdSince.append(now.id)
                    builder.append(.recordDeleted, to: now.id)
                }
                continue
            }
            var events: [DomainEvent] = []
            if now.deleted, !then.deleted { events.append(.recordRestored) }
            var changes = RecordChanges()
            if now.name != then.name { changes.name = then.name }
            if now.category != then.category { changes.category = then.category }
            if now.durationSeconds != then.durationSeconds { changes.durationSeconds = then.durationSeconds }
            if now.distanceMeters != then.distanceMeters { changes.distanceMeters = .some(then.distanceMeters) }
            if now.place != then.place { changes.place = .some(then.place) }
            if now.date != then.date { changes.date = then.date }
            if now.note != then.note { changes.note = .some(then.note) }
            if now.gear != then.gear { changes.gear = .some(then.gear) }
            if now.effort != then.effort { changes.effort = .some(then.effort) }
            if now.track != then.track, let track = then.track { changes.track = track }
            if !changes.isEmpty { events.append(.recordEdited(changes)) }
            if !now.deleted, then.deleted { events.append(.recordDeleted) }
            for event in events { builder.append(event, to: now.id) }
            if !events.isEmpty { builder.affected.append(now.id) }
        }
        for now in current.series.sorted {
            guard let then = target.series[now.id] else {
                if !now.ended { builder.append(.seriesEnded, to: now.id) }
                continue
            }
            if now.ended, !then.ended { builder.append(.seriesResumed, to: now.id) }
            var changes = SeriesChanges()
            if now.fields.rule.period != then.fields.rule.period { changes.period = then.fields.rule.period }
            if now.fields.rule.anchor != then.fields.rule.anchor { changes.anchor = then.fields.rule.anchor }
            if now.fields.until != then.fields.until { changes.until = .some(then.fields.until) }
            if now.fields.title != then.fields.title { changes.title = then.fields.title }
            if now.fields.tags != then.fields.tags { changes.tags = then.fields.tags }
            if now.fields.priority != then.fields.priority { changes.priority = .some(then.fields.priority) }
            if now.fields.note != then.fields.note { changes.note = .some(then.fields.note) }
            if changes != SeriesChanges() { builder.append(.seriesChanged(changes), to: now.id) }
            if !now.ended, then.ended { builder.append(.seriesEnded, to: now.id) }
        }
        for scope in FilterScope.allCases where current.filters[scope] != target.filters[scope] {
            let event: DomainEvent = target.filters[scope].map { .filterSaved(scope: scope, filter: $0) } ?? .filterReset(scope: scope)
            builder.append(event, to: scope.stream)
        }
        for now in current.gear.items {
            let then = target.gear[now.id] ?? { var gone = now; gone.removed = true; return gone }()
            var changes = GearChanges()
            if now.name != then.name { changes.name = then.name }
            if now.retireAtMeters != then.retireAtMeters { changes.retireAtMeters = .some(then.retireAtMeters) }
            if now.retired != then.retired { changes.retired = then.retired }
            if now.removed != then.removed { changes.removed = then.removed }
            if !changes.isEmpty { builder.append(.gearChanged(changes), to: now.id) }
        }
        for category in Set(current.gear.defaults.keys).union(target.gear.defaults.keys).sorted()
        where current.gear.defaults[category] != target.gear.defaults[category] {
            builder.append(.gearDefaulted(category: category, gear: target.gear.defaults[category]), to: GearBook.defaultsStream)
        }
        for key in Set(current.goals.goals.keys).union(target.goals.goals.keys).sorted() where current.goals[key] != target.goals[key] {
            builder.append(target.goals[key].map(DomainEvent.goalSet) ?? .goalRemoved(key), to: GoalBook.stream)
        }
        return Plan(decision: builder.decision, createdSince: createdSince)
    }
}
