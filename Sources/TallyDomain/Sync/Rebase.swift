import TallyEssentials

/// What a rebase produced: the local events to append after the shared head, and what changed on the way.
public struct RebaseOutcome: Sendable {
    /// The kept local events, in their original order, with new seq, stream version and hash (and a
    /// payload without the dropped fields when only part of an edit was dropped).
    public var events: [EventEnvelope]
    /// Every dropped or overriding change, in local order.
    public var conflicts: [SyncConflict]
    /// Items created offline whose number changed.
    public var renumbered: [Renumbering]
    /// Local events that the shared log already holds (a push whose confirmation was lost).
    public var alreadyShared: Int
    /// The read models after the shared events and the kept local events.
    public var state: ReadModel
    /// The read models the replica had before: the synced prefix plus every unpushed event as stored.
    public var localState: ReadModel
}

/// Puts a replica's unpushed events on top of the events the shared log gained meanwhile, like
/// `git pull --rebase`. Pure: the same inputs give the same result on every device.
///
/// Feed it the shared events after the synced prefix with `absorb`, in log order, then call `finish`.
/// Each local event keeps its id, command, actor and recorded time; it gets a new seq, stream version
/// and hash. A change to a field wins over a change of the same field in the shared events when it
/// was recorded later (event id breaks ties); a deleted item stays deleted; a change that the merged
/// state makes empty or impossible is dropped; tags merge as added and removed sets. Every dropped
/// or overriding change is returned as a `SyncConflict`.
public struct Rebase: Sendable {
    /// The models at the synced prefix: what the local events were decided on.
    private let base: ReadModel
    /// The models at the shared head: the base plus every absorbed event.
    public private(set) var merged: ReadModel
    /// The shared head after the absorbed events.
    public private(set) var head: LogHead
    private let local: [EventEnvelope]
    private let localIDs: Set<String>
    /// Local events found among the absorbed ones.
    private var shared: Set<String> = []
    /// Per stream and field, the latest change among the absorbed events.
    private var latest: [String: [String: Stamp]] = [:]
    /// Absorbed events that were not local ones.
    public private(set) var pulled = 0
    /// Fresh salts for the payloads the rebase rewrites (`Commitment.salted`).
    private let salt: @Sendable () -> String

    /// - Parameters:
    ///   - base: the read models at the synced prefix `synced`.
    ///   - local: the unpushed local events, in log order, as stored (after `synced`).
    ///   - salt: `Commitment.saltBytes` random bytes as lowercase hex, as a new event's salts: a
    ///     rewritten payload is salted like every new one, so each of its values can be erased.
    public init(base: ReadModel, synced: LogHead, local: [EventEnvelope], salt: @escaping @Sendable () -> String) {
        self.base = base
        merged = base
        head = synced
        self.local = local
        localIDs = Set(local.map(\.id))
        self.salt = salt
    }

    /// Folds one shared event (the next after `head`) and notes which fields it changed.
    public mutating func absorb(_ envelope: EventEnvelope) throws(EventDecodingError) {
        let event = try EventCatalog.decode(envelope)
        Reducer.evolve(&merged, event, stream: envelope.stream, version: envelope.version, seq: envelope.seq, at: envelope.recordedAt)
        head = LogHead(seq: envelope.seq, hash: envelope.hash)
        if localIDs.contains(envelope.id) {
            shared.insert(envelope.id)
            return
        }
        pulled += 1
        for (field, value) in Self.fieldsChanged(by: event) {
            let stamp = Stamp(recordedAt: envelope.recordedAt, event: envelope.id, actor: envelope.actor, value: value)
            if let known = latest[envelope.stream]?[field], stamp < known { continue }
            latest[envelope.stream, default: [:]][field] = stamp
        }
    }

