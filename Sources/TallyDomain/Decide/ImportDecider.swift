
/// What a re-import changed on a todo imported before, for the report.
///
/// `annotated`, `denotated` and `annotationsLeftOut` appear once per annotation; `recur`, `recurFrom` and
/// `until` are a series' rule (with `title`, `tags` and `priority` of its instances to come).
public enum ImportChange: String, Sendable, Equatable, CaseIterable {
    case title, tags, priority, due, note, wait, project, after
    case completed, reopened, deleted, restored
    case annotated, denotated, annotationsLeftOut, started, stopped
    case recur, recurFrom, until
}

/// The import half of the decider.
extension Decider {
    /// Creates each imported todo, then completes or deletes it as it was there; applies to todos imported
    /// before what changed in the source since.
    ///
    /// `todo.created` is recorded now, like any command, so numbers and time travel follow the log; the
    /// source's creation time travels in the payload's `origin`. A completion or deletion keeps the
    /// source's time as its recorded time. Event ids are derived from the stream and version (see
    /// `ImportBaseline.eventID`), so the same file imported twice, or by two processes at once, can
    /// never add a todo twice, and a later import can tell its own events from the user's.
    ///
    /// A todo imported before is compared field by field with `earlier` (what the imports so far made of
    /// it): a field the source changed since is set to the source's value, whatever tally has; a field the
    /// source left alone keeps tally's value. The same for completed, reopened and deleted. A todo
    /// deleted in tally stays deleted (a notice says so) unless `restoreDeleted`; one whose deletion was
    /// the undo of its import, or that the source had deleted, is brought back when the source has it.
    static func decideImport(
        _ items: [ImportedTodo], earlier: [String: ImportBaseline], restoreDeleted: Bool, state: ReadModel, now: Int64,
        into builder: inout DecisionBuilder
    ) throws(DomainError) {
        var seen: Set<String> = []
        // Edges as this import leaves them, so a cycle closed by two items of one file is found.
        var edges: [String: [String]] = [:]
        for item in items {
            guard seen.insert(item.stream).inserted else {
                builder.notices.append(.alreadyImported(source: item.source))
                continue
            }
            // A template whose rule became unreadable: its series is in tally, and the refusal says why.
            if let series = item.templateOf, state.series[series] != nil { continue }
            if let existing = state.todo(id: item.stream) {
                // A todo an import of an earlier tally made keeps the fields that import mapped otherwise, and says so
                // (instead of "not changed in the source": the source may have changed them).
                guard let baseline = earlier[item.stream], baseline.isLegacy(for: item) else {
                    try decideReimport(item, existing: existing, earlier: earlier[item.stream], restoreDeleted: restoreDeleted, now: now, edges: &edges, into: &builder)
                    continue
                }
                try decideReimport(baseline.keepingLegacy(item), existing: existing, earlier: baseline, restoreDeleted: restoreDeleted, now: now, edges: &edges, into: &builder)
                if case .alreadyImported(item.source)? = builder.notices.last { builder.notices.removeLast() }
                builder.notices.append(.importLegacyLeftAlone(source: item.source, number: existing.number))
                continue
            }
            guard state.version(of: item.stream) == 0 else {
                builder.notices.append(.alreadyImported(source: item.source))
                continue
            }
            let fields = try validated(item.fields)
            if !fields.after.isEmpty { edges[item.stream] = fields.after }
            builder.append(.todoCreated(fields), to: item.stream, id: ImportBaseline.eventID(stream: item.stream, version: 1))
            switch item.status {
            case .pending: break
            case .completed:
                builder.append(.todoCompleted, to: item.stream, id: ImportBaseline.eventID(stream: item.stream, version: 2), recordedAt: item.closedAt)
            case .deleted:
                builder.append(.todoDeleted, to: item.stream, id: ImportBaseline.eventID(stream: item.stream, version: 2), recordedAt: item.closedAt)
            }
            // After the status, so the import's own events keep their derived ids at versions 1 and 2.
            // Annotations keep the source's dates; their ids (and their events') come from the stream and their place.
            for (index, annotation) in item.annotations.enumerated() {
                let id = NameUUID.make(item.stream + "#annotation:\(index + 1)")
                let text = try Validation.annotation(annotation.text)
                builder.append(.todoAnnotated(Annotation(id: id, at: annotation.at ?? fields.origin?.createdAt ?? now, text: text)), to: item.stream, id: NameUUID.make(id))
            }
            if let started = item.started {
                let end: Int64? = item.status == .pending ? nil : max(item.closedAt ?? now, started)
                builder.append(.todoStarted(start: started, end: end), to: item.stream, id: NameUUID.make(item.stream + "#started"))
            }
            builder.affected.append(item.stream)
        }
    }

