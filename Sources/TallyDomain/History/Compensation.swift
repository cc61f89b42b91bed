import TallyEssentials

/// An event as it was applied to a stream.
public struct AppliedEvent: Sendable, Equatable {
    public var stream: String
    public var event: DomainEvent

    public init(stream: String, event: DomainEvent) {
        self.stream = stream
        self.event = event
    }
}

/// One command to revert: its id, its effects in log order, and the read model just before them.
///
/// `before` only needs the streams the events touch; numbers and positions in it are not used.
public struct RevertStep: Sendable {
    public var command: String
    public var events: [AppliedEvent]
    public var before: ReadModel

    public init(command: String, events: [AppliedEvent], before: ReadModel) {
        self.command = command
        self.events = events
        self.before = before
    }
}

/// The stream that holds `history.undone` and `history.redone` markers.
public enum HistoryStream {
    public static let name = "history"
}

/// Computes the compensating events of undo and redo. Pure.
///
/// History is never rewritten: reverting a command appends events that bring every
/// stream it touched back to its value before that command:
/// `todo.created` → `todo.deleted`; completed ↔ reopened; deleted ↔ restored;
/// `todo.edited` → `todo.edited` with the previous values of exactly the changed keys;
/// `record.logged` → `record.deleted`; deleted ↔ restored; `record.edited` like `todo.edited`;
/// `filter.saved` → the previous filter (or `filter.reset` when there was none);
/// `filter.reset` → `filter.saved` with the previous filter; `series.started` → `series.ended`;
/// ended ↔ resumed; `series.changed` like `todo.edited`; `todo.annotated` ↔ `todo.denotated`;
/// `todo.started` → `todo.unstarted` (or the interval as it was); `todo.stopped` → `todo.started`
/// of the interval it closed (running again); `todo.unstarted` → `todo.started` of the interval as
/// it was. Markers revert to nothing.
///
/// When later commands changed the same item, the revert still restores the values the
/// reverted command found (the pre-command values of the keys it changed), and anything that
/// already has that value is left out, so no event that changes nothing is produced.
/// Redo is the revert of the undo's own compensations, so it is the exact inverse of undo.
public enum Compensation {
    /// The decision of an undo: per step (newest first) its compensations, then a `history.undone` marker.
    public static func undo(_ steps: [RevertStep], current: ReadModel, now: Int64) -> Decision {
        decision(steps, current: current, now: now, marker: DomainEvent.historyUndone)
    }

    /// The decision of a redo: per step the revert of an undo's compensations, then a `history.redone` marker.
    ///
    /// Each step's `command` is the command being re-applied; its `events` are the compensations
    /// the undo appended for it.
    public static func redo(_ steps: [RevertStep], current: ReadModel, now: Int64) -> Decision {
        decision(steps, current: current, now: now, marker: DomainEvent.historyRedone)
    }

    /// The events that revert `events`, newest first, skipping any that would change nothing in `current`.
    ///
    /// `current` is updated with the returned events, so successive calls chain.
    /// - Complexity: O(events), keeping only each event's own prior todo or view, never whole models.
    public static func revert(_ events: [AppliedEvent], before: ReadModel, current: inout ReadModel, now: Int64) -> [AppliedEvent] {
        var priors: [Prior] = []
        priors.reserveCapacity(events.count)
        var running = before
        for applied in events {
            priors.append(
                Prior(
                    todo: running.todo(id: applied.stream), record: running.record(id: applied.stream),
                    series: running.series[applied.stream],
                    filter: applied.event.filterScope.flatMap { running.filters[$0] },
                    athlete: applied.event.athleteDay.flatMap { running.athlete.entry(on: $0) },
                    gear: running.gear[applied.stream],
                    gearDefault: applied.event.gearCategory.map { running.gear.defaults[$0] },
                    goal: applied.event.goalKey.map { running.goals[$0] }
                )
            )
            Reducer.evolve(&running, applied.event, stream: applied.stream, version: running.version(of: applied.stream) + 1, seq: running.position, at: now)
        }
        // A stream the command created is reverted by deleting it alone: its other events stay as they
        // were, so a redo restores it with its times (an imported todo's completion) untouched.
        let created = Set(events.compactMap { $0.event.createsStream ? $0.stream : nil })
        var result: [AppliedEvent] = []
        for (applied, prior) in zip(events, priors).reversed() {
            if created.contains(applied.stream), !applied.event.createsStream { continue }
            guard let event = inverse(applied, prior: prior, current: current) else { continue }
            Reducer.evolve(&current, event, stream: applied.stream, version: current.version(of: applied.stream) + 1, seq: current.position, at: now)
            result.append(AppliedEvent(stream: applied.stream, event: event))
        }
        return result
    }