    /// Decides every local event against the merged state and chains the kept ones after `head`.
    public func finish() throws(EventDecodingError) -> RebaseOutcome {
        var state = merged
        var seen = base
        var previous = head
        var events: [EventEnvelope] = []
        var conflicts: [SyncConflict] = []
        var created: [String] = []
        var sharedCount = 0
        for envelope in local {
            let event = try EventCatalog.decode(envelope)
            defer {
                Reducer.evolve(&seen, event, stream: envelope.stream, version: envelope.version, seq: envelope.seq, at: envelope.recordedAt)
            }
            if shared.contains(envelope.id) {
                sharedCount += 1
                continue
            }
            var decision = Decision(envelope: envelope)
            decide(event, &decision, state: state, seen: seen)
            conflicts += decision.conflicts
            guard let kept = decision.kept else { continue }
            var rebased = envelope
            rebased.seq = previous.seq + 1
            rebased.version = state.version(of: envelope.stream) + 1
            if let payload = decision.payload {
                rebased.data = JSON.object(Commitment.salted(payload, type: envelope.type, salt: salt)).serialized(.canonical)
                rebased.schema = EventCatalog.currentSchemas[envelope.type] ?? envelope.schema
            }
            rebased.hash = EventHash.link(previous: previous.hash, rebased)
            previous = LogHead(seq: rebased.seq, hash: rebased.hash)
            Reducer.evolve(&state, kept, stream: rebased.stream, version: rebased.version, seq: rebased.seq, at: rebased.recordedAt)
            switch kept {
            case .todoCreated, .recordLogged: created.append(rebased.stream)
            default: break
            }
            events.append(rebased)
        }
        var renumbered: [Renumbering] = []
        for stream in created {
            if let before = seen.todo(id: stream), let after = state.todo(id: stream), before.number != after.number {
                renumbered.append(Renumbering(kind: .todo, stream: stream, from: before.number, to: after.number))
            } else if let before = seen.record(id: stream), let after = state.record(id: stream), before.number != after.number {
                renumbered.append(Renumbering(kind: .record, stream: stream, from: before.number, to: after.number))
            }
        }
        return RebaseOutcome(
            events: events, conflicts: conflicts, renumbered: renumbered, alreadyShared: sharedCount, state: state, localState: seen
        )
    }

    // MARK: Deciding one event

    /// What happens to one local event: kept (possibly with a smaller payload) or dropped, and why.
    private struct Decision {
        let envelope: EventEnvelope
        /// The event as it goes into the shared log; nil when dropped.
        var kept: DomainEvent?
        /// A rewritten payload when part of the event was dropped; nil keeps the stored text.
        var payload: JSONObject?
        var conflicts: [SyncConflict] = []

        init(envelope: EventEnvelope) {
            self.envelope = envelope
        }

        mutating func conflict(_ kind: SyncConflict.Kind, field: String? = nil, value: JSON? = nil, other: Stamp? = nil) {
            conflicts.append(SyncConflict(
                kind: kind, event: envelope.id, command: envelope.command, stream: envelope.stream, type: envelope.type,
                actor: envelope.actor, recordedAt: envelope.recordedAt, field: field, value: value, other: other
            ))
        }

        /// The local event's own stamp, to compare with the shared log's.
        func stamp(_ value: JSON) -> Stamp {
            Stamp(recordedAt: envelope.recordedAt, event: envelope.id, actor: envelope.actor, value: value)
        }
    }

    /// How one field's change fares against the shared log: dropped (with its conflict) or kept.
    private enum FieldOutcome { case keep, drop }

    /// Later recorded wins; a value the merged state already has is dropped as redundant.
    private func resolve(_ field: String, local value: JSON, current: JSON, _ decision: inout Decision) -> FieldOutcome {
        let other = latest[decision.envelope.stream]?[field]
        if let other, decision.stamp(value) < other {
            decision.conflict(.overridden, field: field, value: value, other: other)
            return .drop
        }
        if value == current {
            decision.conflict(.redundant, field: field, value: value, other: other)
            return .drop
        }
        if let other { decision.conflict(.overrides, field: field, value: value, other: other) }
        return .keep
    }