    /// An item whose todo is in tally: the changes the source made since the last import, as edits.
    private static func decideReimport(
        _ item: ImportedTodo, existing: Todo, earlier: ImportBaseline?, restoreDeleted: Bool, now: Int64, edges: inout [String: [String]],
        into builder: inout DecisionBuilder
    ) throws(DomainError) {
        let state = builder.state
        var version = existing.version
        func next() -> String {
            version += 1
            return ImportBaseline.eventID(stream: item.stream, version: version)
        }
        var changes: [ImportChange] = []
        var events: [(DomainEvent, String, Int64?)] = []
        let sourceDeleted = earlier?.status == .deleted
        if existing.deleted {
            guard item.status != .deleted else {
                builder.notices.append(.alreadyImported(source: item.source))
                return
            }
            if !(sourceDeleted || earlier?.importUndone == true) {
                guard restoreDeleted else {
                    builder.notices.append(.importKeptDeleted(source: item.source, number: existing.number, openInstance: nil))
                    return
                }
                if let series = existing.series, let open = state.todos.first(where: { $0.series == series && $0.id != existing.id && !$0.completed && !$0.deleted }) {
                    // Tally keeps one open instance per series.
                    builder.notices.append(.importKeptDeleted(source: item.source, number: existing.number, openInstance: open.number))
                    return
                }
            }
            events.append((.todoRestored, next(), nil))
            changes.append(.restored)
        }

        let source = try validated(item.fields)
        // What the source said at the last import. Without one: when the import that brought the todo
        // was undone, every field the source has differently is taken; when tally made the todo itself
        // (a series' next instance the source also has), no field is, only a completion or deletion.
        let base: TodoFields? = earlier?.fields ?? (earlier?.importUndone == true ? nil : TodoFields(
            title: existing.title, tags: existing.tags, priority: existing.priority, due: existing.due, note: existing.note,
            wait: existing.wait, project: existing.project, after: existing.after
        ))
        func changed<Value: Equatable>(_ field: KeyPath<TodoFields, Value>, _ current: Value) -> Bool {
            source[keyPath: field] != current && base.map { source[keyPath: field] != $0[keyPath: field] } ?? true
        }
        var edit = TodoChanges()
        if changed(\.title, existing.title) { edit.title = source.title; changes.append(.title) }
        if changed(\.tags, existing.tags) { edit.tags = source.tags; changes.append(.tags) }
        if changed(\.priority, existing.priority) { edit.priority = .some(source.priority); changes.append(.priority) }
        if changed(\.due, existing.due) { edit.due = .some(source.due); changes.append(.due) }
        if changed(\.note, existing.note) { edit.note = .some(source.note); changes.append(.note) }
        if changed(\.wait, existing.wait) { edit.wait = .some(source.wait); changes.append(.wait) }
        if changed(\.project, existing.project) { edit.project = .some(source.project); changes.append(.project) }
        if changed(\.after, existing.after) {
            var overrides = edges
            overrides[item.stream] = source.after
            if let cycle = TodoDependencies(state).cycle(from: item.stream, after: source.after, overrides: overrides) {
                throw .invalid(.dependencyCycle(cycle.map { state.todo(id: $0)?.number ?? 0 }))
            }
            edges[item.stream] = source.after
            edit.after = source.after
            changes.append(.after)
        }
        if !edit.isEmpty { events.append((.todoEdited(edit), next(), nil)) }

        // The state: what the source says now against what it said at the last import.
        let completedHere = existing.completed
        let deletedHere = existing.deleted && !changes.contains(.restored)
        // A reopening needs the source to have said completed before: tally's own completion of a todo
        // the source still has open is not undone by an import.
        if earlier?.status != item.status {
            switch item.status {
            case .completed where !completedHere && !deletedHere:
                events.append((.todoCompleted, next(), item.closedAt))
                changes.append(.completed)
            case .pending where completedHere && earlier?.status == .completed:
                events.append((.todoReopened, next(), nil))
                changes.append(.reopened)
            case .deleted where !deletedHere:
                events.append((.todoDeleted, next(), item.closedAt))
                changes.append(.deleted)
            default: break
            }
        }
        let completedAfter = changes.contains(.completed) || (completedHere && !changes.contains(.reopened))
        let deletedAfter = changes.contains(.deleted) || deletedHere
        decideReimportedTime(item, existing: existing, started: earlier?.started, open: !completedAfter && !deletedAfter, now: now, next: next, events: &events, changes: &changes)
        decideReimportedAnnotations(item, existing: existing, imported: earlier?.annotations ?? [], now: now, next: next, events: &events, changes: &changes)
        guard !changes.isEmpty else {
            builder.notices.append(.alreadyImported(source: item.source))
            return
        }
        for (event, id, recordedAt) in events { builder.append(event, to: item.stream, id: id, recordedAt: recordedAt) }
        builder.notices.append(.importUpdated(source: item.source, number: existing.number, changes: changes))
    }