    /// What an event's stream held just before it: the todo, the record, or the saved view of its scope.
    struct Prior {
        var todo: Todo?
        var record: Record?
        var series: Series?
        var filter: JSONObject?
        var athlete: AthleteEntry?
        var gear: Gear?
        /// The default gear of the category a `gear.defaulted` event sets, before it.
        var gearDefault: String??
        /// The goal of the key a goal event sets or removes, before it.
        var goal: Goal??
    }

    /// The event that undoes `applied` given what its stream held before; nil when `current` already matches.
    static func inverse(_ applied: AppliedEvent, prior: Prior, current: ReadModel) -> DomainEvent? {
        let stream = applied.stream
        switch applied.event {
        case .todoCreated:
            guard let todo = current.todo(id: stream), !todo.deleted else { return nil }
            return .todoDeleted
        case .todoCompleted:
            guard let todo = current.todo(id: stream), todo.completed else { return nil }
            return .todoReopened
        case .todoReopened:
            guard let todo = current.todo(id: stream), !todo.completed else { return nil }
            return .todoCompleted
        case .todoDeleted:
            guard let todo = current.todo(id: stream), todo.deleted else { return nil }
            return .todoRestored
        case .todoRestored:
            guard let todo = current.todo(id: stream), !todo.deleted else { return nil }
            return .todoDeleted
        case .todoEdited(let changes):
            guard let previous = prior.todo, let now = current.todo(id: stream) else { return nil }
            var back = TodoChanges()
            if changes.title != nil, now.title != previous.title { back.title = previous.title }
            if changes.tags != nil, now.tags != previous.tags { back.tags = previous.tags }
            if changes.priority != nil, now.priority != previous.priority { back.priority = .some(previous.priority) }
            if changes.due != nil, now.due != previous.due { back.due = .some(previous.due) }
            if changes.note != nil, now.note != previous.note { back.note = .some(previous.note) }
            if changes.wait != nil, now.wait != previous.wait { back.wait = .some(previous.wait) }
            if changes.series != nil, now.series != previous.series { back.series = .some(previous.series) }
            if changes.project != nil, now.project != previous.project { back.project = .some(previous.project) }
            if changes.after != nil, now.after != previous.after { back.after = previous.after }
            return back.isEmpty ? nil : .todoEdited(back)
        case .recordLogged:
            guard let record = current.record(id: stream), !record.deleted else { return nil }
            return .recordDeleted
        case .recordDeleted:
            guard let record = current.record(id: stream), record.deleted else { return nil }
            return .recordRestored
        case .recordRestored:
            guard let record = current.record(id: stream), !record.deleted else { return nil }
            return .recordDeleted
        case .recordEdited(let changes):
            guard let previous = prior.record, let now = current.record(id: stream) else { return nil }
            var back = RecordChanges()
            if changes.name != nil, now.name != previous.name { back.name = previous.name }
            if changes.category != nil, now.category != previous.category { back.category = previous.category }
            if changes.durationSeconds != nil, now.durationSeconds != previous.durationSeconds {
                back.durationSeconds = previous.durationSeconds
            }
            if changes.distanceMeters != nil, now.distanceMeters != previous.distanceMeters {
                back.distanceMeters = .some(previous.distanceMeters)
            }
            if changes.place != nil, now.place != previous.place { back.place = .some(previous.place) }
            if changes.date != nil, now.date != previous.date { back.date = previous.date }
            if changes.note != nil, now.note != previous.note { back.note = .some(previous.note) }
            if changes.track != nil, now.track != previous.track, let track = previous.track { back.track = track }
            if changes.gear != nil, now.gear != previous.gear { back.gear = .some(previous.gear) }
            if changes.effort != nil, now.effort != previous.effort { back.effort = .some(previous.effort) }
            return back.isEmpty ? nil : .recordEdited(back)
        case .filterSaved(let scope, _), .filterReset(let scope):
            guard current.filters[scope] != prior.filter else { return nil }
            return prior.filter.map { .filterSaved(scope: scope, filter: $0) } ?? .filterReset(scope: scope)
        case .historyUndone, .historyRedone, .historyRedacted:
            return nil
        case .gearAdded:
            guard let gear = current.gear[stream], !gear.removed else { return nil }
            return .gearChanged(GearChanges(removed: true))
        case .gearChanged(let changes):
            guard let previous = prior.gear, let now = current.gear[stream] else { return nil }
            var back = GearChanges()
            if changes.name != nil, now.name != previous.name { back.name = previous.name }
            if changes.retireAtMeters != nil, now.retireAtMeters != previous.retireAtMeters { back.retireAtMeters = .some(previous.retireAtMeters) }
            if changes.retired != nil, now.retired != previous.retired { back.retired = previous.retired }
            if changes.removed != nil, now.removed != previous.removed { back.removed = previous.removed }
            return back.isEmpty ? nil : .gearChanged(back)
        case .goalSet(let goal):
            let before = prior.goal ?? nil
            guard current.goals[goal.key] != before else { return nil }
            return before.map(DomainEvent.goalSet) ?? .goalRemoved(goal.key)
        case .goalRemoved(let key):
            let before = prior.goal ?? nil
            guard current.goals[key] != before, let before else { return nil }
            return .goalSet(before)
        case .gearDefaulted(let category, _):
            let before = prior.gearDefault ?? nil
            guard current.gear.defaults[category] != before else { return nil }
            return .gearDefaulted(category: category, gear: before)
        case .athleteSet(let entry):
            let before = prior.athlete ?? AthleteEntry(from: entry.from)
            guard current.athlete.entry(on: entry.from) ?? AthleteEntry(from: entry.from) != before else { return nil }
            return .athleteSet(before)
        case .seriesStarted:
            guard let series = current.series[stream], !series.ended else { return nil }
            return .seriesEnded
        case .seriesEnded:
            guard let series = current.series[stream], series.ended else { return nil }
            return .seriesResumed
        case .seriesResumed:
            guard let series = current.series[stream], !series.ended else { return nil }
            return .seriesEnded
        case .todoAnnotated(let annotation):
            guard let todo = current.todo(id: stream), todo.annotations.contains(where: { $0.id == annotation.id }) else { return nil }
            return .todoDenotated(id: annotation.id)
        case .todoDenotated(let id):
            guard let annotation = prior.todo?.annotations.first(where: { $0.id == id }), let todo = current.todo(id: stream),
                  !todo.annotations.contains(where: { $0.id == id }) else { return nil }
            return .todoAnnotated(annotation)
        case .todoStarted(let start, _):
            // What the interval beginning at `start` was before: absent (take it back) or as it was.
            guard let todo = current.todo(id: stream) else { return nil }
            let before = prior.todo?.intervals.first { $0.start == start }
            let now = todo.intervals.first { $0.start == start }
            guard now != before else { return nil }
            guard let before else { return .todoUnstarted(start: start) }
            return .todoStarted(start: before.start, end: before.end)
        case .todoStopped:
            // The interval it closed runs again.
            guard let running = prior.todo?.running, let todo = current.todo(id: stream),
                  let now = todo.intervals.first(where: { $0.start == running.start }), now.end != nil, todo.running == nil else { return nil }
            return .todoStarted(start: running.start, end: nil)
        case .todoUnstarted(let start):
            guard let before = prior.todo?.intervals.first(where: { $0.start == start }), let todo = current.todo(id: stream),
                  !todo.intervals.contains(where: { $0.start == start }) else { return nil }
            return .todoStarted(start: before.start, end: before.end)
        case .seriesChanged(let changes):
            guard let previous = prior.series?.fields, let now = current.series[stream]?.fields else { return nil }
            var back = SeriesChanges()
            if changes.period != nil, now.rule.period != previous.rule.period { back.period = previous.rule.period }
            if changes.anchor != nil, now.rule.anchor != previous.rule.anchor { back.anchor = previous.rule.anchor }
            if changes.until != nil, now.until != previous.until { back.until = .some(previous.until) }
            if changes.title != nil, now.title != previous.title { back.title = previous.title }
            if changes.tags != nil, now.tags != previous.tags { back.tags = previous.tags }
            if changes.priority != nil, now.priority != previous.priority { back.priority = .some(previous.priority) }
            if changes.note != nil, now.note != previous.note { back.note = .some(previous.note) }
            return back.isEmpty ? nil : .seriesChanged(back)
        }
    }