    private func decide(_ event: DomainEvent, _ decision: inout Decision, state: ReadModel, seen: ReadModel) {
        let stream = decision.envelope.stream
        switch event {
        case .todoCreated, .recordLogged:
            if state.todo(id: stream) != nil || state.record(id: stream) != nil {
                decision.conflict(.duplicate)
            } else {
                decision.kept = event
            }
        case .todoEdited:
            guard let todo = liveTodo(stream, state, &decision) else { return }
            let before = seen.todo(id: stream)
            editFields(event, current: EventCatalog.payload(of: .todoCreated(todo.fields)), seenSets: ["tags": before?.tags, "after": before?.after], &decision)
            refuseCycle(stream, state: state, &decision)
        case .recordEdited:
            guard let record = liveRecord(stream, state, &decision) else { return }
            editFields(event, current: EventCatalog.payload(of: .recordLogged(record.fields)), seenSets: [:], &decision)
        case .todoCompleted, .todoReopened:
            guard let todo = liveTodo(stream, state, &decision) else { return }
            let value = event == .todoCompleted
            if resolve("completed", local: .bool(value), current: .bool(todo.completed), &decision) == .keep { decision.kept = event }
        case .todoDeleted, .todoRestored:
            guard let todo = state.todo(id: stream) else { return decision.conflict(.impossible) }
            let value = event == .todoDeleted
            if resolve("deleted", local: .bool(value), current: .bool(todo.deleted), &decision) == .keep { decision.kept = event }
        case .recordDeleted, .recordRestored:
            guard let record = state.record(id: stream) else { return decision.conflict(.impossible) }
            let value = event == .recordDeleted
            if resolve("deleted", local: .bool(value), current: .bool(record.deleted), &decision) == .keep { decision.kept = event }
        case .filterSaved(let scope, let filter):
            let current = state.filters[scope].map(JSON.object) ?? .null
            if resolve("filter", local: .object(filter), current: current, &decision) == .keep { decision.kept = event }
        case .filterReset(let scope):
            let current = state.filters[scope].map(JSON.object) ?? .null
            if resolve("filter", local: .null, current: current, &decision) == .keep { decision.kept = event }
        case .historyUndone, .historyRedone, .historyRedacted:
            // Markers say which command a user undid or redid, and erasures stand whatever came first.
            decision.kept = event
        case .athleteSet(let entry):
            let current = state.athlete.entry(on: entry.from).map { JSON.object(AthletePayload.encode($0)) } ?? .null
            if resolve("from \(entry.from)", local: .object(AthletePayload.encode(entry)), current: current, &decision) == .keep { decision.kept = event }
        case .gearAdded:
            // Gear ids are random: the same id twice is the same event arriving twice.
            if state.gear[stream] != nil { decision.conflict(.duplicate) } else { decision.kept = event }
        case .gearChanged:
            guard let gear = state.gear[stream] else { return decision.conflict(.impossible) }
            editFields(event, current: EventCatalog.payload(of: .gearChanged(gear.changeable)), seenSets: [:], &decision)
        case .goalSet(let goal):
            let current = state.goals[goal.key].map { JSON.object(GoalPayload.encode($0)) } ?? .null
            if resolve("goal \(goal.key.description)", local: .object(GoalPayload.encode(goal)), current: current, &decision) == .keep { decision.kept = event }
        case .goalRemoved(let key):
            let current = state.goals[key].map { JSON.object(GoalPayload.encode($0)) } ?? .null
            if resolve("goal \(key.description)", local: .null, current: current, &decision) == .keep { decision.kept = event }
        case .gearDefaulted(let category, let gear):
            let current = state.gear.defaults[category].map(JSON.string) ?? .null
            if resolve("default \(category)", local: gear.map(JSON.string) ?? .null, current: current, &decision) == .keep { decision.kept = event }
        case .seriesStarted:
            // A series' id is its first todo's id or a new one; the same id twice is one series.
            if state.series[stream] != nil { decision.conflict(.duplicate) } else { decision.kept = event }
        case .seriesChanged:
            guard state.series[stream] != nil else { return decision.conflict(.impossible) }
            decision.kept = event
        case .seriesEnded, .seriesResumed:
            guard let series = state.series[stream] else { return decision.conflict(.impossible) }
            let value = event == .seriesEnded
            if resolve("ended", local: .bool(value), current: .bool(series.ended), &decision) == .keep { decision.kept = event }
        case .todoAnnotated(let annotation):
            // Annotations accumulate: each one stands unless the todo is gone or already has it.
            guard let todo = liveTodo(stream, state, &decision) else { return }
            if todo.annotations.contains(where: { $0.id == annotation.id }) { return decision.conflict(.redundant, field: "annotation", value: .string(annotation.text)) }
            decision.kept = event
        case .todoDenotated(let id):
            guard let todo = liveTodo(stream, state, &decision) else { return }
            guard todo.annotations.contains(where: { $0.id == id }) else { return decision.conflict(.redundant, field: "annotation", value: .null) }
            decision.kept = event
        case .todoStarted(let start, let end):
            // A start while the shared log already has the todo running (started on another device) is
            // merged into that interval: the earlier start stands, and the local one is dropped as redundant.
            guard let todo = liveTodo(stream, state, &decision) else { return }
            let existing = todo.intervals.first { $0.start == start }
            if existing == WorkInterval(start: start, end: end) || (existing == nil && end == nil && todo.running != nil) {
                return decision.conflict(.redundant, field: "started", value: .string(Timestamp.format(start)))
            }
            decision.kept = event
        case .todoStopped(let at):
            // Stopped on another device already: the first stop stands.
            guard let todo = state.todo(id: stream) else { return decision.conflict(.impossible) }
            guard todo.running != nil else { return decision.conflict(.redundant, field: "stopped", value: .string(Timestamp.format(at))) }
            decision.kept = event
        case .todoUnstarted(let start):
            guard let todo = state.todo(id: stream) else { return decision.conflict(.impossible) }
            guard todo.intervals.contains(where: { $0.start == start }) else {
                return decision.conflict(.redundant, field: "started", value: .null)
            }
            decision.kept = event
        }
    }