    /// The interval the source started or stopped since the last import. `started` is the start an import
    /// began and no import stopped. Only that interval is stopped (never one begun in tally), at the
    /// source's `end` when it is completed or deleted, at its new `start` when it was started again, else at
    /// its `modified` (Taskwarrior 2.6 exports `start` only while a task runs and keeps no stop time: the
    /// last change is the latest the stop can have been). A start later than the import's last one, that
    /// the todo has no interval for, begins one (closed at `end` when the source closed the task) unless
    /// something runs on the todo already or the todo stays completed or deleted here; one inside time
    /// the todo already has begins where that ends (and is not taken for a restart at the next import).
    private static func decideReimportedTime(
        _ item: ImportedTodo, existing: Todo, started: Int64?, open: Bool, now: Int64, next: () -> String,
        events: inout [(DomainEvent, String, Int64?)], changes: inout [ImportChange]
    ) {
        var running = existing.running
        var lastEnd = existing.intervals.last?.end
        // A restart there is later than the start it follows; an earlier `start` is one that began where
        // tally's time ended (below), not a new one.
        if let interval = running, interval.start == started, item.status != .pending || item.started.map({ $0 > interval.start }) ?? true {
            let restart = item.started.flatMap { $0 > interval.start ? $0 : nil }
            let at = max(interval.start, restart ?? (item.status == .pending ? item.modifiedAt : item.closedAt) ?? now)
            events.append((.todoStopped(at: at), next(), nil))
            changes.append(.stopped)
            running = nil
            lastEnd = at
        }
        guard let start = item.started, started.map({ start > $0 }) ?? true, !existing.intervals.contains(where: { $0.start == start }), running == nil else { return }
        let end: Int64? = item.status == .pending ? nil : max(item.closedAt ?? now, start)
        guard end != nil || open else { return }
        let begin = max(start, lastEnd ?? start)
        events.append((.todoStarted(start: begin, end: end.map { max($0, begin) }), next(), nil))
        changes.append(.started)
    }

    /// Annotations added or removed in the source since the last import, matched by date and text (an
    /// annotation without a date by its text). One the source added that the todo does not have is added
    /// with its date; one an import added that the source no longer has is taken off (`todo.denotated`),
    /// never one written in tally. `imported` is what the imports put on the todo and did not take off.
    private static func decideReimportedAnnotations(
        _ item: ImportedTodo, existing: Todo, imported: [Annotation], now: Int64, next: () -> String,
        events: inout [(DomainEvent, String, Int64?)], changes: inout [ImportChange]
    ) {
        let created = item.fields.origin?.createdAt
        func same(_ annotation: Annotation, _ at: Int64?, _ text: String) -> Bool {
            annotation.text == text && (at == nil || annotation.at == at)
        }
        var importedLeft = imported
        var liveLeft = existing.annotations
        var added: [(at: Int64, text: String)] = []
        for source in item.annotations {
            guard let text = try? Validation.annotation(source.text) else { continue }
            let at = source.at ?? created
            if let index = importedLeft.firstIndex(where: { same($0, at, text) }) {
                let id = importedLeft.remove(at: index).id
                liveLeft.removeAll { $0.id == id }
            } else if let index = liveLeft.firstIndex(where: { same($0, at, text) }) {
                liveLeft.remove(at: index)
            } else {
                added.append((at ?? now, text))
            }
        }
        // Taken off first, so what the source removed makes room for what it added.
        let gone = importedLeft.filter { annotation in existing.annotations.contains { $0.id == annotation.id } }
        for annotation in gone { events.append((.todoDenotated(id: annotation.id), next(), nil)) }
        let room = max(0, Annotation.maxPerTodo - existing.annotations.count + gone.count)
        for (at, text) in added.prefix(room) {
            let id = next()
            events.append((.todoAnnotated(Annotation(id: NameUUID.make(id + "#annotation"), at: at, text: text)), id, nil))
        }
        changes += Array(repeating: .annotated, count: min(room, added.count)) + Array(repeating: .denotated, count: gone.count)
        changes += Array(repeating: .annotationsLeftOut, count: added.count - min(room, added.count))
    }

    /// The item's fields checked against tally's limits (the importers make them fit; this is the door).
    private static func validated(_ raw: TodoFields) throws(DomainError) -> TodoFields {
        var fields = raw
        fields.title = try Validation.title(fields.title)
        fields.tags = try Validation.tags(fields.tags)
        fields.note = try fields.note.flatMap { raw throws(DomainError) in try Validation.note(raw) }
        return fields
    }
}