    private static func decision(_ steps: [RevertStep], current: ReadModel, now: Int64, marker: (String) -> DomainEvent) -> Decision {
        var builder = DecisionBuilder(state: current)
        var working = current
        var affected = Set<String>()
        for step in steps {
            for compensation in revert(step.events, before: step.before, current: &working, now: now) {
                builder.append(compensation.event, to: compensation.stream)
            }
            for applied in step.events
            where (working.todo(id: applied.stream) != nil || working.record(id: applied.stream) != nil)
                && affected.insert(applied.stream).inserted
            {
                builder.affected.append(applied.stream)
            }
            builder.append(marker(step.command), to: HistoryStream.name)
        }
        return builder.decision
    }
}

extension DomainEvent {
    /// True for the events that start an item's stream.
    var createsStream: Bool {
        switch self {
        case .todoCreated, .recordLogged, .gearAdded: true
        default: false
        }
    }

    /// The saved view a filter event is about; nil for other events.
    var filterScope: FilterScope? {
        switch self {
        case .filterSaved(let scope, _), .filterReset(let scope): scope
        default: nil
        }
    }

    /// The goal a goal event sets or removes.
    var goalKey: GoalKey? {
        switch self {
        case .goalSet(let goal): goal.key
        case .goalRemoved(let key): key
        default: nil
        }
    }

    /// The category whose default gear a `gear.defaulted` event sets.
    var gearCategory: String? {
        if case .gearDefaulted(let category, _) = self { category } else { nil }
    }

    /// The day an athlete event sets.
    var athleteDay: LocalDate? {
        if case .athleteSet(let entry) = self { entry.from } else { nil }
    }
}