    /// The todo a change is about, when it exists and is not deleted; otherwise the conflict is noted.
    private func liveTodo(_ stream: String, _ state: ReadModel, _ decision: inout Decision) -> Todo? {
        guard let todo = state.todo(id: stream) else {
            decision.conflict(.impossible)
            return nil
        }
        guard !todo.deleted else {
            decision.conflict(.deleted, other: latest[stream]?["deleted"])
            return nil
        }
        return todo
    }

    private func liveRecord(_ stream: String, _ state: ReadModel, _ decision: inout Decision) -> Record? {
        guard let record = state.record(id: stream) else {
            decision.conflict(.impossible)
            return nil
        }
        guard !record.deleted else {
            decision.conflict(.deleted, other: latest[stream]?["deleted"])
            return nil
        }
        return record
    }

    /// An edit that would let the todo wait, through others, for itself on the merged state: its
    /// `after` is dropped as a `cycle` conflict (its value is the local `after`).
    private func refuseCycle(_ stream: String, state: ReadModel, _ decision: inout Decision) {
        guard case .todoEdited(var changes)? = decision.kept, let after = changes.after,
              let cycle = TodoDependencies(state).cycle(from: stream, after: after), !cycle.isEmpty else { return }
        _ = cycle
        decision.conflict(.cycle, field: "after", value: .array(after.map { .string($0) }))
        changes.after = nil
        guard !changes.isEmpty else {
            decision.kept = nil
            decision.payload = nil
            return
        }
        decision.kept = .todoEdited(changes)
        decision.payload = EventCatalog.payload(of: .todoEdited(changes))
    }

    /// Keeps the fields of an edit that win, merging tags and the todos one waits for as sets;
    /// rewrites the payload when any was dropped.
    private func editFields(_ event: DomainEvent, current: JSONObject, seenSets: [String: [String]?], _ decision: inout Decision) {
        let payload = EventCatalog.payload(of: event)
        var kept = JSONObject()
        var changed = false
        for (field, value) in payload.pairs {
            let now = current[field] ?? (seenSets[field] != nil ? .array([]) : .null)
            if let seenSet = seenSets[field], let seenTags = seenSet, let wanted = value.arrayValue?.compactMap(\.stringValue),
               let have = now.arrayValue?.compactMap(\.stringValue)
            {
                let added = wanted.filter { !seenTags.contains($0) }
                let removed = Set(seenTags.filter { !wanted.contains($0) })
                let merged = have.filter { !removed.contains($0) } + added.filter { !have.contains($0) }
                if merged == have {
                    decision.conflict(.redundant, field: field, value: value)
                    changed = true
                } else if merged.count > (field == "tags" ? Validation.maxTags : TodoDependencies.maxAfter) {
                    decision.conflict(.impossible, field: field, value: value)
                    changed = true
                } else {
                    let mergedJSON = JSON.array(merged.map { .string($0) })
                    if mergedJSON != value { changed = true }
                    kept[field] = mergedJSON
                }
                continue
            }
            switch resolve(field, local: value, current: now, &decision) {
            case .keep: kept[field] = value
            case .drop: changed = true
            }
        }
        guard kept.count > 0 else { return }
        guard changed else {
            decision.kept = event
            return
        }
        guard let rewritten = try? EventCatalog.decode(type: decision.envelope.type, schema: EventCatalog.currentSchemas[decision.envelope.type] ?? 1, data: kept) else {
            decision.conflict(.impossible)
            return
        }
        decision.kept = rewritten
        decision.payload = kept
    }

    /// The fields an event sets, with their new values, as the conflict rules see them.
    static func fieldsChanged(by event: DomainEvent) -> [(String, JSON)] {
        switch event {
        case .todoEdited, .recordEdited, .gearChanged:
            return EventCatalog.payload(of: event).pairs.map { ($0.key, $0.value) }
        case .gearDefaulted(let category, let gear): return [("default \(category)", gear.map(JSON.string) ?? .null)]
        case .goalSet(let goal): return [("goal \(goal.key.description)", .object(GoalPayload.encode(goal)))]
        case .goalRemoved(let key): return [("goal \(key.description)", .null)]
        case .todoCompleted: return [("completed", .bool(true))]
        case .todoReopened: return [("completed", .bool(false))]
        case .todoDeleted, .recordDeleted: return [("deleted", .bool(true))]
        case .todoRestored, .recordRestored: return [("deleted", .bool(false))]
        case .filterSaved(_, let filter): return [("filter", .object(filter))]
        case .filterReset: return [("filter", .null)]
        case .seriesEnded: return [("ended", .bool(true))]
        case .seriesResumed: return [("ended", .bool(false))]
        case .athleteSet(let entry): return [("from \(entry.from)", .object(AthletePayload.encode(entry)))]
        case .todoCreated, .recordLogged, .historyUndone, .historyRedone, .historyRedacted, .seriesStarted, .seriesChanged, .gearAdded,
             .todoAnnotated, .todoDenotated, .todoStarted, .todoStopped, .todoUnstarted: return []
        }
    }
}

extension Todo {
    /// The todo's current fields, as a creation would set them.
    var fields: TodoFields {
        TodoFields(title: title, tags: tags, priority: priority, due: due, note: note, project: project, after: after)
    }
}

extension Record {
    /// The record's current fields, as logging it would set them.
    var fields: RecordFields {
        RecordFields(
            name: name, category: category, durationSeconds: durationSeconds, distanceMeters: distanceMeters,
            place: place, date: date, note: note, source: source, effort: effort, gear: gear
        )
    }
}
